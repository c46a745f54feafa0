"""Tiled maps of maps of a reduction (lowering/gpu_tile.py): which nests are tiled and
how wide a thread's tile is, on the CPU; the kernels through nvcc; on the GPU (marker
gpu), their results against the reference executor at sizes around a tile's (32 rows,
where the host starts to choose it; 128, a tile), with k around a chunk's (8), empty
sides and an empty k, rows stored either way (a transposed operand), several
reductions side by side, an operator that is not commutative, and an array read at
every k."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.dialects import mem
from soacc.lowering.emit_cuda import emit_cuda
from soacc.lowering.gpu_flatten import perfect_nest
from soacc.lowering.gpu_tile import tiling
from soacc.program import apply_pipeline, parse_program
from tests.support.gpu_reference import gpu_and_reference
from tests.support.nvcc import compile_ptx

ROOT = Path(__file__).resolve().parents[2]
LIT = (ROOT / "tests" / "filecheck" / "lowering" / "convert-mem-to-gpu-tile.mlir").read_text().split("// -----")
MATMUL, WEIGHTED, NOT_TILED = LIT
BENCHMARK = (ROOT / "benchmarks" / "nested" / "matmul.mlir").read_text()

# a matrix product of a matrix by a transposed one (rows of both stored along k), as
# integers, with the row number in its epilogue
INTEGERS = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %n = soac.size %a[0] : tensor<?x?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %c = soac.map(%a, %is) : (tensor<?x?xi32>, tensor<?xindex>) -> tensor<?x?xi32> {
  ^bb0(%arow: tensor<?xi32>, %i: index):
    %crow = soac.map(%b) : (tensor<?x?xi32>) -> tensor<?xi32> {
    ^bb1(%brow: tensor<?xi32>):
      %d = soac.redomap(%arow, %brow) : (tensor<?xi32>, tensor<?xi32>) -> i32 map {
      ^bb2(%x: i32, %y: i32):
        %m = arith.muli %x, %y : i32
        soac.yield %m : i32
      } reduce(%zero : i32) commutative {
      ^bb3(%l: i32, %r: i32):
        %s = arith.addi %l, %r : i32
        soac.yield %s : i32
      }
      %ii = arith.index_cast %i : index to i32
      %e = arith.subi %d, %ii : i32
      soac.yield %e : i32
    }
    soac.yield %crow : tensor<?xi32>
  }
  func.return %c : tensor<?x?xi32>
}
"""

# composition of the affine maps x -> a x + b, in order (associative, not commutative),
# over k of (a[i,k], b[k,j]) with b transposed (its rows strided): two i32 accumulators
COMPOSED = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %bt = soac.transpose %b [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
  %c = soac.map(%a) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%arow: tensor<?xi32>):
    %crow = soac.map(%bt) : (tensor<?x?xi32>) -> tensor<?xi32> {
    ^bb1(%bcol: tensor<?xi32>):
      %fa, %fb = soac.redomap(%arow, %bcol) : (tensor<?xi32>, tensor<?xi32>) -> (i32, i32) map {
      ^bb2(%x: i32, %y: i32):
        soac.yield %x, %y : i32, i32
      } reduce(%one, %zero : i32, i32) {
      ^bb3(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
        %p = arith.muli %a1, %a2 : i32
        %q = arith.muli %b1, %a2 : i32
        %s = arith.addi %q, %b2 : i32
        soac.yield %p, %s : i32, i32
      }
      %t = arith.muli %fa, %fa : i32
      %u = arith.addi %t, %fb : i32
      soac.yield %u : i32
    }
    soac.yield %crow : tensor<?xi32>
  }
  func.return %c : tensor<?x?xi32>
}
"""


def _tilings(source: str) -> list:
    module = parse_program(source)
    apply_pipeline(module, "canonicalize,cse,soac-fusion,convert-soac-to-mem")
    found = []
    for op in module.walk():
        if isinstance(op, mem.MapOp) and (levels := perfect_nest(op)) is not None and op.parent_op().name == "func.func":
            found.append(tiling(levels))
    return found


@pytest.mark.parametrize(
    "source, per_thread",
    [(MATMUL, 8), (BENCHMARK, 8), (INTEGERS, 8), (WEIGHTED, 4), (COMPOSED, 4)],
    ids=["matmul", "benchmark", "integers", "weighted_f64", "composed"],
)
def test_a_thread_takes_a_tile_as_wide_as_its_accumulators_allow(source, per_thread):
    (found,) = _tilings(source)
    assert found is not None and found.per_thread == per_thread
    assert {s.side for s in found.sources} >= {"outer", "inner"}


def test_nests_without_reuse_on_both_sides_are_not_tiled():
    one_side, computed_row = _tilings(NOT_TILED)
    assert one_side is None
    # (soac-fusion folds @computed_row's map of the inner row into the reduction,
    # whose inputs are then rows of both sides: it is tiled after all, unlike in the
    # lit test, which runs no fusion)
    assert computed_row is not None and computed_row.per_thread == 8


def _kernels(source: str) -> list[str]:
    program = soacc.compile(source, backend="numpy", pipeline="soacc-pipeline")
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]


@pytest.mark.parametrize("source", [MATMUL, BENCHMARK, INTEGERS, WEIGHTED, COMPOSED], ids=["matmul", "benchmark", "integers", "weighted", "composed"])
def test_the_whole_pipeline_tiles_them(source):
    assert any(n.endswith("_tiled") for n in _kernels(source))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("source", [MATMUL, INTEGERS, WEIGHTED, COMPOSED], ids=["matmul", "integers", "weighted", "composed"])
def test_tiled_kernels_compile_with_nvcc(source, tmp_path):
    out = io.StringIO()
    emit_cuda(soacc.compile(source, backend="numpy", pipeline="soacc-pipeline").module, out)
    result = compile_ptx(out.getvalue(), tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]


SHAPES = [  # (n, k, m)
    (0, 5, 40), (40, 5, 0), (40, 0, 40), (1, 1, 1), (31, 7, 33), (32, 8, 32), (33, 9, 129),
    (128, 16, 128), (129, 17, 127), (200, 100, 70), (300, 1, 257),
]


def _small_integers(rng, shape, dtype):
    return rng.integers(-3, 4, size=shape).astype(dtype)




@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("program", ["matmul", "integers", "composed", "weighted"])
def test_tiled_nests_give_the_reference_results(program, shape):
    n, k, m = shape
    rng = np.random.default_rng(n * 1000 + k * 10 + m)
    if program == "matmul":
        gpu, cpu = gpu_and_reference(MATMUL.replace("@matmul", "@main"), _small_integers(rng, (n, k), np.float32), _small_integers(rng, (k, m), np.float32))
        np.testing.assert_array_equal(gpu, cpu)  # (small integers: every order of sums is exact)
    elif program == "integers":
        gpu, cpu = gpu_and_reference(INTEGERS, _small_integers(rng, (n, k), np.int32), _small_integers(rng, (m, k), np.int32))
        np.testing.assert_array_equal(gpu, cpu)
    elif program == "composed":
        gpu, cpu = gpu_and_reference(COMPOSED, _small_integers(rng, (n, k), np.int32), _small_integers(rng, (k, m), np.int32))
        np.testing.assert_array_equal(gpu, cpu)
    else:
        x, y = rng.standard_normal((n, k)), rng.standard_normal((m, k))
        w = rng.random(k)
        gpu, cpu = gpu_and_reference(WEIGHTED.replace("@weighted", "@main"), x, y, w)
        np.testing.assert_allclose(gpu, cpu, rtol=1e-12, atol=1e-12)
    assert gpu.shape == (n, m)


@pytest.mark.gpu
def test_operands_of_different_lengths_are_an_error():
    program = soacc.compile(MATMUL.replace("@matmul", "@main"), backend="cuda")
    with pytest.raises(soacc.ExecutionError, match="folds arrays of different lengths"):
        program.main(np.ones((40, 5), np.float32), np.ones((6, 40), np.float32))
