"""Host-level map kernels on the GPU against the CPU reference executor: groups of
elements by 16-byte vector loads and stores where every view is contiguous and aligned,
one element at a time otherwise (views at every offset, lengths around the vector
width, every element type, outputs of another width). Marker gpu; without it, that a
map yielding a whole captured array lowers to a valid kernel (a row copy)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

AXPY_OF_A_SLICE = """
func.func @main(%a: tensor<?xT>, %b: tensor<?xT>, %o: index, %k: T) -> tensor<?xT> {
  %n = soac.size %a[0] : tensor<?xT>
  %len = arith.subi %n, %o : index
  %s = soac.slice %a[%o:%len] : tensor<?xT> -> tensor<?xT>
  %c = soac.map(%s, %b) : (tensor<?xT>, tensor<?xT>) -> tensor<?xT> {
  ^bb0(%x: T, %y: T):
    %p = MUL %x, %k : T
    %q = ADD %p, %y : T
    soac.yield %q : T
  }
  func.return %c : tensor<?xT>
}
"""

TYPES = [
    ("i32", np.int32, "arith.muli", "arith.addi"),
    ("i64", np.int64, "arith.muli", "arith.addi"),
    ("f32", np.float32, "arith.mulf", "arith.addf"),
    ("f64", np.float64, "arith.mulf", "arith.addf"),
]


def _both(source: str, *args):
    gpu = soacc.compile(source, backend="numpy", pipeline=GPU).main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline=CPU).main(*args)
    return gpu, cpu


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 1027, 1 << 20])
@pytest.mark.parametrize("t,dtype,mul,add", TYPES, ids=[t[0] for t in TYPES])
def test_a_map_of_a_slice_at_every_alignment(t, dtype, mul, add, n, offset):
    rng = np.random.default_rng(n + offset)
    a = rng.integers(-100, 100, n + offset).astype(dtype)
    b = rng.integers(-100, 100, n).astype(dtype)
    source = AXPY_OF_A_SLICE.replace("MUL", mul).replace("ADD", add).replace("T", t)
    gpu, cpu = _both(source, a, b, np.int64(offset), dtype(3))
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, a[offset:] * dtype(3) + b)


WIDEN = """
func.func @main(%a: tensor<?xf32>) -> (tensor<?xf64>, tensor<?xf32>) {
  %c, %d = soac.map(%a) : (tensor<?xf32>) -> (tensor<?xf64>, tensor<?xf32>) {
  ^bb0(%x: f32):
    %w = arith.extf %x : f32 to f64
    %y = arith.negf %x : f32
    soac.yield %w, %y : f64, f32
  }
  func.return %c, %d : tensor<?xf64>, tensor<?xf32>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("n", [0, 5, 1 << 20])
def test_outputs_of_another_width_take_one_element_at_a_time(n):
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    gpu, cpu = _both(WIDEN, a)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], -a)


def test_a_map_yielding_a_captured_array_lowers_to_a_valid_kernel():
    path = Path(__file__).parent / "programs" / "map_yields_a_captured_array.mlir"
    program = soacc.compile(path, backend="numpy", pipeline="convert-soac-to-mem,convert-mem-to-gpu")
    program.module.verify()


IOTAS_IN_LAMBDAS = """
func.func @main(%a: tensor<?xi64>, %k: index) -> (tensor<?x?xi64>, tensor<?xi64>, tensor<?x?xindex>, tensor<?x?xi32>) {
  %zero = arith.constant 0 : i64
  %rows = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xi64>
    %r = soac.map(%io) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%i: i64):
      %s = arith.addi %i, %e : i64
      soac.yield %s : i64
    }
    soac.yield %r : tensor<?xi64>
  }
  %sums = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xi64>
    %t = soac.reduce(%io) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
    ^bb1(%p: i64, %q: i64):
      %u = arith.addi %p, %q : i64
      soac.yield %u : i64
    }
    %v = arith.muli %t, %e : i64
    soac.yield %v : i64
  }
  %idx = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xindex> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  %small = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi32> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xi32>
    soac.yield %io : tensor<?xi32>
  }
  func.return %rows, %sums, %idx, %small : tensor<?x?xi64>, tensor<?xi64>, tensor<?x?xindex>, tensor<?x?xi32>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("fusion", [True, False])
@pytest.mark.parametrize(("n", "k"), [(0, 3), (1, 0), (5, 1), (300, 7), (3, 2000)])
def test_iotas_inside_lambdas(n, k, fusion):
    """soac.iota inside a map's lambda, as a row, mapped over and reduced (each its own
    loop in the thread, or an indexed map where fuse-iota made one), on the GPU: the
    NumPy results."""
    from soacc.pipeline import SoaccPipelinePass

    a = np.arange(n, dtype=np.int64) - 2
    program = soacc.compile(IOTAS_IN_LAMBDAS, backend="cuda", pipeline=SoaccPipelinePass(fusion=fusion).stages())
    rows, sums, idx, small = program.main(a, k)
    io = np.arange(k)
    np.testing.assert_array_equal(rows, a[:, None] + io[None, :])
    np.testing.assert_array_equal(sums, a * io.sum())
    np.testing.assert_array_equal(idx, np.broadcast_to(io, (n, k)))
    np.testing.assert_array_equal(small, np.broadcast_to(io, (n, k)).astype(np.int32))


SCATTERS_IN_LAMBDAS = """
func.func @main(%a: tensor<?xi64>, %is: tensor<?xi64>, %k: index) -> tensor<?x?xi64> {
  %zero = arith.constant 0 : i64
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%e: i64):
    %z = soac.replicate %k, %zero : i64 -> tensor<?xi64>
    %vs = soac.map(%is) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%i: i64):
      %v = arith.addi %i, %e : i64
      soac.yield %v : i64
    }
    %s = soac.scatter %z[%is] = %vs : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("fusion", [True, False])
@pytest.mark.parametrize(("n", "k"), [(0, 3), (1, 0), (5, 4), (300, 40)])
def test_scatters_inside_lambdas(n, k, fusion):
    """soac.scatter inside a map's lambda (a loop of its thread, or a fused
    scatteromap), indices out of bounds and negative among them, no index twice: the
    reference executor's results."""
    from soacc.pipeline import SoaccPipelinePass

    rng = np.random.default_rng(n + k)
    a = rng.integers(-5, 5, n).astype(np.int64)
    indices = rng.permutation(k + 3).astype(np.int64) - 2  # -2 .. k: some out of bounds
    want = soacc.compile(SCATTERS_IN_LAMBDAS, backend="numpy").main(a, indices, k)
    program = soacc.compile(SCATTERS_IN_LAMBDAS, backend="cuda", pipeline=SoaccPipelinePass(fusion=fusion).stages())
    np.testing.assert_array_equal(program.main(a, indices, k), want)

