"""Segmented reductions and scans (a map whose lambda reduces its row, or scans it into
its output row) on the GPU against the CPU reference executor, on every strategy: a
thread per row for rows shorter than WARP_PER_ROW_FROM, a warp per row up to
BLOCK_PER_ROW_FROM, a block per row from there on. Marker gpu."""

from __future__ import annotations

import numpy as np
import pytest

import soacc
from soacc.lowering.gpu_segmented import BLOCK_PER_ROW_FROM, WARP_PER_ROW_FROM

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

SHAPES = [
    (0, 5), (3, 0), (1, 1),
    (7, WARP_PER_ROW_FROM - 1), (7, WARP_PER_ROW_FROM), (9, 33), (1000, 70),
    (5, BLOCK_PER_ROW_FROM - 1), (5, BLOCK_PER_ROW_FROM), (300, 1000), (3, 100_003), (70_000, 130),
]

ROW_SUMS_SCALED = """
func.func @main(%m: tensor<?x?xi64>, %s: i64) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?xi64> {
  ^bb0(%row: tensor<?xi64>):
    %t = soac.reduce(%row) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      soac.yield %c : i64
    }
    %u = arith.muli %t, %s : i64
    soac.yield %u : i64
  }
  func.return %r : tensor<?xi64>
}
"""

# the composition of affine maps x -> a*x + b per row: ordered, tuple-valued
ROW_AFFINE = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ra, %rb = soac.map(%a, %b) : (tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%ar: tensor<?xi32>, %br: tensor<?xi32>):
    %p, %q = soac.reduce(%ar, %br) neutral(%one, %zero : i32, i32) : (tensor<?xi32>, tensor<?xi32>) -> (i32, i32) {
    ^bb0(%x1: i32, %y1: i32, %x2: i32, %y2: i32):
      %m = arith.muli %x1, %x2 : i32
      %n = arith.muli %y1, %x2 : i32
      %o = arith.addi %n, %y2 : i32
      soac.yield %m, %o : i32, i32
    }
    soac.yield %p, %q : i32, i32
  }
  func.return %ra, %rb : tensor<?xi32>, tensor<?xi32>
}
"""


def _both(source, *args):
    gpu = soacc.compile(source, backend="numpy", pipeline=GPU).main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline=CPU).main(*args)
    return gpu, cpu


ROW_SCANS = """
func.func @main(%m: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %zero = arith.constant 0 : i64
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?xi64>):
    %s = soac.scan(%row) neutral(%zero : i64) commutative : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      soac.yield %c : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
"""

# per row, the running composition of affine maps: an ordered tuple-valued scan
ROW_AFFINE_SCANS = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xf64>) -> (tensor<?x?xi32>, tensor<?x?xf64>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %ra, %rb = soac.map(%a, %b) : (tensor<?x?xi32>, tensor<?x?xf64>) -> (tensor<?x?xi32>, tensor<?x?xf64>) {
  ^bb0(%ar: tensor<?xi32>, %br: tensor<?xf64>):
    %p, %q = soac.scan(%ar, %br) neutral(%one, %zero : i32, f64) : (tensor<?xi32>, tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
    ^bb0(%x1: i32, %y1: f64, %x2: i32, %y2: f64):
      %m = arith.muli %x1, %x2 : i32
      %f = arith.sitofp %x2 : i32 to f64
      %n = arith.mulf %y1, %f : f64
      %o = arith.addf %n, %y2 : f64
      soac.yield %m, %o : i32, f64
    }
    soac.yield %p, %q : tensor<?xi32>, tensor<?xf64>
  }
  func.return %ra, %rb : tensor<?x?xi32>, tensor<?x?xf64>
}
"""


@pytest.mark.parametrize("source", [ROW_SUMS_SCALED, ROW_AFFINE, ROW_SCANS, ROW_AFFINE_SCANS])
def test_the_map_gets_every_strategy(source):
    program = soacc.compile(source, backend="numpy", pipeline=GPU)
    names = [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]
    assert names == ["map0", "map0_block_per_row", "map0_warp_per_row"]


def test_a_scan_that_is_not_the_whole_lambda_keeps_a_thread_per_row():
    source = ROW_SCANS.replace("soac.yield %s : tensor<?xi64>", "%t = soac.copy %s : tensor<?xi64>\n    soac.yield %t : tensor<?xi64>")
    program = soacc.compile(source, backend="numpy", pipeline=GPU)
    assert [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"] == ["map0"]


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_sums_scaled(shape):
    m = np.random.default_rng(shape[1]).integers(-(1 << 40), 1 << 40, shape).astype(np.int64)
    gpu, cpu = _both(ROW_SUMS_SCALED, m, np.int64(3))
    np.testing.assert_array_equal(gpu, cpu)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_affine_compositions_keep_their_order(shape):
    rng = np.random.default_rng(shape[0])
    a = rng.integers(-3, 4, shape).astype(np.int32)
    b = rng.integers(-100, 100, shape).astype(np.int32)
    gpu, cpu = _both(ROW_AFFINE, a, b)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_scans(shape):
    m = np.random.default_rng(shape[1]).integers(-(1 << 40), 1 << 40, shape).astype(np.int64)
    gpu, cpu = _both(ROW_SCANS, m)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, np.cumsum(m, axis=1))


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_affine_scans_keep_their_order(shape):
    rng = np.random.default_rng(shape[0] + 1)
    a = rng.choice(np.array([1, 1, 1, -1, 0], np.int32), shape)
    b = rng.integers(-8, 9, shape).astype(np.float64)  # sums of small integers: exact
    gpu, cpu = _both(ROW_AFFINE_SCANS, a, b)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])
