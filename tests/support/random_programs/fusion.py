"""The "fusion" family: level-1 programs for the differential tests of soac-fusion, chains and trees of
maps, reduces, scans, scatters and hists (and maps of maps and reduces over the rows of
a matrix), with host code between them (element reads, scalar arithmetic on reduction
results, in-place updates, replicates) whose values later lambdas capture.

`program(seed)` gives the MLIR text of `@main(%a, %b: tensor<?xf32>, %k: tensor<?xi32>,
%m: tensor<?x4xf32>, %t: f32)`; `make_inputs(rng, n)` gives arguments for it. Every
program runs for any n >= 1 (element reads are of element 0). Its one feature,
`unique_scatters`, scatters to distinct positions only. Tests use it through
tests.support.random_programs.random_program("fusion", seed, unique_scatters=...)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

F32, I32 = "f32", "i32"
VEC = {F32: "tensor<?xf32>", I32: "tensor<?xi32>"}
ROWS = "tensor<?x4xf32>"
BINS = 8


@dataclass
class Lambda:
    """The body of a lambda being written: its lines and the values it may use, by type."""

    indent: str
    values: dict[str, list[str]]
    lines: list[str] = field(default_factory=list)


@dataclass
class Generator:
    rng: np.random.Generator
    lines: list[str] = field(default_factory=list)
    counter: int = 0
    arrays: dict[str, list[str]] = field(default_factory=lambda: {F32: ["%a", "%b"], I32: ["%k"]})
    matrices: list[str] = field(default_factory=lambda: ["%m"])
    scalars: dict[str, list[str]] = field(default_factory=lambda: {F32: ["%t"], I32: []})
    results: list[tuple[str, str]] = field(default_factory=list)
    unique_scatters: bool = False
    """Scatter to distinct positions only (the reverse of the rows, the last two out of
    bounds): where positions repeat, which value wins is unspecified, so a program run
    on the GPU may rightly differ from the reference executor."""

    def unique_positions(self) -> str:
        """n - 3 - i for row i: distinct, the last two negative (ignored)."""
        iota, i, r, n32, last, three = self.fresh("iota"), self.fresh("i"), self.fresh(), self.fresh(), self.fresh(), self.fresh()
        name = self.fresh("pos")
        self.host(f"{n32} = arith.index_cast %n : index to i32")
        self.host(f"{three} = arith.constant 3 : i32")
        self.host(f"{last} = arith.subi {n32}, {three} : i32")
        self.host(f"{iota} = soac.iota %n : tensor<?xi32>")
        self.host(f"{name} = soac.map({iota}) : (tensor<?xi32>) -> tensor<?xi32> {{")
        self.lines += [f"  ^bb0({i}: i32):", f"    {r} = arith.subi {last}, {i} : i32", f"    soac.yield {r} : i32", "  }"]
        self.arrays[I32].append(name)
        return name

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def pick(self, pool: list[str]) -> str:
        """Recent values are likelier: chains form."""
        weights = np.arange(1, len(pool) + 1, dtype=float) ** 2
        return pool[self.rng.choice(len(pool), p=weights / weights.sum())]

    def host(self, line: str) -> None:
        self.lines.append("  " + line)

    def constant(self, t: str, value) -> str:
        name = self.fresh("c")
        text = repr(float(value)) if t == F32 else str(int(value))
        self.host(f"{name} = arith.constant {text} : {t}")
        return name

    # --- lambda bodies -----------------------------------------------------------------

    def expr(self, lam: Lambda, t: str, depth: int = 2) -> str:
        """A value of type t computed from the lambda's values (params first)."""
        have = lam.values.get(t, [])
        if not have or (depth == 0):
            if have:
                return have[int(self.rng.integers(len(have)))]
            if t == F32 and lam.values.get(I32):
                src = self.expr(lam, I32, 0)
                r = self.fresh()
                lam.lines.append(f"{lam.indent}{r} = arith.sitofp {src} : i32 to f32")
                return r
            return self.constant(t, 1)
        a, b = self.expr(lam, t, depth - 1), self.expr(lam, t, depth - 1)
        r = self.fresh()
        if t == F32:
            kind = self.rng.choice(["addf", "mulf", "subf", "maximumf", "negf", "select", "sitofp"])
            if kind == "negf":
                lam.lines.append(f"{lam.indent}{r} = arith.negf {a} : f32")
            elif kind == "select":
                c = self.fresh()
                lam.lines.append(f"{lam.indent}{c} = arith.cmpf olt, {a}, {b} : f32")
                lam.lines.append(f"{lam.indent}{r} = arith.select {c}, {a}, {b} : f32")
            elif kind == "sitofp" and lam.values.get(I32):
                i = self.expr(lam, I32, 0)
                s = self.fresh()
                lam.lines.append(f"{lam.indent}{s} = arith.sitofp {i} : i32 to f32")
                lam.lines.append(f"{lam.indent}{r} = arith.addf {a}, {s} : f32")
            else:
                op = "addf" if kind == "sitofp" else kind
                lam.lines.append(f"{lam.indent}{r} = arith.{op} {a}, {b} : f32")
        else:
            op = self.rng.choice(["addi", "muli", "xori", "andi", "maxsi", "subi"])
            lam.lines.append(f"{lam.indent}{r} = arith.{op} {a}, {b} : i32")
        return r

    def captured(self) -> dict[str, list[str]]:
        """Host scalars a lambda may capture."""
        return {t: list(v) for t, v in self.scalars.items()}

    def lambda_over(self, params: list[tuple[str, str]], indent: str) -> Lambda:
        values = self.captured()
        for name, t in params:
            values.setdefault(t, [])
            values[t] = [name] * 3 + values[t]  # parameters first
        return Lambda(indent, values)

    # --- statements ----------------------------------------------------------------

    def stmt_map(self) -> None:
        count = int(self.rng.integers(1, 4))
        inputs = [(self.pick(self.arrays[t]), t) for t in self.rng.choice([F32, F32, I32], count)]
        params = [(self.fresh("x"), t) for _, t in inputs]
        lam = self.lambda_over(params, "    ")
        out_types = list(self.rng.choice([F32, F32, I32], int(self.rng.integers(1, 3))))
        outs = [self.expr(lam, t) for t in out_types]
        names = [self.fresh("map") for _ in outs]
        self.host(
            f"{', '.join(names)} = soac.map({', '.join(n for n, _ in inputs)}) : "
            f"({', '.join(VEC[t] for _, t in inputs)}) -> ({', '.join(VEC[t] for t in out_types)}) {{"
        )
        self.lines.append(f"  ^bb0({', '.join(f'{p}: {t}' for p, t in params)}):")
        self.lines += lam.lines
        self.lines.append(f"    soac.yield {', '.join(outs)} : {', '.join(out_types)}")
        self.lines.append("  }")
        for n, t in zip(names, out_types):
            self.arrays[t].append(n)

    _OPERATORS = {F32: ["addf", "maximumf", "minimumf"], I32: ["addi", "maxsi", "xori"]}

    def operator(self, t: str, tuple_op: bool) -> tuple[list[str], list[str], str]:
        """(neutral constants, types, operator body lines) of a reduce or scan."""
        if tuple_op:  # affine-map composition: associative, not commutative
            one, zero = self.constant(F32, 1.0), self.constant(F32, 0.0)
            body = [
                "    %o1 = arith.mulf %l1, %r1 : f32",
                "    %o2 = arith.mulf %l2, %r1 : f32",
                "    %o3 = arith.addf %o2, %r2 : f32",
                "    soac.yield %o1, %o3 : f32, f32",
            ]
            return [one, zero], [F32, F32], "  ^bb0(%l1: f32, %l2: f32, %r1: f32, %r2: f32):\n" + "\n".join(body)
        op = str(self.rng.choice(self._OPERATORS[t]))
        neutral = {"addf": 0.0, "maximumf": -np.inf, "minimumf": np.inf, "addi": 0, "maxsi": -(2**31), "xori": 0}[op]
        ne = self.constant(t, neutral) if np.isfinite(neutral) else self._inf(neutral)
        return [ne], [t], f"  ^bb0(%l: {t}, %r: {t}):\n    %o = arith.{op} %l, %r : {t}\n    soac.yield %o : {t}"

    def _inf(self, value: float) -> str:
        name = self.fresh("c")
        self.host(f"{name} = arith.constant {'0x7F800000' if value > 0 else '0xFF800000'} : f32")
        return name

    def stmt_reduce_or_scan(self, scan: bool) -> None:
        tuple_op = self.rng.random() < 0.25
        t = F32 if tuple_op else str(self.rng.choice([F32, I32]))
        inputs = [self.pick(self.arrays[F32]), self.pick(self.arrays[F32])] if tuple_op else [self.pick(self.arrays[t])]
        neutral, types, body = self.operator(t, tuple_op)
        names = [self.fresh("scan" if scan else "red") for _ in inputs]
        commutative = "" if tuple_op or self.rng.random() < 0.3 else " commutative"
        result_types = [VEC[x] for x in types] if scan else types
        self.host(
            f"{', '.join(names)} = soac.{'scan' if scan else 'reduce'}({', '.join(inputs)}) "
            f"neutral({', '.join(neutral)} : {', '.join(types)}){commutative} : "
            f"({', '.join(VEC[x] for x in types)}) -> ({', '.join(result_types)}) {{"
        )
        self.lines += body.split("\n")
        self.lines.append("  }")
        for n, x in zip(names, types):
            (self.arrays if scan else self.scalars)[x].append(n)

    def index_array(self) -> str:
        """An i32 array of positions, some out of bounds (ignored by scatter and hist)."""
        source = self.pick(self.arrays[I32])
        x, r1, r2 = self.fresh("x"), self.fresh(), self.fresh()
        mask, shift = self.constant(I32, 15), self.constant(I32, 3)
        name = self.fresh("pos")
        self.host(f"{name} = soac.map({source}) : (tensor<?xi32>) -> tensor<?xi32> {{")
        self.lines += [
            f"  ^bb0({x}: i32):",
            f"    {r1} = arith.andi {x}, {mask} : i32",
            f"    {r2} = arith.subi {r1}, {shift} : i32",
            f"    soac.yield {r2} : i32",
            "  }",
        ]
        self.arrays[I32].append(name)
        return name

    def stmt_scatter(self) -> None:
        t = str(self.rng.choice([F32, I32]))
        positions = self.index_array() if self.rng.random() < 0.7 else self.pick(self.arrays[I32])
        if self.unique_scatters:
            positions = self.unique_positions()
        values = self.pick(self.arrays[t])
        zero = self.constant(t, 0)
        dest, name = self.fresh("dest"), self.fresh("scat")
        self.host(f"{dest} = soac.replicate %n, {zero} : {t} -> {VEC[t]}")
        self.host(f"{name} = soac.scatter {dest}[{positions}] = {values} : {VEC[t]}, tensor<?xi32>, {VEC[t]}")
        self.arrays[t].append(name)

    def stmt_hist(self) -> None:
        t = str(self.rng.choice([F32, I32]))
        positions = self.index_array() if self.rng.random() < 0.7 else self.pick(self.arrays[I32])
        values = self.pick(self.arrays[t])
        (neutral,), _, body = self.operator(t, False)
        bins, name = self.fresh("bins"), self.fresh("hist")
        self.host(f"{bins} = soac.replicate %nbins, {neutral} : {t} -> tensor<{BINS}x{t}>")
        self.host(
            f"{name} = soac.hist {bins}[{positions}], {values} neutral({neutral} : {t}) : "
            f"tensor<{BINS}x{t}>, tensor<?xi32>, {VEC[t]} {{"
        )
        self.lines += body.split("\n")
        self.lines.append("  }")
        self.results.append((name, f"tensor<{BINS}x{t}>"))

    def stmt_host(self) -> None:
        """Host code: an element read, or arithmetic on a reduction result."""
        t = str(self.rng.choice([F32, I32]))
        r = self.fresh("h")
        if self.rng.random() < 0.5 or not self.scalars[t]:
            self.host(f"{r} = soac.index {self.pick(self.arrays[t])}[%c0] : {VEC[t]}")
        else:
            s, one = self.pick(self.scalars[t]), self.constant(t, 1)
            self.host(f"{r} = arith.{'addf' if t == F32 else 'addi'} {s}, {one} : {t}")
        self.scalars[t].append(r)

    def stmt_update(self) -> None:
        """An in-place update: the source is consumed (used no more)."""
        t = str(self.rng.choice([F32, I32]))
        candidates = [a for a in self.arrays[t] if a not in ("%a", "%b", "%k")]
        if not candidates or not self.scalars[t]:
            return
        source = self.pick(candidates)
        name = self.fresh("upd")
        self.host(f"{name} = soac.update {source}[%c0] = {self.pick(self.scalars[t])} : {VEC[t]}, {t}")
        self.arrays[t] = [a for a in self.arrays[t] if a != source] + [name]

    def stmt_replicate(self) -> None:
        t = str(self.rng.choice([F32, I32]))
        if not self.scalars[t]:
            return
        name = self.fresh("rep")
        self.host(f"{name} = soac.replicate %n, {self.pick(self.scalars[t])} : {t} -> {VEC[t]}")
        self.arrays[t].append(name)

    def stmt_rows(self) -> None:
        """A map over the rows of a matrix: maps over the row, then a reduce of a row."""
        source = self.pick(self.matrices)
        row, x, y = self.fresh("row"), self.fresh("x"), self.fresh("x")
        r1, s, o = self.fresh("inner"), self.fresh("isum"), self.fresh()
        lam = self.lambda_over([(x, F32)], "      ")
        e = self.expr(lam, F32)
        names = [self.fresh("rows"), self.fresh("rsum")]
        zero = self.constant(F32, 0.0)
        self.host(f"{names[0]}, {names[1]} = soac.map({source}) : ({ROWS}) -> ({ROWS}, tensor<?xf32>) {{")
        self.lines.append(f"  ^bb0({row}: tensor<4xf32>):")
        self.lines.append(f"    {r1} = soac.map({row}) : (tensor<4xf32>) -> tensor<4xf32> {{")
        self.lines.append(f"    ^bb1({x}: f32):")
        self.lines += lam.lines
        self.lines.append(f"      soac.yield {e} : f32")
        self.lines.append("    }")
        second = self.fresh("inner")
        self.lines.append(f"    {second} = soac.map({r1}) : (tensor<4xf32>) -> tensor<4xf32> {{")
        self.lines.append(f"    ^bb1({y}: f32):")
        self.lines.append(f"      {o} = arith.mulf {y}, {y} : f32")
        self.lines.append(f"      soac.yield {o} : f32")
        self.lines.append("    }")
        self.lines.append(f"    {s} = soac.reduce({second}) neutral({zero} : f32) commutative : (tensor<4xf32>) -> f32 {{")
        self.lines.append("    ^bb1(%l: f32, %r: f32):")
        self.lines.append("      %o = arith.addf %l, %r : f32")
        self.lines.append("      soac.yield %o : f32")
        self.lines.append("    }")
        self.lines.append(f"    soac.yield {r1}, {s} : tensor<4xf32>, f32")
        self.lines.append("  }")
        self.matrices.append(names[0])
        self.arrays[F32].append(names[1])

    def program(self, statements: int) -> str:
        kinds = [self.stmt_map] * 5 + [
            lambda: self.stmt_reduce_or_scan(False),
            lambda: self.stmt_reduce_or_scan(False),
            lambda: self.stmt_reduce_or_scan(True),
            self.stmt_scatter,
            self.stmt_hist,
            self.stmt_host,
            self.stmt_host,
            self.stmt_update,
            self.stmt_replicate,
            self.stmt_rows,
        ]
        self.host("%c0 = arith.constant 0 : index")
        self.host("%n = soac.size %a[0] : tensor<?xf32>")
        self.host(f"%nbins = arith.constant {BINS} : index")
        for _ in range(statements):
            kinds[int(self.rng.integers(len(kinds)))]()
        returned = list(self.results)
        for t in (F32, I32):
            for a in self.arrays[t][-3:]:
                returned.append((a, VEC[t]))
            for s in self.scalars[t][-2:]:
                returned.append((s, t))
        returned.append((self.matrices[-1], ROWS))
        returned = list(dict.fromkeys(returned))
        head = f"func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %k: tensor<?xi32>, %m: {ROWS}, %t: f32)"
        head += f" -> ({', '.join(t for _, t in returned)}) {{"
        tail = f"  func.return {', '.join(v for v, _ in returned)} : {', '.join(t for _, t in returned)}\n}}\n"
        return head + "\n" + "\n".join(self.lines) + "\n" + tail


def program(seed: int, unique_scatters: bool = False) -> str:
    rng = np.random.default_rng(seed)
    return Generator(rng, unique_scatters=unique_scatters).program(int(rng.integers(4, 13)))


def make_inputs(rng: np.random.Generator, n: int) -> tuple:
    a = (rng.standard_normal(n) * 4).astype(np.float32)
    b = (rng.standard_normal(n) * 4).astype(np.float32)
    k = rng.integers(-3, 20, n).astype(np.int32)
    m = (rng.standard_normal((n, 4)) * 2).astype(np.float32)
    return a, b, k, m, np.float32(rng.standard_normal())
