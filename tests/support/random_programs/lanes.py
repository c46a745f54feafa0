"""The "lanes" family: chains of soac.map over 1-3 inputs whose lambdas compose random
arith ops (every integer and float binary op below, shifts, divisions, compares and
selects, negf, absf) over lanes and a captured host scalar, then a reduce or a scan,
in one element type (i32, i64, f32 or f64), each with the same computation written
directly in NumPy (`reference`), for the reference executor's differential tests.

`generate(seed)` gives the program and its reference; `make_inputs(generated, rng, n)`
arguments for it: the inputs n long, then the captured scalar. Tests use it through
tests.support.random_programs.random_program("lanes", seed)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tests.support.rt_util import DTYPES


@dataclass
class Lambda:
    """A lambda being generated: MLIR lines, and per value a NumPy function of the env."""

    t: str
    lines: list[str] = field(default_factory=list)
    values: list[tuple[str, object]] = field(default_factory=list)  # (ssa name, fn(env) -> array)
    counter: int = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"


def _unsigned(dt):
    return np.dtype({np.dtype(np.int32): np.uint32, np.dtype(np.int64): np.uint64}[np.dtype(dt)])


def _np_divsi_pos(a, b):
    """C division of a by a positive b, in NumPy."""
    q = a // b
    return q + ((a % b != 0) & (a < 0)).astype(a.dtype)


INT_BINARY = {
    "addi": np.add,
    "subi": np.subtract,
    "muli": np.multiply,
    "andi": np.bitwise_and,
    "ori": np.bitwise_or,
    "xori": np.bitwise_xor,
    "maxsi": np.maximum,
    "minsi": np.minimum,
    "maxui": lambda a, b: np.maximum(a.view(_unsigned(a.dtype)), b.view(_unsigned(a.dtype))).view(a.dtype),
    "minui": lambda a, b: np.minimum(a.view(_unsigned(a.dtype)), b.view(_unsigned(a.dtype))).view(a.dtype),
}
FLOAT_BINARY = {
    "addf": np.add,
    "subf": np.subtract,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
}
CMPI = {"slt": np.less, "sge": np.greater_equal, "eq": np.equal, "ne": np.not_equal}
CMPF = {"olt": np.less, "oge": np.greater_equal, "ogt": np.greater, "one": np.not_equal}


def _const(lam: Lambda, value, t: str):
    name = lam.fresh()
    text = repr(float(value)) if DTYPES[t].kind == "f" else str(int(value))
    lam.lines.append(f"{name} = arith.constant {text} : {t}")
    dt = DTYPES[t]
    return name, (lambda env, v=dt.type(value): np.full(env["n"], v, dt))


def _gen_op(lam: Lambda, rng):
    """Appends one random op (or a small group) computing a new value."""
    t, dt = lam.t, DTYPES[lam.t]
    # Prefer the newest values and the lambda's parameters over the captured scalar, so
    # that results depend on the lanes.
    weights = np.array([0.3 if name == "%c" else 1.0 for name, _ in lam.values])
    weights[-1] += 2.0
    weights /= weights.sum()
    pick = lambda: lam.values[rng.choice(len(lam.values), p=weights)]  # noqa: E731
    (a, fa), (b, fb) = pick(), pick()
    r = lam.fresh()
    if dt.kind == "f":
        kind = rng.choice(["bin", "bin", "scale", "neg", "abs", "select"])
        if kind == "bin":
            op = rng.choice(sorted(FLOAT_BINARY))
            lam.lines.append(f"{r} = arith.{op} {a}, {b} : {t}")
            return r, lambda env: FLOAT_BINARY[op](fa(env), fb(env))
        if kind == "scale":
            c = float(rng.choice([0.5, -1.5, 1.25, -0.75]))
            k, fk = _const(lam, c, t)
            lam.lines.append(f"{r} = arith.mulf {a}, {k} : {t}")
            return r, lambda env: fa(env) * fk(env)
        if kind == "neg":
            lam.lines.append(f"{r} = arith.negf {a} : {t}")
            return r, lambda env: -fa(env)
        if kind == "abs":
            lam.lines.append(f"{r} = math.absf {a} : {t}")
            return r, lambda env: np.abs(fa(env))
        (x, fx), (y, fy) = pick(), pick()
        pred = rng.choice(sorted(CMPF))
        c = lam.fresh()
        lam.lines.append(f"{c} = arith.cmpf {pred}, {a}, {b} : {t}")
        lam.lines.append(f"{r} = arith.select {c}, {x}, {y} : {t}")
        return r, lambda env: np.where(CMPF[pred](fa(env), fb(env)), fx(env), fy(env))
    bits = dt.itemsize * 8
    kind = rng.choice(["bin", "bin", "bin", "shift", "udiv", "sdiv", "select"])
    if kind == "bin":
        op = rng.choice(sorted(INT_BINARY))
        lam.lines.append(f"{r} = arith.{op} {a}, {b} : {t}")
        return r, lambda env: INT_BINARY[op](fa(env), fb(env))
    if kind == "shift":
        op = rng.choice(["shli", "shrsi", "shrui"])
        m, fm = _const(lam, bits - 1, t)
        s = lam.fresh()
        lam.lines.append(f"{s} = arith.andi {b}, {m} : {t}")
        lam.lines.append(f"{r} = arith.{op} {a}, {s} : {t}")

        def shift(env):
            x, amount = fa(env), fb(env) & fm(env)
            if op == "shli":
                return np.left_shift(x, amount)
            if op == "shrsi":
                return np.right_shift(x, amount)
            u = _unsigned(x.dtype)
            return np.right_shift(x.view(u), amount.astype(u)).view(x.dtype)

        return r, shift
    if kind == "udiv":
        op = rng.choice(["divui", "remui"])
        one, f1 = _const(lam, 1, t)
        d = lam.fresh()
        lam.lines.append(f"{d} = arith.ori {b}, {one} : {t}")
        lam.lines.append(f"{r} = arith.{op} {a}, {d} : {t}")

        def udiv(env):
            u = _unsigned(dt)
            x, y = fa(env).view(u), (fb(env) | f1(env)).view(u)
            return (x // y if op == "divui" else x % y).view(dt)

        return r, udiv
    if kind == "sdiv":
        op = rng.choice(["divsi", "remsi"])
        m, fm = _const(lam, 255, t)
        one, f1 = _const(lam, 1, t)
        d0, d = lam.fresh(), lam.fresh()
        lam.lines.append(f"{d0} = arith.andi {b}, {m} : {t}")
        lam.lines.append(f"{d} = arith.ori {d0}, {one} : {t}")
        lam.lines.append(f"{r} = arith.{op} {a}, {d} : {t}")

        def sdiv(env):
            x, y = fa(env), (fb(env) & fm(env)) | f1(env)
            q = _np_divsi_pos(x, y)
            return q if op == "divsi" else x - q * y

        return r, sdiv
    (x, fx), (y, fy) = pick(), pick()
    pred = rng.choice(sorted(CMPI))
    c = lam.fresh()
    lam.lines.append(f"{c} = arith.cmpi {pred}, {a}, {b} : {t}")
    lam.lines.append(f"{r} = arith.select {c}, {x}, {y} : {t}")
    return r, lambda env: np.where(CMPI[pred](fa(env), fb(env)), fx(env), fy(env))


REDUCTIONS_INT = ["addi", "muli", "maxsi", "xori", "select_max", "last_nonzero", "scan_addi", "scan_last_nonzero"]
REDUCTIONS_FLOAT = ["addf", "maxnumf", "select_max", "scan_addf", "scan_select_max"]


def _operator(kind: str, t: str) -> tuple[str, str, list[str]]:
    """(combinator, neutral literal, body lines over %l, %r) of a reduction kind."""
    dt = DTYPES[t]
    is_f = dt.kind == "f"
    lo = "0xFFF0000000000000" if t == "f64" else "0xFF800000" if t == "f32" else str(-(2 ** (dt.itemsize * 8 - 1)))
    base = kind.removeprefix("scan_")
    comb = "soac.scan" if kind.startswith("scan_") else "soac.reduce"
    if base in ("addi", "muli", "maxsi", "xori", "addf", "maxnumf"):
        neutral = {"addi": "0", "muli": "1", "maxsi": lo, "xori": "0", "addf": "0.0", "maxnumf": lo}[base]
        return comb, neutral, [f"%o = arith.{base} %l, %r : {t}"]
    if base == "select_max":
        cmp = "arith.cmpf ogt" if is_f else "arith.cmpi sgt"
        return comb, lo, [f"%g = {cmp}, %l, %r : {t}", f"%o = arith.select %g, %l, %r : {t}"]
    assert base == "last_nonzero"
    return comb, "0", [f"%zz = arith.constant 0 : {t}", f"%g = arith.cmpi ne, %r, %zz : {t}", f"%o = arith.select %g, %r, %l : {t}"]


def _reference_reduction(kind: str, x: np.ndarray):
    dt = x.dtype
    base = kind.removeprefix("scan_")
    scan = kind.startswith("scan_")
    if base in ("addi", "addf"):
        return np.cumsum(x, dtype=dt) if scan else np.add.reduce(x, dtype=dt)
    if base == "muli":
        return np.multiply.reduce(x, dtype=dt)
    if base in ("maxsi", "maxnumf", "select_max"):
        if scan:
            return np.maximum.accumulate(x)
        lo = -np.inf if dt.kind == "f" else np.iinfo(dt).min
        return dt.type(max(x.max(initial=lo), lo))
    if base == "xori":
        return np.bitwise_xor.reduce(x, dtype=dt)
    assert base == "last_nonzero"
    pos = np.where(x != 0, np.arange(len(x)), -1)
    last = np.maximum.accumulate(pos) if scan else np.array([pos.max(initial=-1)])
    vals = np.where(last >= 0, x[np.maximum(last, 0)] if len(x) else last.astype(dt), 0).astype(dt)
    return vals if scan else vals[0]


@dataclass
class Generated:
    src: str
    t: str
    n_inputs: int
    reduction: str
    reference: object  # fn(inputs, c) -> (last map result, reduction)


def generate(seed: int) -> Generated:
    rng = np.random.default_rng(seed)
    t = str(rng.choice(["i32", "i64", "f32", "f64"]))
    dt = DTYPES[t]
    n_inputs = int(rng.integers(1, 4))
    arrays: list[tuple[str, object]] = [(f"%in{i}", (lambda env, i=i: env["inputs"][i])) for i in range(n_inputs)]
    body: list[str] = []
    tt = f"tensor<?x{t}>"
    n_maps = int(rng.integers(1, 4))
    for m in range(n_maps):
        k = int(rng.integers(1, min(3, len(arrays)) + 1))
        chosen = [arrays[i] for i in rng.choice(len(arrays), k, replace=False)]
        lam = Lambda(t)
        params = []
        for j, (_, fn) in enumerate(chosen):
            name = f"%p{m}_{j}"
            params.append(f"{name}: {t}")
            lam.values.append((name, fn))
        lam.values.append(("%c", lambda env: np.full(env["n"], env["c"], dt)))  # captured host scalar
        for _ in range(int(rng.integers(1, 7))):
            lam.values.append(_gen_op(lam, rng))
        n_res = int(rng.integers(1, 3))
        results = [lam.values[-1]] + ([lam.values[rng.integers(len(lam.values))]] if n_res == 2 else [])
        names = [f"%m{m}_{r}" for r in range(n_res)]
        lhs = names[0] if n_res == 1 else f"%m{m}:2"
        body.append(
            f"  {lhs} = soac.map({', '.join(a for a, _ in chosen)}) : ({', '.join([tt] * k)}) -> "
            f"({', '.join([tt] * n_res)}) {{"
        )
        body.append(f"  ^bb0({', '.join(params)}):")
        body.extend(f"    {line}" for line in lam.lines)
        body.append(f"    soac.yield {', '.join(r for r, _ in results)} : {', '.join([t] * n_res)}")
        body.append("  }")
        for r, (rname, rfn) in enumerate(results):
            ssa = names[0] if n_res == 1 else f"%m{m}#{r}"
            arrays.append((ssa, rfn))
    last_name, last_fn = arrays[-1]
    kinds = REDUCTIONS_FLOAT if dt.kind == "f" else REDUCTIONS_INT
    reduction = str(rng.choice(kinds))
    comb, neutral, op_lines = _operator(reduction, t)
    rt = tt if comb == "soac.scan" else t
    body.append(f"  %nz = arith.constant {neutral} : {t}")
    body.append(f"  %red = {comb}({last_name}) neutral(%nz : {t}) : ({tt}) -> {rt} {{")
    body.append(f"  ^bb0(%l: {t}, %r: {t}):")
    body.extend(f"    {line}" for line in op_lines)
    body.append(f"    soac.yield %o : {t}")
    body.append("  }")
    params = ", ".join([f"%in{i}: {tt}" for i in range(n_inputs)] + [f"%c: {t}"])
    src = (
        f"func.func @main({params}) -> ({tt}, {rt}) {{\n"
        + "\n".join(body)
        + f"\n  func.return {last_name}, %red : {tt}, {rt}\n}}"
    )

    def reference(inputs, c):
        env = {"inputs": inputs, "c": c, "n": len(inputs[0])}
        with np.errstate(all="ignore"):
            x = np.asarray(last_fn(env), dt)
            return x, _reference_reduction(reduction, x)

    return Generated(src, t, n_inputs, reduction, reference)


def random_array(rng: np.random.Generator, t: str, n: int) -> np.ndarray:
    dt = DTYPES[t]
    if dt.kind == "f":
        return rng.integers(-64, 64, n).astype(dt) / dt.type(4)  # exact in f32: reductions are exact-ish
    info = np.iinfo(dt)
    full = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    small = rng.integers(-20, 20, n).astype(dt)
    return np.where(rng.random(n) < 0.5, full, small)


def make_inputs(generated: Generated, rng: np.random.Generator, n: int) -> tuple:
    """The program's arrays, n long, then its captured scalar %c."""
    inputs = [random_array(rng, generated.t, n) for _ in range(generated.n_inputs)]
    return (*inputs, random_array(rng, generated.t, 1)[0])
