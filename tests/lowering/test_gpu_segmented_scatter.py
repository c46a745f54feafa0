"""Scatters per row (lowering/gpu_segmented_scatter.py): which maps of scatters run
every row's writes at once, and whether their rows are copied first, on the CPU; the
kernels through nvcc; on the GPU (marker gpu), their results against the reference
executor, with no rows, empty rows, positions out of range (negative, too large), rows
that start as a row of an input (in place after the memory passes, or copied), as one
value, or as an array from outside, and positions a map lambda computes (a
scatteromap). Positions do not repeat within a row: which value a repeated position
gets is unspecified."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda
from tests.support.gpu_reference import gpu_and_reference
from tests.support.nvcc import compile_ptx

ROOT = Path(__file__).resolve().parents[2]
LIT = (ROOT / "tests" / "filecheck" / "lowering" / "convert-mem-to-gpu-scatter-per-row.mlir").read_text().split("// -----")
ROWS, MARKS = (part.replace("@rows", "@main").replace("@marks", "@main") for part in LIT)
BENCHMARK = (ROOT / "benchmarks" / "nested" / "scatter_rows.mlir").read_text()

# rows that start as an array from outside; positions a map lambda computes from a row
# (soac-fusion makes the map and the scatter one scatteromap)
SHIFTED = """
func.func @main(%base: tensor<?xf64>, %iss: tensor<?x?xi64>, %vss: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %two = arith.constant 2 : i64
  %r = soac.map(%iss, %vss) : (tensor<?x?xi64>, tensor<?x?xf64>) -> tensor<?x?xf64> {
  ^bb0(%is: tensor<?xi64>, %vs: tensor<?xf64>):
    %ps = soac.map(%is) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%i: i64):
      %p = arith.subi %i, %two : i64
      soac.yield %p : i64
    }
    %b = soac.copy %base : tensor<?xf64>
    %s = soac.scatter %b[%ps] = %vs : tensor<?xf64>, tensor<?xi64>, tensor<?xf64>
    soac.yield %s : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}
"""

# positions and values a map lambda computes from each element's number (an iota from
# outside the map, which soac-fusion makes the scatteromap's input): (j + offset) mod
# width, distinct for k <= width
INDEXED = """
func.func @main(%dest: tensor<?x?xi32>, %k: index, %offset: index) -> tensor<?x?xi32> {
  %w = soac.size %dest[1] : tensor<?x?xi32>
  %io = soac.iota %k : tensor<?xindex>
  %r = soac.map(%dest) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%d: tensor<?xi32>):
    %pos = soac.map(%io) : (tensor<?xindex>) -> tensor<?xindex> {
    ^bb1(%j: index):
      %a = arith.addi %j, %offset : index
      %p = arith.remui %a, %w : index
      soac.yield %p : index
    }
    %vals = soac.map(%io) : (tensor<?xindex>) -> tensor<?xi32> {
    ^bb2(%j2: index):
      %v = arith.index_cast %j2 : index to i32
      soac.yield %v : i32
    }
    %c = soac.copy %d : tensor<?xi32>
    %t = soac.scatter %c[%pos] = %vals : tensor<?xi32>, tensor<?xindex>, tensor<?xi32>
    soac.yield %t : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
"""

# two scatters in a row: a thread per row
TWICE = """
func.func @main(%dest: tensor<?x?xi32>, %iss: tensor<?x?xi32>, %vss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = soac.map(%dest, %iss, %vss) : (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%d: tensor<?xi32>, %is: tensor<?xi32>, %vs: tensor<?xi32>):
    %s = soac.scatter %d[%is] = %vs : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
    %t = soac.scatter %s[%vs] = %is : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
    soac.yield %t : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
"""


def _kernels(source: str) -> list[str]:
    program = soacc.compile(source, backend="numpy", pipeline="soacc-pipeline")
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]


@pytest.mark.parametrize(
    "source, per_row, copies",
    [
        (BENCHMARK, True, False),  # (in place: the output is %dest's memory)
        (ROWS, True, False),
        (MARKS, True, True),
        (SHIFTED, True, True),
        (INDEXED, True, None),  # (in place in @main, not in its forked copy)
        (TWICE, False, False),
    ],
    ids=["benchmark", "rows", "marks", "shifted", "indexed", "twice"],
)
def test_which_maps_of_scatters_write_every_row_at_once(source, per_row, copies):
    names = _kernels(source)
    assert any(n.endswith("_scatter_rows") for n in names) == per_row, names
    assert any(re.fullmatch(r"map\d+", n) for n in names) == (not per_row), names
    if copies is not None:
        assert any(n.endswith("_scatter_rows_init") for n in names) == copies, names


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_their_kernels_compile_with_nvcc(tmp_path):
    for i, source in enumerate([ROWS, MARKS, SHIFTED, INDEXED]):
        out = io.StringIO()
        emit_cuda(soacc.compile(source, backend="numpy", pipeline="soacc-pipeline").module, out)
        result = compile_ptx(out.getvalue(), tmp_path, f"scatter{i}")
        assert result.returncode == 0, result.stderr[-4000:]


SHAPES = [(0, 5, 3), (3, 0, 0), (3, 4, 0), (1, 1, 1), (5, 40, 40), (1000, 70, 30), (3, 100_003, 5000), (300, 64, 70)]


def _positions(rng, rows: int, width: int, k: int, dtype) -> np.ndarray:
    """Per row, k distinct positions of -3 .. width + 2 (some out of range)."""
    span = np.arange(-3, width + 3)
    if k > span.size:
        raise ValueError("k too large")
    rows_of = [rng.choice(span, size=k, replace=False) for _ in range(rows)]
    return (np.stack(rows_of) if rows_of else np.zeros((0, k))).astype(dtype).reshape(rows, k)




@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("program", ["benchmark", "rows", "marks", "shifted", "indexed"])
def test_scatters_per_row_give_the_reference_results(program, shape):
    rows, width, k = shape
    rng = np.random.default_rng(rows * 31 + width * 7 + k)
    if program in ("benchmark", "rows"):
        dest = rng.standard_normal((rows, width)).astype(np.float32)
        gpu, cpu = gpu_and_reference(BENCHMARK if program == "benchmark" else ROWS, dest, _positions(rng, rows, width, k, np.int32),
                         rng.standard_normal((rows, k)).astype(np.float32))
    elif program == "marks":
        gpu, cpu = gpu_and_reference(MARKS, rng.integers(-9, 9, rows).astype(np.int64), _positions(rng, 1, width, k, np.int64)[0], width)
    elif program == "indexed":
        dest = rng.integers(-9, 9, (rows, width)).astype(np.int32)
        gpu, cpu = gpu_and_reference(INDEXED, dest, min(k, width), int(rng.integers(0, 1000)))
    else:
        positions = _positions(rng, rows, width, k, np.int64) + 2
        gpu, cpu = gpu_and_reference(SHIFTED, rng.standard_normal(width), positions, rng.standard_normal((rows, k)))
    np.testing.assert_array_equal(gpu, cpu)
    assert gpu.shape == (rows, width)
