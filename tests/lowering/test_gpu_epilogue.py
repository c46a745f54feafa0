"""The analysis that lets a gpu_body run on a reduction's final kernel (gpu_epilogue.py):
what it finds in the lit test's level-2 functions (convert-mem-to-gpu-epilogue.mlir),
that it changes nothing, and (marker gpu) that the programs whose gpu_bodies it folds
give the reference executor's results with the folding on the GPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func

import soacc
from soacc.dialects import mem
from soacc.lowering.gpu_epilogue import REDUCTIONS, find_epilogue
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.runtime.program import parse_program
from soacc.tools.examples import load_examples, mismatch

ROOT = Path(__file__).resolve().parents[2]
LIT = ROOT / "tests" / "filecheck" / "lowering" / "convert-mem-to-gpu-epilogue.mlir"


def functions() -> dict[str, func.FuncOp]:
    found = {}
    for chunk in LIT.read_text().split("\n// -----\n"):
        module = parse_program(chunk)
        found |= {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    return found


def epilogue_of(function: func.FuncOp):
    (reduction,) = [op for op in function.walk() if isinstance(op, REDUCTIONS)]
    return find_epilogue(reduction, MemoryAliases(function))


def names(values) -> list[str]:
    return [v.name_hint for v in values]


def test_the_mean_shift_runs_on_the_reduction():
    f = functions()["shift_by_mean"]
    text = str(f)
    epilogue = epilogue_of(f)
    assert str(f) == text  # an analysis: nothing changed
    assert isinstance(epilogue.body, mem.GpuBodyOp)
    assert names(epilogue.params) == ["s_dev", "nf"]  # the body reads the reduced value through memory
    assert not epilogue.reduced and not epilogue.replayed
    assert [op.name for op in epilogue.hoisted] == ["mem.alloc", "mem.view"]  # its output's block


def test_the_pivot_redoes_the_row_from_the_reduced_index():
    epilogue = epilogue_of(functions()["pivot"])
    assert names(epilogue.params) == ["m", "k"]
    assert [(load.name_hint, j) for load, j in epilogue.reduced.items()] == [("best", 0)]
    assert [op.results[0].name_hint for op in epilogue.replayed] == ["p"]


@pytest.mark.parametrize("name", ["copy_between", "kernel_between"])
def test_it_keeps_apart_what_cannot_move(name):
    assert epilogue_of(functions()[name]) is None


EXAMPLES = {e.name: e for e in load_examples(ROOT / "examples")}
FOLDED = ["vector_norm", "gauss_jordan"]


def gpu_body_kernels(name: str) -> list[str]:
    program = soacc.compile(EXAMPLES[name].program_path, backend="numpy", pipeline="soacc-pipeline")
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func" and op.sym_name.data.startswith("gpu_body")]


@pytest.mark.parametrize("name", FOLDED)
def test_the_pipeline_folds_the_examples_gpu_bodies(name):
    """After soacc-pipeline these examples launch no gpu_body kernel at all."""
    assert gpu_body_kernels(name) == []


def test_a_body_writing_the_reduced_values_block_keeps_its_launch():
    """convergence_loop's gpu_body writes its record into the block of the reduction's
    0-d output (memory-reuse merged them: the host reads the reduced value first). On
    the final kernel it would overwrite the value before the host reads it."""
    assert len(gpu_body_kernels("convergence_loop")) == 1


@pytest.mark.gpu
@pytest.mark.parametrize("name", FOLDED)
def test_folded_examples_on_the_gpu(name):
    example = EXAMPLES[name]
    gpu = soacc.compile(example.program_path, backend="cuda", pipeline="soacc-pipeline")
    for size in (1, 17, 300):
        args = example.make_inputs(np.random.default_rng(size), size)
        assert mismatch(gpu.main(*args), example.reference(*args), example.rtol, example.atol) is None, size
