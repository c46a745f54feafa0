"""`math` in the reference executor: every function of runtime/interp/math.py on f32
and f64 (integer ones on i32 and i64, the bit counts on i1 too), at host level and inside a soac.map lambda,
against Python's `math` module (computed in f64, rounded to the type)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from tests.support.rt_util import DTYPES, SIZES, assert_array, assert_close, assert_scalar, random_ints, run, wrap

# --------------------------------------------------------------------------------------
# Templates
# --------------------------------------------------------------------------------------


def host_fn(op: str, types: list[str], rt: str, type_text: str | None = None) -> str:
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%a{i}" for i in range(len(types)))
    return f"""func.func @main({params}) -> {rt} {{
  %r = math.{op} {operands} : {type_text or rt}
  func.return %r : {rt}
}}"""


def map_fn(op: str, types: list[str], rt: str, type_text: str | None = None) -> str:
    params = ", ".join(f"%a{i}: tensor<?x{t}>" for i, t in enumerate(types))
    ins = ", ".join(f"%a{i}" for i in range(len(types)))
    in_types = ", ".join(f"tensor<?x{t}>" for t in types)
    lam = ", ".join(f"%x{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%x{i}" for i in range(len(types)))
    return f"""func.func @main({params}) -> tensor<?x{rt}> {{
  %r = soac.map({ins}) : ({in_types}) -> tensor<?x{rt}> {{
  ^bb0({lam}):
    %z = math.{op} {operands} : {type_text or rt}
    soac.yield %z : {rt}
  }}
  func.return %r : tensor<?x{rt}>
}}"""


# --------------------------------------------------------------------------------------
# Float functions
# --------------------------------------------------------------------------------------


def _round_half_away(x: float) -> float:
    if not math.isfinite(x):
        return x
    t = float(math.trunc(x))
    if abs(x - t) >= 0.5:  # exact in f64 for an f32/f64 x
        t += math.copysign(1.0, x)
    return math.copysign(t, x)


def _roundeven(x: float) -> float:
    if not math.isfinite(x):
        return x
    return math.copysign(float(round(x)), x)


def _guard(fn):
    def g(*xs):
        try:
            return fn(*xs)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return g


def uniform(lo, hi):
    return lambda rng, n: rng.uniform(lo, hi, n)


def wide(rng, n):
    return rng.standard_normal(n) * 10.0 ** rng.integers(-2, 4, n)


def halves(rng, n):
    """Values on and near .5, where rounding modes differ."""
    base = rng.integers(-50, 50, n) + 0.5
    jitter = np.where(rng.random(n) < 0.5, 0.0, rng.uniform(-0.4, 0.4, n))
    return base + jitter


UNARY = {
    # name: (reference on floats, input generator)
    "absf": (abs, wide),
    "acos": (math.acos, uniform(-0.999, 0.999)),
    "acosh": (math.acosh, uniform(1.0, 1e3)),
    "asin": (math.asin, uniform(-0.999, 0.999)),
    "asinh": (math.asinh, wide),
    "atan": (math.atan, wide),
    "atanh": (math.atanh, uniform(-0.99, 0.99)),
    "cbrt": (lambda x: math.copysign(abs(x) ** (1 / 3), x), wide),
    "ceil": (lambda x: float(math.ceil(x)), wide),
    "cos": (math.cos, uniform(-10, 10)),
    "cosh": (math.cosh, uniform(-20, 20)),
    "erf": (math.erf, uniform(-4, 4)),
    "exp2": (lambda x: 2.0**x, uniform(-30, 30)),
    "expm1": (math.expm1, uniform(-5, 5)),
    "exp": (math.exp, uniform(-30, 30)),
    "floor": (lambda x: float(math.floor(x)), wide),
    "log10": (math.log10, uniform(1e-3, 1e6)),
    "log1p": (math.log1p, uniform(-0.9, 1e3)),
    "log2": (math.log2, uniform(1e-3, 1e6)),
    "log": (math.log, uniform(1e-3, 1e6)),
    "round": (_round_half_away, halves),
    "roundeven": (_roundeven, halves),
    "rsqrt": (lambda x: 1 / math.sqrt(x), uniform(1e-3, 1e6)),
    "sin": (math.sin, uniform(-10, 10)),
    "sinh": (math.sinh, uniform(-20, 20)),
    "sqrt": (math.sqrt, uniform(0, 1e6)),
    "tan": (math.tan, uniform(-1.5, 1.5)),
    "tanh": (math.tanh, uniform(-5, 5)),
    "trunc": (lambda x: float(math.trunc(x)), wide),
}

EXACT = {"absf", "ceil", "floor", "round", "roundeven", "trunc"}


def _reference(fn, dt, *arrays):
    with np.errstate(over="ignore"):
        return np.array([_guard(fn)(*xs) for xs in zip(*(a.tolist() for a in arrays))], np.float64).astype(dt)


def _check(got, want, dt, exact):
    if exact:
        assert_array(got, want, dt)
    else:
        assert_close(got, want, dt, rtol=2e-6 if dt == np.float32 else 5e-15, atol=1e-37 if dt == np.float32 else 1e-300)


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_float(name, t, rng):
    fn, gen = UNARY[name]
    dt = DTYPES[t]
    host = host_fn(name, [t], t)
    for x in gen(rng, 6).astype(dt):
        got = run(host, x)
        want = _reference(fn, dt, np.array([x]))[0]
        assert isinstance(got, np.generic) and got.dtype == dt
        _check(np.array([got]), np.array([want]), dt, name in EXACT)
    mapped = map_fn(name, [t], t)
    for n in SIZES:
        a = gen(rng, n).astype(dt)
        _check(run(mapped, a), _reference(fn, dt, a), dt, name in EXACT)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_float_special_values(t):
    dt = DTYPES[t]
    inf, nan = math.inf, math.nan
    cases = [
        ("sqrt", -1.0, nan),
        ("sqrt", -0.0, -0.0),
        ("log", 0.0, -inf),
        ("log", -1.0, nan),
        ("exp", 1000.0, inf),
        ("exp", -inf, 0.0),
        ("rsqrt", 0.0, inf),
        ("absf", -0.0, 0.0),
        ("absf", -inf, inf),
        ("floor", -0.5, -1.0),
        ("ceil", -0.5, -0.0),
        ("trunc", -2.7, -2.0),
        ("round", 2.5, 3.0),
        ("round", -2.5, -3.0),
        ("round", 0.5, 1.0),
        ("round", -0.4, -0.0),
        ("round", nan, nan),
        ("roundeven", 2.5, 2.0),
        ("roundeven", 3.5, 4.0),
        ("roundeven", -2.5, -2.0),
        ("tanh", inf, 1.0),
        ("atan", -inf, -math.pi / 2),
        ("erf", inf, 1.0),
    ]
    for name, x, want in cases:
        got = run(host_fn(name, [t], t), dt.type(x))
        assert_scalar(got, dt.type(want), dt)
        assert np.signbit(got) == np.signbit(dt.type(want)) or math.isnan(want), (name, x, got)
        got = run(map_fn(name, [t], t), np.array([x, x], dt))
        assert_array(got, np.array([want, want], dt), dt)


@pytest.mark.parametrize(
    "t,x",
    [
        ("f32", float(np.nextafter(np.float32(0.5), np.float32(0)))),
        ("f32", 2.0**23 + 1),
        ("f64", float(np.nextafter(0.5, 0.0))),
        ("f64", 2.0**52 + 1),
    ],
)
def test_round_half_away_exact_near_ties(t, x):
    dt = DTYPES[t]
    want = _round_half_away(x)
    assert_scalar(run(host_fn("round", [t], t), dt.type(x)), dt.type(want), dt)


BINARY = {
    "atan2": (math.atan2, wide, wide),
    "copysign": (math.copysign, wide, lambda rng, n: np.where(rng.random(n) < 0.5, -1.0, 1.0) * np.where(rng.random(n) < 0.2, 0.0, rng.random(n))),
    "powf": (math.pow, uniform(1e-2, 10), uniform(-5, 5)),
}


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_float(name, t, rng):
    fn, ga, gb = BINARY[name]
    dt = DTYPES[t]
    for x, y in zip(ga(rng, 5).astype(dt), gb(rng, 5).astype(dt)):
        got = run(host_fn(name, [t, t], t), x, y)
        _check(np.array([got]), _reference(fn, dt, np.array([x]), np.array([y])), dt, name == "copysign")
    mapped = map_fn(name, [t, t], t)
    for n in SIZES:
        a, b = ga(rng, n).astype(dt), gb(rng, n).astype(dt)
        _check(run(mapped, a, b), _reference(fn, dt, a, b), dt, name == "copysign")


def _fraction_to_float(q: Fraction, dt) -> float:
    """The exact rational q rounded once (to nearest, ties to even) to dt."""
    dt = np.dtype(dt)
    cand = dt.type(float(q))
    best = None
    for c in (np.nextafter(cand, dt.type(-np.inf)), cand, np.nextafter(cand, dt.type(np.inf))):
        d = abs(Fraction(float(c)) - q)
        key = (d, int(c.view(np.int32 if dt == np.float32 else np.int64)) & 1)
        if best is None or key < best[0]:
            best = (key, c)
    return float(best[1])


def _fma(a, b, c, dt):
    return _fraction_to_float(Fraction(a) * Fraction(b) + Fraction(c), dt)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_fma(t, rng):
    dt = DTYPES[t]
    mapped = map_fn("fma", [t, t, t], t)
    for n in SIZES:
        a, b, c = (wide(rng, n).astype(dt) for _ in range(3))
        want = np.array([_fma(x, y, z, dt) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())], dt)
        assert_close(run(mapped, a, b, c), want, dt, rtol=1e-6 if t == "f32" else 1e-15, atol=1e-6)
    got = run(host_fn("fma", [t, t, t], t), dt.type(2.0), dt.type(3.0), dt.type(-1.0))
    assert_scalar(got, 5.0, dt)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_fma_is_fused(t):
    dt = DTYPES[t]
    e = 2.0**-12 if t == "f32" else 2.0**-27
    a = b = 1.0 + e
    c = -(1.0 + 2 * e)  # a*b + c = e*e exactly; unfused, a*b rounds to 1 + 2e, giving 0
    got = run(host_fn("fma", [t, t, t], t), dt.type(a), dt.type(b), dt.type(c))
    assert got == dt.type(e * e)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_fpowi(t, rng):
    dt = DTYPES[t]
    host = host_fn("fpowi", [t, "i32"], t, f"{t}, i32")
    mapped = map_fn("fpowi", [t, "i32"], t, f"{t}, i32")
    for x, k in [(2.0, 10), (2.0, -2), (-3.0, 3), (-1.5, 0), (0.5, 5)]:
        assert_scalar(run(host, dt.type(x), np.int32(k)), dt.type(x**k), dt)
    for n in SIZES:
        a = rng.uniform(-3, 3, n).astype(dt)
        k = rng.integers(-4, 8, n).astype(np.int32)
        want = np.array([_guard(lambda x, y: x**y)(x, y) for x, y in zip(a.tolist(), k.tolist())]).astype(dt)
        assert_close(run(mapped, a, k), want, dt, rtol=1e-5 if t == "f32" else 1e-13)


# --------------------------------------------------------------------------------------
# Integer functions
# --------------------------------------------------------------------------------------


def _ipowi(b: int, e: int, bits: int) -> int:
    if e < 0:
        return 1 if b == 1 else ((1 if e % 2 == 0 else -1) if b == -1 else 0)
    return wrap(pow(b, e, 1 << bits), bits)


@pytest.mark.parametrize("t", ["i32", "i64"])
def test_ipowi(t, rng):
    bits, dt = (32 if t == "i32" else 64), DTYPES[t]
    host = host_fn("ipowi", [t, t], t)
    for b, e in [(3, 4), (-2, 31), (2, bits - 1), (2, bits), (7, 40), (-1, 5), (-1, -3), (-1, -4), (1, -7), (5, -1), (0, 0)]:
        assert_scalar(run(host, dt.type(b), dt.type(e)), _ipowi(b, e, bits), dt)
    mapped = map_fn("ipowi", [t, t], t)
    for n in SIZES:
        b = np.array(random_ints(rng, bits, n), dt)
        b = np.where(b == 0, dt.type(2), b)  # 0 ** negative is not defined
        e = rng.integers(-3, 70, n).astype(dt)
        assert_array(run(mapped, b, e), [_ipowi(x, y, bits) for x, y in zip(b.tolist(), e.tolist())], dt)


def _ctlz(v, bits):
    u = v & ((1 << bits) - 1)
    return bits - u.bit_length()


def _cttz(v, bits):
    u = v & ((1 << bits) - 1)
    return bits if u == 0 else (u & -u).bit_length() - 1


def _ctpop(v, bits):
    return bin(v & ((1 << bits) - 1)).count("1")


BITOPS = {"ctlz": _ctlz, "cttz": _cttz, "ctpop": _ctpop, "absi": lambda v, bits: wrap(abs(v), bits)}


@pytest.mark.parametrize("t", ["i32", "i64"])
@pytest.mark.parametrize("name", sorted(BITOPS))
def test_integer_unary(name, t, rng):
    bits, dt = (32 if t == "i32" else 64), DTYPES[t]
    fn = BITOPS[name]
    host = host_fn(name, [t], t)
    for v in [0, 1, -1, 2, 8, -(2**(bits - 1)), 2 ** (bits - 1) - 1, 0x10]:
        assert_scalar(run(host, dt.type(v)), fn(v, bits), dt)
    mapped = map_fn(name, [t], t)
    for n in SIZES:
        a = random_ints(rng, bits, n)
        shifts = rng.integers(0, bits, n)
        a = [wrap(x << int(s), bits) if k % 3 == 0 else x for k, (x, s) in enumerate(zip(a, shifts))]
        assert_array(run(mapped, np.array(a, dt)), [fn(x, bits) for x in a], dt)


CTLZ_I1 = """func.func @main(%a: tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %r:3 = soac.map(%a) : (tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  ^bb0(%x: i1):
    %l = math.ctlz %x : i1
    %t = math.cttz %x : i1
    %p = math.ctpop %x : i1
    soac.yield %l, %t, %p : i1, i1, i1
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}"""


def test_bit_counts_of_i1():
    lz, tz, pop = run(CTLZ_I1, np.array([True, False]))
    assert_array(lz, [False, True], np.bool_)
    assert_array(tz, [False, True], np.bool_)
    assert_array(pop, [True, False], np.bool_)


def test_erf_matches_math_erf_in_map_of_map(rng):
    """erf over depth-2 lanes (np.vectorize over a broadcast array)."""
    src = """func.func @main(%a: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %r = soac.map(%a) : (tensor<?x?xf64>) -> tensor<?x?xf64> {
  ^bb0(%row: tensor<?xf64>):
    %s = soac.map(%row) : (tensor<?xf64>) -> tensor<?xf64> {
    ^bb1(%x: f64):
      %e = math.erf %x : f64
      soac.yield %e : f64
    }
    soac.yield %s : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}"""
    for shape in [(0, 0), (0, 4), (3, 0), (1, 1), (5, 7)]:
        a = rng.uniform(-3, 3, shape)
        want = np.array([math.erf(x) for x in a.reshape(-1).tolist()]).reshape(shape)
        assert_close(run(src, a), want, np.float64, rtol=1e-15)
