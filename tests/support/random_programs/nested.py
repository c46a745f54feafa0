"""The "nested" family: level-1 programs whose lambdas do the work the other families
keep at host level, written independently of them for the pipeline-prefix differential
test (tests/passes/test_pipeline_prefixes.py).

What its programs have that the others do not:

- lambdas containing combinators: a map of a reduce, a scan, a map, a hist or a
  scatter over the row (two levels of lambdas at most);
- scatters and hists whose destination elements are rows (arrays), at host level and
  inside lambdas, with operators over rows;
- hist operators that capture values: a lane's value captured from the enclosing
  lambda, a host value, and constants cse can merge with the host's;
- `scf.if` inside lambdas yielding rows whose sizes differ between the branches, its
  condition computed from a captured reduction result (the same in every lane, so the
  map's result is regular); a condition per lane only where the branches agree in size;
- `scf.for` loops inside lambdas carrying an array, updated in every iteration;
- updates, slices, concatenations, replicates and iotas inside lambdas;
- maps over zero rows (a slice of no rows), besides the inputs of size 0;
- an scf.for at host level carrying a matrix that a map rewrites in every iteration;
- in a quarter of the programs one deliberate run-time error: an index out of
  bounds, zipped arrays of different sizes, or an update of a slice with a value of
  the wrong length (at host level or inside a lambda). Its result reaches a returned
  value, so no pass may rightly remove it as dead code.

`program(seed)` gives the MLIR text of
`@main(%a: tensor<?xf32>, %k: tensor<?xi32>, %m: tensor<?x4xf32>, %s: f32, %j: index)`,
whose results are every array and scalar made at host level (nothing is dead);
`make_inputs(rng, n)` its arguments for any n >= 0 (%j < max(n, 1)). Array elements are
small integers (as floats too), so no result depends on rounding. `info["error"]` says
which deliberate error the program has ("" for none). Tests use it through
tests.support.random_programs.random_program("nested", seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

F, I, X = "f32", "i32", "index"
ROW, VEC, IVEC = "tensor<4xf32>", "tensor<?xf32>", "tensor<?xi32>"
NVEC, NMAT, NDMAT = "tensor<?xf32>", "tensor<?x4xf32>", "tensor<?x?xf32>"
ERRORS = ("index out of bounds", "zipped sizes differ", "update of the wrong length")

# The array a map over rows of a host array gives, by the type its lambda yields.
MAPPED = {F: NVEC, I: IVEC, ROW: NMAT, VEC: NDMAT}
# The row a lambda sees, by host array type.
ROW_OF = {NVEC: F, IVEC: I, NMAT: ROW, NDMAT: VEC}


@dataclass
class Scope:
    """A block being written: its lines, the values it defines by type, and the ones it
    must yield or return (they carry a deliberate error)."""

    indent: str
    parent: Scope | None
    in_lambda: bool
    lines: list[str] = field(default_factory=list)
    values: dict[str, list[str]] = field(default_factory=dict)
    must_keep: list[tuple[str, str]] = field(default_factory=list)
    uniform: set[str] = field(default_factory=set)
    """Values the same in every lane of the enclosing lambda (host values, constants)."""

    def visible(self, t: str) -> list[str]:
        own = self.values.get(t, [])
        return (self.parent.visible(t) if self.parent else []) + own

    def is_uniform(self, v: str) -> bool:
        return v in self.uniform or (self.parent is not None and self.parent.is_uniform(v))

    def add(self, name: str, t: str, uniform: bool = False) -> str:
        self.values.setdefault(t, []).append(name)
        if uniform:
            self.uniform.add(name)
        return name


class Generator:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.counter = 0
        self.blocks = 0
        self.error = str(self.rng.choice(ERRORS)) if self.rng.random() < 0.25 else ""
        self.error_placed = False
        self.host = Scope("  ", None, False)
        # host arrays by length class: "n" rows (the inputs'), "z" (no rows)
        self.arrays: dict[str, dict[str, list[str]]] = {"n": {NVEC: [], IVEC: [], NMAT: [], NDMAT: []}, "z": {NMAT: [], NVEC: []}}
        self.consumed: set[str] = set()

    # --- basics ------------------------------------------------------------------------

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def label(self) -> str:
        self.blocks += 1
        return f"^bb{self.blocks}"

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, pool: list[str]) -> str:
        """Later values likelier: chains form."""
        weights = np.arange(1, len(pool) + 1, dtype=float)
        return pool[int(self.rng.choice(len(pool), p=weights / weights.sum()))]

    def emit(self, scope: Scope, line: str) -> None:
        scope.lines.append(scope.indent + line)

    def const(self, scope: Scope, t: str, value) -> str:
        name = self.fresh("c")
        text = repr(float(value)) if t == F else str(int(value))
        self.emit(scope, f"{name} = arith.constant {text} : {t}")
        return scope.add(name, t, uniform=True)

    # --- scalars -----------------------------------------------------------------------

    def scalar(self, scope: Scope, t: str, depth: int = 2) -> str:
        """A value of type t (f32 or i32) computed from what the scope sees."""
        have = scope.visible(t)
        if depth == 0 or not have:
            if have and self.chance(0.85):
                return self.pick(have)
            if t == F and scope.visible(I):
                return self.convert(scope, self.pick(scope.visible(I)), I)
            return self.const(scope, t, int(self.rng.integers(-3, 4)))
        a, b = self.scalar(scope, t, depth - 1), self.scalar(scope, t, depth - 1)
        r = self.fresh()
        uniform = scope.is_uniform(a) and scope.is_uniform(b)
        if t == F:
            kind = str(self.rng.choice(["addf", "subf", "maximumf", "minimumf", "half", "select"]))
            if kind == "half":
                h = self.const(scope, F, 0.5)
                self.emit(scope, f"{r} = arith.mulf {a}, {h} : f32")
            elif kind == "select":
                c = self.fresh()
                self.emit(scope, f"{c} = arith.cmpf olt, {a}, {b} : f32")
                self.emit(scope, f"{r} = arith.select {c}, {b}, {a} : f32")
            else:
                self.emit(scope, f"{r} = arith.{kind} {a}, {b} : f32")
        else:
            kind = str(self.rng.choice(["addi", "subi", "xori", "andi", "maxsi", "minsi"]))
            self.emit(scope, f"{r} = arith.{kind} {a}, {b} : i32")
        return scope.add(r, t, uniform)

    def convert(self, scope: Scope, v: str, from_t: str) -> str:
        """i32 to f32, or f32 to i32 after clamping to [-8, 8] (no undefined conversions)."""
        r = self.fresh()
        uniform = scope.is_uniform(v)
        if from_t == I:
            self.emit(scope, f"{r} = arith.sitofp {v} : i32 to f32")
            return scope.add(r, F, uniform)
        lo, hi, c1, c2 = self.fresh(), self.fresh(), self.fresh(), self.fresh()
        self.emit(scope, f"{lo} = arith.constant -8.0 : f32")
        self.emit(scope, f"{hi} = arith.constant 8.0 : f32")
        self.emit(scope, f"{c1} = arith.maximumf {v}, {lo} : f32")
        self.emit(scope, f"{c2} = arith.minimumf {c1}, {hi} : f32")
        self.emit(scope, f"{r} = arith.fptosi {c2} : f32 to i32")
        return scope.add(r, I, uniform)

    def index_below(self, scope: Scope, bound: int) -> str:
        """An index in [0, bound) (bound a power of two) from an i32 of the scope."""
        v = self.scalar(scope, I, 0)
        mask, masked, r = self.fresh("c"), self.fresh(), self.fresh()
        self.emit(scope, f"{mask} = arith.constant {bound - 1} : i32")
        self.emit(scope, f"{masked} = arith.andi {v}, {mask} : i32")
        self.emit(scope, f"{r} = arith.index_cast {masked} : i32 to index")
        return scope.add(r, X, scope.is_uniform(v))

    def index_const(self, scope: Scope, value: int) -> str:
        name = self.fresh("c")
        self.emit(scope, f"{name} = arith.constant {value} : index")
        return scope.add(name, X, uniform=True)

    # --- operators ---------------------------------------------------------------------

    def operator(self, scope: Scope, t: str, capture: bool) -> tuple[str, list[str]]:
        """(neutral element, operator lines) of an associative and commutative operator
        on t (f32, i32 or a row of 4 f32), written at `scope`'s indent plus two. With
        `capture`, it uses a value of the enclosing scope: min(max(l, r), cap) and
        (l + r) & (2^k - 1) stay associative and commutative for any cap and k."""
        pad = scope.indent + "  "
        l, r, o = self.fresh("l"), self.fresh("r"), self.fresh("o")
        if t == ROW:
            zero = self.const(scope, F, -100.0 if capture else 0.0)
            neutral = self.fresh("ne")
            self.emit(scope, f"{neutral} = soac.replicate {self.index_const(scope, 4)}, {zero} : f32 -> {ROW}")
            x, y, z = self.fresh("x"), self.fresh("y"), self.fresh("z")
            inner = [f"{pad}  {self.label()}({x}: f32, {y}: f32):"]
            if capture:
                cap, w = self.scalar(scope, F, 0), self.fresh()
                inner += [f"{pad}    {w} = arith.maximumf {x}, {y} : f32", f"{pad}    {z} = arith.minimumf {w}, {cap} : f32"]
            else:
                inner.append(f"{pad}    {z} = arith.addf {x}, {y} : f32")
            lines = [
                f"{pad}{self.label()}({l}: {ROW}, {r}: {ROW}):",
                f"{pad}  {o} = soac.map({l}, {r}) : ({ROW}, {ROW}) -> {ROW} {{",
                *inner,
                f"{pad}    soac.yield {z} : f32",
                f"{pad}  }}",
                f"{pad}  soac.yield {o} : {ROW}",
            ]
            return neutral, lines
        head = f"{pad}{self.label()}({l}: {t}, {r}: {t}):"
        if t == F:
            if capture:
                cap, w = self.scalar(scope, F, 0), self.fresh()
                neutral = self.const(scope, F, -100.0)
                body = [f"{pad}  {w} = arith.maximumf {l}, {r} : f32", f"{pad}  {o} = arith.minimumf {w}, {cap} : f32"]
            elif self.chance(0.5):
                neutral = self.const(scope, F, 0.0)
                body = [f"{pad}  {o} = arith.addf {l}, {r} : f32"]
            else:  # a maximum NumPy does not recognise: the executor's general path
                neutral = self.const(scope, F, -100.0)
                c = self.fresh()
                body = [f"{pad}  {c} = arith.cmpf ogt, {l}, {r} : f32", f"{pad}  {o} = arith.select {c}, {l}, {r} : f32"]
            return neutral, [head, *body, f"{pad}  soac.yield {o} : f32"]
        neutral = self.const(scope, I, 0)
        w, mask = self.fresh(), self.fresh("c")
        if capture:  # (l + r) & (2^k - 1), k from 1 to 8 from a value of the scope
            k = self.index_below(scope, 8)
            k32, one, p, m = self.fresh(), self.const(scope, I, 1), self.fresh(), self.fresh()
            self.emit(scope, f"{k32} = arith.index_cast {k} : index to i32")
            self.emit(scope, f"{p} = arith.shli {one}, {k32} : i32")
            self.emit(scope, f"{m} = arith.subi {p}, {one} : i32")
            body = [f"{pad}  {w} = arith.addi {l}, {r} : i32", f"{pad}  {o} = arith.andi {w}, {m} : i32"]
        else:  # a constant inside the operator that cse may share with the host's 255
            body = [
                f"{pad}  {mask} = arith.constant 255 : i32",
                f"{pad}  {w} = arith.addi {l}, {r} : i32",
                f"{pad}  {o} = arith.andi {w}, {mask} : i32",
            ]
        return neutral, [head, *body, f"{pad}  soac.yield {o} : i32"]

    # --- statements inside a lambda ----------------------------------------------------

    def vec_of(self, scope: Scope) -> str:
        """A 1-D f32 array the scope sees (a row, or a dynamic array)."""
        pool = scope.visible(ROW) + scope.visible(VEC)
        return self.pick(pool)

    def array_type(self, scope: Scope, v: str) -> str:
        return ROW if v in scope.visible(ROW) else VEC

    def inner_reduce(self, scope: Scope, scan: bool) -> None:
        src = self.vec_of(scope)
        t = self.array_type(scope, src)
        neutral, body = self.operator(scope, F, False)
        r = self.fresh("scan" if scan else "red")
        rt = t if scan else F
        self.emit(scope, f"{r} = soac.{'scan' if scan else 'reduce'}({src}) neutral({neutral} : f32) : ({t}) -> {rt} {{")
        scope.lines += body
        self.emit(scope, "}")
        scope.add(r, rt)

    def inner_affine_scan(self, scope: Scope) -> None:
        """A scan (or reduce) of pairs by affine-map composition, associative but not
        commutative: the executor's general path, with operand order kept."""
        a, b = self.vec_of(scope), self.vec_of(scope)
        ta, tb = self.array_type(scope, a), self.array_type(scope, b)
        if ta != tb or ta != ROW:
            a = b = self.pick(scope.visible(ROW))
            ta = tb = ROW
        one, zero = self.const(scope, F, 1.0), self.const(scope, F, 0.0)
        scan = self.chance(0.5)
        p, q = self.fresh("aff"), self.fresh("aff")
        l1, l2, r1, r2, o1, o2, o3 = (self.fresh(x) for x in ("l", "l", "r", "r", "o", "o", "o"))
        results = f"({ROW}, {ROW})" if scan else "(f32, f32)"
        self.emit(scope, f"{p}, {q} = soac.{'scan' if scan else 'reduce'}({a}, {b}) neutral({one}, {zero} : f32, f32) : ({ROW}, {ROW}) -> {results} {{")
        pad = scope.indent + "  "
        scope.lines += [
            f"{pad}{self.label()}({l1}: f32, {l2}: f32, {r1}: f32, {r2}: f32):",
            f"{pad}  {o1} = arith.mulf {l1}, {r1} : f32",
            f"{pad}  {o2} = arith.mulf {l2}, {r1} : f32",
            f"{pad}  {o3} = arith.addf {o2}, {r2} : f32",
            f"{pad}  soac.yield {o1}, {o3} : f32, f32",
        ]
        self.emit(scope, "}")
        for v in (p, q):
            scope.add(v, ROW if scan else F)

    def inner_map(self, scope: Scope, depth: int) -> None:
        src = self.vec_of(scope)
        t = self.array_type(scope, src)
        x = self.fresh("x")
        body = Scope(scope.indent + "  ", scope, True)
        body.add(x, F)
        for _ in range(int(self.rng.integers(0, 3)) if depth < 2 else 0):
            self.lambda_statement(body, depth + 1, allow_error=False)
        y = self.scalar(body, F)
        r = self.fresh("imap")
        self.emit(scope, f"{r} = soac.map({src}) : ({t}) -> {t} {{")
        scope.lines.append(f"{scope.indent}{self.label()}({x}: f32):")
        scope.lines += body.lines
        self.emit(body, f"soac.yield {y} : f32")
        scope.lines.append(body.lines[-1])
        self.emit(scope, "}")
        scope.add(r, t)

    def positions(self, scope: Scope, count: str) -> str:
        """count i32 positions in [-1, 3) (some out of bounds of 2 or 3 rows), per lane."""
        io, x, a, b, c = self.fresh("io"), self.fresh("i"), self.fresh(), self.fresh(), self.fresh()
        salt = self.scalar(scope, I, 0)
        self.emit(scope, f"{io} = soac.iota {count} : {IVEC}")
        name = self.fresh("pos")
        self.emit(scope, f"{name} = soac.map({io}) : ({IVEC}) -> {IVEC} {{")
        three, one = self.fresh("c"), self.fresh("c")
        pad = scope.indent + "  "
        scope.lines += [
            f"{scope.indent}{self.label()}({x}: i32):",
            f"{pad}{three} = arith.constant 3 : i32",
            f"{pad}{one} = arith.constant 1 : i32",
            f"{pad}{a} = arith.xori {x}, {salt} : i32",
            f"{pad}{b} = arith.andi {a}, {three} : i32",
            f"{pad}{c} = arith.subi {b}, {one} : i32",
            f"{pad}soac.yield {c} : i32",
        ]
        self.emit(scope, "}")
        return name

    def inner_hist(self, scope: Scope) -> None:
        """A hist into 3 bins (scalars of f32 or i32, or rows) of values made from the
        lane's row, its operator capturing values sometimes."""
        kind = str(self.rng.choice([F, I, ROW]))
        capture = self.chance(0.6)
        three = self.index_const(scope, 3)
        neutral, body = self.operator(scope, kind, capture)
        bins, h, count = self.fresh("bins"), self.fresh("hist"), self.fresh("count")
        if kind == ROW:
            values = self.fresh("rows")
            self.emit(scope, f"{values} = soac.replicate {three}, {self.pick(scope.visible(ROW))} : {ROW} -> tensor<?x4xf32>")
            vt = "tensor<?x4xf32>"
        else:
            src = self.vec_of(scope)
            values, vt = src, self.array_type(scope, src)
            if kind == I:
                values = self.map_to_i32(scope, src)
                vt = "tensor<4xi32>" if vt == ROW else IVEC
        self.emit(scope, f"{count} = soac.size {values}[0] : {vt}")
        pos = self.positions(scope, count)
        bt = f"tensor<3x{kind.removeprefix('tensor<').removesuffix('>')}>"
        self.emit(scope, f"{bins} = soac.replicate {three}, {neutral} : {kind} -> {bt}")
        self.emit(scope, f"{h} = soac.hist {bins}[{pos}], {values} neutral({neutral} : {kind}) : {bt}, {IVEC}, {vt} {{")
        scope.lines += body
        self.emit(scope, "}")
        scope.add(h, bt)
        # read a bin back, as a scalar or a row the lambda can go on with
        at = self.index_below(scope, 2)
        e = self.fresh("bin")
        self.emit(scope, f"{e} = soac.index {h}[{at}] : {bt}")
        scope.add(e, kind)

    def map_to_i32(self, scope: Scope, src: str) -> str:
        t = self.array_type(scope, src)
        out_t = "tensor<4xi32>" if t == ROW else IVEC
        x, name = self.fresh("x"), self.fresh("ints")
        body = Scope(scope.indent + "  ", scope, True)
        body.add(x, F)
        v = self.convert(body, x, F)
        self.emit(scope, f"{name} = soac.map({src}) : ({t}) -> {out_t} {{")
        scope.lines.append(f"{scope.indent}{self.label()}({x}: f32):")
        scope.lines += body.lines
        self.emit(scope, f"  soac.yield {v} : i32")
        self.emit(scope, "}")
        return name

    def inner_scatter(self, scope: Scope) -> None:
        """A scatter into a copy of a row (scalars), or into 2 rows (rows)."""
        rows = self.chance(0.5)
        three, four = self.index_const(scope, 3), self.index_const(scope, 4)
        name = self.fresh("scat")
        if rows:
            pos = self.positions(scope, three)
            dest, vals = self.fresh("dest"), self.fresh("vals")
            two = self.index_const(scope, 2)
            self.emit(scope, f"{dest} = soac.replicate {two}, {self.pick(scope.visible(ROW))} : {ROW} -> tensor<?x4xf32>")
            self.emit(scope, f"{vals} = soac.replicate {three}, {self.pick(scope.visible(ROW))} : {ROW} -> tensor<?x4xf32>")
            self.emit(scope, f"{name} = soac.scatter {dest}[{pos}] = {vals} : tensor<?x4xf32>, {IVEC}, tensor<?x4xf32>")
            first = self.fresh("srow")
            self.emit(scope, f"{first} = soac.index {name}[{self.index_below(scope, 2)}] : tensor<?x4xf32>")
            scope.add(first, ROW)
            return
        pos = self.positions(scope, four)
        dest = self.fresh("dest")
        self.emit(scope, f"{dest} = soac.copy {self.pick(scope.visible(ROW))} : {ROW}")
        src = self.pick(scope.visible(ROW))
        self.emit(scope, f"{name} = soac.scatter {dest}[{pos}] = {src} : {ROW}, {IVEC}, {ROW}")
        scope.add(name, ROW)

    def inner_if(self, scope: Scope) -> None:
        """An scf.if yielding a 1-D array: of different sizes in the branches when its
        condition is the same in every lane (from a captured host value), of one size
        otherwise."""
        host_conditions = [v for v in self.host.visible(F)]
        uniform = bool(host_conditions) and self.chance(0.7)
        a = self.pick(host_conditions) if uniform else self.scalar(scope, F, 0)
        zero, cond = self.const(scope, F, 0.0), self.fresh("cond")
        self.emit(scope, f"{cond} = arith.cmpf ogt, {a}, {zero} : f32")
        row = self.pick(scope.visible(ROW))
        name = self.fresh("branch")
        self.emit(scope, f"{name} = scf.if {cond} -> ({VEC}) {{")
        then, other = Scope(scope.indent + "  ", scope, True), Scope(scope.indent + "  ", scope, True)
        if uniform:  # 2 elements, or 8
            c1, c2, s, cat = self.fresh("c"), self.fresh("c"), self.fresh("sl"), self.fresh("cat")
            self.emit(then, f"{c1} = arith.constant 1 : index")
            self.emit(then, f"{c2} = arith.constant 2 : index")
            self.emit(then, f"{s} = soac.slice {row}[{c1}:{c2}] : {ROW} -> {VEC}")
            self.emit(then, f"scf.yield {s} : {VEC}")
            self.emit(other, f"{cat} = soac.concat {row}, {self.pick(scope.visible(ROW))} : ({ROW}, {ROW}) -> {VEC}")
            self.emit(other, f"scf.yield {cat} : {VEC}")
        else:  # 4 elements either way
            c0, c4, s, m = self.fresh("c"), self.fresh("c"), self.fresh("sl"), self.fresh("rev")
            self.emit(then, f"{c0} = arith.constant 0 : index")
            self.emit(then, f"{c4} = arith.constant 4 : index")
            self.emit(then, f"{s} = soac.slice {row}[{c0}:{c4}] : {ROW} -> {VEC}")
            self.emit(then, f"scf.yield {s} : {VEC}")
            c3, cm1 = self.fresh("c"), self.fresh("c")
            self.emit(other, f"{c3} = arith.constant 3 : index")
            c4b = self.fresh("c")
            self.emit(other, f"{c4b} = arith.constant 4 : index")
            self.emit(other, f"{cm1} = arith.constant -1 : index")
            self.emit(other, f"{m} = soac.slice {row}[{c3}:{c4b}:{cm1}] : {ROW} -> {VEC}")
            self.emit(other, f"scf.yield {m} : {VEC}")
        scope.lines += then.lines
        self.emit(scope, "} else {")
        scope.lines += other.lines
        self.emit(scope, "}")
        scope.add(name, VEC, uniform=False)

    def inner_for(self, scope: Scope) -> None:
        """An scf.for carrying a row and a scalar: each iteration updates one element."""
        row, acc = self.pick(scope.visible(ROW)), self.scalar(scope, F, 0)
        c0, c1 = self.index_const(scope, 0), self.index_const(scope, 1)
        bound = self.index_const(scope, int(self.rng.integers(0, 6)))
        fresh_row = self.fresh("carry")
        self.emit(scope, f"{fresh_row} = soac.copy {row} : {ROW}")
        i, r, a = self.fresh("i"), self.fresh("rowc"), self.fresh("acc")
        out_r, out_a = self.fresh("loop"), self.fresh("lacc")
        self.emit(scope, f"{out_r}, {out_a} = scf.for {i} = {c0} to {bound} step {c1} iter_args({r} = {fresh_row}, {a} = {acc}) -> ({ROW}, f32) {{")
        body = Scope(scope.indent + "  ", scope, True)
        body.add(r, ROW)
        body.add(a, F)
        three, at, e, s, u = self.fresh("c"), self.fresh(), self.fresh(), self.fresh(), self.fresh("upd")
        self.emit(body, f"{three} = arith.constant 3 : index")
        self.emit(body, f"{at} = arith.andi {i}, {three} : index")
        self.emit(body, f"{e} = soac.index {r}[{at}] : {ROW}")
        self.emit(body, f"{s} = arith.addf {e}, {a} : f32")
        self.emit(body, f"{u} = soac.update {r}[{at}] = {s} : {ROW}, f32")
        na = self.fresh()
        self.emit(body, f"{na} = arith.maximumf {a}, {e} : f32")
        self.emit(body, f"scf.yield {u}, {na} : {ROW}, f32")
        scope.lines += body.lines
        self.emit(scope, "}")
        scope.add(out_r, ROW)
        scope.add(out_a, F)

    def inner_arrays(self, scope: Scope) -> None:
        """An update of part of an array the lambda made, a slice, a concat, a replicate
        or an iota."""
        kind = str(self.rng.choice(["update", "update rows", "slice", "concat", "replicate", "iota"]))
        name = self.fresh(kind[:3])
        if kind == "update":
            made = self.fresh("made")
            self.emit(scope, f"{made} = soac.replicate {self.index_const(scope, 4)}, {self.scalar(scope, F, 0)} : f32 -> {ROW}")
            lo = self.index_below(scope, 2)
            two = self.index_const(scope, 2)
            part = self.fresh("part")
            self.emit(scope, f"{part} = soac.slice {self.pick(scope.visible(ROW))}[{self.index_const(scope, 1)}:{two}] : {ROW} -> {VEC}")
            self.emit(scope, f"{name} = soac.update {made}[{lo}:{two}] = {part} : {ROW}, {VEC}")
            scope.add(name, ROW)
        elif kind == "update rows":
            # sizes from the program's own: a row of another array's size and a count
            # of the host's (1 or n), in a 2-D array the lambda made, one row updated
            v = self.vec_of(scope)
            vt = self.array_type(scope, v)
            size, extra, total, made, grid, first = (self.fresh(x) for x in ("size", "extra", "total", "made", "grid", "first"))
            count = str(self.rng.choice(["%unit", "%n", "%n1"]))
            self.emit(scope, f"{size} = soac.size {v}[0] : {vt}")
            self.emit(scope, f"{total} = arith.addi {size}, {count} : index")
            self.emit(scope, f"{made} = soac.replicate {total}, {self.scalar(scope, F, 0)} : f32 -> {VEC}")
            self.emit(scope, f"{grid} = soac.replicate {count}, {made} : {VEC} -> {NDMAT}")
            self.emit(scope, f"{extra} = soac.update {made}[{count}:{size}] = {v} : {VEC}, {vt}")
            self.emit(scope, f"{name} = soac.update {grid}[%zero] = {extra} : {NDMAT}, {VEC}")
            self.emit(scope, f"{first} = soac.index {name}[%zero] : {NDMAT}")
            scope.add(first, VEC)
        elif kind == "slice":
            start = self.index_below(scope, 2)
            count = self.index_const(scope, int(self.rng.integers(0, 3)))
            self.emit(scope, f"{name} = soac.slice {self.pick(scope.visible(ROW))}[{start}:{count}] : {ROW} -> {VEC}")
            scope.add(name, VEC)
        elif kind == "concat":
            a, b = self.vec_of(scope), self.vec_of(scope)
            self.emit(scope, f"{name} = soac.concat {a}, {b} : ({self.array_type(scope, a)}, {self.array_type(scope, b)}) -> {VEC}")
            scope.add(name, VEC)
        elif kind == "replicate":
            count = self.index_const(scope, int(self.rng.integers(0, 4)))
            self.emit(scope, f"{name} = soac.replicate {count}, {self.scalar(scope, F, 1)} : f32 -> {VEC}")
            scope.add(name, VEC)
        else:
            count = self.index_const(scope, int(self.rng.integers(0, 5)))
            io = self.fresh("io")
            self.emit(scope, f"{io} = soac.iota {count} : {IVEC}")
            x, y, f = self.fresh("x"), self.fresh(), self.fresh()
            add = self.scalar(scope, F, 0)
            self.emit(scope, f"{name} = soac.map({io}) : ({IVEC}) -> {VEC} {{")
            pad = scope.indent + "  "
            scope.lines += [
                f"{scope.indent}{self.label()}({x}: i32):",
                f"{pad}{y} = arith.sitofp {x} : i32 to f32",
                f"{pad}{f} = arith.addf {y}, {add} : f32",
                f"{pad}soac.yield {f} : f32",
            ]
            self.emit(scope, "}")
            scope.add(name, VEC)

    def inner_error(self, scope: Scope) -> None:
        """The program's deliberate error, inside a lambda: it fails in every lane."""
        self.error_placed = True
        if self.error == "index out of bounds":
            v = self.vec_of(scope)
            t = self.array_type(scope, v)
            size, e = self.fresh("size"), self.fresh("oob")
            self.emit(scope, f"{size} = soac.size {v}[0] : {t}")
            self.emit(scope, f"{e} = soac.index {v}[{size}] : {t}")
            scope.must_keep.append((scope.add(e, F), F))
        elif self.error == "zipped sizes differ":
            row = self.pick(scope.visible(ROW))
            longer, x, y, z, name = self.fresh("longer"), self.fresh("x"), self.fresh("y"), self.fresh(), self.fresh("zip")
            other = self.vec_of(scope)
            self.emit(scope, f"{longer} = soac.concat {row}, {other} : ({ROW}, {self.array_type(scope, other)}) -> {VEC}")
            # the concat's second operand may be empty: add one element for sure
            one = self.fresh("one")
            self.emit(scope, f"{one} = soac.replicate {self.index_const(scope, 1)}, {self.scalar(scope, F, 0)} : f32 -> {VEC}")
            longest = self.fresh("longest")
            self.emit(scope, f"{longest} = soac.concat {longer}, {one} : ({VEC}, {VEC}) -> {VEC}")
            if self.chance(0.5):  # a scatter of 4 positions and 5 or more values
                dest, pos = self.fresh("dest"), self.positions(scope, self.index_const(scope, 4))
                self.emit(scope, f"{dest} = soac.copy {row} : {ROW}")
                self.emit(scope, f"{name} = soac.scatter {dest}[{pos}] = {longest} : {ROW}, {IVEC}, {VEC}")
            else:
                self.emit(scope, f"{name} = soac.map({row}, {longest}) : ({ROW}, {VEC}) -> {ROW} {{")
                pad = scope.indent + "  "
                scope.lines += [f"{scope.indent}{self.label()}({x}: f32, {y}: f32):", f"{pad}{z} = arith.addf {x}, {y} : f32", f"{pad}soac.yield {z} : f32"]
                self.emit(scope, "}")
            scope.must_keep.append((scope.add(name, ROW), ROW))
        else:
            made, part, name = self.fresh("made"), self.fresh("part"), self.fresh("bad")
            self.emit(scope, f"{made} = soac.copy {self.pick(scope.visible(ROW))} : {ROW}")
            c0, c3 = self.index_const(scope, 0), self.index_const(scope, 3)
            self.emit(scope, f"{part} = soac.slice {self.pick(scope.visible(ROW))}[{c0}:{self.index_const(scope, 2)}] : {ROW} -> {VEC}")
            self.emit(scope, f"{name} = soac.update {made}[{c0}:{c3}] = {part} : {ROW}, {VEC}")
            scope.must_keep.append((scope.add(name, ROW), ROW))

    def ensure_row(self, scope: Scope) -> None:
        if not scope.visible(ROW):
            name = self.fresh("row")
            self.emit(scope, f"{name} = soac.replicate {self.index_const(scope, 4)}, {self.scalar(scope, F, 1)} : f32 -> {ROW}")
            scope.add(name, ROW)

    def lambda_statement(self, scope: Scope, depth: int, allow_error: bool = True) -> None:
        self.ensure_row(scope)
        if allow_error and self.error and not self.error_placed and self.chance(0.3):
            self.inner_error(scope)
            return
        kinds = [
            lambda: self.inner_reduce(scope, False),
            lambda: self.inner_reduce(scope, True),
            lambda: self.inner_map(scope, depth),
            lambda: self.inner_hist(scope),
            lambda: self.inner_scatter(scope),
            lambda: self.inner_if(scope),
            lambda: self.inner_for(scope),
            lambda: self.inner_arrays(scope),
            lambda: self.inner_arrays(scope),
            lambda: self.inner_affine_scan(scope),
            lambda: scope.add(self.scalar(scope, F), F),
        ]
        kinds[int(self.rng.integers(len(kinds)))]()

    # --- host statements ---------------------------------------------------------------

    def host_map(self, rows: str = "n") -> None:
        """A map over the rows of 1 to 3 host arrays of one length class."""
        pool = self.arrays[rows]
        candidates = [(v, t) for t, vs in pool.items() for v in vs if v not in self.consumed]
        count = int(self.rng.integers(1, 4))
        inputs = list(dict.fromkeys(candidates[int(self.rng.integers(len(candidates)))] for _ in range(count)))
        body = Scope("    ", self.host, True)
        params = []
        for v, t in inputs:
            p = self.fresh("x")
            params.append((p, ROW_OF[t]))
            body.add(p, ROW_OF[t])
        for _ in range(int(self.rng.integers(2, 6))):
            self.lambda_statement(body, 1, allow_error=rows != "z")  # no row would fail
        yields = list(body.must_keep)
        for t in self.rng.permutation([F, I, ROW, VEC])[: int(self.rng.integers(1, 4))]:
            t = str(t)
            if t in (F, I):
                yields.append((self.scalar(body, t), t))
            elif t == ROW:
                self.ensure_row(body)
                yields.append((self.pick(body.visible(ROW)), ROW))
            elif body.visible(VEC):
                yields.append((self.pick(body.visible(VEC)), VEC))
        if not yields:
            yields.append((self.scalar(body, F), F))
        yields = list(dict.fromkeys(yields))
        names = [self.fresh("map") for _ in yields]
        self.emit(
            self.host,
            f"{', '.join(names)} = soac.map({', '.join(v for v, _ in inputs)}) : "
            f"({', '.join(t for _, t in inputs)}) -> ({', '.join(MAPPED[t] for _, t in yields)}) {{",
        )
        self.host.lines.append(f"  {self.label()}({', '.join(f'{p}: {t}' for p, t in params)}):")
        self.host.lines += body.lines
        self.host.lines.append(f"    soac.yield {', '.join(v for v, _ in yields)} : {', '.join(t for _, t in yields)}")
        self.emit(self.host, "}")
        for name, (_, t) in zip(names, yields):
            if MAPPED[t] in pool:
                pool[MAPPED[t]].append(name)
            self.host.add(name, MAPPED[t])

    def host_reduce(self) -> None:
        """A reduction at host level (its result a scalar later lambdas capture), or a
        reduction of rows."""
        if self.chance(0.3) and self.arrays["n"][NMAT]:
            src = self.pick(self.arrays["n"][NMAT])
            neutral, body = self.operator(self.host, ROW, self.chance(0.5))
            name = self.fresh("rowsum")
            self.emit(self.host, f"{name} = soac.reduce({src}) neutral({neutral} : {ROW}) commutative : ({NMAT}) -> {ROW} {{")
            self.host.lines += body
            self.emit(self.host, "}")
            e = self.fresh("h")
            self.emit(self.host, f"{e} = soac.index {name}[{self.index_below(self.host, 4)}] : {ROW}")
            self.host.add(name, ROW)
            self.host.add(e, F, uniform=True)
            return
        t = str(self.rng.choice([F, I]))
        pool = self.arrays["n"][NVEC if t == F else IVEC]
        if not pool:
            return
        src = self.pick(pool)
        neutral, body = self.operator(self.host, t, self.chance(0.3))
        name = self.fresh("red")
        self.emit(self.host, f"{name} = soac.reduce({src}) neutral({neutral} : {t}) : ({MAPPED[t]}) -> {t} {{")
        self.host.lines += body
        self.emit(self.host, "}")
        self.host.add(name, t, uniform=True)

    def host_hist_rows(self) -> None:
        """A hist of the rows of an n x 4 matrix into 3 bins of rows."""
        src = self.pick(self.arrays["n"][NMAT])
        keys = self.pick(self.arrays["n"][IVEC])
        capture = self.chance(0.5)
        neutral, body = self.operator(self.host, ROW, capture)
        pos = self.host_positions(keys)
        bins, name = self.fresh("bins"), self.fresh("hrows")
        self.emit(self.host, f"{bins} = soac.replicate {self.index_const(self.host, 3)}, {neutral} : {ROW} -> tensor<3x4xf32>")
        self.emit(self.host, f"{name} = soac.hist {bins}[{pos}], {src} neutral({neutral} : {ROW}) : tensor<3x4xf32>, {IVEC}, {NMAT} {{")
        self.host.lines += body
        self.emit(self.host, "}")
        self.host.add(name, "tensor<3x4xf32>")

    def host_positions(self, keys: str) -> str:
        x, a, b, name = self.fresh("x"), self.fresh(), self.fresh(), self.fresh("pos")
        three, one = self.fresh("c"), self.fresh("c")
        self.emit(self.host, f"{name} = soac.map({keys}) : ({IVEC}) -> {IVEC} {{")
        self.host.lines += [
            f"  {self.label()}({x}: i32):",
            f"    {three} = arith.constant 3 : i32",
            f"    {one} = arith.constant 1 : i32",
            f"    {a} = arith.andi {x}, {three} : i32",
            f"    {b} = arith.subi {a}, {one} : i32",
            f"    soac.yield {b} : i32",
            "  }",
        ]
        return name

    def host_scatter_rows(self) -> None:
        """A scatter of rows into a copy of an n x 4 matrix: the values a matrix, or
        one row replicated n times (which soac-fusion may fuse into the scatter)."""
        dest_src = self.pick(self.arrays["n"][NMAT])
        keys = self.pick(self.arrays["n"][IVEC])
        pos = self.host_positions(keys)
        dest, name = self.fresh("dest"), self.fresh("srows")
        self.emit(self.host, f"{dest} = soac.copy {dest_src} : {NMAT}")
        if self.chance(0.5) and self.host.visible(ROW):
            values, count = self.fresh("rep"), self.fresh("count")
            self.emit(self.host, f"{count} = soac.size {pos}[0] : {IVEC}")
            self.emit(self.host, f"{values} = soac.replicate {count}, {self.pick(self.host.visible(ROW))} : {ROW} -> {NMAT}")
        else:
            values = self.pick(self.arrays["n"][NMAT])
        self.emit(self.host, f"{name} = soac.scatter {dest}[{pos}] = {values} : {NMAT}, {IVEC}, {NMAT}")
        self.arrays["n"][NMAT].append(name)
        self.host.add(name, NMAT)

    def host_loop(self) -> None:
        """An scf.for at host level carrying an n x 4 matrix: each iteration maps its
        rows through a lambda of its own (the memory passes see a loop-carried array
        a kernel rewrites), and a scalar reduced from it."""
        src = self.pick(self.arrays["n"][NMAT])
        start, acc, i, mat, s0 = self.fresh("start"), self.fresh("lm"), self.fresh("i"), self.fresh("carried"), self.fresh("ls")
        trips = self.index_const(self.host, int(self.rng.integers(0, 4)))
        result, total = self.fresh("loop"), self.fresh("ltotal")
        self.emit(self.host, f"{start} = soac.copy {src} : {NMAT}")
        self.emit(self.host, f"{result}, {total} = scf.for {i} = %zero to {trips} step %unit iter_args({mat} = {start}, {s0} = %s) -> ({NMAT}, f32) {{")
        loop = Scope("    ", self.host, False)
        loop.add(s0, F)
        row = self.fresh("x")
        body = Scope("      ", loop, True)
        body.add(row, ROW)
        for _ in range(int(self.rng.integers(1, 4))):
            self.lambda_statement(body, 2, allow_error=False)
        out = self.pick(body.visible(ROW))
        new, red = self.fresh("next"), self.fresh("lsum")
        self.emit(loop, f"{new} = soac.map({mat}) : ({NMAT}) -> {NMAT} {{")
        loop.lines.append(f"    {self.label()}({row}: {ROW}):")
        loop.lines += body.lines
        loop.lines.append(f"      soac.yield {out} : {ROW}")
        self.emit(loop, "}")
        neutral, operator = self.operator(loop, ROW, False)
        self.emit(loop, f"{red} = soac.reduce({new}) neutral({neutral} : {ROW}) commutative : ({NMAT}) -> {ROW} {{")
        loop.lines += operator
        self.emit(loop, "}")
        e, s1 = self.fresh("e"), self.fresh("ls")
        self.emit(loop, f"{e} = soac.index {red}[%zero] : {ROW}")
        self.emit(loop, f"{s1} = arith.addf {s0}, {e} : f32")
        self.emit(loop, f"scf.yield {new}, {s1} : {NMAT}, f32")
        self.host.lines += loop.lines
        self.emit(self.host, "}")
        self.arrays["n"][NMAT].append(result)
        self.host.add(result, NMAT)
        self.host.add(total, F, uniform=True)

    def host_zero_rows(self) -> None:
        """No rows of a host matrix or vector, for a map over zero rows."""
        t = str(self.rng.choice([NMAT, NVEC]))
        src = self.pick(self.arrays["n"][t])
        name = self.fresh("none")
        self.emit(self.host, f"{name} = soac.slice {src}[%zero:%zero] : {t} -> {t}")
        self.arrays["z"][t].append(name)
        self.host_map("z")

    def host_error(self) -> None:
        """The program's deliberate error at host level."""
        self.error_placed = True
        if self.error == "index out of bounds":
            src = self.pick(self.arrays["n"][NVEC])
            size, e = self.fresh("size"), self.fresh("oob")
            self.emit(self.host, f"{size} = soac.size {src}[0] : {NVEC}")
            self.emit(self.host, f"{e} = soac.index {src}[{size}] : {NVEC}")
            self.host.add(e, F)
        elif self.error == "zipped sizes differ":
            longer, x, y, z, name = self.fresh("longer"), self.fresh("x"), self.fresh("y"), self.fresh(), self.fresh("zip")
            self.emit(self.host, f"{longer} = soac.concat %a, %one : ({NVEC}, tensor<1xf32>) -> {NVEC}")
            kind = str(self.rng.choice(["map", "scatter", "hist"]))
            if kind == "map":
                self.emit(self.host, f"{name} = soac.map({self.pick(self.arrays['n'][NVEC])}, {longer}) : ({NVEC}, {NVEC}) -> {NVEC} {{")
                self.host.lines += [f"  {self.label()}({x}: f32, {y}: f32):", f"    {z} = arith.addf {x}, {y} : f32", f"    soac.yield {z} : f32", "  }"]
                self.host.add(name, NVEC)
                return
            # n positions (a map, which soac-fusion may fuse in) for n + 1 values
            pos, dest = self.host_positions(self.pick(self.arrays["n"][IVEC])), self.fresh("dest")
            if kind == "scatter":
                self.emit(self.host, f"{dest} = soac.copy {self.pick(self.arrays['n'][NVEC])} : {NVEC}")
                self.emit(self.host, f"{name} = soac.scatter {dest}[{pos}] = {longer} : {NVEC}, {IVEC}, {NVEC}")
                self.host.add(name, NVEC)
                return
            neutral, body = self.operator(self.host, F, self.chance(0.5))
            self.emit(self.host, f"{dest} = soac.replicate {self.index_const(self.host, 3)}, {neutral} : f32 -> tensor<3xf32>")
            self.emit(self.host, f"{name} = soac.hist {dest}[{pos}], {longer} neutral({neutral} : f32) : tensor<3xf32>, {IVEC}, {NVEC} {{")
            self.host.lines += body
            self.emit(self.host, "}")
            self.host.add(name, "tensor<3xf32>")
        else:
            made, part, name = self.fresh("made"), self.fresh("part"), self.fresh("bad")
            self.emit(self.host, f"{made} = soac.copy {self.pick(self.arrays['n'][NVEC])} : {NVEC}")
            self.emit(self.host, f"{part} = soac.concat %a, %one : ({NVEC}, tensor<1xf32>) -> {NVEC}")
            self.emit(self.host, f"{name} = soac.update {made}[%zero:%n] = {part} : {NVEC}, {NVEC}")
            self.host.add(name, NVEC)

    def program(self) -> str:
        h = self.host
        self.emit(h, "%zero = arith.constant 0 : index")
        self.emit(h, "%unit = arith.constant 1 : index")
        self.emit(h, "%mask255 = arith.constant 255 : i32")
        self.emit(h, "%n = soac.size %a[0] : tensor<?xf32>")
        self.emit(h, "%n1 = arith.addi %n, %unit : index")
        self.emit(h, "%one = soac.replicate %unit, %s : f32 -> tensor<1xf32>")
        h.uniform |= {"%zero", "%unit", "%n", "%n1", "%s", "%j", "%mask255"}
        h.add("%s", F, uniform=True)
        h.add("%mask255", I, uniform=True)
        # an element read that works for every n, 0 included (%j < max(n, 1))
        self.emit(h, "%a1 = soac.concat %a, %one : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>")
        self.emit(h, "%aj = soac.index %a1[%j] : tensor<?xf32>")
        h.add("%aj", F, uniform=True)
        self.arrays["n"][NVEC].append("%a")
        self.arrays["n"][IVEC].append("%k")
        self.arrays["n"][NMAT].append("%m")
        kinds = [self.host_map] * 4 + [self.host_reduce] * 2 + [self.host_hist_rows, self.host_scatter_rows, self.host_zero_rows, self.host_loop]
        for _ in range(int(self.rng.integers(3, 7))):
            if self.error and not self.error_placed and self.chance(0.15):
                self.host_error()
            kinds[int(self.rng.integers(len(kinds)))]()
        if self.error and not self.error_placed:
            self.host_error()
        returned = [(v, t) for t, vs in h.values.items() for v in vs if v not in self.consumed and t not in (X,)]
        returned = [(v, t) for v, t in returned if not v.startswith("%c") or v == "%mask255"]
        head = "func.func @main(%a: tensor<?xf32>, %k: tensor<?xi32>, %m: tensor<?x4xf32>, %s: f32, %j: index)"
        head += f" -> ({', '.join(t for _, t in returned)}) {{"
        tail = f"  func.return {', '.join(v for v, _ in returned)} : {', '.join(t for _, t in returned)}\n}}\n"
        return head + "\n" + "\n".join(h.lines) + "\n" + tail


def program(seed: int) -> tuple[str, str]:
    """The program of `seed` and its deliberate error ("" for none)."""
    g = Generator(seed)
    return g.program(), g.error


def make_inputs(rng: np.random.Generator, n: int) -> tuple:
    a = rng.integers(-6, 7, n).astype(np.float32)
    k = rng.integers(-3, 12, n).astype(np.int32)
    m = rng.integers(-6, 7, (n, 4)).astype(np.float32)
    return a, k, m, np.float32(rng.integers(-4, 5)), int(rng.integers(max(n, 1)))
