"""Histograms per row (lowering/gpu_segmented_hist.py): which maps of hists take the
group strategies, on the CPU; the kernels through nvcc; on the GPU (marker gpu), their
results against the reference executor at row lengths around the host's thresholds
(32: a warp per row; 2048: blocks, several per row where rows are few), with no rows,
empty rows, bins out of range (negative, too large), a fill value that is not the
neutral element, values from rows, from outside and from a replicate, bins that do not
fit shared memory, and an operator CUDA has no atomic for."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda
from tests.support.gpu_reference import gpu_and_reference
from tests.support.nvcc import compile_ptx

ROOT = Path(__file__).resolve().parents[2]
# the benchmark's hist inside a map: bin numbers a map of the row computes (soac-fusion
# makes it a histomap: its map lambda gives each element's bin and value)
MASKED = (ROOT / "benchmarks" / "nested" / "hist_rows.mlir").read_text()
LIT = (ROOT / "tests" / "filecheck" / "lowering" / "convert-mem-to-gpu-hist-per-row.mlir").read_text().split("// -----")
COUNTS, MAXIMA, FROM_ROWS = (part.replace("@counts", "@main").replace("@maxima", "@main").replace("@from_rows", "@main") for part in LIT)

# bins filled with 5 (not the neutral element), a weight per column from outside as
# the values, summed into 8 bins
WEIGHTED = """
func.func @main(%iss: tensor<?x?xi32>, %w: tensor<?xi32>) -> tensor<?x8xi32> {
  %zero = arith.constant 0 : i32
  %five = arith.constant 5 : i32
  %c8 = arith.constant 8 : index
  %hs = soac.map(%iss) : (tensor<?x?xi32>) -> tensor<?x8xi32> {
  ^bb0(%is: tensor<?xi32>):
    %bins = soac.replicate %c8, %five : i32 -> tensor<8xi32>
    %h = soac.hist %bins[%is], %w neutral(%zero : i32) : tensor<8xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}
"""

# 2000 bins of i64: a block's sub-histogram fits shared memory, eight warps' do not
WIDE = """
func.func @main(%iss: tensor<?x?xi32>, %vss: tensor<?x?xi64>) -> tensor<?x2000xi64> {
  %zero = arith.constant 0 : i64
  %c2000 = arith.constant 2000 : index
  %hs = soac.map(%iss, %vss) : (tensor<?x?xi32>, tensor<?x?xi64>) -> tensor<?x2000xi64> {
  ^bb0(%is: tensor<?xi32>, %vs: tensor<?xi64>):
    %bins = soac.replicate %c2000, %zero : i64 -> tensor<2000xi64>
    %h = soac.hist %bins[%is], %vs neutral(%zero : i64) : tensor<2000xi64>, tensor<?xi32>, tensor<?xi64> {
    ^bb1(%a: i64, %c: i64):
      %s = arith.addi %a, %c : i64
      soac.yield %s : i64
    }
    soac.yield %h : tensor<2000xi64>
  }
  func.return %hs : tensor<?x2000xi64>
}
"""


def _kernels(source: str) -> list[str]:
    program = soacc.compile(source, backend="numpy", pipeline="soacc-pipeline")
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]


@pytest.mark.parametrize(
    "source, expected",
    [
        (COUNTS, {"block", "warp"}),
        (MAXIMA, {"block"}),
        (WEIGHTED, {"block", "warp"}),
        (WIDE, {"block"}),
        (MASKED, {"block", "warp"}),
        (FROM_ROWS, set()),
    ],
    ids=["counts", "maxima", "weighted", "wide", "masked", "from_rows"],
)
def test_which_maps_of_hists_take_a_group_per_row(source, expected):
    names = _kernels(source)
    found = {kind for kind in ("block", "warp") if any(n.endswith(f"_hist_{kind}_per_row") for n in names)}
    assert found == expected, names


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("source", [COUNTS, MAXIMA, WEIGHTED, WIDE, MASKED], ids=["counts", "maxima", "weighted", "wide", "masked"])
def test_their_kernels_compile_with_nvcc(source, tmp_path):
    out = io.StringIO()
    emit_cuda(soacc.compile(source, backend="numpy", pipeline="soacc-pipeline").module, out)
    result = compile_ptx(out.getvalue(), tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]


SHAPES = [(0, 5), (3, 0), (1, 1), (5, 31), (5, 32), (40, 33), (1000, 70), (3, 2047), (3, 2048), (2, 5000), (64, 100_003), (700, 2100)]




@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("program", ["counts", "maxima", "weighted", "wide", "masked"])
def test_histograms_per_row_give_the_reference_results(program, shape):
    rows, cols = shape
    rng = np.random.default_rng(rows * 7 + cols)
    if program == "counts":
        gpu, cpu = gpu_and_reference(COUNTS, rng.integers(-2, 18, shape).astype(np.int32))
    elif program == "maxima":
        bins = 300
        gpu, cpu = gpu_and_reference(MAXIMA, rng.integers(-5, bins + 5, shape).astype(np.int64), rng.standard_normal(shape).astype(np.float32), bins)
    elif program == "weighted":
        gpu, cpu = gpu_and_reference(WEIGHTED, rng.integers(-1, 9, shape).astype(np.int32), rng.integers(-50, 50, cols).astype(np.int32))
    elif program == "masked":
        gpu, cpu = gpu_and_reference(MASKED, rng.integers(-(1 << 30), 1 << 30, shape).astype(np.int32))
    else:
        gpu, cpu = gpu_and_reference(WIDE, rng.integers(-10, 2010, shape).astype(np.int32), rng.integers(-1000, 1000, shape).astype(np.int64))
    for g, c in zip(gpu if isinstance(gpu, tuple) else (gpu,), cpu if isinstance(cpu, tuple) else (cpu,), strict=True):
        np.testing.assert_array_equal(g, c)  # (integers, and a maximum: exact in any order)
