"""Perfect nests of maps flattened into one kernel (lowering/gpu_flatten.py): which
nests are, on the CPU; on the GPU (marker gpu), their results against the reference
executor, with levels of 0, 1 and many rows, and rows longer than a block."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.dialects import mem
from soacc.lowering.gpu_flatten import perfect_nest
from soacc.program import apply_pipeline, parse_program

ROOT = Path(__file__).resolve().parents[2]
LIT = (ROOT / "tests" / "filecheck" / "lowering" / "convert-mem-to-gpu-flatten.mlir").read_text().split("// -----")
CUBE, CLAMPED, READS_FIRST, WITH_A_SCALAR = LIT
STENCIL3D = (ROOT / "benchmarks" / "nested" / "stencil3d.mlir").read_text()

SHAPES = [(0, 3, 4), (3, 0, 4), (2, 3, 0), (1, 1, 1), (2, 3, 5), (3, 4, 300), (5, 70, 9), (40, 1, 2)]


def _kernels(source: str) -> list[str]:
    program = soacc.compile(source, backend="numpy", pipeline="soacc-pipeline")
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]


@pytest.mark.parametrize(
    "source, flat",
    [(CUBE, True), (CLAMPED, True), (STENCIL3D, True), (READS_FIRST, False), (WITH_A_SCALAR, False)],
    ids=["cube", "clamped", "stencil3d", "reads_first", "with_a_scalar"],
)
def test_which_nests_are_flattened_by_the_whole_pipeline(source, flat):
    names = _kernels(source)
    assert any(n.endswith("_flat") for n in names) == flat, names


def test_a_nest_is_found_at_every_depth():
    module = parse_program(CUBE)
    apply_pipeline(module, "convert-soac-to-mem")
    top = next(op for op in module.walk() if isinstance(op, mem.MapOp))
    levels = perfect_nest(top)
    assert levels is not None and len(levels) == 3
    assert perfect_nest(levels[1]) == levels[1:]
    assert perfect_nest(levels[2]) is None  # (the innermost has no map inside)


def _both(source: str, name: str, *args):
    gpu = getattr(soacc.compile(source, backend="cuda"), name)(*args)
    cpu = getattr(soacc.compile(source, backend="numpy"), name)(*args)
    return gpu, cpu


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("source, name", [(CUBE, "cube"), (CLAMPED, "clamped"), (STENCIL3D, "main"), (READS_FIRST, "reads_first")])
def test_flattened_nests_give_the_reference_results(source, name, shape):
    v = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    if name in ("clamped", "reads_first") and 0 in shape:
        # (they read m[clamped i+1, ...] and plane[0, 0]: out of bounds where a level is
        # empty; the reference executor says so, and a kernel's failed check would end
        # the process's GPU context)
        return
    gpu, cpu = _both(source, name, v)
    np.testing.assert_allclose(gpu, cpu, rtol=1e-6, atol=1e-6)
