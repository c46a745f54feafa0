"""`arith` in the reference executor: every op of runtime/interp/arith.py, at host
level (NumPy scalars, depth 0) and inside soac.map lambdas (vectorised lanes, incl. a
map of a map and lane-invariant captured operands), against exact Python semantics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.support.rt_util import (
    BITS,
    DTYPES,
    SIZES,
    assert_array,
    assert_scalar,
    f32_bits,
    f64_bits,
    int_limits,
    int_to_f32,
    random_floats,
    random_ints,
    run,
    special_floats,
    tdiv,
    unsigned,
    wrap,
)

# --------------------------------------------------------------------------------------
# Program templates
# --------------------------------------------------------------------------------------


def host_binop(op: str, t: str, rt: str) -> str:
    return f"""func.func @main(%a: {t}, %b: {t}) -> {rt} {{
  %r = {op}%a, %b : {t}
  func.return %r : {rt}
}}"""


def map_binop(op: str, t: str, rt: str) -> str:
    return f"""func.func @main(%a: tensor<?x{t}>, %b: tensor<?x{t}>) -> tensor<?x{rt}> {{
  %r = soac.map(%a, %b) : (tensor<?x{t}>, tensor<?x{t}>) -> tensor<?x{rt}> {{
  ^bb0(%x: {t}, %y: {t}):
    %z = {op}%x, %y : {t}
    soac.yield %z : {rt}
  }}
  func.return %r : tensor<?x{rt}>
}}"""


def outer_binop(op: str, t: str, rt: str) -> str:
    """r[i, j] = op(a[i], b[j]): a map of a map, whose inner lambda uses a value of the
    outer lambda (lanes (n, 1)) and its own parameter (lanes (1, m))."""
    return f"""func.func @main(%a: tensor<?x{t}>, %b: tensor<?x{t}>) -> tensor<?x?x{rt}> {{
  %r = soac.map(%a) : (tensor<?x{t}>) -> tensor<?x?x{rt}> {{
  ^bb0(%x: {t}):
    %row = soac.map(%b) : (tensor<?x{t}>) -> tensor<?x{rt}> {{
    ^bb1(%y: {t}):
      %z = {op}%x, %y : {t}
      soac.yield %z : {rt}
    }}
    soac.yield %row : tensor<?x{rt}>
  }}
  func.return %r : tensor<?x?x{rt}>
}}"""


def captured_binop(op: str, t: str, rt: str, scalar_first: bool) -> str:
    """op(a[i], c) or op(c, a[i]) with c a host scalar captured by the lambda."""
    operands = "%c, %x" if scalar_first else "%x, %c"
    return f"""func.func @main(%a: tensor<?x{t}>, %c: {t}) -> tensor<?x{rt}> {{
  %r = soac.map(%a) : (tensor<?x{t}>) -> tensor<?x{rt}> {{
  ^bb0(%x: {t}):
    %z = {op}{operands} : {t}
    soac.yield %z : {rt}
  }}
  func.return %r : tensor<?x{rt}>
}}"""


def host_cast(op: str, t: str, rt: str) -> str:
    return f"""func.func @main(%a: {t}) -> {rt} {{
  %r = {op} %a : {t} to {rt}
  func.return %r : {rt}
}}"""


def map_cast(op: str, t: str, rt: str) -> str:
    return f"""func.func @main(%a: tensor<?x{t}>) -> tensor<?x{rt}> {{
  %r = soac.map(%a) : (tensor<?x{t}>) -> tensor<?x{rt}> {{
  ^bb0(%x: {t}):
    %z = {op} %x : {t} to {rt}
    soac.yield %z : {rt}
  }}
  func.return %r : tensor<?x{rt}>
}}"""


# --------------------------------------------------------------------------------------
# Integer binary ops: exact semantics and the operand domain where they are defined
# --------------------------------------------------------------------------------------


def _ceil_div(a, b):
    return -((-a) // b)


INT_OPS = {
    # name: (reference(a, b, bits) on Python ints, domain)
    "addi": (lambda a, b, w: wrap(a + b, w), "all"),
    "subi": (lambda a, b, w: wrap(a - b, w), "all"),
    "muli": (lambda a, b, w: wrap(a * b, w), "all"),
    "divsi": (lambda a, b, w: tdiv(a, b), "sdiv"),
    "remsi": (lambda a, b, w: a - b * tdiv(a, b), "sdiv"),
    "floordivsi": (lambda a, b, w: a // b, "sdiv"),
    "ceildivsi": (lambda a, b, w: _ceil_div(a, b), "sdiv"),
    "divui": (lambda a, b, w: wrap(unsigned(a, w) // unsigned(b, w), w), "udiv"),
    "remui": (lambda a, b, w: wrap(unsigned(a, w) % unsigned(b, w), w), "udiv"),
    "ceildivui": (lambda a, b, w: wrap(_ceil_div(unsigned(a, w), unsigned(b, w)), w), "udiv"),
    "minsi": (lambda a, b, w: min(a, b), "all"),
    "maxsi": (lambda a, b, w: max(a, b), "all"),
    "minui": (lambda a, b, w: a if unsigned(a, w) <= unsigned(b, w) else b, "all"),
    "maxui": (lambda a, b, w: a if unsigned(a, w) >= unsigned(b, w) else b, "all"),
    "andi": (lambda a, b, w: wrap(a & b, w), "all"),
    "ori": (lambda a, b, w: wrap(a | b, w), "all"),
    "xori": (lambda a, b, w: wrap(a ^ b, w), "all"),
    "shli": (lambda a, b, w: wrap(a << b, w), "shift"),
    "shrsi": (lambda a, b, w: a >> b, "shift"),
    "shrui": (lambda a, b, w: wrap(unsigned(a, w) >> b, w), "shift"),
}


def _fix_domain(domain: str, a: list[int], b: list[int], bits: int, rng) -> list[int]:
    """Replaces right operands where the op is undefined (division by zero, signed
    overflow of MIN / -1, shift amounts outside [0, bits))."""
    lo, _ = int_limits(bits)
    out = []
    for x, y in zip(a, b):
        if domain == "shift":
            y = y % bits
        elif domain in ("sdiv", "udiv"):
            if y == 0:
                y = 3
            if domain == "sdiv" and x == lo and y == -1:
                y = -2
        out.append(y)
    return out


def _int_operands(rng, bits, n, domain):
    a = random_ints(rng, bits, n)
    b = random_ints(rng, bits, n)
    if domain == "shift":
        # mostly small shift amounts, incl. 0 and bits-1
        b = [int(v) for v in rng.integers(0, bits, n)]
    return a, _fix_domain(domain, a, b, bits, rng)


def _expected_int(name, a, b, bits):
    fn = INT_OPS[name][0]
    return [fn(x, y, bits) for x, y in zip(a, b)]


@pytest.mark.parametrize("t", ["i32", "i64"])
@pytest.mark.parametrize("name", sorted(INT_OPS))
def test_int_binop_host(name, t, rng):
    bits, dt = BITS[t], DTYPES[t]
    a, b = _int_operands(rng, bits, 16, INT_OPS[name][1])
    src = host_binop(f"arith.{name} ", t, t)
    for x, y, want in zip(a, b, _expected_int(name, a, b, bits)):
        got = run(src, dt.type(x), dt.type(y))
        assert_scalar(got, want, dt)


@pytest.mark.parametrize("t", ["i32", "i64", "index"])
@pytest.mark.parametrize("name", sorted(INT_OPS))
def test_int_binop_in_map(name, t, rng):
    bits, dt = BITS[t], DTYPES[t]
    src = map_binop(f"arith.{name} ", t, t)
    for n in SIZES:
        a, b = _int_operands(rng, bits, n, INT_OPS[name][1])
        got = run(src, np.array(a, dt), np.array(b, dt))
        assert_array(got, _expected_int(name, a, b, bits), dt)


@pytest.mark.parametrize("t", ["i32", "i64"])
@pytest.mark.parametrize("name", sorted(INT_OPS))
def test_int_binop_map_of_map(name, t, rng):
    """Depth-2 lanes: r[i, j] = op(a[i], b[j])."""
    bits, dt = BITS[t], DTYPES[t]
    src = outer_binop(f"arith.{name} ", t, t)
    domain = INT_OPS[name][1]
    for n, m in [(0, 3), (3, 0), (1, 1), (4, 5), (13, 11)]:
        a = random_ints(rng, bits, n)
        b = random_ints(rng, bits, m)
        if domain == "shift":
            b = [v % bits for v in b]
        elif domain in ("sdiv", "udiv"):
            b = [v if v not in (0, -1) else 5 for v in b]
        want = [[INT_OPS[name][0](x, y, bits) for y in b] for x in a]
        got = run(src, np.array(a, dt), np.array(b, dt))
        assert_array(got, np.array(want, dt).reshape(n, m), dt)


@pytest.mark.parametrize("scalar_first", [False, True])
@pytest.mark.parametrize("name", sorted(INT_OPS))
def test_int_binop_captured_scalar(name, scalar_first, rng):
    """One operand is a host scalar captured by the lambda (lane-invariant)."""
    t, bits, dt = "i32", 32, DTYPES["i32"]
    src = captured_binop(f"arith.{name} ", t, t, scalar_first)
    domain = INT_OPS[name][1]
    for c in [-7, -1, 5, int_limits(32)[0], int_limits(32)[1]]:
        if domain == "shift":
            c = c % bits
        elif domain in ("sdiv", "udiv") and c in (0, -1):
            c = 9
        a = random_ints(rng, bits, 33)
        if domain == "shift" and scalar_first:
            a = [v % bits for v in a]
        elif domain in ("sdiv", "udiv") and scalar_first:
            a = [v if v not in (0, -1) else 5 for v in a]
        pairs = [(c, x) if scalar_first else (x, c) for x in a]
        want = [INT_OPS[name][0](x, y, bits) for x, y in pairs]
        got = run(src, np.array(a, dt), dt.type(c))
        assert_array(got, want, dt)


def test_wraparound_at_overflow_boundary():
    """addi/subi/muli wrap at exactly the i32 and i64 boundaries."""
    for t in ("i32", "i64"):
        bits, dt = BITS[t], DTYPES[t]
        lo, hi = int_limits(bits)
        a = np.array([hi, lo, hi, lo, hi, 1 << (bits // 2), -1, lo], dt)
        b = np.array([1, -1, hi, lo, -1, 1 << (bits // 2), lo, -1], dt)
        for name, fn in [("addi", lambda x, y: x + y), ("subi", lambda x, y: x - y), ("muli", lambda x, y: x * y)]:
            got = run(map_binop(f"arith.{name} ", t, t), a, b)
            assert_array(got, [wrap(fn(int(x), int(y)), bits) for x, y in zip(a, b)], dt)
        assert run(host_binop("arith.addi ", t, t), dt.type(hi), dt.type(1)) == lo
        assert run(host_binop("arith.subi ", t, t), dt.type(lo), dt.type(1)) == hi
        assert run(host_binop("arith.muli ", t, t), dt.type(hi), dt.type(2)) == -2


def test_signed_division_rounding_with_negative_operands():
    a = np.array([7, -7, 7, -7, 1, -1, 0, 6, -6], np.int32)
    b = np.array([2, 2, -2, -2, 3, 3, -5, -4, 4], np.int32)
    div = run(map_binop("arith.divsi ", "i32", "i32"), a, b)
    rem = run(map_binop("arith.remsi ", "i32", "i32"), a, b)
    floor = run(map_binop("arith.floordivsi ", "i32", "i32"), a, b)
    ceil = run(map_binop("arith.ceildivsi ", "i32", "i32"), a, b)
    assert div.tolist() == [3, -3, -3, 3, 0, 0, 0, -1, -1]
    assert rem.tolist() == [1, -1, 1, -1, 1, -1, 0, 2, -2]
    assert floor.tolist() == [3, -4, -4, 3, 0, -1, 0, -2, -2]
    assert ceil.tolist() == [4, -3, -3, 4, 1, 0, 0, -1, -1]


def test_unsigned_division_on_top_bit_values():
    lo = -(2**31)
    a = np.array([-1, -1, lo, lo, -2, 5, -1], np.int32)
    b = np.array([2, -1, 2, -1, 3, -1, 16], np.int32)
    u = lambda v: v & 0xFFFFFFFF  # noqa: E731
    div = run(map_binop("arith.divui ", "i32", "i32"), a, b)
    rem = run(map_binop("arith.remui ", "i32", "i32"), a, b)
    ceil = run(map_binop("arith.ceildivui ", "i32", "i32"), a, b)
    assert div.tolist() == [wrap(u(x) // u(y), 32) for x, y in zip(a.tolist(), b.tolist())]
    assert div.tolist()[:2] == [2**31 - 1, 1]
    assert rem.tolist() == [wrap(u(x) % u(y), 32) for x, y in zip(a.tolist(), b.tolist())]
    assert ceil.tolist() == [wrap(-(-u(x) // u(y)), 32) for x, y in zip(a.tolist(), b.tolist())]
    assert ceil.tolist()[0] == lo  # ceil(0xFFFFFFFF / 2) = 0x80000000


def test_shift_right_signed_vs_unsigned_on_negatives():
    a = np.array([-8, -1, -(2**63), 8], np.int64)
    s = np.array([1, 63, 1, 2], np.int64)
    sr = run(map_binop("arith.shrsi ", "i64", "i64"), a, s)
    ur = run(map_binop("arith.shrui ", "i64", "i64"), a, s)
    assert sr.tolist() == [-4, -1, -(2**62), 2]
    assert ur.tolist() == [(2**64 - 8) >> 1, 1, 2**62, 2]


def test_min_max_unsigned_vs_signed():
    a = np.array([-1, 1, -5, 0], np.int32)
    b = np.array([1, -1, -3, -(2**31)], np.int32)
    assert run(map_binop("arith.minsi ", "i32", "i32"), a, b).tolist() == [-1, -1, -5, -(2**31)]
    assert run(map_binop("arith.minui ", "i32", "i32"), a, b).tolist() == [1, 1, -5, 0]
    assert run(map_binop("arith.maxui ", "i32", "i32"), a, b).tolist() == [-1, -1, -3, -(2**31)]


# --------------------------------------------------------------------------------------
# i1 arithmetic is modulo 2
# --------------------------------------------------------------------------------------

I1_OPS = {
    "addi": lambda a, b: a ^ b,
    "subi": lambda a, b: a ^ b,
    "muli": lambda a, b: a & b,
    "andi": lambda a, b: a & b,
    "ori": lambda a, b: a | b,
    "xori": lambda a, b: a ^ b,
}


@pytest.mark.parametrize("name", sorted(I1_OPS))
def test_i1_arith(name):
    fn = I1_OPS[name]
    pairs = [(a, b) for a in (False, True) for b in (False, True)]
    for a, b in pairs:
        got = run(host_binop(f"arith.{name} ", "i1", "i1"), a, b)
        assert_scalar(got, fn(a, b), np.bool_)
    a = np.array([p[0] for p in pairs] * 3, bool)
    b = np.array([p[1] for p in pairs] * 3, bool)
    got = run(map_binop(f"arith.{name} ", "i1", "i1"), a, b)
    assert_array(got, [fn(x, y) for x, y in zip(a.tolist(), b.tolist())], np.bool_)


def test_i1_signed_ops_read_true_as_minus_one():
    # In MLIR an i1 `true` is -1 when read as signed: slt true, false holds and
    # minsi(true, false) = true.
    assert run(host_binop("arith.cmpi slt, ", "i1", "i1"), True, False) == True  # noqa: E712
    assert run(host_binop("arith.minsi ", "i1", "i1"), True, False) == True  # noqa: E712
    assert run(host_binop("arith.maxsi ", "i1", "i1"), True, False) == False  # noqa: E712


# --------------------------------------------------------------------------------------
# Float binary ops
# --------------------------------------------------------------------------------------


def _maximum(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0:
        return 0.0 if not (math.copysign(1, a) < 0 and math.copysign(1, b) < 0) else -0.0
    return max(a, b)


def _minimum(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0:
        return -0.0 if (math.copysign(1, a) < 0 or math.copysign(1, b) < 0) else 0.0
    return min(a, b)


def _maxnum(a, b):
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return max(a, b)


def _minnum(a, b):
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return min(a, b)


def _div(a, b):
    if b == 0:
        if math.isnan(a) or a == 0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1, b)
    return a / b


FLOAT_OPS = {
    "addf": lambda a, b: a + b,
    "subf": lambda a, b: a - b,
    "mulf": lambda a, b: a * b,
    "divf": _div,
    "maximumf": _maximum,
    "minimumf": _minimum,
    "maxnumf": _maxnum,
    "minnumf": _minnum,
}


def _expected_float(name, a, b, dt):
    """In f64 arithmetic (exact enough: one f32 op on f32 operands, rounded once more to
    f32, is the correctly rounded f32 result), then rounded to the type."""
    out = []
    for x, y in zip(a.tolist(), b.tolist()):
        try:
            out.append(FLOAT_OPS[name](x, y))
        except OverflowError:
            out.append(math.inf)
    with np.errstate(over="ignore"):
        return np.array(out, np.float64).astype(dt)


def _no_signed_zero_ties(a, b):
    """minimumf/maximumf of -0.0 and +0.0 is tested separately (see the xfail below)."""
    both_zero = (a == 0) & (b == 0)
    return a, np.where(both_zero, np.ones_like(b), b)


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("name", sorted(FLOAT_OPS))
def test_float_binop_in_map(name, t, rng):
    dt = DTYPES[t]
    src = map_binop(f"arith.{name} ", t, t)
    for n in SIZES:
        a, b = _no_signed_zero_ties(random_floats(rng, n, dt), random_floats(rng, n, dt))
        got = run(src, a, b)
        want = _expected_float(name, a, b, dt)
        assert_array(got, want, dt)
        assert np.array_equal(np.signbit(got), np.signbit(want)) or name in ("maxnumf", "minnumf")


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("name", sorted(FLOAT_OPS))
def test_float_binop_host(name, t, rng):
    dt = DTYPES[t]
    vals = [1.5, -2.25, 0.0, -0.0, math.inf, -math.inf, math.nan, 3e38 if t == "f32" else 1e308]
    src = host_binop(f"arith.{name} ", t, t)
    for x in vals:
        for y in vals[::3] + [7.0]:
            if x == 0 and y == 0:
                continue
            got = run(src, dt.type(x), dt.type(y))
            want = _expected_float(name, np.array([x], dt), np.array([y], dt), dt)[0]
            assert_scalar(got, want, dt)


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("name", sorted(FLOAT_OPS))
def test_float_binop_map_of_map(name, t, rng):
    dt = DTYPES[t]
    a = random_floats(rng, 9, dt)
    b = random_floats(rng, 6, dt)
    a, _ = _no_signed_zero_ties(a, a)
    a = np.where(a == 0, dt.type(0.25), a)
    got = run(outer_binop(f"arith.{name} ", t, t), a, b)
    want = np.stack([_expected_float(name, np.full(6, x, dt), b, dt) for x in a])
    assert_array(got, want, dt)
    got = run(outer_binop(f"arith.{name} ", t, t), a[:0], b)
    assert_array(got, np.zeros((0, 6), dt), dt)


@pytest.mark.parametrize("where", ["host", "map"])
def test_minimumf_maximumf_signed_zeros(where):
    for name, want_negative in [("minimumf", True), ("maximumf", False)]:
        for x, y in [(-0.0, 0.0), (0.0, -0.0)]:
            if where == "host":
                got = run(host_binop(f"arith.{name} ", "f32", "f32"), np.float32(x), np.float32(y))
            else:
                got = run(map_binop(f"arith.{name} ", "f32", "f32"), np.array([x], np.float32), np.array([y], np.float32))[0]
            assert bool(np.signbit(got)) == want_negative, (name, x, y)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_negf(t, rng):
    dt = DTYPES[t]
    host = f"""func.func @main(%a: {t}) -> {t} {{
  %r = arith.negf %a : {t}
  func.return %r : {t}
}}"""
    mapped = f"""func.func @main(%a: tensor<?x{t}>) -> tensor<?x{t}> {{
  %r = soac.map(%a) : (tensor<?x{t}>) -> tensor<?x{t}> {{
  ^bb0(%x: {t}):
    %z = arith.negf %x : {t}
    soac.yield %z : {t}
  }}
  func.return %r : tensor<?x{t}>
}}"""
    for x in special_floats():
        got = run(host, dt.type(x))
        assert_scalar(got, -x, dt)
        assert bool(np.signbit(got)) != bool(np.signbit(dt.type(x))) or math.isnan(x)
    for n in SIZES:
        a = random_floats(rng, n, dt)
        assert_array(run(mapped, a), [-x for x in a.tolist()], dt)


# --------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------

CMPI = {
    "eq": lambda a, b, w: a == b,
    "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b,
    "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b,
    "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: unsigned(a, w) < unsigned(b, w),
    "ule": lambda a, b, w: unsigned(a, w) <= unsigned(b, w),
    "ugt": lambda a, b, w: unsigned(a, w) > unsigned(b, w),
    "uge": lambda a, b, w: unsigned(a, w) >= unsigned(b, w),
}


@pytest.mark.parametrize("t", ["i32", "i64", "index"])
@pytest.mark.parametrize("pred", sorted(CMPI))
def test_cmpi(pred, t, rng):
    bits, dt = BITS[t], DTYPES[t]
    fn = CMPI[pred]
    # host level: negatives against positives (where signed and unsigned disagree)
    src = host_binop(f"arith.cmpi {pred}, ", t, "i1")
    for x, y in [(-1, 1), (1, -1), (-1, -1), (0, 0), (-5, -3), (int_limits(bits)[0], int_limits(bits)[1]), (7, 7)]:
        got = run(src, dt.type(x), dt.type(y))
        assert_scalar(got, fn(x, y, bits), np.bool_)
    src = map_binop(f"arith.cmpi {pred}, ", t, "i1")
    for n in SIZES:
        a = random_ints(rng, bits, n)
        b = [x if k % 4 == 0 else y for k, (x, y) in enumerate(zip(a, random_ints(rng, bits, n)))]
        got = run(src, np.array(a, dt), np.array(b, dt))
        assert_array(got, [fn(x, y, bits) for x, y in zip(a, b)], np.bool_)


def _ordered(a, b):
    return not (math.isnan(a) or math.isnan(b))


CMPF = {
    "false": lambda a, b: False,
    "oeq": lambda a, b: _ordered(a, b) and a == b,
    "ogt": lambda a, b: _ordered(a, b) and a > b,
    "oge": lambda a, b: _ordered(a, b) and a >= b,
    "olt": lambda a, b: _ordered(a, b) and a < b,
    "ole": lambda a, b: _ordered(a, b) and a <= b,
    "one": lambda a, b: _ordered(a, b) and a != b,
    "ord": lambda a, b: _ordered(a, b),
    "ueq": lambda a, b: not _ordered(a, b) or a == b,
    "ugt": lambda a, b: not _ordered(a, b) or a > b,
    "uge": lambda a, b: not _ordered(a, b) or a >= b,
    "ult": lambda a, b: not _ordered(a, b) or a < b,
    "ule": lambda a, b: not _ordered(a, b) or a <= b,
    "une": lambda a, b: not _ordered(a, b) or a != b,
    "uno": lambda a, b: not _ordered(a, b),
    "true": lambda a, b: True,
}

CMPF_VALUES = [math.nan, -math.inf, -1.0, -0.0, 0.0, 1.0, 2.5, math.inf]


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("pred", sorted(CMPF))
def test_cmpf(pred, t, rng):
    dt = DTYPES[t]
    fn = CMPF[pred]
    src = host_binop(f"arith.cmpf {pred}, ", t, "i1")
    for x, y in [(math.nan, 1.0), (1.0, math.nan), (math.nan, math.nan), (1.0, 1.0), (1.0, 2.0), (2.0, 1.0), (-0.0, 0.0)]:
        got = run(src, dt.type(x), dt.type(y))
        assert_scalar(got, fn(x, y), np.bool_)
    # every pair of the special values, then random ones, in one map
    pairs = [(x, y) for x in CMPF_VALUES for y in CMPF_VALUES]
    a = np.array([p[0] for p in pairs], dt)
    b = np.array([p[1] for p in pairs], dt)
    src = map_binop(f"arith.cmpf {pred}, ", t, "i1")
    for extra in (0, 1, 2, 3, 7, 1000):
        ra = np.concatenate([a, random_floats(rng, extra, dt)])
        rb = np.concatenate([b, random_floats(rng, extra, dt)])
        got = run(src, ra, rb)
        assert_array(got, [fn(x, y) for x, y in zip(ra.tolist(), rb.tolist())], np.bool_)
    assert_array(run(src, a[:0], b[:0]), np.zeros(0, bool), np.bool_)


# --------------------------------------------------------------------------------------
# select
# --------------------------------------------------------------------------------------

SELECT_HOST = """func.func @main(%c: i1, %a: f32, %b: f32) -> f32 {
  %r = arith.select %c, %a, %b : f32
  func.return %r : f32
}"""

SELECT_MAP = """func.func @main(%c: tensor<?xi1>, %a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?xi64> {
  %r = soac.map(%c, %a, %b) : (tensor<?xi1>, tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i1, %y: i64, %z: i64):
    %s = arith.select %x, %y, %z : i64
    soac.yield %s : i64
  }
  func.return %r : tensor<?xi64>
}"""

# A lane-invariant condition (a host scalar) choosing between a lane value and a constant.
SELECT_CAPTURED_COND = """func.func @main(%c: i1, %a: tensor<?xf64>) -> tensor<?xf64> {
  %k = arith.constant -4.5 : f64
  %r = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%x: f64):
    %s = arith.select %c, %x, %k : f64
    soac.yield %s : f64
  }
  func.return %r : tensor<?xf64>
}"""

# Per-lane condition choosing between whole rows.
SELECT_ROWS = """func.func @main(%c: tensor<?xi1>, %a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = soac.map(%c, %a, %b) : (tensor<?xi1>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%x: i1, %y: tensor<?xf32>, %z: tensor<?xf32>):
    %s = arith.select %x, %y, %z : tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


def test_select(rng):
    assert_scalar(run(SELECT_HOST, True, np.float32(1.5), np.float32(2.5)), 1.5, np.float32)
    assert_scalar(run(SELECT_HOST, False, np.float32(1.5), np.float32(2.5)), 2.5, np.float32)
    for n in SIZES:
        c = rng.random(n) < 0.5
        a = rng.integers(-(2**62), 2**62, n)
        b = rng.integers(-(2**62), 2**62, n)
        assert_array(run(SELECT_MAP, c, a, b), [x if k else y for k, x, y in zip(c, a, b)], np.int64)
        x = rng.standard_normal(n)
        assert_array(run(SELECT_CAPTURED_COND, True, x), x, np.float64)
        assert_array(run(SELECT_CAPTURED_COND, False, x), np.full(n, -4.5), np.float64)
        m = 5
        ra = rng.standard_normal((n, m)).astype(np.float32)
        rb = rng.standard_normal((n, m)).astype(np.float32)
        assert_array(run(SELECT_ROWS, c, ra, rb), np.where(c[:, None], ra, rb), np.float32)


# --------------------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------------------


def _fptoui(x, bits):
    return wrap(math.trunc(x), bits)


CASTS = [
    # (op, from, to, inputs, reference(python value) -> python value)
    ("extsi", "i32", "i64", "ints32", lambda v: v),
    ("extui", "i32", "i64", "ints32", lambda v: unsigned(v, 32)),
    ("extui", "i1", "i32", "bools", lambda v: int(v)),
    ("extui", "i1", "i64", "bools", lambda v: int(v)),
    ("trunci", "i64", "i32", "ints64", lambda v: wrap(v, 32)),
    ("trunci", "i64", "i1", "ints64", lambda v: bool(v & 1)),
    ("trunci", "i32", "i1", "ints32", lambda v: bool(v & 1)),
    ("index_cast", "index", "i32", "ints64", lambda v: wrap(v, 32)),
    ("index_cast", "i32", "index", "ints32", lambda v: v),
    ("index_cast", "index", "i64", "ints64", lambda v: v),
    ("index_cast", "i64", "index", "ints64", lambda v: v),
    ("sitofp", "i32", "f32", "ints32", int_to_f32),
    ("sitofp", "i64", "f32", "ints64", int_to_f32),
    ("sitofp", "i32", "f64", "ints32", float),
    ("sitofp", "i64", "f64", "small64", float),
    ("uitofp", "i32", "f32", "ints32", lambda v: int_to_f32(unsigned(v, 32))),
    ("uitofp", "i32", "f64", "ints32", lambda v: float(unsigned(v, 32))),
    ("uitofp", "i64", "f32", "ints64", lambda v: int_to_f32(unsigned(v, 64))),
    ("uitofp", "i1", "f32", "bools", lambda v: float(v)),
    ("fptosi", "f32", "i32", "f32_in_i32", math.trunc),
    ("fptosi", "f64", "i64", "f64_in_i64", math.trunc),
    ("fptosi", "f64", "i32", "f64_in_i32", math.trunc),
    ("fptoui", "f32", "i32", "f32_in_u32", lambda v: _fptoui(v, 32)),
    ("fptoui", "f64", "i64", "f64_in_u64", lambda v: _fptoui(v, 64)),
    ("extf", "f32", "f64", "floats32", float),
    ("truncf", "f64", "f32", "floats64", lambda v: np.float32(v)),
    ("bitcast", "f32", "i32", "floats32", f32_bits),
    ("bitcast", "f64", "i64", "floats64", f64_bits),
    ("bitcast", "i32", "f32", "ints32_finite", lambda v: np.frombuffer(np.int32(v).tobytes(), np.float32)[0]),
    ("bitcast", "i64", "f64", "ints64_finite", lambda v: np.frombuffer(np.int64(v).tobytes(), np.float64)[0]),
]


def _cast_inputs(kind: str, rng, n: int) -> list:
    if kind == "bools":
        return [bool(v) for v in rng.random(n) < 0.5]
    if kind == "ints32":
        return random_ints(rng, 32, n)
    if kind == "ints64":
        return random_ints(rng, 64, n)
    if kind == "small64":
        return [int(v) for v in rng.integers(-(2**53), 2**53, n)]
    if kind in ("ints32_finite", "ints64_finite"):
        # bit patterns of finite, non-NaN floats
        dt = np.float32 if kind == "ints32_finite" else np.float64
        it = np.int32 if kind == "ints32_finite" else np.int64
        return [int(v) for v in random_floats(rng, n, dt, specials=False).view(it)]
    limits = {
        "f32_in_i32": (np.float32, -(2.0**31), 2.0**31 - 256),
        "f64_in_i64": (np.float64, -(2.0**63), 2.0**63 - 2048),
        "f64_in_i32": (np.float64, -(2.0**31) + 1, 2.0**31 - 1),
        "f32_in_u32": (np.float32, 0.0, 2.0**32 - 512),
        "f64_in_u64": (np.float64, 0.0, 2.0**64 - 4096),
    }
    if kind in limits:
        dt, lo, hi = limits[kind]
        vals = np.concatenate(
            [rng.uniform(lo, hi, n // 2), rng.uniform(-100, 100, n - n // 2) * (1 if lo < 0 else 0) + rng.uniform(0, 3, n - n // 2)]
        )
        specials = [lo, hi, 0.5, 0.99, 1.5, 2.5, -0.5 if lo < 0 else 0.25, -1.5 if lo < 0 else 7.75, -2.99 if lo < 0 else 3.0]
        vals[: min(n, len(specials))] = specials[: min(n, len(specials))]
        rng.shuffle(vals)
        return [float(v) for v in vals.astype(dt)]
    dt = np.float32 if kind == "floats32" else np.float64
    return [float(v) for v in random_floats(rng, n, dt)]


def _cast_ids():
    return [f"{op}-{a}-{b}" for op, a, b, _, _ in CASTS]


@pytest.mark.parametrize("op,frm,to,kind,ref", CASTS, ids=_cast_ids())
def test_cast(op, frm, to, kind, ref, rng):
    src_dt, dst_dt = DTYPES[frm], DTYPES[to]
    # host level
    host = host_cast(f"arith.{op}", frm, to)
    for v in _cast_inputs(kind, rng, 12):
        got = run(host, src_dt.type(v))
        assert_scalar(got, ref(v), dst_dt)
    # vectorised
    mapped = map_cast(f"arith.{op}", frm, to)
    for n in SIZES:
        vals = _cast_inputs(kind, rng, n)
        got = run(mapped, np.array(vals, src_dt))
        assert_array(got, [ref(v) for v in vals], dst_dt)


def test_sitofp_rounds_once_to_nearest_even():
    # 2**24 + 1 is a tie between 2**24 and 2**24 + 2: to even gives 2**24;
    # 2**60 + 2**36 + 1 is just above a tie: rounding via f64 first would give the even one.
    vals = np.array([2**24 + 1, 2**24 + 3, 2**60 + 2**36 + 1, -(2**60) - 2**36 - 1], np.int64)
    got = run(map_cast("arith.sitofp", "i64", "f32"), vals)
    assert got.tolist() == [float(int_to_f32(v)) for v in vals.tolist()]
    assert got.tolist()[:2] == [2.0**24, 2.0**24 + 4]
    assert got.tolist()[2] == 2.0**60 + 2.0**37


def test_truncf_overflows_to_infinity():
    got = run(map_cast("arith.truncf", "f64", "f32"), np.array([1e300, -1e300, 1e-300, 0.1], np.float64))
    assert got.tolist() == [math.inf, -math.inf, 0.0, float(np.float32(0.1))]


@pytest.mark.parametrize("op,to,want", [("extsi", "i32", -1), ("extsi", "i64", -1), ("sitofp", "f32", -1.0)])
def test_signed_casts_from_i1(op, to, want):
    assert run(host_cast(f"arith.{op}", "i1", to), True) == want
    got = run(map_cast(f"arith.{op}", "i1", to), np.array([True, False]))
    assert got.tolist() == [want, 0]


# --------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------

SCALAR_CONSTANTS = [
    ("-2147483648 : i32", "i32", -(2**31)),
    ("2147483647 : i32", "i32", 2**31 - 1),
    ("-9223372036854775808 : i64", "i64", -(2**63)),
    ("9223372036854775807 : i64", "i64", 2**63 - 1),
    ("42 : index", "index", 42),
    ("-3 : index", "index", -3),
    ("true", "i1", True),
    ("false", "i1", False),
    ("0x7F800000 : f32", "f32", math.inf),
    ("0xFF800000 : f32", "f32", -math.inf),
    ("-2.5 : f32", "f32", -2.5),
    ("0.1 : f32", "f32", float(np.float32(0.1))),
    ("0.1 : f64", "f64", 0.1),
    ("1.0e300 : f64", "f64", 1e300),
]


@pytest.mark.parametrize("text,t,want", SCALAR_CONSTANTS, ids=[c[0] for c in SCALAR_CONSTANTS])
def test_scalar_constant(text, t, want):
    host = f"""func.func @main() -> {t} {{
  %c = arith.constant {text}
  func.return %c : {t}
}}"""
    assert_scalar(run(host), want, DTYPES[t])
    # the same constant yielded by a map lambda: one per lane, full size
    mapped = f"""func.func @main(%a: tensor<?xf32>) -> tensor<?x{t}> {{
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x{t}> {{
  ^bb0(%x: f32):
    %c = arith.constant {text}
    soac.yield %c : {t}
  }}
  func.return %r : tensor<?x{t}>
}}"""
    for n in SIZES:
        assert_array(run(mapped, np.zeros(n, np.float32)), np.full(n, want, DTYPES[t]), DTYPES[t])


DENSE_CONSTANTS = [
    ("dense<[1, -2, 2147483647]> : tensor<3xi32>", "tensor<3xi32>", np.array([1, -2, 2**31 - 1], np.int32)),
    ("dense<[1.5, -0.25]> : tensor<2xf64>", "tensor<2xf64>", np.array([1.5, -0.25])),
    ("dense<7> : tensor<4xi64>", "tensor<4xi64>", np.full(4, 7, np.int64)),
    ("dense<2.5> : tensor<2x3xf32>", "tensor<2x3xf32>", np.full((2, 3), 2.5, np.float32)),
    ("dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xindex>", "tensor<2x3xindex>", np.arange(1, 7).reshape(2, 3)),
    ("dense<[true, false, true]> : tensor<3xi1>", "tensor<3xi1>", np.array([True, False, True])),
]


@pytest.mark.parametrize("text,t,want", DENSE_CONSTANTS, ids=[c[1] for c in DENSE_CONSTANTS])
def test_dense_constant(text, t, want):
    host = f"""func.func @main() -> {t} {{
  %c = arith.constant {text}
  func.return %c : {t}
}}"""
    got = run(host)
    assert_array(got, want, want.dtype)
    got[...] = 0  # the caller's own array: the next call still sees the constant
    assert_array(run(host), want, want.dtype)


def test_dense_constant_in_map_lambda():
    """A dense constant row per lane, combined with the lane's scalar."""
    src = """func.func @main(%a: tensor<?xi32>) -> tensor<?x3xi32> {
  %r = soac.map(%a) : (tensor<?xi32>) -> tensor<?x3xi32> {
  ^bb0(%x: i32):
    %c = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
    %s = soac.map(%c) : (tensor<3xi32>) -> tensor<3xi32> {
    ^bb1(%y: i32):
      %z = arith.addi %x, %y : i32
      soac.yield %z : i32
    }
    soac.yield %s : tensor<3xi32>
  }
  func.return %r : tensor<?x3xi32>
}"""
    for n in SIZES:
        a = np.arange(n, dtype=np.int32) * 100
        assert_array(run(src, a), a[:, None] + np.array([10, 20, 30], np.int32), np.int32)
    # and yielding the constant itself: full size, not broadcast
    src2 = """func.func @main(%a: tensor<?xi32>) -> tensor<?x2xf32> {
  %r = soac.map(%a) : (tensor<?xi32>) -> tensor<?x2xf32> {
  ^bb0(%x: i32):
    %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    soac.yield %c : tensor<2xf32>
  }
  func.return %r : tensor<?x2xf32>
}"""
    for n in (0, 1, 5):
        got = run(src2, np.zeros(n, np.int32))
        assert_array(got, np.tile(np.array([1.0, 2.0], np.float32), (n, 1)), np.float32)
        got[...] = -1  # writable and not shared between calls
        assert_array(run(src2, np.zeros(n, np.int32)), np.tile(np.array([1.0, 2.0], np.float32), (n, 1)), np.float32)
