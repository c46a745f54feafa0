"""soac's array ops in the reference executor: scatter, hist, gpu_body, iota,
replicate, array literals, index, slice, update, concat, transpose, copy and size, at
host level and inside map lambdas (per-lane indices and offsets), against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

from tests.support.rt_util import DTYPES, SIZES, assert_array, assert_close, run, run_level1

# --------------------------------------------------------------------------------------
# scatter
# --------------------------------------------------------------------------------------


def scatter_program(idx_t: str, elem: str = "f32") -> str:
    return f"""func.func @main(%d: tensor<?x{elem}>, %i: tensor<?x{idx_t}>, %v: tensor<?x{elem}>) -> tensor<?x{elem}> {{
  %r = soac.scatter %d[%i] = %v : tensor<?x{elem}>, tensor<?x{idx_t}>, tensor<?x{elem}>
  func.return %r : tensor<?x{elem}>
}}"""


def _scatter_indices(rng, n_dest, m, distinct=True):
    """m indices into a dest of n_dest rows: distinct in-bounds ones, some -1, n_dest,
    and far out-of-bounds ones."""
    inb = rng.permutation(n_dest)[:m] if distinct else rng.integers(0, max(n_dest, 1), m)
    idx = np.full(m, -1, np.int64)
    idx[: len(inb)] = inb
    oob = rng.random(m) < 0.25
    idx = np.where(oob, rng.choice([-1, n_dest, n_dest + 5, -(2**40)], m), idx)
    return idx


def _scatter_ref(dest, idx, vals):
    out = dest.copy()
    for i, v in zip(idx.tolist(), vals):
        if 0 <= i < len(dest):
            out[i] = v
    return out


@pytest.mark.parametrize("idx_t", ["index", "i64", "i32"])
def test_scatter_ignores_out_of_bounds(idx_t, rng):
    src = scatter_program(idx_t)
    for n in SIZES:
        m = max(n - 1, 0) if n % 2 else n
        dest = rng.standard_normal(n).astype(np.float32)
        idx = _scatter_indices(rng, n, m)
        if idx_t == "i32":
            idx = np.clip(idx, -(2**31), 2**31 - 1)
        vals = rng.standard_normal(m).astype(np.float32)
        before = dest.copy()
        got = run(src, dest, idx.astype(DTYPES[idx_t]), vals)
        assert_array(got, _scatter_ref(before, idx, vals), np.float32)
        assert_array(dest, before, np.float32)  # the caller's dest is not modified


def test_scatter_edge_indices_exactly():
    dest = np.zeros(4, np.float32)
    idx = np.array([-1, 4, 0, 3, 5, -4], np.int64)
    vals = np.array([1, 2, 3, 4, 5, 6], np.float32)
    assert run(scatter_program("index"), dest, idx, vals).tolist() == [3, 0, 0, 4]


def test_scatter_duplicate_index_writes_one_of_the_values():
    got = run(scatter_program("index"), np.zeros(3, np.float32), np.array([1, 1, 1]), np.array([5, 6, 7], np.float32))
    assert got[0] == 0 and got[2] == 0 and got[1] in (5, 6, 7)


SCATTER_ROWS = """func.func @main(%d: tensor<?x?xi32>, %i: tensor<?xi32>, %v: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = soac.scatter %d[%i] = %v : tensor<?x?xi32>, tensor<?xi32>, tensor<?x?xi32>
  func.return %r : tensor<?x?xi32>
}"""


def test_scatter_rows_of_a_matrix(rng):
    for n, m, k in [(0, 0, 3), (3, 0, 2), (1, 1, 1), (5, 3, 4), (100, 60, 7)]:
        dest = rng.integers(-9, 9, (n, k)).astype(np.int32)
        idx = _scatter_indices(rng, n, m).astype(np.int32)
        vals = rng.integers(100, 200, (m, k)).astype(np.int32)
        before = dest.copy()
        got = run(SCATTER_ROWS, dest, idx, vals)
        assert_array(got, _scatter_ref(before, idx, vals), np.int32)
        assert_array(dest, before, np.int32)


SCATTER_IN_MAP = """func.func @main(%d: tensor<?x?xf64>, %i: tensor<?x?xindex>, %v: tensor<?x?xf64>, %z: tensor<?xf64>)
    -> (tensor<?x?xf64>, tensor<?x?xf64>) {
  %r:2 = soac.map(%d, %i, %v) : (tensor<?x?xf64>, tensor<?x?xindex>, tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<?x?xf64>) {
  ^bb0(%drow: tensor<?xf64>, %irow: tensor<?xindex>, %vrow: tensor<?xf64>):
    // into the lane's own row, and into a captured (lane-invariant) array
    %a = soac.scatter %drow[%irow] = %vrow : tensor<?xf64>, tensor<?xindex>, tensor<?xf64>
    %zc = soac.copy %z : tensor<?xf64>
    %b = soac.scatter %zc[%irow] = %vrow : tensor<?xf64>, tensor<?xindex>, tensor<?xf64>
    soac.yield %a, %b : tensor<?xf64>, tensor<?xf64>
  }
  func.return %r#0, %r#1 : tensor<?x?xf64>, tensor<?x?xf64>
}"""


def test_scatter_inside_map_per_lane(rng):
    for n, k, m in [(0, 3, 2), (1, 1, 1), (4, 5, 3), (9, 6, 6)]:
        d = rng.standard_normal((n, k))
        idx = np.array([_scatter_indices(rng, k, m) for _ in range(n)], np.int64).reshape(n, m)
        v = rng.standard_normal((n, m))
        z = rng.standard_normal(k)
        a, b = run(SCATTER_IN_MAP, d, idx, v, z)
        assert_array(a, np.array([_scatter_ref(d[i], idx[i], v[i]) for i in range(n)]).reshape(n, k), np.float64)
        assert_array(b, np.array([_scatter_ref(z, idx[i], v[i]) for i in range(n)]).reshape(n, k), np.float64)


# --------------------------------------------------------------------------------------
# hist
# --------------------------------------------------------------------------------------


def hist_program(elem: str, idx_t: str, body: str, neutral: str) -> str:
    return f"""func.func @main(%d: tensor<?x{elem}>, %i: tensor<?x{idx_t}>, %v: tensor<?x{elem}>) -> tensor<?x{elem}> {{
  %n = arith.constant {neutral} : {elem}
  %r = soac.hist %d[%i], %v neutral(%n : {elem}) : tensor<?x{elem}>, tensor<?x{idx_t}>, tensor<?x{elem}> {{
  ^bb0(%x: {elem}, %y: {elem}):
{body}
  }}
  func.return %r : tensor<?x{elem}>
}}"""


HIST_BODIES = {
    "addi": ("    %z = arith.addi %x, %y : {t}\n    soac.yield %z : {t}", "0", lambda a, b: a + b),
    "addf": ("    %z = arith.addf %y, %x : {t}\n    soac.yield %z : {t}", "0.0", lambda a, b: a + b),
    "maxsi": ("    %z = arith.maxsi %x, %y : {t}\n    soac.yield %z : {t}", "-2147483648", max),
    "maximumf": ("    %z = arith.maximumf %x, %y : {t}\n    soac.yield %z : {t}", "0xFF800000", max),
    # not recognised: max through a compare and a select, and max times one
    "select_max": (
        "    %gt = arith.cmpi sgt, %x, %y : {t}\n    %z = arith.select %gt, %x, %y : {t}\n    soac.yield %z : {t}",
        "-2147483648",
        max,
    ),
    "select_maxf": (
        "    %gt = arith.cmpf ogt, %x, %y : {t}\n    %z = arith.select %gt, %x, %y : {t}\n    soac.yield %z : {t}",
        "0xFF800000",
        max,
    ),
    "max_times_one": (
        "    %m = arith.maxsi %x, %y : {t}\n    %one = arith.constant 1 : {t}\n    %z = arith.muli %m, %one : {t}\n    soac.yield %z : {t}",
        "-2147483648",
        max,
    ),
    "addf_plus_zero": (
        "    %s = arith.addf %x, %y : {t}\n    %zero = arith.constant 0.0 : {t}\n    %z = arith.addf %s, %zero : {t}\n    soac.yield %z : {t}",
        "0.0",
        lambda a, b: a + b,
    ),
}

HIST_CASES = [
    ("addi", "i32"),
    ("maxsi", "i32"),
    ("addf", "f32"),
    ("maximumf", "f32"),
    ("select_max", "i32"),
    ("select_maxf", "f32"),
    ("max_times_one", "i32"),
    ("addf_plus_zero", "f32"),
    ("addi", "i64"),
]


def _hist_ref(dest, idx, vals, fn, dt):
    out = [v for v in dest.tolist()]
    for i, v in zip(idx.tolist(), vals.tolist()):
        if 0 <= i < len(out):
            out[i] = fn(out[i], v)
    if dt.kind == "i":
        bits = dt.itemsize * 8
        out = [((v + 2 ** (bits - 1)) % 2**bits) - 2 ** (bits - 1) for v in out]
    return np.array(out, dtype=np.float64 if dt.kind == "f" else object).astype(dt)


@pytest.mark.parametrize("idx_t", ["index", "i32"])
@pytest.mark.parametrize("name,t", HIST_CASES, ids=[f"{a}-{b}" for a, b in HIST_CASES])
def test_hist(name, t, idx_t, rng):
    body, neutral, fn = HIST_BODIES[name]
    dt = DTYPES[t]
    src = hist_program(t, idx_t, body.format(t=t), neutral)
    for bins, m in [(0, 0), (0, 5), (1, 0), (1, 1), (2, 3), (3, 7), (17, 1000), (256, 999)]:
        if dt.kind == "f":
            dest = rng.integers(-5, 5, bins).astype(dt)
            vals = rng.integers(-50, 50, m).astype(dt)  # integral: sums in any order are exact
        elif name == "addi":
            dest = rng.integers(-(2**31), 2**31, bins).astype(dt)
            vals = rng.integers(2**30, 2**31, m).astype(dt)  # sums wrap in i32
        else:
            dest = rng.integers(-100, 100, bins).astype(dt)
            vals = rng.integers(-(2**31), 2**31, m).astype(dt)
        idx = rng.integers(-2, bins + 2, m)  # incl. -2, -1, bins, bins + 1: ignored
        before = dest.copy()
        got = run(src, dest, idx.astype(DTYPES[idx_t]), vals)
        assert_array(got, _hist_ref(before, idx, vals, fn, dt), dt)
        assert_array(dest, before, dt)


def test_hist_float_sum_with_rounding(rng):
    body, neutral, fn = HIST_BODIES["addf_plus_zero"]
    src = hist_program("f64", "index", body.format(t="f64"), neutral)
    bins, m = 10, 1000
    dest = rng.standard_normal(bins)
    vals = rng.standard_normal(m)
    idx = rng.integers(0, bins, m)
    want = dest.copy()
    np.add.at(want, idx, vals)
    assert_close(run(src, dest, idx, vals), want, np.float64, rtol=1e-12, atol=1e-12)


HIST_ROWS = """func.func @main(%d: tensor<?x?xf32>, %i: tensor<?xi64>, %v: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = soac.hist %d[%i], %v neutral(%z : tensor<?xf32>) : tensor<?x?xf32>, tensor<?xi64>, tensor<?x?xf32> {
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %s = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      soac.yield %t : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


def test_hist_of_rows(rng):
    for bins, m, k in [(0, 3, 2), (3, 0, 2), (1, 1, 1), (4, 50, 3), (10, 1000, 2)]:
        dest = rng.integers(-5, 5, (bins, k)).astype(np.float32)
        vals = rng.integers(-5, 5, (m, k)).astype(np.float32)
        idx = rng.integers(-1, bins + 1, m)
        want = dest.copy()
        for i, row in zip(idx.tolist(), vals):
            if 0 <= i < bins:
                want[i] += row
        assert_array(run(HIST_ROWS, dest, idx, vals, np.zeros(k, np.float32)), want, np.float32)


def hist_in_map_program(body: str, neutral: str) -> str:
    return f"""func.func @main(%i: tensor<?x?xindex>, %v: tensor<?x?xi32>, %bins: index) -> tensor<?x?xi32> {{
  %n = arith.constant {neutral} : i32
  %r = soac.map(%i, %v) : (tensor<?x?xindex>, tensor<?x?xi32>) -> tensor<?x?xi32> {{
  ^bb0(%irow: tensor<?xindex>, %vrow: tensor<?xi32>):
    %d = soac.replicate %bins, %n : i32 -> tensor<?xi32>
    %h = soac.hist %d[%irow], %vrow neutral(%n : i32) : tensor<?xi32>, tensor<?xindex>, tensor<?xi32> {{
    ^bb1(%x: i32, %y: i32):
{body}
    }}
    soac.yield %h : tensor<?xi32>
  }}
  func.return %r : tensor<?x?xi32>
}}"""


@pytest.mark.parametrize("name", ["addi", "maxsi", "select_max", "max_times_one"])
def test_hist_inside_map(name, rng):
    body, neutral, fn = HIST_BODIES[name]
    src = hist_in_map_program(body.format(t="i32").replace("\n", "\n  "), neutral)
    neutral_v = int(neutral)
    for rows, m, bins in [(0, 3, 4), (3, 0, 4), (1, 1, 1), (5, 20, 3), (8, 100, 9), (2, 7, 0)]:
        idx = rng.integers(-1, bins + 1, (rows, m))
        vals = rng.integers(-1000, 1000, (rows, m)).astype(np.int32)
        want = np.array(
            [_hist_ref(np.full(bins, neutral_v, np.int32), idx[r], vals[r], fn, np.dtype(np.int32)) for r in range(rows)],
            np.int32,
        ).reshape(rows, bins)
        assert_array(run(src, idx, vals, bins), want, np.int32)


# --------------------------------------------------------------------------------------
# gpu_body
# --------------------------------------------------------------------------------------

GPU_BODY = """func.func @main(%a: tensor<?xf32>, %i: index) -> (tensor<1xf32>, tensor<1xi64>, tensor<1x3xi32>) {
  %r:3 = soac.gpu_body -> tensor<1xf32>, tensor<1xi64>, tensor<1x3xi32> {
    %x = soac.index %a[%i] : tensor<?xf32>
    %y = arith.mulf %x, %x : f32
    %j = arith.index_cast %i : index to i64
    %row = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
    soac.yield %y, %j, %row : f32, i64, tensor<3xi32>
  }
  func.return %r#0, %r#1, %r#2 : tensor<1xf32>, tensor<1xi64>, tensor<1x3xi32>
}"""


def test_gpu_body_results_are_one_row_arrays():
    a = np.array([1.5, -2.0, 3.0], np.float32)
    for i in range(3):
        x, j, row = run(GPU_BODY, a, i)
        assert_array(x, [a[i] * a[i]], np.float32)
        assert_array(j, [i], np.int64)
        assert_array(row, [[1, 2, 3]], np.int32)
    with pytest.raises(soacc.ExecutionError, match="soac.index"):
        run(GPU_BODY, a, 3)


# --------------------------------------------------------------------------------------
# iota, replicate, array literals
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", ["index", "i32", "i64"])
def test_iota(t):
    src = f"""func.func @main(%n: index) -> tensor<?x{t}> {{
  %r = soac.iota %n : tensor<?x{t}>
  func.return %r : tensor<?x{t}>
}}"""
    for n in SIZES:
        assert_array(run(src, n), np.arange(n), DTYPES[t])


IOTA_IN_MAP = """func.func @main(%a: tensor<?xi64>, %m: index) -> tensor<?x?xi64> {
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%x: i64):
    %is = soac.iota %m : tensor<?xi64>
    %s = soac.map(%is) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%j: i64):
      %t = arith.addi %x, %j : i64
      soac.yield %t : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}"""

IOTA_PER_LANE_COUNT = """func.func @main(%a: tensor<?xindex>) -> tensor<?x?xi32> {
  %r = soac.map(%a) : (tensor<?xindex>) -> tensor<?x?xi32> {
  ^bb0(%n: index):
    %is = soac.iota %n : tensor<?xi32>
    soac.yield %is : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_iota_inside_map():
    for n, m in [(0, 3), (3, 0), (1, 1), (4, 5)]:
        a = np.arange(n, dtype=np.int64) * 100
        assert_array(run(IOTA_IN_MAP, a, m), a[:, None] + np.arange(m)[None, :], np.int64)
    # a count that is the same in every lane, though computed per lane: level 1 checks
    # it per run; bufferisation sizes the rows by the first row's count, and a row
    # that disagrees fails at level 2 too (run checks both)
    assert_array(run(IOTA_PER_LANE_COUNT, np.array([3, 3])), [[0, 1, 2], [0, 1, 2]], np.int32)
    assert run(IOTA_PER_LANE_COUNT, np.zeros(0, np.int64)).shape == (0, 0)
    with pytest.raises(soacc.ExecutionError, match="soac.iota"):
        run(IOTA_PER_LANE_COUNT, np.array([3, 4]))


REPLICATE = """func.func @main(%n: index, %x: f64, %row: tensor<?xi32>) -> (tensor<?xf64>, tensor<?x?xi32>) {
  %a = soac.replicate %n, %x : f64 -> tensor<?xf64>
  %b = soac.replicate %n, %row : tensor<?xi32> -> tensor<?x?xi32>
  func.return %a, %b : tensor<?xf64>, tensor<?x?xi32>
}"""

REPLICATE_IN_MAP = """func.func @main(%a: tensor<?xf32>, %m: index) -> (tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %r:2 = soac.map(%a) : (tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?x?xf32>) {
  ^bb0(%x: f32):
    %row = soac.replicate %m, %x : f32 -> tensor<?xf32>
    %mat = soac.replicate %m, %row : tensor<?xf32> -> tensor<?x?xf32>
    soac.yield %row, %mat : tensor<?xf32>, tensor<?x?xf32>
  }
  func.return %r#0, %r#1 : tensor<?x?xf32>, tensor<?x?x?xf32>
}"""


def test_replicate(rng):
    row = np.array([1, -2, 3], np.int32)
    for n in SIZES:
        a, b = run(REPLICATE, n, -1.25, row)
        assert_array(a, np.full(n, -1.25), np.float64)
        assert_array(b, np.tile(row, (n, 1)), np.int32)
        if n > 1:
            b[0, 0] = 99  # the result's rows are independent
            assert b[1, 0] == 1 and row[0] == 1
    for n, m in [(0, 2), (2, 0), (1, 1), (3, 4)]:
        a = rng.standard_normal(n).astype(np.float32)
        r, mat = run(REPLICATE_IN_MAP, a, m)
        assert_array(r, np.repeat(a[:, None], m, axis=1).reshape(n, m), np.float32)
        assert_array(mat, np.broadcast_to(a[:, None, None], (n, m, m)), np.float32)


ARRAY_HOST = """func.func @main(%x: f32, %y: f32, %r1: tensor<?xi64>, %r2: tensor<?xi64>) -> (tensor<3xf32>, tensor<2x?xi64>) {
  %c = arith.constant 7.0 : f32
  %a = soac.array [%x, %c, %y] : tensor<3xf32>
  %m = soac.array [%r2, %r1] : tensor<2x?xi64>
  func.return %a, %m : tensor<3xf32>, tensor<2x?xi64>
}"""

ARRAY_IN_MAP = """func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %c: i32) -> (tensor<?x4xi32>, tensor<?x2x4xi32>) {
  %r:2 = soac.map(%a, %b) : (tensor<?xi32>, tensor<?xi32>) -> (tensor<?x4xi32>, tensor<?x2x4xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %v = soac.array [%x, %c, %y, %s] : tensor<4xi32>
    %m = soac.array [%v, %v] : tensor<2x4xi32>
    soac.yield %v, %m : tensor<4xi32>, tensor<2x4xi32>
  }
  func.return %r#0, %r#1 : tensor<?x4xi32>, tensor<?x2x4xi32>
}"""


def test_array_literals(rng):
    a, m = run(ARRAY_HOST, 1.5, -2.5, np.array([1, 2], np.int64), np.array([3, 4], np.int64))
    assert_array(a, [1.5, 7.0, -2.5], np.float32)
    assert_array(m, [[3, 4], [1, 2]], np.int64)
    for n in SIZES:
        x = rng.integers(-100, 100, n).astype(np.int32)
        y = rng.integers(-100, 100, n).astype(np.int32)
        v, mm = run(ARRAY_IN_MAP, x, y, np.int32(-9))
        want = np.stack([x, np.full(n, -9, np.int32), y, x + y], axis=1).reshape(n, 4)
        assert_array(v, want, np.int32)
        assert_array(mm, np.stack([want, want], axis=1).reshape(n, 2, 4), np.int32)


# --------------------------------------------------------------------------------------
# index
# --------------------------------------------------------------------------------------

INDEX_HOST = """func.func @main(%m: tensor<?x?xf32>, %i: index, %j: index) -> (f32, tensor<?xf32>) {
  %x = soac.index %m[%i, %j] : tensor<?x?xf32>
  %row = soac.index %m[%i] : tensor<?x?xf32>
  func.return %x, %row : f32, tensor<?xf32>
}"""


def test_index_full_and_partial(rng):
    m = rng.standard_normal((4, 5)).astype(np.float32)
    for i in range(4):
        for j in (0, 4):
            x, row = run(INDEX_HOST, m, i, j)
            assert isinstance(x, np.float32) and x == m[i, j]
            assert_array(row, m[i], np.float32)
    before = m.copy()
    row[...] = 0  # a copy: the caller's matrix is unchanged
    assert_array(m, before, np.float32)


@pytest.mark.parametrize("i,j", [(4, 0), (0, 5), (-1, 0), (0, -1), (100, 100)])
def test_index_out_of_bounds_names_the_op(i, j):
    m = np.zeros((4, 5), np.float32)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.index.*out of bounds"):
        run(INDEX_HOST, m, i, j)


GATHER = """func.func @main(%src: tensor<?xf64>, %is: tensor<?xindex>) -> tensor<?xf64> {
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf64> {
  ^bb0(%i: index):
    %x = soac.index %src[%i] : tensor<?xf64>
    soac.yield %x : f64
  }
  func.return %r : tensor<?xf64>
}"""

GATHER_2D = """func.func @main(%m: tensor<?x?xi32>, %is: tensor<?xindex>, %js: tensor<?xindex>) -> (tensor<?xi32>, tensor<?x?xi32>, tensor<?xi32>) {
  %c1 = arith.constant 1 : index
  %r:3 = soac.map(%is, %js) : (tensor<?xindex>, tensor<?xindex>) -> (tensor<?xi32>, tensor<?x?xi32>, tensor<?xi32>) {
  ^bb0(%i: index, %j: index):
    %x = soac.index %m[%i, %j] : tensor<?x?xi32>
    %row = soac.index %m[%i] : tensor<?x?xi32>
    %y = soac.index %m[%i, %c1] : tensor<?x?xi32>
    soac.yield %x, %row, %y : i32, tensor<?xi32>, i32
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi32>, tensor<?x?xi32>, tensor<?xi32>
}"""


def test_gather_per_lane_indices(rng):
    for n in SIZES:
        src = rng.standard_normal(max(n, 1))
        idx = rng.integers(0, len(src), n)
        assert_array(run(GATHER, src, idx), src[idx], np.float64)
    m = rng.integers(-99, 99, (6, 4)).astype(np.int32)
    for n in SIZES:
        i = rng.integers(0, 6, n)
        j = rng.integers(0, 4, n)
        x, rows, y = run(GATHER_2D, m, i, j)
        assert_array(x, m[i, j], np.int32)
        assert_array(rows, m[i].reshape(n, 4), np.int32)
        assert_array(y, m[i, 1], np.int32)


def test_gather_out_of_bounds_in_one_lane_raises(rng):
    src = np.arange(5.0)
    for bad in (5, -1, 1000):
        idx = np.array([0, 1, bad, 2])
        with pytest.raises(soacc.ExecutionError, match=r"soac\.index") as info:
            run(GATHER, src, idx)
        assert str(bad) in str(info.value)


# --------------------------------------------------------------------------------------
# slice
# --------------------------------------------------------------------------------------


def _range(o, n, s):
    return [o + k * s for k in range(n)]


SLICE_1D = """func.func @main(%a: tensor<?xf32>, %o: index, %n: index, %s: index) -> tensor<?xf32> {
  %r = soac.slice %a[%o:%n:%s] : tensor<?xf32> -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}"""

SLICE_1D_RANGE = """func.func @main(%a: tensor<?xf32>, %o: index, %n: index) -> tensor<?xf32> {
  %r = soac.slice %a[%o:%n] : tensor<?xf32> -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}"""


def test_slice_1d_ranges_incl_negative_strides(rng):
    for size in (1, 2, 3, 7, 17, 1000):
        a = rng.standard_normal(size).astype(np.float32)
        for _ in range(12):
            stride = int(rng.choice([1, 2, 3, -1, -2, -3]))
            o = int(rng.integers(0, size))
            if stride > 0:
                n = int(rng.integers(0, (size - 1 - o) // stride + 2))
            else:
                n = int(rng.integers(0, o // -stride + 2))
            assert_array(run(SLICE_1D, a, o, n, stride), a[_range(o, n, stride)], np.float32)
            n = int(rng.integers(0, size - o + 1))
            assert_array(run(SLICE_1D_RANGE, a, o, n), a[o : o + n], np.float32)


def test_slice_full_and_empty(rng):
    a = rng.standard_normal(5).astype(np.float32)
    assert_array(run(SLICE_1D, a, 0, 5, 1), a, np.float32)
    assert_array(run(SLICE_1D, a, 4, 5, -1), a[::-1], np.float32)
    assert_array(run(SLICE_1D, a, 4, 3, -2), a[::-2], np.float32)
    assert_array(run(SLICE_1D, a, 0, 0, 1), np.zeros(0, np.float32), np.float32)
    assert_array(run(SLICE_1D_RANGE, a, 5, 0), np.zeros(0, np.float32), np.float32)
    assert_array(run(SLICE_1D, np.zeros(0, np.float32), 0, 0, 1), np.zeros(0, np.float32), np.float32)


def test_slice_count_one_with_stride_zero():
    a = np.arange(5, dtype=np.float32)
    assert_array(run(SLICE_1D, a, 2, 1, 0), [2.0], np.float32)


@pytest.mark.parametrize("o,n,s", [(3, 3, 1), (5, 1, 1), (-1, 2, 1), (0, 2, -1), (4, 2, 2), (1, 3, -1), (0, 2, 0), (0, -1, 1)])
def test_slice_out_of_bounds_names_the_op(o, n, s):
    with pytest.raises(soacc.ExecutionError, match=r"soac\.slice"):
        run(SLICE_1D, np.arange(5, dtype=np.float32), o, n, s)


SLICE_2D_KINDS = {
    "fixed,range": ("%i, %o:%n", lambda m, i, o, n, s: m[i, o : o + n]),
    "range,fixed": ("%o:%n, %i", lambda m, i, o, n, s: m[o : o + n, i]),
    "strided": ("%o:%n:%s", lambda m, i, o, n, s: m[_range(o, n, s)]),
    "range,strided": ("%o:%n, %o:%n:%s", lambda m, i, o, n, s: m[o : o + n][:, _range(o, n, s)]),
    "fixed": ("%i", lambda m, i, o, n, s: m[i]),
}


@pytest.mark.parametrize("kind", sorted(SLICE_2D_KINDS))
def test_slice_2d(kind, rng):
    spec, ref = SLICE_2D_KINDS[kind]
    rank = {"fixed,range": 1, "range,fixed": 1, "fixed": 1}.get(kind, 2)
    rt = "tensor<?xi64>" if rank == 1 else "tensor<?x?xi64>"
    src = f"""func.func @main(%m: tensor<?x?xi64>, %i: index, %o: index, %n: index, %s: index) -> {rt} {{
  %r = soac.slice %m[{spec}] : tensor<?x?xi64> -> {rt}
  func.return %r : {rt}
}}"""
    m = rng.integers(-1000, 1000, (9, 9))
    for i, o, n, s in [(0, 0, 9, 1), (8, 2, 3, 2), (4, 8, 4, -2), (3, 5, 0, 1), (1, 4, 1, -3)]:
        if kind == "fixed,range" or kind == "range,fixed" or kind == "range,strided":
            if s < 0 or o + n > 9:
                continue
        assert_array(run(src, m, i, o, n, s), ref(m, i, o, n, s), np.int64)


SLIDING_WINDOWS = """func.func @main(%a: tensor<?xi32>, %w: index) -> (tensor<?x?xi32>, tensor<?x?xi32>) {
  %n = soac.size %a[0] : tensor<?xi32>
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : index
  %wm1 = arith.subi %w, %c1 : index
  %nw = arith.subi %n, %wm1 : index
  %offs = soac.iota %nw : tensor<?xindex>
  %r:2 = soac.map(%offs) : (tensor<?xindex>) -> (tensor<?x?xi32>, tensor<?x?xi32>) {
  ^bb0(%o: index):
    %fw = soac.slice %a[%o:%w] : tensor<?xi32> -> tensor<?xi32>
    %last = arith.addi %o, %wm1 : index
    %bw = soac.slice %a[%last:%w:%m1] : tensor<?xi32> -> tensor<?xi32>
    soac.yield %fw, %bw : tensor<?xi32>, tensor<?xi32>
  }
  func.return %r#0, %r#1 : tensor<?x?xi32>, tensor<?x?xi32>
}"""


def test_slice_per_lane_offsets(rng):
    for n, w in [(1, 1), (2, 1), (3, 2), (7, 3), (17, 17), (1000, 5)]:
        a = rng.integers(-99, 99, n).astype(np.int32)
        fw, bw = run(SLIDING_WINDOWS, a, w)
        want = np.array([a[o : o + w] for o in range(n - w + 1)]).reshape(n - w + 1, w)
        assert_array(fw, want, np.int32)
        assert_array(bw, want[:, ::-1], np.int32)


SLICE_PER_LANE_2D = """func.func @main(%m: tensor<?x?xf32>, %is: tensor<?xindex>, %os: tensor<?xindex>, %k: index) -> tensor<?x?xf32> {
  %r = soac.map(%is, %os) : (tensor<?xindex>, tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index, %o: index):
    %s = soac.slice %m[%i, %o:%k] : tensor<?x?xf32> -> tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


def test_slice_per_lane_row_and_offset(rng):
    m = rng.standard_normal((5, 8)).astype(np.float32)
    for n in SIZES:
        k = 3
        i = rng.integers(0, 5, n)
        o = rng.integers(0, 8 - k + 1, n)
        want = np.array([m[a, b : b + k] for a, b in zip(i, o)], np.float32).reshape(n, k)
        assert_array(run(SLICE_PER_LANE_2D, m, i, o, k), want, np.float32)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.slice"):
        run(SLICE_PER_LANE_2D, m, np.array([0, 1]), np.array([0, 6]), 3)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.slice"):
        run(SLICE_PER_LANE_2D, m, np.array([0, 5]), np.array([0, 0]), 3)


# --------------------------------------------------------------------------------------
# update
# --------------------------------------------------------------------------------------

UPDATE_HOST = """func.func @main(%a: tensor<?xf32>, %i: index, %x: f32, %m: tensor<?x?xi32>, %j: index, %o: index, %row: tensor<?xi32>)
    -> (tensor<?xf32>, tensor<?x?xi32>, tensor<?x?xi32>) {
  %n = soac.size %row[0] : tensor<?xi32>
  %a2 = soac.update %a[%i] = %x : tensor<?xf32>, f32
  %m2 = soac.update %m[%j, %o:%n] = %row : tensor<?x?xi32>, tensor<?xi32>
  %mc = soac.copy %m : tensor<?x?xi32>
  %c1 = arith.constant 1 : index
  %two = arith.constant 2 : index
  %sub = soac.slice %m[%c1:%two] : tensor<?x?xi32> -> tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %m3 = soac.update %mc[%c0:%two] = %sub : tensor<?x?xi32>, tensor<?x?xi32>
  func.return %a2, %m2, %m3 : tensor<?xf32>, tensor<?x?xi32>, tensor<?x?xi32>
}"""


def test_update_element_and_row_range_keeps_the_source(rng):
    a = rng.standard_normal(6).astype(np.float32)
    m = rng.integers(-9, 9, (4, 6)).astype(np.int32)
    row = np.array([100, 200, 300], np.int32)
    a0, m0 = a.copy(), m.copy()
    for i, j, o in [(0, 0, 0), (5, 3, 3), (2, 1, 1)]:
        a2, m2, m3 = run(UPDATE_HOST, a, i, np.float32(9.5), m, j, o, row)
        wa = a0.copy()
        wa[i] = 9.5
        wm = m0.copy()
        wm[j, o : o + 3] = row
        w3 = m0.copy()
        w3[0:2] = m0[1:3]
        assert_array(a2, wa, np.float32)
        assert_array(m2, wm, np.int32)
        assert_array(m3, w3, np.int32)
        # value semantics: the caller's arrays are unchanged
        assert_array(a, a0, np.float32)
        assert_array(m, m0, np.int32)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.update"):
        run(UPDATE_HOST, a, 6, np.float32(1), m, 0, 0, row)
    with pytest.raises(soacc.ExecutionError, match=r"soac\.update"):
        run(UPDATE_HOST, a, 0, np.float32(1), m, 0, 4, row)


UPDATE_IN_MAP = """func.func @main(%m: tensor<?x?xf64>, %is: tensor<?xindex>, %xs: tensor<?xf64>) -> tensor<?x?xf64> {
  %r = soac.map(%m, %is, %xs) : (tensor<?x?xf64>, tensor<?xindex>, tensor<?xf64>) -> tensor<?x?xf64> {
  ^bb0(%row: tensor<?xf64>, %i: index, %x: f64):
    %u = soac.update %row[%i] = %x : tensor<?xf64>, f64
    soac.yield %u : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}"""


def test_update_inside_map_per_lane(rng):
    for n, k in [(0, 3), (1, 1), (3, 4), (50, 7)]:
        m = rng.standard_normal((n, k))
        i = rng.integers(0, k, n)
        x = rng.standard_normal(n)
        m0 = m.copy()
        want = m.copy()
        want[np.arange(n), i] = x
        assert_array(run(UPDATE_IN_MAP, m, i, x), want, np.float64)
        assert_array(m, m0, np.float64)


# One-hot rows: every lane updates its own copy of a captured (lane-invariant) array at
# a per-lane index with a lane-invariant value.
ONE_HOT = """func.func @main(%n: index) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %zs = soac.replicate %n, %z : f32 -> tensor<?xf32>
  %is = soac.iota %n : tensor<?xindex>
  %m = soac.map(%is) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %c = soac.copy %zs : tensor<?xf32>
    %u = soac.update %c[%i] = %one : tensor<?xf32>, f32
    soac.yield %u : tensor<?xf32>
  }
  func.return %m : tensor<?x?xf32>
}"""


def test_update_captured_array_at_per_lane_index():
    for n in SIZES[:-1] + (100,):
        assert_array(run(ONE_HOT, n), np.eye(n, dtype=np.float32), np.float32)


UPDATE_ROWS_IN_MAP = """func.func @main(%m: tensor<?x?xi32>, %os: tensor<?xindex>, %v: tensor<?xi32>) -> tensor<?x?xi32> {
  %k = soac.size %v[0] : tensor<?xi32>
  %r = soac.map(%m, %os) : (tensor<?x?xi32>, tensor<?xindex>) -> tensor<?x?xi32> {
  ^bb0(%row: tensor<?xi32>, %o: index):
    %u = soac.update %row[%o:%k] = %v : tensor<?xi32>, tensor<?xi32>
    soac.yield %u : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_update_range_at_per_lane_offset(rng):
    v = np.array([7, 8], np.int32)
    for n, k in [(0, 3), (1, 2), (4, 6)]:
        m = rng.integers(-9, 9, (n, k)).astype(np.int32)
        o = rng.integers(0, k - 1, n)
        want = m.copy()
        for r in range(n):
            want[r, o[r] : o[r] + 2] = v
        assert_array(run(UPDATE_ROWS_IN_MAP, m, o, v), want, np.int32)


# --------------------------------------------------------------------------------------
# concat, transpose, copy, size
# --------------------------------------------------------------------------------------

CONCAT = """func.func @main(%a: tensor<?xi64>, %b: tensor<?xi64>, %c: tensor<?xi64>, %m: tensor<?x?xf32>, %p: tensor<?x?xf32>)
    -> (tensor<?xi64>, tensor<?x?xf32>) {
  %r = soac.concat %a, %b, %c : (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  %q = soac.concat %m, %p : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r, %q : tensor<?xi64>, tensor<?x?xf32>
}"""

CONCAT_IN_MAP = """func.func @main(%m: tensor<?x?xi32>, %c: tensor<?xi32>) -> tensor<?x?xi32> {
  %r = soac.map(%m) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%row: tensor<?xi32>):
    %s = soac.concat %c, %row, %c : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    soac.yield %s : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def test_concat(rng):
    for na, nb, nc in [(0, 0, 0), (1, 0, 2), (3, 7, 1), (1000, 17, 0)]:
        a, b, c = (rng.integers(-9, 9, k) for k in (na, nb, nc))
        m = rng.standard_normal((na, 3)).astype(np.float32)
        p = rng.standard_normal((nb, 3)).astype(np.float32)
        r, q = run(CONCAT, a, b, c, m, p)
        assert_array(r, np.concatenate([a, b, c]), np.int64)
        assert_array(q, np.concatenate([m, p]), np.float32)
    for n, k in [(0, 2), (2, 0), (3, 4)]:
        m = rng.integers(-9, 9, (n, k)).astype(np.int32)
        c = np.array([100, 200], np.int32)
        want = np.concatenate([np.tile(c, (n, 1)), m, np.tile(c, (n, 1))], axis=1)
        assert_array(run(CONCAT_IN_MAP, m, c), want, np.int32)


TRANSPOSE = """func.func @main(%m: tensor<?x?xf32>, %t: tensor<?x?x?xi32>) -> (tensor<?x?xf32>, tensor<?x?x?xi32>, tensor<?x?x?xi32>) {
  %a = soac.transpose %m [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %b = soac.transpose %t [2, 0, 1] : tensor<?x?x?xi32> -> tensor<?x?x?xi32>
  %c = soac.map(%t) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%x: tensor<?x?xi32>):
    %y = soac.transpose %x [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
    soac.yield %y : tensor<?x?xi32>
  }
  func.return %a, %b, %c : tensor<?x?xf32>, tensor<?x?x?xi32>, tensor<?x?x?xi32>
}"""


def test_transpose(rng):
    for shape in [(0, 0, 0), (0, 2, 3), (1, 1, 1), (2, 3, 4), (5, 1, 7)]:
        m = rng.standard_normal(shape[:2]).astype(np.float32)
        t = rng.integers(-99, 99, shape).astype(np.int32)
        a, b, c = run(TRANSPOSE, m, t)
        assert_array(a, m.T, np.float32)
        assert_array(b, np.transpose(t, (2, 0, 1)), np.int32)
        assert_array(c, np.transpose(t, (0, 2, 1)), np.int32)


COPY_SIZE = """func.func @main(%m: tensor<?x?xf64>) -> (tensor<?x?xf64>, index, index, tensor<?xindex>) {
  %c = soac.copy %m : tensor<?x?xf64>
  %r = soac.size %m[0] : tensor<?x?xf64>
  %k = soac.size %m[1] : tensor<?x?xf64>
  %s = soac.map(%m) : (tensor<?x?xf64>) -> tensor<?xindex> {
  ^bb0(%row: tensor<?xf64>):
    %n = soac.size %row[0] : tensor<?xf64>
    %t = arith.addi %n, %r : index
    soac.yield %t : index
  }
  func.return %c, %r, %k, %s : tensor<?x?xf64>, index, index, tensor<?xindex>
}"""


def test_copy_and_size(rng):
    for shape in [(0, 0), (0, 3), (3, 0), (1, 1), (4, 7)]:
        m = rng.standard_normal(shape)
        c, r, k, s = run(COPY_SIZE, m)
        assert_array(c, m, np.float64)
        assert not np.shares_memory(c, m)
        assert isinstance(r, np.int64) and (r, k) == shape
        assert_array(s, np.full(shape[0], shape[0] + shape[1]), np.int64)


HIST_CAPTURING_IN_MAP = """func.func @main(%i: tensor<?x?xindex>, %v: tensor<?x?xi32>, %caps: tensor<?xi32>) -> tensor<?x?xi32> {
  %z = arith.constant 0 : i32
  %c4 = arith.constant 4 : index
  %r = soac.map(%i, %v, %caps) : (tensor<?x?xindex>, tensor<?x?xi32>, tensor<?xi32>) -> tensor<?x?xi32> {
  ^bb0(%irow: tensor<?xindex>, %vrow: tensor<?xi32>, %cap: i32):
    %d = soac.replicate %c4, %z : i32 -> tensor<?xi32>
    %h = soac.hist %d[%irow], %vrow neutral(%z : i32) : tensor<?xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb1(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      %t = arith.minsi %s, %cap : i32
      soac.yield %t : i32
    }
    soac.yield %h : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}"""


def _capped_hist_ref(i, v, caps, bins=4):
    out = np.zeros((len(caps), bins), np.int32)
    for lane, cap in enumerate(caps):
        for b, x in zip(i[lane].tolist(), v[lane].tolist()):
            if 0 <= b < bins:
                out[lane, b] = min(out[lane, b] + x, cap)
    return out


def test_hist_in_map_with_an_operator_capturing_a_lane_value(rng):
    """The operator uses the lane's own value: each write is combined with the captured
    value of the lane it belongs to (the executor had refused this)."""
    for lanes, m in [(0, 3), (1, 0), (1, 5), (3, 6), (5, 40)]:
        i = rng.integers(-1, 5, (lanes, m))
        v = rng.integers(0, 4, (lanes, m)).astype(np.int32)
        caps = rng.integers(0, 9, lanes).astype(np.int32)
        assert_array(run(HIST_CAPTURING_IN_MAP, i, v, caps), _capped_hist_ref(i, v, caps), np.int32)


HIST_OPERATOR_CONSTANT = """func.func @main(%i: tensor<?x?xindex>, %v: tensor<?x?xi32>) -> (tensor<?x?xi32>, i32) {
  %z = arith.constant 0 : i32
  %mask = arith.constant 7 : i32
  %c4 = arith.constant 4 : index
  %r = soac.map(%i, %v) : (tensor<?x?xindex>, tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%irow: tensor<?xindex>, %vrow: tensor<?xi32>):
    %d = soac.replicate %c4, %z : i32 -> tensor<?xi32>
    %h = soac.hist %d[%irow], %vrow neutral(%z : i32) : tensor<?xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb1(%x: i32, %y: i32):
      %seven = arith.constant 7 : i32
      %s = arith.addi %x, %y : i32
      %t = arith.andi %s, %seven : i32
      soac.yield %t : i32
    }
    soac.yield %h : tensor<?xi32>
  }
  func.return %r, %mask : tensor<?x?xi32>, i32
}"""


@pytest.mark.parametrize("pipeline", ["", "cse", "cse,convert-soac-to-mem"])
def test_hist_in_map_whose_operator_constant_cse_shares_with_the_host(rng, pipeline):
    """cse replaces the operator's constant 7 by the host's, so the operator captures
    it: a pass must not make a program the executor cannot run."""
    i = rng.integers(-1, 5, (3, 9))
    v = rng.integers(0, 6, (3, 9)).astype(np.int32)
    expected = np.zeros((3, 4), np.int32)
    for lane in range(3):
        for b, x in zip(i[lane].tolist(), v[lane].tolist()):
            if 0 <= b < 4:
                expected[lane, b] = (expected[lane, b] + x) & 7
    program = soacc.compile(HIST_OPERATOR_CONSTANT, backend="numpy", pipeline=pipeline)
    assert_array(program.main(i, v)[0], expected, np.int32)


NEGATIVE_COUNTS = """func.func @main(%n: index) -> (tensor<?xi32>, tensor<?xf32>) {
  %z = arith.constant 0.0 : f32
  %a = soac.iota %n : tensor<?xi32>
  %b = soac.replicate %n, %z : f32 -> tensor<?xf32>
  func.return %a, %b : tensor<?xi32>, tensor<?xf32>
}"""


def test_negative_counts_are_errors():
    with pytest.raises(soacc.ExecutionError, match=r"soac\.iota.*negative count -1"):
        run(NEGATIVE_COUNTS, -1)
    a, b = run(NEGATIVE_COUNTS, 0)
    assert a.shape == (0,) and b.shape == (0,)


EMPTY_LITERAL = """func.func @main(%a: tensor<?xf32>) -> (tensor<0xi64>, tensor<?x0x2xf32>) {
  %e = soac.array [] : tensor<0xi64>
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x0x2xf32> {
  ^bb0(%x: f32):
    %m = soac.array [] : tensor<0x2xf32>
    soac.yield %m : tensor<0x2xf32>
  }
  func.return %e, %r : tensor<0xi64>, tensor<?x0x2xf32>
}"""


def test_empty_array_literal():
    for n in (0, 1, 3):
        e, r = run(EMPTY_LITERAL, np.zeros(n, np.float32))
        assert_array(e, np.zeros(0, np.int64), np.int64)
        assert_array(r, np.zeros((n, 0, 2), np.float32), np.float32)


INDEX_OWN_ROW = """func.func @main(%m: tensor<?x?xf32>, %is: tensor<?xindex>, %t: tensor<?x?x?xi32>, %js: tensor<?xindex>) -> (tensor<?xf32>, tensor<?x?xi32>) {
  %r:2 = soac.map(%m, %is, %t, %js) : (tensor<?x?xf32>, tensor<?xindex>, tensor<?x?x?xi32>, tensor<?xindex>) -> (tensor<?xf32>, tensor<?x?xi32>) {
  ^bb0(%row: tensor<?xf32>, %i: index, %mat: tensor<?x?xi32>, %j: index):
    %x = soac.index %row[%i] : tensor<?xf32>
    %y = soac.index %mat[%j] : tensor<?x?xi32>
    soac.yield %x, %y : f32, tensor<?xi32>
  }
  func.return %r#0, %r#1 : tensor<?xf32>, tensor<?x?xi32>
}"""


def test_index_own_row_at_per_lane_index(rng):
    for n in SIZES:
        m = rng.standard_normal((n, 5)).astype(np.float32)
        t = rng.integers(-9, 9, (n, 4, 3)).astype(np.int32)
        i = rng.integers(0, 5, n)
        j = rng.integers(0, 4, n)
        x, y = run(INDEX_OWN_ROW, m, i, t, j)
        assert_array(x, m[np.arange(n), i], np.float32)
        assert_array(y, t[np.arange(n), j].reshape(n, 3), np.int32)
