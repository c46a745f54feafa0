"""The "host" family: host programs for the differential tests of reduce-device-syncs,
scalar code around reads of array elements, with everything the migration graph has a
rule for: arith and math ops, calls of a device function and of a host-only one,
`scf.if` with scalar results, `scf.for` and `scf.while` loops carrying scalars (and
arrays), maps capturing scalars, reductions, array literals of scalars, scalar updates,
iota, replicate and slices whose sizes are read.

    @main(%A: tensor<?xi64>, %B: tensor<?xf64>, %k: i64, %c: i1) -> (i64, i64, tensor<?xi64>, f64)

Every index is taken modulo its array's size (arrays are never empty), and every loop
runs at most a few times, so a program fails only where both versions fail alike.
Tests use it through tests.support.random_programs.random_program("host", seed)."""

from __future__ import annotations

import numpy as np

HELPERS = """
func.func private @mix(%a: i64, %b: i64) -> i64 {
  %three = arith.constant 3 : i64
  %p = arith.muli %a, %three : i64
  %s = arith.addi %p, %b : i64
  func.return %s : i64
}
func.func private @hostonly(%x: i64) -> i64 {
  %arr = soac.array [%x, %x] : tensor<2xi64>
  %c1 = arith.constant 1 : index
  %e = soac.index %arr[%c1] : tensor<2xi64>
  func.return %e : i64
}
"""

SCALARS = ("i64", "f64", "i1")


class _Generator:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.lines: list[str] = []
        self.indent = 1
        self.count = 0
        self.env: dict[str, list[str]] = {"i64": ["%k"], "f64": [], "i1": ["%c"], "arr": ["%A"], "farr": ["%B"]}

    # --- helpers -----------------------------------------------------------------------

    def fresh(self, hint: str = "v") -> str:
        self.count += 1
        return f"%{hint}{self.count}"

    def emit(self, text: str) -> None:
        self.lines.append("  " * self.indent + text)

    def pick(self, kind: str) -> str:
        values = self.env[kind]
        if not values:
            return self.make(kind)
        # prefer recent values: they depend on reads more often
        weights = np.arange(1, len(values) + 1, dtype=float)
        return values[self.rng.choice(len(values), p=weights / weights.sum())]

    def make(self, kind: str) -> str:
        """A value of `kind` when there is none: a constant or a read."""
        v = self.fresh("k")
        if kind == "i64":
            self.emit(f"{v} = arith.constant {int(self.rng.integers(-3, 6))} : i64")
        elif kind == "f64":
            self.emit(f"{v} = arith.constant {float(self.rng.uniform(-2, 2)):.3f} : f64")
        elif kind == "i1":
            self.emit(f"{v} = arith.constant {'true' if self.rng.integers(0, 2) else 'false'}")
        else:
            raise AssertionError(kind)
        self.env[kind].append(v)
        return v

    def constant_index(self, n: int) -> str:
        v = self.fresh("c")
        self.emit(f"{v} = arith.constant {n} : index")
        return v

    def index_into(self, array: str, kind: str) -> str:
        """An index valid in `array`: a scalar modulo its size (or 0)."""
        if self.rng.random() < 0.25:
            return self.constant_index(0)
        t = self.fresh("t")
        self.emit(f"{t} = arith.index_cast {self.pick('i64')} : i64 to index")
        n = self.fresh("n")
        self.emit(f"{n} = soac.size {array}[0] : tensor<?x{kind}>")
        i = self.fresh("i")
        self.emit(f"{i} = arith.remui {t}, {n} : index")
        return i

    def small_count(self) -> str:
        """A count in 1..4 that depends on a scalar."""
        t = self.fresh("t")
        self.emit(f"{t} = arith.index_cast {self.pick('i64')} : i64 to index")
        four = self.constant_index(4)
        r = self.fresh("r")
        self.emit(f"{r} = arith.remui {t}, {four} : index")
        one = self.constant_index(1)
        n = self.fresh("n")
        self.emit(f"{n} = arith.addi {r}, {one} : index")
        return n

    def add(self, kind: str, value: str) -> None:
        self.env[kind].append(value)

    # --- statements ------------------------------------------------------------------------

    def statements(self, count: int, depth: int) -> None:
        for _ in range(count):
            self.statement(depth)

    def statement(self, depth: int) -> None:
        kinds = ["read", "read", "fread", "binop", "binop", "fbinop", "cmp", "select", "convert", "math",
                 "map", "reduce", "literal", "update", "iota", "replicate", "slice", "call", "hostcall"]
        if depth < 2:
            kinds += ["if", "if", "for", "for", "while"]
        getattr(self, "s_" + self.rng.choice(kinds))(depth)

    def s_read(self, depth: int) -> None:
        a = self.pick("arr")
        i = self.index_into(a, "i64")
        v = self.fresh("x")
        self.emit(f"{v} = soac.index {a}[{i}] : tensor<?xi64>")
        self.add("i64", v)

    def s_fread(self, depth: int) -> None:
        a = self.pick("farr")
        i = self.index_into(a, "f64")
        v = self.fresh("f")
        self.emit(f"{v} = soac.index {a}[{i}] : tensor<?xf64>")
        self.add("f64", v)

    def s_binop(self, depth: int) -> None:
        op = self.rng.choice(["addi", "subi", "muli", "maxsi", "minsi", "xori"])
        v = self.fresh("b")
        self.emit(f"{v} = arith.{op} {self.pick('i64')}, {self.pick('i64')} : i64")
        self.add("i64", v)

    def s_fbinop(self, depth: int) -> None:
        op = self.rng.choice(["addf", "subf", "mulf", "maximumf"])
        v = self.fresh("g")
        self.emit(f"{v} = arith.{op} {self.pick('f64')}, {self.pick('f64')} : f64")
        self.add("f64", v)

    def s_cmp(self, depth: int) -> None:
        v = self.fresh("p")
        if self.rng.random() < 0.7:
            self.emit(f"{v} = arith.cmpi slt, {self.pick('i64')}, {self.pick('i64')} : i64")
        else:
            self.emit(f"{v} = arith.cmpf olt, {self.pick('f64')}, {self.pick('f64')} : f64")
        self.add("i1", v)

    def s_select(self, depth: int) -> None:
        v = self.fresh("s")
        self.emit(f"{v} = arith.select {self.pick('i1')}, {self.pick('i64')}, {self.pick('i64')} : i64")
        self.add("i64", v)

    def s_convert(self, depth: int) -> None:
        v = self.fresh("cv")
        self.emit(f"{v} = arith.sitofp {self.pick('i64')} : i64 to f64")
        self.add("f64", v)

    def s_math(self, depth: int) -> None:
        a = self.fresh("ab")
        self.emit(f"{a} = math.absf {self.pick('f64')} : f64")
        v = self.fresh("sq")
        self.emit(f"{v} = math.sqrt {a} : f64")
        self.add("f64", v)

    def s_map(self, depth: int) -> None:
        v = self.fresh("m")
        if self.rng.random() < 0.6:
            a, captured = self.pick("arr"), self.pick("i64")
            self.emit(f"{v} = soac.map({a}) : (tensor<?xi64>) -> tensor<?xi64> {{")
            self.emit("^bb0(%e: i64):")
            self.emit(f"  %me = arith.addi %e, {captured} : i64")
            self.emit("  soac.yield %me : i64")
            self.emit("}")
            self.add("arr", v)
        else:
            a, captured = self.pick("farr"), self.pick("f64")
            self.emit(f"{v} = soac.map({a}) : (tensor<?xf64>) -> tensor<?xf64> {{")
            self.emit("^bb0(%e: f64):")
            self.emit(f"  %me = arith.mulf %e, {captured} : f64")
            self.emit("  soac.yield %me : f64")
            self.emit("}")
            self.add("farr", v)

    def s_reduce(self, depth: int) -> None:
        v = self.fresh("red")
        if self.rng.random() < 0.6:
            z = self.make("i64")
            self.emit(f"{v} = soac.reduce({self.pick('arr')}) neutral({z} : i64) commutative : (tensor<?xi64>) -> i64 {{")
            self.emit("^bb0(%l: i64, %r: i64):")
            self.emit("  %lr = arith.addi %l, %r : i64")
            self.emit("  soac.yield %lr : i64")
            self.emit("}")
            self.add("i64", v)
        else:
            z = self.make("f64")
            self.emit(f"{v} = soac.reduce({self.pick('farr')}) neutral({z} : f64) commutative : (tensor<?xf64>) -> f64 {{")
            self.emit("^bb0(%l: f64, %r: f64):")
            self.emit("  %lr = arith.maximumf %l, %r : f64")
            self.emit("  soac.yield %lr : f64")
            self.emit("}")
            self.add("f64", v)

    def s_literal(self, depth: int) -> None:
        lit = self.fresh("lit")
        elements = [self.pick("i64") if self.rng.random() < 0.7 else self.make("i64") for _ in range(3)]
        self.emit(f"{lit} = soac.array [{', '.join(elements)}] : tensor<3xi64>")
        t = self.fresh("t")
        self.emit(f"{t} = arith.index_cast {self.pick('i64')} : i64 to index")
        three = self.constant_index(3)
        i = self.fresh("i")
        self.emit(f"{i} = arith.remui {t}, {three} : index")
        v = self.fresh("le")
        self.emit(f"{v} = soac.index {lit}[{i}] : tensor<3xi64>")
        self.add("i64", v)

    def s_update(self, depth: int) -> None:
        a = self.pick("arr")
        i = self.index_into(a, "i64")
        v = self.fresh("u")
        self.emit(f"{v} = soac.update {a}[{i}] = {self.pick('i64')} : tensor<?xi64>, i64")
        self.add("arr", v)

    def s_iota(self, depth: int) -> None:
        n = self.small_count()
        v = self.fresh("io")
        self.emit(f"{v} = soac.iota {n} : tensor<?xi64>")
        self.add("arr", v)

    def s_replicate(self, depth: int) -> None:
        n = self.small_count()
        v = self.fresh("rep")
        self.emit(f"{v} = soac.replicate {n}, {self.pick('i64')} : i64 -> tensor<?xi64>")
        self.add("arr", v)

    def s_slice(self, depth: int) -> None:
        a = self.pick("arr")
        t = self.fresh("t")
        self.emit(f"{t} = arith.index_cast {self.pick('i64')} : i64 to index")
        n = self.fresh("n")
        self.emit(f"{n} = soac.size {a}[0] : tensor<?xi64>")
        r = self.fresh("r")
        self.emit(f"{r} = arith.remui {t}, {n} : index")
        one = self.constant_index(1)
        cnt = self.fresh("cnt")
        self.emit(f"{cnt} = arith.addi {r}, {one} : index")
        zero = self.constant_index(0)
        v = self.fresh("sl")
        self.emit(f"{v} = soac.slice {a}[{zero}:{cnt}] : tensor<?xi64> -> tensor<?xi64>")
        self.add("arr", v)

    def s_call(self, depth: int) -> None:
        v = self.fresh("mx")
        self.emit(f"{v} = func.call @mix({self.pick('i64')}, {self.pick('i64')}) : (i64, i64) -> i64")
        self.add("i64", v)

    def s_hostcall(self, depth: int) -> None:
        v = self.fresh("h")
        self.emit(f"{v} = func.call @hostonly({self.pick('i64')}) : (i64) -> i64")
        self.add("i64", v)

    # --- structured ops ------------------------------------------------------------------------

    def scoped(self, body) -> None:
        saved = {k: list(v) for k, v in self.env.items()}
        self.indent += 1
        try:
            body()
        finally:
            self.indent -= 1
            self.env = saved

    def s_if(self, depth: int) -> None:
        kinds = [str(self.rng.choice(["i64", "i64", "f64", "arr"])) for _ in range(int(self.rng.integers(1, 3)))]
        types = [_type(k) for k in kinds]
        results = [self.fresh("y") for _ in kinds]
        cond = self.pick("i1")
        self.emit(f"{', '.join(results)} = scf.if {cond} -> ({', '.join(types)}) {{")
        for branch in range(2):
            if branch:
                self.emit("} else {")

            def body():
                self.statements(int(self.rng.integers(0, 4)), depth + 1)
                values = [self.pick(k) for k in kinds]
                self.emit(f"scf.yield {', '.join(values)} : {', '.join(types)}")

            self.scoped(body)
        self.emit("}")
        for k, r in zip(kinds, results):
            self.add(k, r)

    def s_for(self, depth: int) -> None:
        kinds = [str(self.rng.choice(["i64", "i64", "f64", "arr"])) for _ in range(int(self.rng.integers(1, 3)))]
        types = [_type(k) for k in kinds]
        inits = [self.pick(k) for k in kinds]
        count = self.small_count() if self.rng.random() < 0.5 else self.constant_index(int(self.rng.integers(0, 4)))
        zero = self.constant_index(0)
        one = self.constant_index(1)
        params = [self.fresh("q") for _ in kinds]
        results = [self.fresh("w") for _ in kinds]
        iv = self.fresh("iv")
        carried = ", ".join(f"{p} = {v}" for p, v in zip(params, inits))
        self.emit(f"{', '.join(results)} = scf.for {iv} = {zero} to {count} step {one} iter_args({carried}) -> ({', '.join(types)}) {{")

        def body():
            for k, p in zip(kinds, params):
                self.add(k, p)
            self.statements(int(self.rng.integers(1, 5)), depth + 1)
            values = [self.pick(k) for k in kinds]
            self.emit(f"scf.yield {', '.join(values)} : {', '.join(types)}")

        self.scoped(body)
        self.emit("}")
        for k, r in zip(kinds, results):
            self.add(k, r)

    def s_while(self, depth: int) -> None:
        """`while i < limit` with i counting up from 0 (limit at most 3), carrying one
        more value."""
        kind = str(self.rng.choice(["i64", "f64", "arr"]))
        t = _type(kind)
        init = self.pick(kind)
        limit = self.fresh("lim")
        four = self.make_i64(4)
        self.emit(f"{limit} = arith.remsi {self.pick('i64')}, {four} : i64")
        zero = self.make_i64(0)
        i, x = self.fresh("wi"), self.fresh("wx")
        ri, rx = self.fresh("ri"), self.fresh("rx")
        go = self.fresh("go")
        self.emit(f"{ri}, {rx} = scf.while ({i} = {zero}, {x} = {init}) : (i64, {t}) -> (i64, {t}) {{")
        self.indent += 1
        self.emit(f"{go} = arith.cmpi slt, {i}, {limit} : i64")
        self.emit(f"scf.condition({go}) {i}, {x} : i64, {t}")
        self.indent -= 1
        self.emit("} do {")
        ai, ax = self.fresh("ai"), self.fresh("ax")
        self.emit(f"^bb0({ai}: i64, {ax}: {t}):")

        def body():
            self.add("i64", ai)
            self.add(kind, ax)
            self.statements(int(self.rng.integers(1, 4)), depth + 1)
            one = self.make_i64(1)
            nxt = self.fresh("nx")
            self.emit(f"{nxt} = arith.addi {ai}, {one} : i64")
            self.emit(f"scf.yield {nxt}, {self.pick(kind)} : i64, {t}")

        self.scoped(body)
        self.emit("}")
        self.add("i64", ri)
        self.add(kind, rx)

    def make_i64(self, n: int) -> str:
        v = self.fresh("k")
        self.emit(f"{v} = arith.constant {n} : i64")
        return v


def _type(kind: str) -> str:
    return {"i64": "i64", "f64": "f64", "i1": "i1", "arr": "tensor<?xi64>", "farr": "tensor<?xf64>"}[kind]


def program(seed: int) -> str:
    """A random program (MLIR text) with the entry @main described above."""
    rng = np.random.default_rng(seed)
    g = _Generator(rng)
    g.statements(int(rng.integers(4, 12)), 0)
    results = [g.pick("i64"), g.pick("i64"), g.pick("arr"), g.pick("f64")]
    g.emit(f"func.return {', '.join(results)} : i64, i64, tensor<?xi64>, f64")
    header = (
        "func.func @main(%A: tensor<?xi64>, %B: tensor<?xf64>, %k: i64, %c: i1) "
        "-> (i64, i64, tensor<?xi64>, f64) {"
    )
    return HELPERS + header + "\n" + "\n".join(g.lines) + "\n}\n"


def make_inputs(rng: np.random.Generator, n: int) -> tuple:
    """Arguments of @main: arrays n long (n >= 1: indices are taken modulo the size)."""
    a = rng.integers(-3, 9, size=n).astype(np.int64)
    b = rng.uniform(-1.0, 1.0, size=n).astype(np.float64)
    return a, b, np.int64(rng.integers(-4, 9)), bool(rng.integers(0, 2))
