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
from soacc.program import parse_program
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
PIPELINE = "soacc-pipeline{forked-copies=false}"
"""(The functions alone: in a forked copy a reduction and its gpu_body are apart, in
threads of their own, so the copy launches the body; the copy's graph runs only where
measured faster than the function's.)"""
FOLDED = ["vector_norm", "gauss_jordan"]


def gpu_body_kernels(name: str) -> list[str]:
    program = soacc.compile(EXAMPLES[name].program_path, backend="numpy", pipeline=PIPELINE)
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func" and op.sym_name.data.startswith("gpu_body")]


def gpu_body_launches(name: str) -> list[str]:
    """The gpu_body kernels the host code launches, but for the position checks of copies
    at device positions, which it launches only where the copy has no rows (under an
    `scf.if`; convert-soac-to-mem's `_check_without_rows`)."""
    program = soacc.compile(EXAMPLES[name].program_path, backend="numpy", pipeline=PIPELINE)
    launches = [op for op in program.module.walk() if op.name == "gpu.launch_func"]
    return [
        name
        for op in launches
        if (name := op.kernel.nested_references.data[-1].data).startswith("gpu_body")
        and not (op.parent_op().name == "scf.if" and op.parent_block().first_op is op)
    ]


@pytest.mark.parametrize("name", FOLDED)
def test_the_pipeline_folds_the_examples_gpu_bodies(name):
    """After soacc-pipeline these examples launch no gpu_body kernel at all (where
    there are rows to copy)."""
    assert gpu_body_launches(name) == []


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


# A program whose reads reduce-device-syncs moves to the device: a mean and a matrix
# element at an argmax's row, combined, used only by maps (and an element of a
# redomap's mapped array, which the map then reads itself). The gpu_body that computes
# them from both reductions' values runs on the argmax's final kernel: the sum it reads
# was stored by the earlier redomap's final kernel, the argmax is the thread's own.
SHAPES = """
func.func @main(%a: tensor<?xf32>, %m: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = soac.size %a[0] : tensor<?xf32>
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32
  %s, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %x, %y : f32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  %mean = arith.divf %s, %nf : f32
  %first = soac.index %sq[%c0] : tensor<?xf32>
  %centred = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %d = arith.subf %x, %mean : f32
    %e = arith.mulf %d, %first : f32
    soac.yield %e : f32
  }
  %big = arith.constant -1.0 : f32
  %col = soac.slice %m[%c0:%n, %c0] : tensor<?x?xf32> -> tensor<?xf32>
  %is = soac.iota %n : tensor<?xindex>
  %best:2 = soac.reduce(%col, %is) neutral(%big, %c0 : f32, index) commutative : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
  ^bb0(%v1: f32, %i1: index, %v2: f32, %i2: index):
    %gt = arith.cmpf ogt, %v1, %v2 : f32
    %eq = arith.cmpf oeq, %v1, %v2 : f32
    %lt = arith.cmpi ult, %i1, %i2 : index
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %v = arith.select %take, %v1, %v2 : f32
    %i = arith.select %take, %i1, %i2 : index
    soac.yield %v, %i : f32, index
  }
  %c1 = arith.constant 1 : index
  %at = soac.index %m[%best#1, %c1] : tensor<?x?xf32>
  %scaled = arith.mulf %at, %mean : f32
  %shifted = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %z = arith.addf %x, %scaled : f32
    soac.yield %z : f32
  }
  func.return %centred, %shifted : tensor<?xf32>, tensor<?xf32>
}
"""


def shapes_args(n: int) -> tuple:
    rng = np.random.default_rng(n)
    return rng.uniform(-4, 4, n).astype(np.float32), rng.uniform(-4, 4, (n, 3)).astype(np.float32)


def test_the_shapes_fold_and_keep_their_results():
    """At level 3 no gpu_body is launched; on the reference executor, level 2 with the
    pipeline gives the program's results (the GPU test below runs the folded kernels)."""
    program = soacc.compile(SHAPES, backend="numpy", pipeline=PIPELINE)
    kernels = [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]
    assert not [k for k in kernels if k.startswith("gpu_body")], kernels
    from soacc.pipeline import SoaccPipelinePass

    level2 = soacc.compile(SHAPES, backend="numpy", pipeline=SoaccPipelinePass().level2_stages())
    written = soacc.compile(SHAPES, backend="numpy", pipeline="")
    assert sum(isinstance(op, mem.GpuBodyOp) for op in level2.module.walk()) >= 1
    for n in (1, 5, 40):
        args = shapes_args(n)
        assert mismatch(level2.main(*args), written.main(*args), 1e-5, 1e-5) is None


@pytest.mark.gpu
def test_the_shapes_on_the_gpu():
    gpu = soacc.compile(SHAPES, backend="cuda", pipeline="soacc-pipeline")
    written = soacc.compile(SHAPES, backend="numpy", pipeline="")
    for n in (1, 5, 1000, 300_001):
        args = shapes_args(n)
        assert mismatch(gpu.main(*args), written.main(*args), 1e-4, 1e-4) is None, n
        assert gpu.statistics.sync_reads == 0, n


def test_the_kernel_ops_are_the_ones_convert_mem_to_gpu_lowers():
    """The mem ops that declare the KernelOp trait (what the epilogue analysis will not
    move a gpu_body past, and what counts as inside a kernel) are exactly the ops
    convert-mem-to-gpu outlines."""
    from soacc.dialects.shared.traits import KernelOp
    from soacc.lowering.convert_mem_to_gpu import _LOWERINGS

    assert set(_LOWERINGS) == {op for op in mem.MEM.operations if op.has_trait(KernelOp)}
