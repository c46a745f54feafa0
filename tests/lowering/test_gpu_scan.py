"""Host-level scan kernels (one pass, decoupled look-back) on the GPU against the CPU
reference executor: sizes around the tile size and many tiles (so that tiles look
back over several windows of 32 predecessors), every dtype, a tuple-valued
non-commutative operator (whose order matters), tuples of mixed element sizes, and
a scan whose result is scanned again. Marker gpu: skipped where no GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import soacc
from soacc.lowering.gpu_scan import items_per_thread
from soacc.lowering.kernel_body import THREADS_PER_BLOCK
from xdsl.dialects.builtin import f32, f64, i32, i64

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

TILE = THREADS_PER_BLOCK * items_per_thread([i32])
SIZES = [0, 1, 31, 256, TILE - 1, TILE, TILE + 1, 33 * TILE + 7, 1 << 20, 3_000_017]


def test_tiles_hold_64_bytes_per_thread_of_any_tuple():
    assert items_per_thread([i32]) == 16 and items_per_thread([f64]) == 8
    assert items_per_thread([i64, i64]) == 4 and items_per_thread([f32, f64]) == 5
    assert items_per_thread([f64] * 9) == 1


def _scan_program(t: str, op: str, neutral: str) -> str:
    return f"""
func.func @main(%a: tensor<?x{t}>) -> tensor<?x{t}> {{
  %z = arith.constant {neutral} : {t}
  %r = soac.scan(%a) neutral(%z : {t}) commutative : (tensor<?x{t}>) -> tensor<?x{t}> {{
  ^bb0(%x: {t}, %y: {t}):
    %s = {op} %x, %y : {t}
    soac.yield %s : {t}
  }}
  func.return %r : tensor<?x{t}>
}}
"""


def _both(source: str, *args):
    gpu = soacc.compile(source, backend="numpy", pipeline=GPU).main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline=CPU).main(*args)
    return gpu, cpu


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t,dtype", [("i32", np.int32), ("i64", np.int64)])
def test_integer_prefix_sums_are_exact(t, dtype, n):
    a = np.random.default_rng(n).integers(-1000, 1000, n).astype(dtype)
    gpu, cpu = _both(_scan_program(t, "arith.addi", "0"), a)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, np.cumsum(a, dtype=dtype))


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t,dtype", [("f32", np.float32), ("f64", np.float64)])
def test_float_prefix_sums_are_within_rounding(t, dtype, n):
    a = np.random.default_rng(n).standard_normal(n).astype(dtype)
    gpu, cpu = _both(_scan_program(t, "arith.addf", "0.0"), a)
    exact = np.cumsum(a.astype(np.float64))
    # each prefix within rounding of the exact prefix (the orders of addition differ)
    bound = np.finfo(dtype).eps * np.cumsum(np.abs(a.astype(np.float64))) * 8 + 1e-30
    assert np.all(np.abs(gpu - exact) <= bound) and np.all(np.abs(cpu - exact) <= bound)


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
def test_max_scan_of_f32_is_exact(n):
    a = np.random.default_rng(n + 1).standard_normal(n).astype(np.float32)
    gpu, cpu = _both(_scan_program("f32", "arith.maximumf", "0xFF800000"), a)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, np.maximum.accumulate(a))


AFFINE = """
// (m1, c1) . (m2, c2) = (m1*m2, c1*m2 + c2): composition of the affine maps
// x -> m*x + c, associative, not commutative; the i32 part wraps, the f64 part is
// exact for small integers, so any reordering of the combination shows
func.func @main(%m: tensor<?xi32>, %c: tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %pm, %pc = soac.scan(%m, %c) neutral(%one, %zero : i32, f64) : (tensor<?xi32>, tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
  ^bb0(%m1: i32, %c1: f64, %m2: i32, %c2: f64):
    %mm = arith.muli %m1, %m2 : i32
    %f = arith.sitofp %m2 : i32 to f64
    %s = arith.mulf %c1, %f : f64
    %cc = arith.addf %s, %c2 : f64
    soac.yield %mm, %cc : i32, f64
  }
  func.return %pm, %pc : tensor<?xi32>, tensor<?xf64>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
def test_non_commutative_tuple_operator_keeps_the_order(n):
    rng = np.random.default_rng(n + 2)
    # multipliers mostly 1 (some -1 and 0, which reset the sum), so values stay exact
    m = rng.choice(np.array([1, 1, 1, 1, 1, 1, -1, 0], np.int32), n)
    c = rng.integers(-8, 9, n).astype(np.float64)
    gpu, cpu = _both(AFFINE, m, c)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])
    want_c = np.zeros(n)
    acc = 0.0
    for j in range(min(n, 5000)):  # a sequential check of the first elements
        acc = acc * m[j] + c[j]
        want_c[j] = acc
    np.testing.assert_array_equal(gpu[1][: min(n, 5000)], want_c[: min(n, 5000)])


TWICE = """
func.func @main(%a: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %p = soac.scan(%a) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    soac.yield %s : i64
  }
  %q = soac.scan(%p) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    soac.yield %s : i64
  }
  func.return %q : tensor<?xi64>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("n", [0, 5, TILE + 3, 1 << 18])
def test_a_scan_of_a_scan(n):
    a = np.random.default_rng(n).integers(-5, 6, n).astype(np.int64)
    gpu, cpu = _both(TWICE, a)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, np.cumsum(np.cumsum(a)))
