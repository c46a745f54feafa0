"""The memory passes as users meet them: in soacc-pipeline (and out of it with
{memory=false}), their reports, what they leave at level 1, the gain of colouring over
linear scan at run time, and kernels that still compile after them."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.dialects import mem
from soacc.lowering.emit_cuda import emit_cuda
from soacc.lowering.emit_host import emit_host
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.tools.examples import load_examples
from soacc.tools.soacc_opt import main as soacc_opt

from tests.support.lit import MEMORY_REUSE, case_defining
from tests.support.marks import sweep
from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")

COPY = """
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %t1 = soac.copy %t0 : tensor<?xi32>
  func.return %t1 : tensor<?xi32>
}
"""


def test_the_pipeline_runs_them_after_bufferisation_and_memory_false_leaves_them_out():
    copies = "introduce-forks{trivial=true combine=true fork_returns=true beside=true}"
    assert SoaccPipelinePass().stages() == (
        "canonicalize,cse,interchange-reductions,soac-fusion,reduce-device-syncs,merge-gpu-bodies,"
        f"convert-soac-to-mem,fuse-iota,hoist-allocations,short-circuit,memory-reuse,fuse-scalar-reads,borrow-arguments,{copies},convert-mem-to-gpu,"
        "convert-fork-to-gpu,canonicalize,cse,licm"
    )
    assert SoaccPipelinePass(memory=False, forked_copies=False, borrow=False, reads=False).stages() == (
        "canonicalize,cse,interchange-reductions,soac-fusion,reduce-device-syncs,merge-gpu-bodies,convert-soac-to-mem,fuse-iota,convert-mem-to-gpu,"
        "canonicalize,cse,licm"
    )
    counts = {}
    # (the functions alone: a forked copy beside one has the same memory)
    for pipeline in ("soacc-pipeline{forked-copies=false}", "soacc-pipeline{memory=false forked-copies=false}"):
        module = parse_program(COPY)
        apply_pipeline(module, pipeline)
        ops = list(module.walk())
        device_allocs = sum(1 for o in ops if isinstance(o, mem.AllocOp) and o.block.type.space.is_device)
        device_copies = sum(
            1 for o in ops if isinstance(o, mem.CopyOp) and mem.space_of(o.source.type).is_device and mem.space_of(o.dest.type).is_device
        )
        counts[pipeline] = device_allocs, device_copies
    # the copy and t0's block are gone, and the map builds t1 in ns's block
    assert counts["soacc-pipeline{memory=false forked-copies=false}"] == (3, 1)
    assert counts["soacc-pipeline{forked-copies=false}"] == (1, 0)


def test_each_pass_reports_what_it_did(capsys):
    path = ROOT / "examples" / "transpose_concat.mlir"
    assert soacc_opt([str(path), "-p", "canonicalize,cse,convert-soac-to-mem,hoist-allocations{report=true},"
                      "short-circuit{report=true},memory-reuse{report=true}", "-o", "/dev/null"]) in (0, None)
    err = capsys.readouterr().err
    assert "hoist-allocations: @main: " in err and "allocations hoisted" in err
    assert "short-circuit: @main: 1 copies removed, 1 blocks merged" in err
    assert "short-circuit: @main: %neg made in a part of %sc" in err
    assert "memory-reuse: @main: " in err and "blocks reused (colouring)" in err


def test_they_leave_level_1_alone():
    module = parse_program(COPY)
    before = str(module)
    apply_pipeline(module, "hoist-allocations,short-circuit,memory-reuse")
    assert str(module) == before


def test_colouring_by_size_lowers_the_peak_where_linear_scan_does_not():
    """The memory-reuse lit test's r_colouring: first fit pairs the small block with the
    large one, colouring pairs blocks of one size."""
    source = case_defining("r_colouring", *MEMORY_REUSE)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones((1000, 40), dtype=np.float32)
    peaks = {}
    for strategy in ("colouring", "linear-scan"):
        p = soacc.compile(source, backend="numpy", pipeline=f"convert-soac-to-mem,hoist-allocations,memory-reuse{{strategy={strategy}}}")
        result = p.main(x, y)
        peaks[strategy] = p.statistics.spaces["device"].peak_bytes
    base = soacc.compile(source, backend="numpy", pipeline="convert-soac-to-mem")
    assert base.main(x, y) == result
    unmerged = base.statistics.spaces["device"].peak_bytes
    assert peaks["colouring"] <= unmerged < peaks["linear-scan"]


NVCC = shutil.which("nvcc")


@pytest.mark.parametrize("path", ["examples/gauss_jordan.mlir", "benchmarks/device_syncs/srad.mlir"])
def test_double_buffered_loops_keep_their_kernels_strategies(path):
    """A double-buffered loop reads its array in one of its two blocks and writes the
    next in the other: the lowering may still give each row to a group of threads (and
    keep a reduction's epilogue), as where the body allocated the next array, although
    the aliases, merging iterations, say each block may be either."""
    source = (ROOT / path).read_text()

    def launches(memory_reuse: str) -> list[str]:
        stages = SoaccPipelinePass().stages().replace("memory-reuse", memory_reuse)
        module = parse_program(source)
        apply_pipeline(module, stages)
        code = emit_host(module).source
        return [line.split("'")[1] for line in code.splitlines() if "rt.launch(" in line]

    with_steps = launches("memory-reuse")
    without = launches("memory-reuse{double_buffers=false carried_updates=false}")
    assert sum(k.endswith("_block_per_row") for k in with_steps) == sum(k.endswith("_block_per_row") for k in without)
    assert len(with_steps) <= len(without)


def compiles_with_nvcc(module, tmp_path: Path) -> None:
    source = io.StringIO()
    emit_cuda(module, source)
    path = tmp_path / "k.cu"
    path.write_text(source.getvalue())
    result = subprocess.run(
        [NVCC, "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "k.ptx")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_still_lowers_to_kernels_that_compile(example, tmp_path):
    program_ = soacc.compile(example.program_path, backend="numpy", pipeline="soacc-pipeline")
    compiles_with_nvcc(program_.module, tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_random_programs_still_lower_to_kernels_that_compile(tmp_path):
    """Every random program that lowers to kernels without the passes lowers with
    them too (and some lower only with them: a loop in a lambda that updates its
    row, which convert-mem-to-gpu takes once memory-reuse has made it iterate in place
    and stop carrying the row), and the kernels compile."""
    lowered = 0
    for seed in range(0, sweep(36, 60), 3):
        try:
            soacc.compile(random_program("memory", seed).source, backend="numpy", pipeline="soacc-pipeline{memory=false}")
            lowers_without = True
        except soacc.ProgramError:
            lowers_without = False
        try:
            program_ = soacc.compile(random_program("memory", seed).source, backend="numpy", pipeline="soacc-pipeline")
        except soacc.ProgramError:
            assert not lowers_without, f"seed {seed} lowers only without the memory passes"
            continue
        compiles_with_nvcc(program_.module, tmp_path)
        lowered += 1
    assert lowered >= sweep(6, 10)
