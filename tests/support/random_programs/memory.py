"""The "memory" family: programs for differential tests of the memory passes, chains of
maps (row-wise, with reversed reads, with an input passed through, with a loop per
lane updating its row in place), copies, concatenations and their slices,
in-place updates of elements and of rows, replicates, transposes, scalar reads,
reductions, `scf.if`s and `scf.for`s carrying arrays, all over arrays of one length n
(and n x n matrices, and 2n-long concatenations), so that every program is regular
and runs for any n >= 1 and indices i, j < n.

`program(seed)` gives the MLIR text, `make_inputs(rng, n)` arguments for it. Tests use
it through tests.support.random_programs.random_program("memory", seed), whose
inputs(n) draw from a generator seeded 10_000 + seed.
"""

from __future__ import annotations

import numpy as np

VEC = "tensor<?xf32>"
MAT = "tensor<?x?xf32>"
SIGNATURE = f"%a: {VEC}, %b: {VEC}, %m: {MAT}, %i: index, %j: index, %c: i1"


class Generator:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.counter = 0
        self.lines: list[str] = []
        self.indent = "  "

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append(self.indent + line)

    def pick(self, pool: list[str]) -> str:
        return pool[int(self.rng.integers(len(pool)))]

    def recent(self, pool: list[str]) -> str:
        """Mostly one of the last few values: chains rather than scattered uses."""
        if len(pool) > 2 and self.rng.random() < 0.7:
            return self.pick(pool[-3:])
        return self.pick(pool)

    # --- scalars ----------------------------------------------------------------------

    def scalar_op(self, lhs: str, rhs: str) -> str:
        out = self.fresh("s")
        op = self.pick(["addf", "subf", "mulf", "maximumf"])
        self.emit(f"{out} = arith.{op} {lhs}, {rhs} : f32")
        return out

    def constant(self) -> str:
        out = self.fresh("k")
        value = self.pick(["0.5", "1.5", "-1.0", "2.0", "0.25"])
        self.emit(f"{out} = arith.constant {value} : f32")
        return out

    # --- array ops ------------------------------------------------------------------------

    def map1(self, x: str, k: str) -> str:
        out, e = self.fresh("v"), self.fresh("e")
        self.emit(f"{out} = soac.map({x}) : ({VEC}) -> {VEC} {{")
        self.emit(f"^bb0({e}: f32):")
        r = self.fresh("r")
        self.emit(f"  {r} = arith.{self.pick(['addf', 'mulf', 'subf'])} {e}, {k} : f32")
        self.emit(f"  soac.yield {r} : f32")
        self.emit("}")
        return out

    def map2(self, x: str, y: str) -> str:
        out, e, f = self.fresh("v"), self.fresh("e"), self.fresh("e")
        self.emit(f"{out} = soac.map({x}, {y}) : ({VEC}, {VEC}) -> {VEC} {{")
        self.emit(f"^bb0({e}: f32, {f}: f32):")
        r = self.fresh("r")
        self.emit(f"  {r} = arith.{self.pick(['addf', 'subf', 'minimumf'])} {e}, {f} : f32")
        self.emit(f"  soac.yield {r} : f32")
        self.emit("}")
        return out

    def map_pair(self, x: str, k: str) -> tuple[str, str]:
        """Two outputs, one of them the lane's input element passed through."""
        out, kept, e, r = self.fresh("v"), self.fresh("v"), self.fresh("e"), self.fresh("r")
        self.emit(f"{out}, {kept} = soac.map({x}) : ({VEC}) -> ({VEC}, {VEC}) {{")
        self.emit(f"^bb0({e}: f32):")
        self.emit(f"  {r} = arith.addf {e}, {k} : f32")
        first, second = (r, e) if self.rng.random() < 0.5 else (e, r)
        self.emit(f"  soac.yield {first}, {second} : f32, f32")
        self.emit("}")
        return out, kept

    def lane_loop(self, mt: str, k: str) -> str:
        """Each lane runs a recurrence over its row, updating the row in place."""
        out, row, r, t, acc = (self.fresh(s) for s in ("mm", "row", "lr", "t", "acc"))
        self.emit(f"{out} = soac.map({mt}) : ({MAT}) -> {MAT} {{")
        self.emit(f"^bb0({row}: {VEC}):")
        self.emit(f"  {r} = scf.for {t} = %c1 to %n step %c1 iter_args({acc} = {row}) -> ({VEC}) {{")
        tm, e, p, q, f, acc2 = (self.fresh(s) for s in ("tm", "e", "e", "q", "f", "acc"))
        self.emit(f"    {tm} = arith.subi {t}, %c1 : index")
        self.emit(f"    {e} = soac.index {acc}[{t}] : {VEC}")
        self.emit(f"    {p} = soac.index {acc}[{tm}] : {VEC}")
        self.emit(f"    {q} = arith.mulf {p}, {k} : f32")
        self.emit(f"    {f} = arith.subf {e}, {q} : f32")
        self.emit(f"    {acc2} = soac.update {acc}[{t}] = {f} : {VEC}, f32")
        self.emit(f"    scf.yield {acc2} : {VEC}")
        self.emit("  }")
        self.emit(f"  soac.yield {r} : {VEC}")
        self.emit("}")
        return out

    def map_reversed(self, x: str) -> str:
        """out[t] = x[n-1-t] + x[t]: lanes read other lanes' elements."""
        out, t = self.fresh("v"), self.fresh("t")
        self.emit(f"{out} = soac.map(%iota) : (tensor<?xindex>) -> {VEC} {{")
        self.emit(f"^bb0({t}: index):")
        last, idx, e, f, r = (self.fresh(s) for s in ("l", "x", "e", "e", "r"))
        self.emit(f"  {last} = arith.subi %n, %c1 : index")
        self.emit(f"  {idx} = arith.subi {last}, {t} : index")
        self.emit(f"  {e} = soac.index {x}[{idx}] : {VEC}")
        self.emit(f"  {f} = soac.index {x}[{t}] : {VEC}")
        self.emit(f"  {r} = arith.addf {e}, {f} : f32")
        self.emit(f"  soac.yield {r} : f32")
        self.emit("}")
        return out

    def map_rows(self, mt: str, k: str) -> str:
        out, row, x = self.fresh("mm"), self.fresh("row"), self.fresh("e")
        self.emit(f"{out} = soac.map({mt}) : ({MAT}) -> {MAT} {{")
        self.emit(f"^bb0({row}: {VEC}):")
        inner = self.fresh("v")
        self.emit(f"  {inner} = soac.map({row}) : ({VEC}) -> {VEC} {{")
        self.emit(f"  ^bb1({x}: f32):")
        r = self.fresh("r")
        self.emit(f"    {r} = arith.addf {x}, {k} : f32")
        self.emit(f"    soac.yield {r} : f32")
        self.emit("  }")
        self.emit(f"  soac.yield {inner} : {VEC}")
        self.emit("}")
        return out


class ProgramBuilder(Generator):
    def __init__(self, seed: int):
        super().__init__(seed)
        self.vecs = ["%a", "%b"]
        self.mats = ["%m"]
        self.longs: list[str] = []
        self.scalars: list[str] = []

    def step(self, depth: int = 0) -> None:
        """One random statement (or a structured one whose bodies hold more)."""
        choices = ["map1", "map2", "reversed", "copy", "concat", "slice", "index", "update",
                   "row_update", "row", "replicate", "mat_map", "transpose", "rep_row", "pair"]
        if depth < 1:
            choices += ["if", "if", "for", "for", "reduce", "lane_loop"]
        kind = self.pick(choices)
        k = self.pick(self.scalars) if self.scalars and self.rng.random() < 0.5 else self.constant()
        x = self.recent(self.vecs)
        if kind == "map1":
            self.vecs.append(self.map1(x, k))
        elif kind == "map2":
            self.vecs.append(self.map2(x, self.pick(self.vecs)))
        elif kind == "pair":
            self.vecs.extend(self.map_pair(x, k))
        elif kind == "reversed":
            self.vecs.append(self.map_reversed(x))
        elif kind == "copy":
            out = self.fresh("cp")
            self.emit(f"{out} = soac.copy {x} : {VEC}")
            self.vecs.append(out)
        elif kind == "concat":
            out = self.fresh("cat")
            self.emit(f"{out} = soac.concat {x}, {self.pick(self.vecs)} : ({VEC}, {VEC}) -> {VEC}")
            self.longs.append(out)
        elif kind == "slice" and self.longs:
            out = self.fresh("half")
            start = self.pick(["%c0", "%n"])
            self.emit(f"{out} = soac.slice {self.recent(self.longs)}[{start}:%n] : {VEC} -> {VEC}")
            self.vecs.append(out)
        elif kind == "index":
            out = self.fresh("x")
            self.emit(f"{out} = soac.index {x}[{self.pick(['%i', '%j'])}] : {VEC}")
            self.scalars.append(out)
        elif kind == "update":
            out = self.fresh("u")
            self.emit(f"{out} = soac.update {x}[{self.pick(['%i', '%j'])}] = {k} : {VEC}, f32")
            self.vecs.append(out)
        elif kind == "row_update":
            out = self.fresh("mu")
            self.emit(f"{out} = soac.update {self.recent(self.mats)}[{self.pick(['%i', '%j'])}] = {x} : {MAT}, {VEC}")
            self.mats.append(out)
        elif kind == "row":
            out = self.fresh("rw")
            self.emit(f"{out} = soac.index {self.pick(self.mats)}[{self.pick(['%i', '%j'])}] : {MAT}")
            self.vecs.append(out)
        elif kind == "replicate":
            out = self.fresh("rep")
            self.emit(f"{out} = soac.replicate %n, {k} : f32 -> {VEC}")
            self.vecs.append(out)
        elif kind == "rep_row":
            out = self.fresh("rm")
            self.emit(f"{out} = soac.replicate %n, {x} : {VEC} -> {MAT}")
            self.mats.append(out)
        elif kind == "lane_loop":
            self.mats.append(self.lane_loop(self.pick(self.mats), k))
        elif kind == "mat_map":
            self.mats.append(self.map_rows(self.pick(self.mats), k))
        elif kind == "transpose":
            out = self.fresh("tr")
            self.emit(f"{out} = soac.transpose {self.pick(self.mats)} [1, 0] : {MAT} -> {MAT}")
            self.mats.append(out)
        elif kind == "reduce":
            out, l, r, s = self.fresh("sum"), self.fresh("l"), self.fresh("r"), self.fresh("s")
            self.emit(f"{out} = soac.reduce({x}) neutral(%zero : f32) commutative : ({VEC}) -> f32 {{")
            self.emit(f"^bb0({l}: f32, {r}: f32):")
            self.emit(f"  {s} = arith.addf {l}, {r} : f32")
            self.emit(f"  soac.yield {s} : f32")
            self.emit("}")
            self.scalars.append(out)
        elif kind == "if":
            self.vecs.append(self.branch(depth))
        elif kind == "for":
            self.vecs.append(self.loop(depth))

    def nested(self, depth: int, carried: list[str]) -> str:
        """1-3 statements in a body; returns a vector to yield (made there or not)."""
        saved = (list(self.vecs), list(self.mats), list(self.longs), list(self.scalars), self.indent)
        self.vecs += carried
        self.indent += "  "
        for _ in range(int(self.rng.integers(1, 4))):
            self.step(depth + 1)
        result = self.pick(self.vecs[-3:])
        self.vecs, self.mats, self.longs, self.scalars, indent = saved
        self.indent = indent
        return result

    def branch(self, depth: int) -> str:
        out = self.fresh("if")
        cond = self.pick(["%c", "%cmp"])
        self.emit(f"{out} = scf.if {cond} -> ({VEC}) {{")
        y = self.nested(depth, [])
        self.emit(f"  scf.yield {y} : {VEC}")
        self.emit("} else {")
        y = self.nested(depth, [])
        self.emit(f"  scf.yield {y} : {VEC}")
        self.emit("}")
        return out

    def loop(self, depth: int) -> str:
        out, it, acc = self.fresh("for"), self.fresh("it"), self.fresh("acc")
        init = self.pick(self.vecs)
        self.emit(f"{out} = scf.for {it} = %c0 to %c2 step %c1 iter_args({acc} = {init}) -> ({VEC}) {{")
        y = self.nested(depth, [acc])
        self.emit(f"  scf.yield {y} : {VEC}")
        self.emit("}")
        return out

    def build(self) -> str:
        header = [
            f"func.func @main({SIGNATURE}) -> ({VEC}, {VEC}, {MAT}, f32) {{",
            "  %c0 = arith.constant 0 : index",
            "  %c1 = arith.constant 1 : index",
            "  %c2 = arith.constant 2 : index",
            "  %zero = arith.constant 0.0 : f32",
            f"  %n = soac.size %a[0] : {VEC}",
            "  %iota = soac.iota %n : tensor<?xindex>",
            f"  %first = soac.index %b[%c0] : {VEC}",
            "  %cmp = arith.cmpf ogt, %first, %zero : f32",
        ]
        for _ in range(int(self.rng.integers(6, 16))):
            self.step()
        v1, v2, mt = self.pick(self.vecs), self.pick(self.vecs[-3:]), self.recent(self.mats)
        total, l, r, s = self.fresh("sum"), self.fresh("l"), self.fresh("r"), self.fresh("s")
        self.emit(f"{total} = soac.reduce({v2}) neutral(%zero : f32) commutative : ({VEC}) -> f32 {{")
        self.emit(f"^bb0({l}: f32, {r}: f32):")
        self.emit(f"  {s} = arith.addf {l}, {r} : f32")
        self.emit(f"  soac.yield {s} : f32")
        self.emit("}")
        self.emit(f"func.return {v1}, {v2}, {mt}, {total} : {VEC}, {VEC}, {MAT}, f32")
        return "\n".join([*header, *self.lines, "}"]) + "\n"


def program(seed: int) -> str:
    return ProgramBuilder(seed).build()


def make_inputs(rng: np.random.Generator, n: int) -> tuple:
    a = rng.uniform(-2, 2, n).astype(np.float32)
    b = rng.uniform(-2, 2, n).astype(np.float32)
    m = rng.uniform(-2, 2, (n, n)).astype(np.float32)
    return a, b, m, int(rng.integers(n)), int(rng.integers(n)), bool(rng.integers(2))
