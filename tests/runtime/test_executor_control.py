"""Control flow in the reference executor: scf.if / scf.while / scf.for inside map
lambdas (vectorised under masks of active lanes, with lane-varying conditions and trip
counts), func.call from lambdas and from the host, and host-level control flow, each
against a per-element Python loop."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

from tests.support.rt_util import SIZES, assert_array, run, wrap

# --------------------------------------------------------------------------------------
# scf.if inside a map
# --------------------------------------------------------------------------------------

IF_IN_MAP = """func.func @main(%a: tensor<?xi32>, %m: tensor<?x?xf32>) -> (tensor<?xi32>, tensor<?xf32>, tensor<?x?xf32>) {
  %z = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %fz = arith.constant 0.0 : f32
  %r:3 = soac.map(%a, %m) : (tensor<?xi32>, tensor<?x?xf32>) -> (tensor<?xi32>, tensor<?xf32>, tensor<?x?xf32>) {
  ^bb0(%x: i32, %row: tensor<?xf32>):
    %neg = arith.cmpi slt, %x, %z : i32
    %v:3 = scf.if %neg -> (i32, f32, tensor<?xf32>) {
      %y = arith.subi %z, %x : i32
      %s = soac.reduce(%row) neutral(%fz : f32) : (tensor<?xf32>) -> f32 {
      ^bb1(%p: f32, %q: f32):
        %t = arith.addf %p, %q : f32
        soac.yield %t : f32
      }
      scf.yield %y, %s, %row : i32, f32, tensor<?xf32>
    } else {
      %y = arith.muli %x, %three : i32
      %neg_row = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32):
        %t = arith.negf %p : f32
        soac.yield %t : f32
      }
      scf.yield %y, %fz, %neg_row : i32, f32, tensor<?xf32>
    }
    soac.yield %v#0, %v#1, %v#2 : i32, f32, tensor<?xf32>
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi32>, tensor<?xf32>, tensor<?x?xf32>
}"""


def test_if_with_lane_varying_condition(rng):
    for n in SIZES:
        a = rng.integers(-100, 100, n).astype(np.int32)
        m = rng.integers(-9, 9, (n, 4)).astype(np.float32)
        x, s, rows = run(IF_IN_MAP, a, m)
        neg = a < 0
        assert_array(x, np.where(neg, -a, a * 3), np.int32)
        assert_array(s, np.where(neg, m.sum(axis=1), 0), np.float32)
        assert_array(rows, np.where(neg[:, None], m, -m), np.float32)
    # all lanes one way, then the other
    m = np.ones((3, 4), np.float32)
    x, _, rows = run(IF_IN_MAP, np.array([-1, -2, -3], np.int32), m)
    assert x.tolist() == [1, 2, 3] and rows.tolist() == m.tolist()
    x, _, rows = run(IF_IN_MAP, np.array([1, 2, 3], np.int32), m)
    assert x.tolist() == [3, 6, 9] and rows.tolist() == (-m).tolist()


GUARDED = """func.func @main(%a: tensor<?xf64>, %is: tensor<?xindex>, %d: tensor<?xi64>) -> (tensor<?xf64>, tensor<?xi64>, tensor<?xindex>) {
  %n = soac.size %a[0] : tensor<?xf64>
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %i0 = arith.constant 0 : i64
  %big = arith.constant 100 : i64
  %r:3 = soac.map(%is, %d) : (tensor<?xindex>, tensor<?xi64>) -> (tensor<?xf64>, tensor<?xi64>, tensor<?xindex>) {
  ^bb0(%i: index, %k: i64):
    // a[i] only where i is in bounds
    %ok = arith.cmpi ult, %i, %n : index
    %x = scf.if %ok -> (f64) {
      %v = soac.index %a[%i] : tensor<?xf64>
      scf.yield %v : f64
    } else {
      scf.yield %zero : f64
    }
    // 100 / k only where k != 0
    %nz = arith.cmpi ne, %k, %i0 : i64
    %q = scf.if %nz -> (i64) {
      %t = arith.divsi %big, %k : i64
      scf.yield %t : i64
    } else {
      scf.yield %i0 : i64
    }
    // an array whose size differs between lanes, built only where it is 3
    %is3 = arith.cmpi eq, %i, %c3 : index
    %s = scf.if %is3 -> (index) {
      %it = soac.iota %i : tensor<?xindex>
      %sl = soac.slice %a[%c0:%i] : tensor<?xf64> -> tensor<?xf64>
      %sz = soac.size %sl[0] : tensor<?xf64>
      %last = soac.index %it[%c0] : tensor<?xindex>
      %u = arith.addi %sz, %last : index
      scf.yield %u : index
    } else {
      scf.yield %c0 : index
    }
    soac.yield %x, %q, %s : f64, i64, index
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xf64>, tensor<?xi64>, tensor<?xindex>
}"""


def test_untaken_branch_does_not_fail(rng):
    for size in (3, 4, 10):
        a = rng.standard_normal(size)
        for n in SIZES:
            idx = rng.integers(-3, size + 5, n)
            idx[rng.random(n) < 0.3] = 3
            d = rng.integers(-2, 3, n)
            x, q, s = run(GUARDED, a, idx, d)
            ok = (idx >= 0) & (idx < size)
            assert_array(x, np.where(ok, a[np.clip(idx, 0, size - 1)], 0.0), np.float64)
            assert_array(q, [int(100 / k) if k else 0 for k in d.tolist()], np.int64)
            assert_array(s, np.where(idx == 3, 3, 0), np.int64)


RANGE_SLICE_UNDER_MASK = """func.func @main(%a: tensor<?xf32>, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f32
  %r = soac.map(%xs) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %pos = arith.cmpf ogt, %x, %z : f32
    %v = scf.if %pos -> (f32) {
      %s = soac.slice %a[%c0:%c2] : tensor<?xf32> -> tensor<?xf32>
      %u = soac.update %s[%c0:%c2] = %s : tensor<?xf32>, tensor<?xf32>
      %e = soac.index %u[%c0] : tensor<?xf32>
      scf.yield %e : f32
    } else {
      scf.yield %x : f32
    }
    soac.yield %v : f32
  }
  func.return %r : tensor<?xf32>
}"""


def test_uniform_range_slice_inside_a_masked_branch(rng):
    """A slice with lane-invariant bounds under a lane-varying mask of any lane count."""
    a = np.array([7.0, 8.0, 9.0], np.float32)
    for n in SIZES:
        xs = rng.standard_normal(n).astype(np.float32)
        assert_array(run(RANGE_SLICE_UNDER_MASK, a, xs), np.where(xs > 0, 7.0, xs), np.float32)


ROW_SIZE_BY_CONDITION = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xindex>, %c: i1) -> tensor<?x?xf32> {
  %r = soac.map(%b) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %y = scf.if %c -> (tensor<?xf32>) {
      scf.yield %a : tensor<?xf32>
    } else {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s = soac.slice %a[%c0:%c1] : tensor<?xf32> -> tensor<?xf32>
      scf.yield %s : tensor<?xf32>
    }
    soac.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""

ROW_SIZE_BY_ROW = ROW_SIZE_BY_CONDITION.replace(
    "  ^bb0(%i: index):\n", "  ^bb0(%i: index):\n    %z = arith.constant 0 : index\n    %c = arith.cmpi eq, %i, %z : index\n"
).replace("%b: tensor<?xindex>, %c: i1)", "%b: tensor<?xindex>)")


@pytest.mark.parametrize("condition", [False, True])
def test_a_row_size_chosen_by_a_condition_known_before_the_map(condition):
    a = np.array([1, 2, 3], np.float32)
    got = run(ROW_SIZE_BY_CONDITION, a, np.array([0, 1], np.int64), np.bool_(condition))
    assert_array(got, [[1, 2, 3]] * 2 if condition else [[1]] * 2, np.float32)


def test_rows_of_different_sizes_are_an_error_at_both_levels():
    with pytest.raises(soacc.ExecutionError):
        run(ROW_SIZE_BY_ROW, np.array([1, 2, 3], np.float32), np.array([0, 1], np.int64))


# --------------------------------------------------------------------------------------
# scf.while inside a map
# --------------------------------------------------------------------------------------

COLLATZ = """func.func @main(%a: tensor<?xi64>) -> (tensor<?xi32>, tensor<?xi64>) {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %z = arith.constant 0 : i64
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %r:2 = soac.map(%a) : (tensor<?xi64>) -> (tensor<?xi32>, tensor<?xi64>) {
  ^bb0(%x: i64):
    %res:3 = scf.while (%v = %x, %k = %k0, %peak = %x) : (i64, i32, i64) -> (i64, i32, i64) {
      %more = arith.cmpi sgt, %v, %one : i64
      scf.condition(%more) %v, %k, %peak : i64, i32, i64
    } do {
    ^bb1(%v: i64, %k: i32, %peak: i64):
      %rem = arith.remsi %v, %two : i64
      %even = arith.cmpi eq, %rem, %z : i64
      %next = scf.if %even -> (i64) {
        %h = arith.divsi %v, %two : i64
        scf.yield %h : i64
      } else {
        %t = arith.muli %v, %three : i64
        %u = arith.addi %t, %one : i64
        scf.yield %u : i64
      }
      %nk = arith.addi %k, %k1 : i32
      %np = arith.maxsi %peak, %next : i64
      scf.yield %next, %nk, %np : i64, i32, i64
    }
    soac.yield %res#1, %res#2 : i32, i64
  }
  func.return %r#0, %r#1 : tensor<?xi32>, tensor<?xi64>
}"""


def _collatz(x):
    k, peak = 0, x
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        k += 1
        peak = max(peak, x)
    return k, peak


def test_while_with_lane_varying_trip_counts_and_nested_if(rng):
    for n in SIZES:
        a = rng.integers(-3, 3000, n)
        steps, peaks = run(COLLATZ, a)
        want = [_collatz(x) for x in a.tolist()]
        assert_array(steps, [w[0] for w in want], np.int32)
        assert_array(peaks, [w[1] for w in want], np.int64)


COLLATZ_2D = """func.func @main(%m: tensor<?x?xi64>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %z = arith.constant 0 : i64
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?x?xi32> {
  ^bb0(%row: tensor<?xi64>):
    %s = soac.map(%row) : (tensor<?xi64>) -> tensor<?xi32> {
    ^bb1(%x: i64):
      %res:2 = scf.while (%v = %x, %k = %k0) : (i64, i32) -> (i64, i32) {
        %more = arith.cmpi sgt, %v, %one : i64
        scf.condition(%more) %v, %k : i64, i32
      } do {
      ^bb2(%v: i64, %k: i32):
        %rem = arith.remsi %v, %two : i64
        %even = arith.cmpi eq, %rem, %z : i64
        %h = arith.divsi %v, %two : i64
        %t = arith.muli %v, %three : i64
        %u = arith.addi %t, %one : i64
        %next = arith.select %even, %h, %u : i64
        %nk = arith.addi %k, %k1 : i32
        scf.yield %next, %nk : i64, i32
      }
      soac.yield %res#1 : i32
    }
    soac.yield %s : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_while_inside_map_of_map(rng):
    for shape in [(0, 0), (0, 3), (3, 0), (1, 1), (4, 9), (30, 31)]:
        m = rng.integers(1, 500, shape)
        want = np.array([_collatz(x)[0] for x in m.reshape(-1).tolist()], np.int32).reshape(shape)
        assert_array(run(COLLATZ_2D, m), want, np.int32)


MANDEL = """func.func @main(%cr: tensor<?xf32>, %ci: tensor<?xf32>, %limit: i32) -> (tensor<?xi32>, tensor<?xf32>) {
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %fz = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %r:2 = soac.map(%cr, %ci) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xi32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %res:3 = scf.while (%k = %k0, %zr = %fz, %zi = %fz) : (i32, f32, f32) -> (i32, f32, f32) {
      %more = arith.cmpi slt, %k, %limit : i32
      %zr2 = arith.mulf %zr, %zr : f32
      %zi2 = arith.mulf %zi, %zi : f32
      %mag = arith.addf %zr2, %zi2 : f32
      %inside = arith.cmpf ole, %mag, %four : f32
      %go = arith.andi %more, %inside : i1
      scf.condition(%go) %k, %zr, %zi : i32, f32, f32
    } do {
    ^bb1(%k: i32, %zr: f32, %zi: f32):
      %zr2 = arith.mulf %zr, %zr : f32
      %zi2 = arith.mulf %zi, %zi : f32
      %re = arith.subf %zr2, %zi2 : f32
      %nzr = arith.addf %re, %x : f32
      %t = arith.mulf %two, %zr : f32
      %im = arith.mulf %t, %zi : f32
      %nzi = arith.addf %im, %y : f32
      %nk = arith.addi %k, %k1 : i32
      scf.yield %nk, %nzr, %nzi : i32, f32, f32
    }
    soac.yield %res#0, %res#1 : i32, f32
  }
  func.return %r#0, %r#1 : tensor<?xi32>, tensor<?xf32>
}"""


def _mandel(x, y, limit):
    f = np.float32
    x, y = f(x), f(y)
    k, zr, zi = 0, f(0), f(0)
    while k < limit and zr * zr + zi * zi <= f(4):
        zr, zi = zr * zr - zi * zi + x, f(2) * zr * zi + y
        k += 1
    return k, zr


def test_mandelbrot_like_while(rng):
    for n in (0, 1, 2, 3, 7, 17, 400):
        cr = rng.uniform(-2.25, 0.75, n).astype(np.float32)
        ci = rng.uniform(-1.25, 1.25, n).astype(np.float32)
        counts, zr = run(MANDEL, cr, ci, np.int32(40))
        want = [_mandel(x, y, 40) for x, y in zip(cr, ci)]
        assert_array(counts, [w[0] for w in want], np.int32)
        assert_array(zr, np.array([w[1] for w in want], np.float32), np.float32)
    # a limit of 0: no lane iterates
    counts, _ = run(MANDEL, np.zeros(3, np.float32), np.zeros(3, np.float32), np.int32(0))
    assert counts.tolist() == [0, 0, 0]


BSEARCH = """func.func @main(%sorted: tensor<?xi64>, %keys: tensor<?xi64>) -> tensor<?xindex> {
  %n = soac.size %sorted[0] : tensor<?xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = soac.map(%keys) : (tensor<?xi64>) -> tensor<?xindex> {
  ^bb0(%k: i64):
    // first position whose value is >= k (lo, hi: the candidate range)
    %res:2 = scf.while (%lo = %c0, %hi = %n) : (index, index) -> (index, index) {
      %more = arith.cmpi ult, %lo, %hi : index
      scf.condition(%more) %lo, %hi : index, index
    } do {
    ^bb1(%lo: index, %hi: index):
      %sum = arith.addi %lo, %hi : index
      %mid = arith.divui %sum, %c1 : index
      %half = arith.shrui %mid, %c1 : index
      %v = soac.index %sorted[%half] : tensor<?xi64>
      %less = arith.cmpi slt, %v, %k : i64
      %h1 = arith.addi %half, %c1 : index
      %nlo = arith.select %less, %h1, %lo : index
      %nhi = arith.select %less, %hi, %half : index
      scf.yield %nlo, %nhi : index, index
    }
    soac.yield %res#0 : index
  }
  func.return %r : tensor<?xindex>
}"""


def test_while_binary_search_indexing_per_lane(rng):
    for size in (0, 1, 2, 3, 7, 1000):
        s = np.sort(rng.integers(-50, 50, size))
        for n in (0, 1, 5, 300):
            keys = rng.integers(-60, 60, n)
            assert_array(run(BSEARCH, s, keys), np.searchsorted(s, keys, side="left"), np.int64)


# --------------------------------------------------------------------------------------
# scf.for inside a map
# --------------------------------------------------------------------------------------

FOR_IN_MAP = """func.func @main(%lo: tensor<?xindex>, %hi: tensor<?xindex>, %st: tensor<?xindex>, %w: tensor<?xf32>)
    -> (tensor<?xi64>, tensor<?x?xf32>) {
  %z = arith.constant 0 : i64
  %r:2 = soac.map(%lo, %hi, %st) : (tensor<?xindex>, tensor<?xindex>, tensor<?xindex>) -> (tensor<?xi64>, tensor<?x?xf32>) {
  ^bb0(%l: index, %h: index, %s: index):
    %res:2 = scf.for %i = %l to %h step %s iter_args(%acc = %z, %row = %w) -> (i64, tensor<?xf32>) {
      %i64 = arith.index_cast %i : index to i64
      %sq = arith.muli %i64, %i64 : i64
      %acc2 = arith.addi %acc, %sq : i64
      %f = arith.sitofp %i64 : i64 to f32
      %row2 = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32):
        %y = arith.addf %x, %f : f32
        soac.yield %y : f32
      }
      scf.yield %acc2, %row2 : i64, tensor<?xf32>
    }
    soac.yield %res#0, %res#1 : i64, tensor<?xf32>
  }
  func.return %r#0, %r#1 : tensor<?xi64>, tensor<?x?xf32>
}"""


def test_for_with_lane_varying_bounds(rng):
    w = np.array([0.5, -1.0], np.float32)
    for n in SIZES:
        lo = rng.integers(0, 10, n)
        hi = lo + rng.integers(-3, 15, n)  # some empty ranges
        st = rng.integers(1, 4, n)
        acc, rows = run(FOR_IN_MAP, lo, hi, st, w)
        want_acc = [sum(i * i for i in range(a, b, c)) for a, b, c in zip(lo.tolist(), hi.tolist(), st.tolist())]
        want_rows = np.array([w + np.float32(sum(range(a, b, c))) for a, b, c in zip(lo.tolist(), hi.tolist(), st.tolist())], np.float32)
        assert_array(acc, want_acc, np.int64)
        assert_array(rows, want_rows.reshape(n, 2), np.float32)
    # the same bounds in every lane
    acc, _ = run(FOR_IN_MAP, np.full(3, 2), np.full(3, 5), np.full(3, 1), w)
    assert acc.tolist() == [4 + 9 + 16] * 3


FOR_WITH_IF = """func.func @main(%n: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = soac.map(%n) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%k: i32):
    // sum over i < k of (i odd ? i : -i)
    %s = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %rem = arith.remsi %i, %c2 : i32
      %odd = arith.cmpi ne, %rem, %c0 : i32
      %t = scf.if %odd -> (i32) {
        %a = arith.addi %acc, %i : i32
        scf.yield %a : i32
      } else {
        %a = arith.subi %acc, %i : i32
        scf.yield %a : i32
      }
      scf.yield %t : i32
    }
    soac.yield %s : i32
  }
  func.return %r : tensor<?xi32>
}"""


def test_for_with_i32_bounds_and_if_inside(rng):
    for n in SIZES:
        k = rng.integers(-2, 40, n).astype(np.int32)
        want = [sum(i if i % 2 else -i for i in range(x)) for x in k.tolist()]
        assert_array(run(FOR_WITH_IF, k), want, np.int32)


# --------------------------------------------------------------------------------------
# func.call
# --------------------------------------------------------------------------------------

CALLS = """func.func private @clamp_sum(%x: f64, %v: tensor<?xf64>, %lim: f64) -> (f64, i1) {
  %z = arith.constant 0.0 : f64
  %scaled = soac.map(%v) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%y: f64):
    %p = arith.mulf %x, %y : f64
    soac.yield %p : f64
  }
  %s = soac.reduce(%scaled) neutral(%z : f64) : (tensor<?xf64>) -> f64 {
  ^bb0(%a: f64, %b: f64):
    %t = arith.addf %a, %b : f64
    soac.yield %t : f64
  }
  %big = arith.cmpf ogt, %s, %lim : f64
  %r = scf.if %big -> (f64) {
    scf.yield %lim : f64
  } else {
    scf.yield %s : f64
  }
  func.return %r, %big : f64, i1
}

func.func @main(%xs: tensor<?xf64>, %v: tensor<?xf64>, %lim: f64) -> (tensor<?xf64>, tensor<?xi1>, f64) {
  %r:2 = soac.map(%xs) : (tensor<?xf64>) -> (tensor<?xf64>, tensor<?xi1>) {
  ^bb0(%x: f64):
    %c:2 = func.call @clamp_sum(%x, %v, %lim) : (f64, tensor<?xf64>, f64) -> (f64, i1)
    soac.yield %c#0, %c#1 : f64, i1
  }
  %one = arith.constant 1.0 : f64
  %h:2 = func.call @clamp_sum(%one, %v, %lim) : (f64, tensor<?xf64>, f64) -> (f64, i1)
  func.return %r#0, %r#1, %h#0 : tensor<?xf64>, tensor<?xi1>, f64
}"""


def test_func_call_from_lambda_and_host(rng):
    v = np.array([1.0, 2.0, 3.0])
    for n in SIZES:
        xs = rng.integers(-5, 5, n).astype(np.float64)
        for lim in (2.5, 100.0):
            r, big, h = run(CALLS, xs, v, lim)
            s = xs * 6.0
            assert_array(r, np.where(s > lim, lim, s), np.float64)
            assert_array(big, s > lim, np.bool_)
            assert h == min(6.0, lim) and isinstance(h, np.float64)
    assert "clamp_sum" not in soacc.compile(CALLS).entry_points  # private


# --------------------------------------------------------------------------------------
# Host-level control flow
# --------------------------------------------------------------------------------------

HOST_FOR = """func.func @main(%a: tensor<?xi32>, %k: index) -> (tensor<?xi32>, tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2 : i32
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%x = %a, %hist = %a, %cnt = %z) -> (tensor<?xi32>, tensor<?xi32>, i32) {
    %y = soac.map(%x) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%e: i32):
      %d = arith.muli %e, %two : i32
      %f = arith.addi %d, %one : i32
      soac.yield %f : i32
    }
    %s = soac.reduce(%y) neutral(%z : i32) : (tensor<?xi32>) -> i32 {
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      soac.yield %t : i32
    }
    %h = soac.concat %hist, %y : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    %c = arith.addi %cnt, %s : i32
    scf.yield %y, %h, %c : tensor<?xi32>, tensor<?xi32>, i32
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi32>, tensor<?xi32>, i32
}"""


def test_host_for_carrying_arrays(rng):
    for n in (0, 1, 3, 100):
        a = rng.integers(-(2**31), 2**31, n).astype(np.int32)
        for k in (0, 1, 4, 40):
            x, hist, cnt = run(HOST_FOR, a, k)
            cur = [int(v) for v in a]
            parts, total = [list(cur)], 0
            for _ in range(k):
                cur = [wrap(2 * v + 1, 32) for v in cur]
                parts.append(cur)
                total = wrap(total + sum(cur), 32)
            assert_array(x, cur, np.int32)
            assert_array(hist, [v for p in parts for v in p], np.int32)
            assert cnt == total


HOST_WHILE = """func.func @main(%a: tensor<?xf64>, %limit: f64) -> (tensor<?xf64>, i64) {
  %z = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %k0 = arith.constant 0 : i64
  %k1 = arith.constant 1 : i64
  %r:2 = scf.while (%x = %a, %k = %k0) : (tensor<?xf64>, i64) -> (tensor<?xf64>, i64) {
    %s = soac.reduce(%x) neutral(%z : f64) : (tensor<?xf64>) -> f64 {
    ^bb0(%p: f64, %q: f64):
      %t = arith.addf %p, %q : f64
      soac.yield %t : f64
    }
    %more = arith.cmpf ogt, %s, %limit : f64
    scf.condition(%more) %x, %k : tensor<?xf64>, i64
  } do {
  ^bb0(%x: tensor<?xf64>, %k: i64):
    %y = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
    ^bb1(%e: f64):
      %f = arith.mulf %e, %half : f64
      soac.yield %f : f64
    }
    %nk = arith.addi %k, %k1 : i64
    scf.yield %y, %nk : tensor<?xf64>, i64
  }
  func.return %r#0, %r#1 : tensor<?xf64>, i64
}"""


def test_host_while_with_condition_from_a_reduction(rng):
    for n in (0, 1, 2, 7, 1000):
        a = rng.integers(1, 100, n).astype(np.float64)
        for limit in (1.0, 50.0, 1e9):
            x, k = run(HOST_WHILE, a, limit)
            cur, steps = a.copy(), 0
            while cur.sum() > limit:
                cur, steps = cur * 0.5, steps + 1
            assert_array(x, cur, np.float64)
            assert k == steps


HOST_IF = """func.func @main(%c: i1, %a: tensor<?xf32>, %b: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %r:2 = scf.if %c -> (tensor<?xf32>, tensor<?x?xf32>) {
    %t = soac.transpose %b [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
    scf.yield %a, %t : tensor<?xf32>, tensor<?x?xf32>
  } else {
    %neg = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %y = arith.negf %x : f32
      soac.yield %y : f32
    }
    scf.yield %neg, %b : tensor<?xf32>, tensor<?x?xf32>
  }
  func.return %r#0, %r#1 : tensor<?xf32>, tensor<?x?xf32>
}"""


@pytest.mark.parametrize("cond", [True, False])
def test_host_if_returning_arrays(cond, rng):
    for n in (0, 1, 5):
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal((n, 3)).astype(np.float32)
        x, y = run(HOST_IF, cond, a, b)
        assert_array(x, a if cond else -a, np.float32)
        assert_array(y, b.T if cond else b, np.float32)


# --------------------------------------------------------------------------------------
# No lanes: a lambda applied to no rows must not fail
# --------------------------------------------------------------------------------------

FIRST_OF_EACH_ROW = """func.func @main(%m: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %x = soac.index %row[%c0] : tensor<?xf32>
    soac.yield %x : f32
  }
  func.return %r : tensor<?xf32>
}"""


def test_lambda_over_no_rows_does_not_check_bounds():
    assert_array(run(FIRST_OF_EACH_ROW, np.zeros((0, 0), np.float32)), np.zeros(0, np.float32), np.float32)
    assert_array(run(FIRST_OF_EACH_ROW, np.zeros((0, 3), np.float32)), np.zeros(0, np.float32), np.float32)
    assert_array(run(FIRST_OF_EACH_ROW, np.ones((2, 3), np.float32)), np.ones(2, np.float32), np.float32)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.index"):
        run(FIRST_OF_EACH_ROW, np.zeros((2, 0), np.float32))


# --------------------------------------------------------------------------------------
# Arrays carried through lane-varying control flow
# --------------------------------------------------------------------------------------

HALVE_ROWS = """func.func @main(%m: tensor<?x?xf64>, %lims: tensor<?xf64>) -> (tensor<?x?xf64>, tensor<?xi32>) {
  %z = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %r:2 = soac.map(%m, %lims) : (tensor<?x?xf64>, tensor<?xf64>) -> (tensor<?x?xf64>, tensor<?xi32>) {
  ^bb0(%row: tensor<?xf64>, %lim: f64):
    // while sum(row) > lim: row = row / 2
    %w:2 = scf.while (%x = %row, %k = %k0) : (tensor<?xf64>, i32) -> (tensor<?xf64>, i32) {
      %s = soac.reduce(%x) neutral(%z : f64) : (tensor<?xf64>) -> f64 {
      ^bb1(%p: f64, %q: f64):
        %t = arith.addf %p, %q : f64
        soac.yield %t : f64
      }
      %more = arith.cmpf ogt, %s, %lim : f64
      scf.condition(%more) %x, %k : tensor<?xf64>, i32
    } do {
    ^bb1(%x: tensor<?xf64>, %k: i32):
      %y = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
      ^bb2(%e: f64):
        %f = arith.mulf %e, %half : f64
        soac.yield %f : f64
      }
      %nk = arith.addi %k, %k1 : i32
      scf.yield %y, %nk : tensor<?xf64>, i32
    }
    soac.yield %w#0, %w#1 : tensor<?xf64>, i32
  }
  func.return %r#0, %r#1 : tensor<?x?xf64>, tensor<?xi32>
}"""


def test_while_carrying_rows_with_a_reduction_in_the_condition(rng):
    for n, k in [(0, 3), (1, 1), (3, 0), (6, 4), (40, 5)]:
        m = rng.integers(1, 50, (n, k)).astype(np.float64)
        lims = rng.uniform(0.5, 100, n)
        rows, steps = run(HALVE_ROWS, m, lims)
        want_rows, want_steps = m.copy(), np.zeros(n, np.int32)
        for i in range(n):
            while want_rows[i].sum() > lims[i]:
                want_rows[i] *= 0.5
                want_steps[i] += 1
        assert_array(rows, want_rows, np.float64)
        assert_array(steps, want_steps, np.int32)


MASKED_UPDATE = """func.func @main(%base: tensor<?xi32>, %is: tensor<?xindex>) -> tensor<?x?xi32> {
  %n = soac.size %base[0] : tensor<?xi32>
  %one = arith.constant 1 : i32
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?x?xi32> {
  ^bb0(%i: index):
    %ok = arith.cmpi ult, %i, %n : index
    %row = scf.if %ok -> (tensor<?xi32>) {
      %c = soac.copy %base : tensor<?xi32>
      %old = soac.index %c[%i] : tensor<?xi32>
      %new = arith.addi %old, %one : i32
      %u = soac.update %c[%i] = %new : tensor<?xi32>, i32
      scf.yield %u : tensor<?xi32>
    } else {
      scf.yield %base : tensor<?xi32>
    }
    soac.yield %row : tensor<?x?xi32>
  }
  func.return %r : tensor<?x?xi32>
}""".replace("soac.yield %row : tensor<?x?xi32>", "soac.yield %row : tensor<?xi32>")


def test_update_at_per_lane_index_under_a_mask(rng):
    base = np.array([10, 20, 30, 40], np.int32)
    for n in SIZES:
        idx = rng.integers(-2, 7, n)
        want = np.tile(base, (n, 1))
        for r, i in enumerate(idx.tolist()):
            if 0 <= i < 4:
                want[r, i] += 1
        assert_array(run(MASKED_UPDATE, base, idx), want.reshape(n, 4), np.int32)
    assert base.tolist() == [10, 20, 30, 40]


FOR_INDEXING = """func.func @main(%a: tensor<?xi64>, %lo: tensor<?xindex>, %hi: tensor<?xindex>) -> tensor<?xi64> {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %r = soac.map(%lo, %hi) : (tensor<?xindex>, tensor<?xindex>) -> tensor<?xi64> {
  ^bb0(%l: index, %h: index):
    // sum of a[l:h], read one element per iteration
    %s = scf.for %i = %l to %h step %c1 iter_args(%acc = %z) -> (i64) {
      %x = soac.index %a[%i] : tensor<?xi64>
      %t = arith.addi %acc, %x : i64
      scf.yield %t : i64
    }
    soac.yield %s : i64
  }
  func.return %r : tensor<?xi64>
}"""


def test_for_with_lane_varying_bounds_indexing_an_array(rng):
    a = rng.integers(-100, 100, 30)
    for n in SIZES:
        lo = rng.integers(0, 30, n)
        hi = np.minimum(lo + rng.integers(0, 12, n), 30)
        want = [int(a[x:y].sum()) for x, y in zip(lo.tolist(), hi.tolist())]
        assert_array(run(FOR_INDEXING, a, lo, hi), want, np.int64)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.index"):
        run(FOR_INDEXING, a, np.array([0, 25]), np.array([3, 31]))


ELSE_GUARDED = """func.func @main(%a: tensor<?xi32>, %is: tensor<?xindex>) -> tensor<?xi32> {
  %n = soac.size %a[0] : tensor<?xi32>
  %m1 = arith.constant -1 : i32
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %out = arith.cmpi uge, %i, %n : index
    %x = scf.if %out -> (i32) {
      scf.yield %m1 : i32
    } else {
      %v = soac.index %a[%i] : tensor<?xi32>
      scf.yield %v : i32
    }
    soac.yield %x : i32
  }
  func.return %r : tensor<?xi32>
}"""


def test_else_branch_runs_only_on_its_lanes(rng):
    a = rng.integers(0, 100, 6).astype(np.int32)
    for n in SIZES:
        idx = rng.integers(-2, 9, n)
        ok = (idx >= 0) & (idx < 6)
        assert_array(run(ELSE_GUARDED, a, idx), np.where(ok, a[np.clip(idx, 0, 5)], -1), np.int32)


# --------------------------------------------------------------------------------------
# writes inside a branch some lanes do not take (level 2)
# --------------------------------------------------------------------------------------

# every row copied, then the odd rows' first element overwritten, in place
STORE_IN_A_BRANCH = """builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %minus = arith.constant -1.0 : f32
    %rows = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %cols = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %four = arith.constant 4 : index
    %row_bytes = arith.muli %four, %cols : index
    %bytes = arith.muli %row_bytes, %rows : index
    %m_mem = mem.alloc %bytes : !mem.block<device>
    %m = mem.view %m_mem[%c0] sizes(%rows, %cols) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %r_mem = mem.alloc %bytes : !mem.block<device>
    %r = mem.view %r_mem[%c0] sizes(%rows, %cols) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) indexed {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index):
      mem.copy %row, %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      %two = arith.constant 2 : index
      %bit = arith.remui %i, %two : index
      %odd = arith.cmpi eq, %bit, %c1 : index
      scf.if %odd {
        mem.store %minus, %r_row[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %r_host_mem = mem.alloc %bytes : !mem.block<host>
    %r_host = mem.view %r_host_mem[%c0] sizes(%rows, %cols) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}"""

# the pivot row copied, the other rows reduced by it, each in place in its branch (what
# short-circuit makes of a lambda that yields an `if`'s rows)
PIVOT_STEP = """func.func @main(%m: tensor<?x?xf32>, %p: tensor<?xf32>, %k: index) -> tensor<?x?xf32> {
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %ir = soac.iota %rows : tensor<?xindex>
  %r = soac.map(%m, %ir) : (tensor<?x?xf32>, tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>, %i: index):
    %isk = arith.cmpi eq, %i, %k : index
    %new = scf.if %isk -> (tensor<?xf32>) {
      scf.yield %p : tensor<?xf32>
    } else {
      %f = soac.index %row[%k] : tensor<?xf32>
      %red = soac.map(%row, %p) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32, %y: f32):
        %fy = arith.mulf %f, %y : f32
        %d = arith.subf %x, %fy : f32
        soac.yield %d : f32
      }
      scf.yield %red : tensor<?xf32>
    }
    soac.yield %new : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (7, 5), (64, 33)])
def test_a_store_in_a_branch_writes_only_from_the_lanes_that_take_it(shape):
    m = np.random.default_rng(shape[0]).uniform(-1, 1, shape).astype(np.float32)
    got = soacc.compile(STORE_IN_A_BRANCH, backend="numpy", pipeline="").main(m)
    expected = m.copy()
    expected[1::2, 0] = -1.0
    assert_array(got, expected)


@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (7, 31), (40, 9)])
def test_copies_and_maps_in_a_branch_write_only_from_the_lanes_that_take_it(shape):
    rng = np.random.default_rng(shape[1])
    m = rng.integers(-8, 9, shape).astype(np.float32)
    p = rng.integers(-8, 9, shape[1]).astype(np.float32)
    k = min(shape) // 2
    expected = m - m[:, [k]] * p
    expected[k] = p
    for pipeline in ("convert-soac-to-mem", "convert-soac-to-mem,hoist-allocations,short-circuit"):
        got = soacc.compile(PIVOT_STEP, backend="numpy", pipeline=pipeline).main(m, p, np.int64(k))
        assert_array(got, expected)
