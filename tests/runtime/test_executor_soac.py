"""soac.map, soac.reduce and soac.scan in the reference executor (incl. segmented
reductions and scans: a map of a reduce or scan), against NumPy / Python folds.

Reduce and scan run their operator either as a NumPy ufunc (a recognised operator
such as `arith.addf` of the two parameters) or as a pairwise tree that must keep the
order of operands: non-commutative operators check the order."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.rt_util import DTYPES, SIZES, assert_array, assert_close, random_ints, run, wrap

SCAN_SIZES = tuple(range(18)) + (1000,)
MATRIX_SHAPES = [(0, 0), (0, 5), (5, 0), (1, 1), (2, 3), (7, 13), (100, 30)]

# --------------------------------------------------------------------------------------
# map
# --------------------------------------------------------------------------------------

MAP1 = """func.func @main(%a: tensor<?xf64>) -> tensor<?xf64> {
  %two = arith.constant 2.0 : f64
  %r = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %two : f64
    %z = arith.subf %y, %x : f64
    %w = arith.mulf %z, %x : f64
    soac.yield %w : f64
  }
  func.return %r : tensor<?xf64>
}"""

MAP3_2RESULTS = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xi32>, %c: tensor<?xi1>)
    -> (tensor<?xf32>, tensor<?xi32>) {
  %one = arith.constant 1 : i32
  %r:2 = soac.map(%a, %b, %c) : (tensor<?xf32>, tensor<?xi32>, tensor<?xi1>)
      -> (tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%x: f32, %y: i32, %k: i1):
    %yf = arith.sitofp %y : i32 to f32
    %p = arith.mulf %x, %yf : f32
    %m = arith.subf %x, %yf : f32
    %s = arith.select %k, %p, %m : f32
    %y1 = arith.addi %y, %one : i32
    soac.yield %s, %y1 : f32, i32
  }
  func.return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}"""

MAP2 = """func.func @main(%a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?xi64> {
  %r = soac.map(%a, %b) : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %p = arith.muli %x, %y : i64
    %s = arith.subi %p, %y : i64
    soac.yield %s : i64
  }
  func.return %r : tensor<?xi64>
}"""


def test_map_one_input(rng):
    for n in SIZES:
        a = rng.standard_normal(n)
        assert_array(run(MAP1, a), (a * 2.0 - a) * a, np.float64)


def test_map_two_inputs(rng):
    for n in SIZES:
        a = np.array(random_ints(rng, 64, n), np.int64)
        b = np.array(random_ints(rng, 64, n), np.int64)
        want = [wrap(x * y - y, 64) for x, y in zip(a.tolist(), b.tolist())]
        assert_array(run(MAP2, a, b), want, np.int64)


def test_map_three_inputs_two_results(rng):
    for n in SIZES:
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.integers(-1000, 1000, n).astype(np.int32)
        c = rng.random(n) < 0.5
        r0, r1 = run(MAP3_2RESULTS, a, b, c)
        bf = b.astype(np.float32)
        assert_array(r0, np.where(c, a * bf, a - bf), np.float32)
        assert_array(r1, b + 1, np.int32)


def test_map_input_sizes_must_agree():
    import soacc

    with pytest.raises(soacc.ExecutionError, match="soac.map"):
        run(MAP2, np.zeros(3, np.int64), np.zeros(4, np.int64))


MAP_ROWS = """func.func @main(%m: tensor<?x?xf32>, %k: f32) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  %r:2 = soac.map(%m) : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      soac.yield %t : f32
    }
    %scaled = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %t = arith.mulf %x, %k : f32
      %u = arith.subf %t, %s : f32
      soac.yield %u : f32
    }
    soac.yield %s, %scaled : f32, tensor<?xf32>
  }
  func.return %r#0, %r#1 : tensor<?xf32>, tensor<?x?xf32>
}"""


def test_map_over_rows_of_a_matrix(rng):
    for shape in MATRIX_SHAPES:
        m = rng.integers(-8, 8, shape).astype(np.float32)  # integral: sums are exact
        sums, scaled = run(MAP_ROWS, m, np.float32(1.5))
        want_sums = m.sum(axis=1, dtype=np.float64).astype(np.float32)
        assert_array(sums, want_sums, np.float32)
        assert_array(scaled, m * np.float32(1.5) - want_sums[:, None], np.float32)


MAP_OF_MAP_3D = """func.func @main(%a: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %r = soac.map(%a) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%mat: tensor<?x?xi32>):
    %s = soac.map(%mat) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb1(%row: tensor<?xi32>):
      %t = soac.map(%row) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb2(%x: i32):
        %y = arith.muli %x, %x : i32
        soac.yield %y : i32
      }
      soac.yield %t : tensor<?xi32>
    }
    soac.yield %s : tensor<?x?xi32>
  }
  func.return %r : tensor<?x?x?xi32>
}"""


def test_map_of_map_of_map(rng):
    for shape in [(0, 2, 2), (2, 0, 3), (2, 3, 0), (1, 1, 1), (3, 4, 5)]:
        a = rng.integers(-(2**31), 2**31, shape).astype(np.int32)
        want = np.array([wrap(int(x) * int(x), 32) for x in a.reshape(-1)], np.int32).reshape(shape)
        assert_array(run(MAP_OF_MAP_3D, a), want, np.int32)


MAP_CAPTURED = """func.func @main(%a: tensor<?xf32>, %c: f32, %v: tensor<?xi64>) -> (tensor<?xf32>, tensor<?x?xi64>, tensor<?xi32>) {
  %r:3 = soac.map(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?x?xi64>, tensor<?xi32>) {
  ^bb0(%x: f32):
    %k = arith.constant 7 : i32
    soac.yield %c, %v, %k : f32, tensor<?xi64>, i32
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xf32>, tensor<?x?xi64>, tensor<?xi32>
}"""


def test_map_yielding_captured_values_and_constants_is_full_size():
    v = np.array([4, 5, 6], np.int64)
    for n in SIZES:
        a = np.zeros(n, np.float32)
        r0, r1, r2 = run(MAP_CAPTURED, a, np.float32(2.5), v)
        assert_array(r0, np.full(n, 2.5, np.float32), np.float32)
        assert_array(r1, np.tile(v, (n, 1)), np.int64)
        assert_array(r2, np.full(n, 7, np.int32), np.int32)
        # the results are the caller's own, writable, with independent rows
        r1[0:1, :] = -1
        r0[...] = 0
        if n > 1:
            assert r1[1].tolist() == [4, 5, 6]
        assert v.tolist() == [4, 5, 6]


MAP_OF_MAP_CAPTURED = """func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %c: i32) -> tensor<?x?xi32> {
  %r = soac.map(%a) : (tensor<?xi32>) -> tensor<?x?xi32> {
  ^bb0(%x: i32):
    %s = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%y: i32):
      soac.yield %x : i32
    }
    %t = soac.map(%s, %b) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%u: i32, %w: i32):
      %q = arith.addi %u, %c : i32
      soac.yield %q : i32
    }
    soac.yield %t : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_map_of_map_yielding_outer_value():
    for n, m in [(0, 3), (3, 0), (1, 1), (4, 6)]:
        a = np.arange(n, dtype=np.int32) * 10
        b = np.arange(m, dtype=np.int32)
        got = run(MAP_OF_MAP_CAPTURED, a, b, np.int32(1))
        assert_array(got, np.repeat(a[:, None] + 1, m, axis=1).reshape(n, m), np.int32)


# --------------------------------------------------------------------------------------
# reduce
# --------------------------------------------------------------------------------------


def reduce_program(t: str, op: str, neutral: str, swap: bool = False, commutative: bool = True) -> str:
    operands = "%y, %x" if swap else "%x, %y"
    comm = " commutative" if commutative else ""
    return f"""func.func @main(%a: tensor<?x{t}>) -> {t} {{
  %n = arith.constant {neutral} : {t}
  %r = soac.reduce(%a) neutral(%n : {t}){comm} : (tensor<?x{t}>) -> {t} {{
  ^bb0(%x: {t}, %y: {t}):
    %z = {op} {operands} : {t}
    soac.yield %z : {t}
  }}
  func.return %r : {t}
}}"""


RECOGNISED = [
    # (type, op, neutral, reference fold on Python values)
    ("f32", "arith.addf", "0.0", "sum"),
    ("f64", "arith.addf", "0.0", "sum"),
    ("f32", "arith.mulf", "1.0", "prod"),
    ("f64", "arith.maximumf", "0xFFF0000000000000", "max"),
    ("f32", "arith.minimumf", "0x7F800000", "min"),
    ("f32", "arith.maxnumf", "0xFF800000", "max"),
    ("f64", "arith.minnumf", "0x7FF0000000000000", "min"),
    ("i32", "arith.addi", "0", "sum"),
    ("i64", "arith.addi", "0", "sum"),
    ("i32", "arith.muli", "1", "prod"),
    ("i64", "arith.muli", "1", "prod"),
    ("i32", "arith.maxsi", "-2147483648", "max"),
    ("i64", "arith.minsi", "9223372036854775807", "min"),
    ("i32", "arith.andi", "-1", "and"),
    ("i64", "arith.ori", "0", "or"),
    ("i32", "arith.xori", "0", "xor"),
]


def _fold(kind: str, vals: list, neutral):
    acc = neutral
    for v in vals:
        acc = {
            "sum": lambda a, b: a + b,
            "prod": lambda a, b: a * b,
            "max": max,
            "min": min,
            "and": lambda a, b: a & b,
            "or": lambda a, b: a | b,
            "xor": lambda a, b: a ^ b,
        }[kind](acc, v)
    return acc


def _inputs(t, kind, rng, n):
    dt = DTYPES[t]
    if dt.kind == "f":
        if kind == "prod":
            return rng.uniform(0.5, 1.5, n).astype(dt)
        return rng.standard_normal(n).astype(dt)
    bits = 32 if t == "i32" else 64
    if kind == "prod":
        return rng.integers(-9, 10, n).astype(dt)
    return np.array(random_ints(rng, bits, n), dt)


def _neutral_value(t, kind):
    dt = DTYPES[t]
    if dt.kind == "f":
        return {"sum": 0.0, "prod": 1.0, "max": -np.inf, "min": np.inf}[kind]
    bits = 32 if t == "i32" else 64
    return {"sum": 0, "prod": 1, "max": -(2 ** (bits - 1)), "min": 2 ** (bits - 1) - 1, "and": -1, "or": 0, "xor": 0}[kind]


def _check_reduction(got, vals, t, kind):
    dt = DTYPES[t]
    want = _fold(kind, vals.tolist(), _neutral_value(t, kind))
    assert isinstance(got, np.generic) and got.dtype == dt, (type(got), getattr(got, "dtype", None))
    if dt.kind == "f":
        if kind in ("sum", "prod"):
            scale = max(float(np.abs(vals).sum()), 1.0) if kind == "sum" else abs(want) + 1e-30
            tol = (1e-5 if t == "f32" else 1e-12) * scale
            assert abs(float(got) - want) <= tol, (got, want)
        else:
            assert float(got) == want
    else:
        assert int(got) == wrap(want, 32 if t == "i32" else 64)


@pytest.mark.parametrize("swap", [False, True], ids=["xy", "yx"])
@pytest.mark.parametrize("t,op,neutral,kind", RECOGNISED, ids=[f"{o}-{t}" for t, o, _, _ in RECOGNISED])
def test_reduce_recognised_operator(t, op, neutral, kind, swap, rng):
    src = reduce_program(t, op, neutral, swap)
    for n in SIZES:
        vals = _inputs(t, kind, rng, n)
        _check_reduction(run(src, vals), vals, t, kind)


def test_reduce_i32_sum_wraps():
    src = reduce_program("i32", "arith.addi", "0")
    a = np.full(1000, 2**31 - 1, np.int32)
    assert run(src, a) == wrap(1000 * (2**31 - 1), 32)
    a = np.array([2**31 - 1, 1], np.int32)
    assert run(src, a) == -(2**31)


UNRECOGNISED = [
    # operators the executor cannot hand to a ufunc: each runs as a pairwise tree
    ("i32", "arith.maxui", "0", lambda a, b: a if (a & 0xFFFFFFFF) >= (b & 0xFFFFFFFF) else b),
    ("i64", "arith.minui", "-1", lambda a, b: a if (a % 2**64) <= (b % 2**64) else b),
]

SELECT_MAX = """func.func @main(%a: tensor<?xi32>) -> i32 {
  %n = arith.constant -2147483648 : i32
  %r = soac.reduce(%a) neutral(%n : i32) : (tensor<?xi32>) -> i32 {
  ^bb0(%x: i32, %y: i32):
    %gt = arith.cmpi sgt, %x, %y : i32
    %z = arith.select %gt, %x, %y : i32
    soac.yield %z : i32
  }
  func.return %r : i32
}"""

ADD_TWICE = """func.func @main(%a: tensor<?xi32>) -> i32 {
  %n = arith.constant 0 : i32
  %r = soac.reduce(%a) neutral(%n : i32) : (tensor<?xi32>) -> i32 {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %n : i32
    soac.yield %t : i32
  }
  func.return %r : i32
}"""


@pytest.mark.parametrize("t,op,neutral,fn", UNRECOGNISED, ids=["maxui", "minui"])
def test_reduce_unrecognised_operator(t, op, neutral, fn, rng):
    bits = 32 if t == "i32" else 64
    src = reduce_program(t, op, neutral)
    for n in SIZES:
        vals = random_ints(rng, bits, n)
        acc = int(neutral)
        for v in vals:
            acc = fn(acc, v)
        assert run(src, np.array(vals, DTYPES[t])) == acc


def test_reduce_select_max_and_add_with_extra_op(rng):
    for n in SIZES:
        vals = np.array(random_ints(rng, 32, n), np.int32)
        assert run(SELECT_MAX, vals) == (max(vals.tolist()) if n else -(2**31))
        assert run(ADD_TWICE, vals) == wrap(sum(vals.tolist()), 32)


LAST_NONZERO = """func.func @main(%a: tensor<?xi64>) -> i64 {
  %z = arith.constant 0 : i64
  %r = soac.reduce(%a) neutral(%z : i64) : (tensor<?xi64>) -> i64 {
  ^bb0(%x: i64, %y: i64):
    %nz = arith.cmpi ne, %y, %z : i64
    %s = arith.select %nz, %y, %x : i64
    soac.yield %s : i64
  }
  func.return %r : i64
}"""


def _last_nonzero(vals):
    acc = 0
    for v in vals:
        acc = v if v != 0 else acc
    return acc


def test_reduce_non_commutative_last_nonzero(rng):
    for n in SIZES:
        vals = rng.integers(-5, 5, n) * (rng.random(n) < 0.4)
        assert run(LAST_NONZERO, vals.astype(np.int64)) == _last_nonzero(vals.tolist())


# 2x2 integer matrix product, a 4-array tuple reduce: associative, not commutative.
MATMUL_REDUCE = """func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %c: tensor<?xi32>, %d: tensor<?xi32>)
    -> (i32, i32, i32, i32) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %r:4 = soac.reduce(%a, %b, %c, %d) neutral(%one, %zero, %zero, %one : i32, i32, i32, i32)
      : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> (i32, i32, i32, i32) {
  ^bb0(%a1: i32, %b1: i32, %c1: i32, %d1: i32, %a2: i32, %b2: i32, %c2: i32, %d2: i32):
    // [a1 b1; c1 d1] * [a2 b2; c2 d2]
    %p1 = arith.muli %a1, %a2 : i32
    %p2 = arith.muli %b1, %c2 : i32
    %ra = arith.addi %p1, %p2 : i32
    %p3 = arith.muli %a1, %b2 : i32
    %p4 = arith.muli %b1, %d2 : i32
    %rb = arith.addi %p3, %p4 : i32
    %p5 = arith.muli %c1, %a2 : i32
    %p6 = arith.muli %d1, %c2 : i32
    %rc = arith.addi %p5, %p6 : i32
    %p7 = arith.muli %c1, %b2 : i32
    %p8 = arith.muli %d1, %d2 : i32
    %rd = arith.addi %p7, %p8 : i32
    soac.yield %ra, %rb, %rc, %rd : i32, i32, i32, i32
  }
  func.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}"""


def _matmul_fold(mats):
    acc = (1, 0, 0, 1)
    out = []
    for a, b, c, d in mats:
        p, q, r, s = acc
        acc = (p * a + q * c, p * b + q * d, r * a + s * c, r * b + s * d)
        acc = tuple(wrap(v, 32) for v in acc)
        out.append(acc)
    return acc, out


def _random_mats(rng, n):
    return rng.integers(-3, 4, (n, 4)).astype(np.int32)


def test_reduce_non_commutative_matrix_product(rng):
    for n in SIZES:
        m = _random_mats(rng, n)
        got = run(MATMUL_REDUCE, *(m[:, k].copy() for k in range(4)))
        want, _ = _matmul_fold(m.tolist())
        assert isinstance(got, tuple) and len(got) == 4
        assert [int(v) for v in got] == list(want)
        assert all(isinstance(v, np.int32) for v in got)


# Digit strings as (value, 10**length) pairs: concatenation is associative, not commutative.
CONCAT_DIGITS = """func.func @main(%v: tensor<?xi64>, %p: tensor<?xi64>) -> (i64, i64) {
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = soac.reduce(%v, %p) neutral(%z, %one : i64, i64) : (tensor<?xi64>, tensor<?xi64>) -> (i64, i64) {
  ^bb0(%v1: i64, %p1: i64, %v2: i64, %p2: i64):
    %sh = arith.muli %v1, %p2 : i64
    %vv = arith.addi %sh, %v2 : i64
    %pp = arith.muli %p1, %p2 : i64
    soac.yield %vv, %pp : i64, i64
  }
  func.return %r#0, %r#1 : i64, i64
}"""


def test_reduce_non_commutative_digit_concatenation(rng):
    for n in SIZES:
        digits = rng.integers(0, 10, n)
        v, p = run(CONCAT_DIGITS, digits.astype(np.int64), np.full(n, 10, np.int64))
        want = int("".join(map(str, digits.tolist())) or "0")
        assert int(v) == wrap(want, 64)
        assert int(p) == wrap(10**n, 64)
    v, _ = run(CONCAT_DIGITS, np.array([1, 2, 3, 4, 5, 6, 7], np.int64), np.full(7, 10, np.int64))
    assert v == 1234567


ARGMAX = """func.func @main(%a: tensor<?xf32>) -> (f32, i32) {
  %n = soac.size %a[0] : tensor<?xf32>
  %is = soac.iota %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 2147483647 : i32
  %r:2 = soac.reduce(%a, %is) neutral(%ninf, %big : f32, i32) commutative
      : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
  ^bb0(%x1: f32, %i1: i32, %x2: f32, %i2: i32):
    %gt = arith.cmpf ogt, %x1, %x2 : f32
    %eq = arith.cmpf oeq, %x1, %x2 : f32
    %lt = arith.cmpi slt, %i1, %i2 : i32
    %tie = arith.andi %eq, %lt : i1
    %first = arith.ori %gt, %tie : i1
    %x = arith.select %first, %x1, %x2 : f32
    %i = arith.select %first, %i1, %i2 : i32
    soac.yield %x, %i : f32, i32
  }
  func.return %r#0, %r#1 : f32, i32
}"""


def test_reduce_argmax_ties_go_to_lowest_index(rng):
    for n in SIZES:
        a = rng.integers(0, 4, n).astype(np.float32)  # many ties
        x, i = run(ARGMAX, a)
        if n == 0:
            assert x == -np.inf and i == 2**31 - 1
        else:
            assert x == a.max() and i == int(np.argmax(a))  # np.argmax: first maximum
        assert isinstance(x, np.float32) and isinstance(i, np.int32)


REDUCE_ROWS = """func.func @main(%m: tensor<?x?xf64>, %z: tensor<?xf64>) -> tensor<?xf64> {
  %r = soac.reduce(%m) neutral(%z : tensor<?xf64>) : (tensor<?x?xf64>) -> tensor<?xf64> {
  ^bb0(%x: tensor<?xf64>, %y: tensor<?xf64>):
    %s = soac.map(%x, %y) : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64> {
    ^bb1(%u: f64, %v: f64):
      %w = arith.addf %u, %v : f64
      soac.yield %w : f64
    }
    soac.yield %s : tensor<?xf64>
  }
  func.return %r : tensor<?xf64>
}"""


def test_reduce_of_rows_with_a_vector_operator(rng):
    for n, d in [(0, 3), (1, 3), (2, 0), (5, 4), (1000, 3)]:
        m = rng.integers(-50, 50, (n, d)).astype(np.float64)
        assert_array(run(REDUCE_ROWS, m, np.zeros(d)), m.sum(axis=0), np.float64)


# An operator that captures a host value: addition modulo m.
ADD_MOD = """func.func @main(%a: tensor<?xi64>, %m: i64) -> i64 {
  %z = arith.constant 0 : i64
  %r = soac.reduce(%a) neutral(%z : i64) : (tensor<?xi64>) -> i64 {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    %t = arith.remsi %s, %m : i64
    soac.yield %t : i64
  }
  func.return %r : i64
}"""


def test_reduce_operator_capturing_a_host_value(rng):
    for n in SIZES:
        a = rng.integers(0, 97, n)
        assert run(ADD_MOD, a, 97) == int(a.sum()) % 97


def test_reduce_empty_gives_neutral():
    assert run(reduce_program("f32", "arith.addf", "-3.5"), np.zeros(0, np.float32)) == np.float32(-3.5)
    assert run(reduce_program("i32", "arith.maxui", "17"), np.zeros(0, np.int32)) == 17
    assert run(LAST_NONZERO, np.zeros(0, np.int64)) == 0
    assert [int(v) for v in run(MATMUL_REDUCE, *(np.zeros(0, np.int32),) * 4)] == [1, 0, 0, 1]
    assert_array(run(REDUCE_ROWS, np.zeros((0, 2)), np.array([1.0, 2.0])), [1.0, 2.0], np.float64)


# --------------------------------------------------------------------------------------
# scan
# --------------------------------------------------------------------------------------


def scan_program(t: str, op: str, neutral: str) -> str:
    return f"""func.func @main(%a: tensor<?x{t}>) -> tensor<?x{t}> {{
  %n = arith.constant {neutral} : {t}
  %r = soac.scan(%a) neutral(%n : {t}) : (tensor<?x{t}>) -> tensor<?x{t}> {{
  ^bb0(%x: {t}, %y: {t}):
    %z = {op} %x, %y : {t}
    soac.yield %z : {t}
  }}
  func.return %r : tensor<?x{t}>
}}"""


def _scan_ref(vals, fn, init=None):
    out = []
    acc = init
    for k, v in enumerate(vals):
        acc = v if k == 0 and init is None else fn(acc, v)
        out.append(acc)
    return out


@pytest.mark.parametrize("t", ["i32", "i64"])
def test_scan_recognised_add_wraps(t, rng):
    bits = 32 if t == "i32" else 64
    src = scan_program(t, "arith.addi", "0")
    for n in SCAN_SIZES:
        vals = random_ints(rng, bits, n)
        want = [wrap(v, bits) for v in np.cumsum([0] + vals, dtype=object)[1:].tolist()] if n else []
        assert_array(run(src, np.array(vals, DTYPES[t])), want, DTYPES[t])


@pytest.mark.parametrize(
    "t,op,neutral,fn",
    [
        ("f64", "arith.addf", "0.0", lambda a, b: a + b),
        ("f32", "arith.maximumf", "0xFF800000", max),
        ("i32", "arith.minsi", "2147483647", min),
        ("i64", "arith.muli", "1", lambda a, b: wrap(a * b, 64)),
    ],
    ids=["addf", "maximumf", "minsi", "muli"],
)
def test_scan_recognised(t, op, neutral, fn, rng):
    dt = DTYPES[t]
    src = scan_program(t, op, neutral)
    for n in SCAN_SIZES:
        if dt.kind == "f":
            vals = rng.integers(-100, 100, n).astype(dt)  # integral: f64 sums are exact
        else:
            vals = rng.integers(-5, 6, n).astype(dt)
        assert_array(run(src, vals), np.array(_scan_ref(vals.tolist(), fn), dt).reshape(n), dt)


def test_scan_unrecognised(rng):
    maxui = lambda a, b: a if (a & 0xFFFFFFFF) >= (b & 0xFFFFFFFF) else b  # noqa: E731
    src = scan_program("i32", "arith.maxui", "0")
    for n in SCAN_SIZES:
        vals = random_ints(rng, 32, n)
        assert_array(run(src, np.array(vals, np.int32)), _scan_ref(vals, maxui), np.int32)


SCAN_SELECT_MAX_F32 = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %n = arith.constant 0xFF800000 : f32
  %r = soac.scan(%a) neutral(%n : f32) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %gt = arith.cmpf ogt, %x, %y : f32
    %z = arith.select %gt, %x, %y : f32
    soac.yield %z : f32
  }
  func.return %r : tensor<?xf32>
}"""


def test_scan_unrecognised_float(rng):
    for n in SCAN_SIZES:
        vals = rng.standard_normal(n).astype(np.float32)
        assert_array(run(SCAN_SELECT_MAX_F32, vals), np.maximum.accumulate(vals), np.float32)


SCAN_LAST_NONZERO = """func.func @main(%a: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %r = soac.scan(%a) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %nz = arith.cmpi ne, %y, %z : i64
    %s = arith.select %nz, %y, %x : i64
    soac.yield %s : i64
  }
  func.return %r : tensor<?xi64>
}"""


def test_scan_non_commutative_last_nonzero(rng):
    for n in SCAN_SIZES:
        vals = (rng.integers(1, 9, n) * (rng.random(n) < 0.3)).astype(np.int64)
        want = [_last_nonzero(vals[: k + 1].tolist()) for k in range(n)]
        assert_array(run(SCAN_LAST_NONZERO, vals), want, np.int64)


MATMUL_SCAN = MATMUL_REDUCE.replace("soac.reduce", "soac.scan").replace(
    "-> (i32, i32, i32, i32) {\n  ^bb0", "-> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {\n  ^bb0"
).replace(
    "    -> (i32, i32, i32, i32) {\n  %one",
    "    -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {\n  %one",
).replace(
    "func.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32",
    "func.return %r#0, %r#1, %r#2, %r#3 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>",
)


def test_scan_non_commutative_matrix_product_tuple(rng):
    assert "soac.scan" in MATMUL_SCAN and "-> (i32" not in MATMUL_SCAN
    for n in SCAN_SIZES:
        m = _random_mats(rng, n)
        got = run(MATMUL_SCAN, *(m[:, k].copy() for k in range(4)))
        _, prefixes = _matmul_fold(m.tolist())
        want = np.array(prefixes, np.int32).reshape(n, 4)
        for k in range(4):
            assert_array(got[k], want[:, k], np.int32)


CONCAT_DIGITS_SCAN = """func.func @main(%v: tensor<?xi64>, %p: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = soac.scan(%v, %p) neutral(%z, %one : i64, i64) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  ^bb0(%v1: i64, %p1: i64, %v2: i64, %p2: i64):
    %sh = arith.muli %v1, %p2 : i64
    %vv = arith.addi %sh, %v2 : i64
    %pp = arith.muli %p1, %p2 : i64
    soac.yield %vv, %pp : i64, i64
  }
  func.return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}"""


def test_scan_tuple_digit_concatenation(rng):
    for n in SCAN_SIZES:
        digits = rng.integers(0, 10, n)
        v, p = run(CONCAT_DIGITS_SCAN, digits.astype(np.int64), np.full(n, 10, np.int64))
        s = "".join(map(str, digits.tolist()))
        assert_array(v, [wrap(int(s[: k + 1]), 64) for k in range(n)], np.int64)
        assert_array(p, [wrap(10 ** (k + 1), 64) for k in range(n)], np.int64)


# --------------------------------------------------------------------------------------
# Segmented: map of reduce, map of scan
# --------------------------------------------------------------------------------------

SEG_REDUCE = """func.func @main(%m: tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %z = arith.constant 0 : i32
  %lo = arith.constant -2147483648 : i32
  %r:3 = soac.map(%m) : (tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%row: tensor<?xi32>):
    %s = soac.reduce(%row) neutral(%z : i32) : (tensor<?xi32>) -> i32 {
    ^bb1(%x: i32, %y: i32):
      %t = arith.addi %x, %y : i32
      soac.yield %t : i32
    }
    %mx = soac.reduce(%row) neutral(%lo : i32) : (tensor<?xi32>) -> i32 {
    ^bb1(%x: i32, %y: i32):
      %gt = arith.cmpi sgt, %x, %y : i32
      %t = arith.select %gt, %x, %y : i32
      soac.yield %t : i32
    }
    %last = soac.reduce(%row) neutral(%z : i32) : (tensor<?xi32>) -> i32 {
    ^bb1(%x: i32, %y: i32):
      %nz = arith.cmpi ne, %y, %z : i32
      %t = arith.select %nz, %y, %x : i32
      soac.yield %t : i32
    }
    soac.yield %s, %mx, %last : i32, i32, i32
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}"""


def test_segmented_reduction(rng):
    for shape in MATRIX_SHAPES:
        m = (rng.integers(-(2**31), 2**31, shape) * (rng.random(shape) < 0.5)).astype(np.int32)
        s, mx, last = run(SEG_REDUCE, m)
        rows = m.tolist()
        assert_array(s, [wrap(sum(r), 32) for r in rows], np.int32)
        assert_array(mx, [max(r) if r else -(2**31) for r in rows], np.int32)
        assert_array(last, [_last_nonzero(r) for r in rows], np.int32)


SEG_ARGMAX = """func.func @main(%m: tensor<?x?xf32>) -> tensor<?xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 2147483647 : i32
  %k = soac.size %m[1] : tensor<?x?xf32>
  %is = soac.iota %k : tensor<?xi32>
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xi32> {
  ^bb0(%row: tensor<?xf32>):
    %b:2 = soac.reduce(%row, %is) neutral(%ninf, %big : f32, i32) commutative
        : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
    ^bb1(%x1: f32, %i1: i32, %x2: f32, %i2: i32):
      %gt = arith.cmpf ogt, %x1, %x2 : f32
      %eq = arith.cmpf oeq, %x1, %x2 : f32
      %lt = arith.cmpi slt, %i1, %i2 : i32
      %tie = arith.andi %eq, %lt : i1
      %first = arith.ori %gt, %tie : i1
      %x = arith.select %first, %x1, %x2 : f32
      %i = arith.select %first, %i1, %i2 : i32
      soac.yield %x, %i : f32, i32
    }
    soac.yield %b#1 : i32
  }
  func.return %r : tensor<?xi32>
}"""


def test_segmented_argmax_with_captured_index_array(rng):
    """A tuple reduce per row, one of whose arrays (iota) is captured: lane-invariant."""
    for shape in MATRIX_SHAPES:
        m = rng.integers(0, 3, shape).astype(np.float32)
        want = np.argmax(m, axis=1) if shape[1] else np.full(shape[0], 2**31 - 1)
        assert_array(run(SEG_ARGMAX, m), want, np.int32)


SEG_SCAN = """func.func @main(%m: tensor<?x?xi64>) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  %z = arith.constant 0 : i64
  %r:2 = soac.map(%m) : (tensor<?x?xi64>) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  ^bb0(%row: tensor<?xi64>):
    %s = soac.scan(%row) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64, %y: i64):
      %t = arith.addi %x, %y : i64
      soac.yield %t : i64
    }
    %l = soac.scan(%row) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64, %y: i64):
      %nz = arith.cmpi ne, %y, %z : i64
      %t = arith.select %nz, %y, %x : i64
      soac.yield %t : i64
    }
    soac.yield %s, %l : tensor<?xi64>, tensor<?xi64>
  }
  func.return %r#0, %r#1 : tensor<?x?xi64>, tensor<?x?xi64>
}"""


def test_segmented_scan(rng):
    for shape in MATRIX_SHAPES + [(3, 17), (2, 1000)]:
        m = (rng.integers(-100, 100, shape) * (rng.random(shape) < 0.3)).astype(np.int64)
        s, last = run(SEG_SCAN, m)
        assert_array(s, np.cumsum(m, axis=1).reshape(shape), np.int64)
        want = np.array([[_last_nonzero(r[: k + 1]) for k in range(len(r))] for r in m.tolist()], np.int64)
        assert_array(last, want.reshape(shape), np.int64)


MAP_OF_MATMUL_SCAN = """func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>, %c: tensor<?x?xi32>, %d: tensor<?x?xi32>)
    -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %r = soac.map(%a, %b, %c, %d) : (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%ra: tensor<?xi32>, %rb: tensor<?xi32>, %rc: tensor<?xi32>, %rd: tensor<?xi32>):
    %s:4 = soac.scan(%ra, %rb, %rc, %rd) neutral(%one, %zero, %zero, %one : i32, i32, i32, i32)
        : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
    ^bb1(%a1: i32, %b1: i32, %c1: i32, %d1: i32, %a2: i32, %b2: i32, %c2: i32, %d2: i32):
      %p1 = arith.muli %a1, %a2 : i32
      %p2 = arith.muli %b1, %c2 : i32
      %xa = arith.addi %p1, %p2 : i32
      %p3 = arith.muli %a1, %b2 : i32
      %p4 = arith.muli %b1, %d2 : i32
      %xb = arith.addi %p3, %p4 : i32
      %p5 = arith.muli %c1, %a2 : i32
      %p6 = arith.muli %d1, %c2 : i32
      %xc = arith.addi %p5, %p6 : i32
      %p7 = arith.muli %c1, %b2 : i32
      %p8 = arith.muli %d1, %d2 : i32
      %xd = arith.addi %p7, %p8 : i32
      soac.yield %xa, %xb, %xc, %xd : i32, i32, i32, i32
    }
    soac.yield %s#1 : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_segmented_non_commutative_tuple_scan(rng):
    for shape in [(0, 3), (3, 0), (1, 1), (4, 9), (2, 17)]:
        parts = [rng.integers(-2, 3, shape).astype(np.int32) for _ in range(4)]
        got = run(MAP_OF_MATMUL_SCAN, *parts)
        want = np.zeros(shape, np.int32)
        for i in range(shape[0]):
            _, prefixes = _matmul_fold([[int(p[i, j]) for p in parts] for j in range(shape[1])])
            want[i, :] = [q[1] for q in prefixes]
        assert_array(got, want, np.int32)


def test_segmented_float_sum_matches_numpy(rng):
    src = """func.func @main(%m: tensor<?x?xf64>) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %r = soac.map(%m) : (tensor<?x?xf64>) -> tensor<?xf64> {
  ^bb0(%row: tensor<?xf64>):
    %s = soac.reduce(%row) neutral(%z : f64) commutative : (tensor<?xf64>) -> f64 {
    ^bb1(%x: f64, %y: f64):
      %t = arith.addf %y, %x : f64
      soac.yield %t : f64
    }
    soac.yield %s : f64
  }
  func.return %r : tensor<?xf64>
}"""
    for shape in MATRIX_SHAPES:
        m = rng.standard_normal(shape)
        assert_close(run(src, m), m.sum(axis=1), np.float64, rtol=1e-12, atol=1e-12)


SCAN_MOD_PER_ROW = """func.func @main(%m: tensor<?x?xi64>, %mods: tensor<?xi64>) -> tensor<?x?xi64> {
  %z = arith.constant 0 : i64
  %r = soac.map(%m, %mods) : (tensor<?x?xi64>, tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?xi64>, %q: i64):
    // an operator capturing the lane's own modulus
    %s = soac.scan(%row) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64, %y: i64):
      %t = arith.addi %x, %y : i64
      %u = arith.remsi %t, %q : i64
      soac.yield %u : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}"""


def test_segmented_scan_with_operator_capturing_a_lane_value(rng):
    for shape in MATRIX_SHAPES:
        mods = rng.integers(2, 50, shape[0])
        m = rng.integers(0, 2, shape) * (mods[:, None] - 1) if shape[0] else np.zeros(shape, np.int64)
        want = np.array([[sum(r[: k + 1]) % q for k in range(len(r))] for r, q in zip(m.tolist(), mods.tolist())], np.int64)
        assert_array(run(SCAN_MOD_PER_ROW, m.astype(np.int64), mods), want.reshape(shape), np.int64)


@pytest.mark.parametrize(
    "op,fn",
    [("addi", lambda a, b: a ^ b), ("muli", lambda a, b: a & b), ("xori", lambda a, b: a ^ b), ("ori", lambda a, b: a | b)],
)
def test_reduce_and_scan_of_i1(op, fn, rng):
    """i1 arithmetic is modulo 2: a sum is a parity, a product a conjunction."""
    neutral = "true" if op == "muli" else "false"
    red = f"""func.func @main(%a: tensor<?xi1>) -> (i1, tensor<?xi1>) {{
  %n = arith.constant {neutral}
  %r = soac.reduce(%a) neutral(%n : i1) : (tensor<?xi1>) -> i1 {{
  ^bb0(%x: i1, %y: i1):
    %z = arith.{op} %x, %y : i1
    soac.yield %z : i1
  }}
  %s = soac.scan(%a) neutral(%n : i1) : (tensor<?xi1>) -> tensor<?xi1> {{
  ^bb0(%x: i1, %y: i1):
    %z = arith.{op} %x, %y : i1
    soac.yield %z : i1
  }}
  func.return %r, %s : i1, tensor<?xi1>
}}"""
    for n in SIZES:
        a = rng.random(n) < (0.9 if op == "muli" else 0.5)
        r, s = run(red, a)
        acc, prefix = neutral == "true", []
        for v in a.tolist():
            acc = fn(acc, v)
            prefix.append(acc)
        assert isinstance(r, np.bool_) and bool(r) == acc
        assert_array(s, prefix, np.bool_)


# --------------------------------------------------------------------------------------
# Operators NumPy knows only approximately: maximumf/minimumf order -0.0 below +0.0
# (NumPy's maximum/minimum return either), and maxsi/minsi on i1 read true as -1
# --------------------------------------------------------------------------------------

EXTREMA = """func.func @main(%a: tensor<?xFT>, %d: tensor<5xFT>, %i: tensor<?xi32>) -> (FT, tensor<?xFT>, tensor<5xFT>) {
  %z = arith.constant NEUTRAL : FT
  %negzero = arith.constant -0.0 : FT
  %m = soac.reduce(%a) neutral(%z : FT) commutative : (tensor<?xFT>) -> FT {
  ^bb0(%x: FT, %y: FT):
    %r = arith.OP %x, %y : FT
    BODY
  }
  %s = soac.scan(%a) neutral(%z : FT) commutative : (tensor<?xFT>) -> tensor<?xFT> {
  ^bb0(%x: FT, %y: FT):
    %r = arith.OP %x, %y : FT
    BODY
  }
  %h = soac.hist %d[%i], %a neutral(%z : FT) : tensor<5xFT>, tensor<?xi32>, tensor<?xFT> {
  ^bb0(%x: FT, %y: FT):
    %r = arith.OP %y, %x : FT
    BODY
  }
  func.return %m, %s, %h : FT, tensor<?xFT>, tensor<5xFT>
}"""


@pytest.mark.parametrize("ft,dtype", [("f32", np.float32), ("f64", np.float64)])
@pytest.mark.parametrize("op,neutral", [("maximumf", "0xFFF0000000000000"), ("minimumf", "0x7FF0000000000000")])
@pytest.mark.parametrize("n", [0, 1, 2, 9, 300])
def test_float_extrema_order_signed_zeros_like_the_elementwise_op(ft, dtype, op, neutral, n):
    """The recognised operator (NumPy's methods on total-order keys) against the same
    operator made unrecognisable (`+ -0.0`, which changes no value), which runs
    arith.maximumf/minimumf itself, lane by lane in the pairwise tree."""
    if ft == "f32":
        neutral = "0xFF800000" if op == "maximumf" else "0x7F800000"
    fast = EXTREMA.replace("FT", ft).replace("OP", op).replace("NEUTRAL", neutral).replace("BODY", "soac.yield %r : " + ft)
    slow = fast.replace("soac.yield %r : " + ft, f"%r0 = arith.addf %r, %negzero : {ft}\n    soac.yield %r0 : {ft}")
    rng = np.random.default_rng(n)
    # mostly zeros of both signs, so that most combinations are of -0.0 with +0.0
    values = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf], dtype)
    a = rng.choice(values, n, p=[0.4, 0.4, 0.05, 0.05, 0.02, 0.04, 0.04])
    d = np.array([0.0, -0.0, np.nan, 2.0, -0.0], dtype)
    i = rng.integers(-1, 6, n).astype(np.int32)
    got = run(fast, a, d.copy(), i)
    want = run(slow, a, d.copy(), i)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g[~np.isnan(g)]), np.signbit(w[~np.isnan(w)]))


@pytest.mark.parametrize("op,want", [("maxsi", np.logical_and), ("minsi", np.logical_or)])
def test_signed_extrema_of_i1_read_true_as_minus_one(op, want):
    src = f"""func.func @main(%a: tensor<?xi1>) -> i1 {{
  %z = arith.constant {"true" if op == "maxsi" else "false"}
  %r = soac.reduce(%a) neutral(%z : i1) commutative : (tensor<?xi1>) -> i1 {{
  ^bb0(%x: i1, %y: i1):
    %m = arith.{op} %x, %y : i1
    soac.yield %m : i1
  }}
  func.return %r : i1
}}"""
    for a in ([True, False, True], [True, True], [False], []):
        got = run(src, np.array(a, bool))
        assert bool(got) == bool(want.reduce(np.array(a, bool))), a
