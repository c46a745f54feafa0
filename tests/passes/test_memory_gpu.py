"""Memory block merging on the GPU (marker gpu): every example, every benchmark port and
random programs give the same results on the cuda backend with the memory passes on and
off, and with them the same as the reference executor (and the ports their NumPy
references); the passes add no device allocation or device-to-device copy. Skipped
where there is no GPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import load_examples, mismatch

from tests.support.lit import MEMORY_REUSE, case_defining
from tests.support.random_programs import random_program

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
ON, OFF = "soacc-pipeline", "soacc-pipeline{memory=false}"
LEVEL2 = SoaccPipelinePass().level2_stages()
"""What soacc-pipeline runs before the kernels (reduce-device-syncs included: it changes
what is copied)."""
GPU_RTOL = GPU_ATOL = 1e-5
"""Against the reference executor: nvcc contracts a*b+c into one fused multiply-add, which
rounds once where NumPy rounds twice, and reductions on the GPU add in another order, so
float32 results differ in the last bits, and relatively more where terms cancel (the
random programs' inputs are of magnitude 1); with the passes on and off too, as a
reduction takes 16-byte loads only where its input is aligned, which where blocks are
merged can change. A wrong merge gives other elements or garbage, far outside this."""


def copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def device(program: soacc.Program) -> tuple[int, int]:
    s = program.statistics
    return s.spaces["device"].allocations if "device" in s.spaces else 0, s.copies["device->device"].count


def check(source, args_list, rtol: float, atol: float) -> None:
    """The same results with the passes on and off and on the reference executor; with
    the last (largest) arguments no more device allocations or copies (a loop that runs
    no iteration may cost the copy memory-reuse makes once before it)."""
    on = soacc.compile(source, backend="cuda", pipeline=ON)
    try:
        off = soacc.compile(source, backend="cuda", pipeline=OFF)
    except soacc.ProgramError:
        off = None  # lowers to kernels only with the passes (a loop in a lambda)
    cpu = soacc.compile(source, backend="numpy", pipeline=LEVEL2)
    for k, args in enumerate(args_list):
        got = on.main(*copies(args))
        assert mismatch(got, cpu.main(*copies(args)), max(rtol, GPU_RTOL), max(atol, GPU_ATOL)) is None
        assert on.statistics.copies == cpu.statistics.copies
        if off is None:
            continue
        assert mismatch(got, off.main(*copies(args)), max(rtol, GPU_RTOL), max(atol, GPU_ATOL)) is None
        (a_on, c_on), (a_off, c_off) = device(on), device(off)
        if k == len(args_list) - 1:
            assert a_on <= a_off and c_on <= c_off


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_on_the_gpu(example):
    args = [example.make_inputs(np.random.default_rng(size), size) for size in (0, 1, 7, 300)]
    check(example.program_path, args, example.rtol, example.atol)


BENCHMARKS = load_examples(ROOT / "benchmarks" / "memory")


@pytest.mark.parametrize("example", BENCHMARKS, ids=[e.name for e in BENCHMARKS])
def test_every_benchmark_port_on_the_gpu(example):
    args = [example.make_inputs(np.random.default_rng(size), size) for size in (4, example.definition.SMALL_SIZE)]
    check(example.program_path, args, example.rtol, example.atol)
    for a in args:
        got = soacc.compile(example.program_path, backend="cuda", pipeline=ON).main(*copies(a))
        assert mismatch(got, example.reference(*a), example.rtol, example.atol) is None


@pytest.mark.parametrize("batch", range(4))
def test_random_programs_on_the_gpu(batch):
    for seed in range(batch * 15, batch * 15 + 15):
        program = random_program("memory", seed)
        check(program.source, [program.inputs(n) for n in (1, 5, 300)], 1e-6, 0.0)


LOOP_CASES = (
    "r_loop_carried_block",
    "r_loop_into_destination",
    "r_loop_into_row",
    "r_loop_into_destination_read_in_body",
    "r_loop_in_place",
)
"""memory-reuse's lit cases whose loops' arrays move into another block
(memory-reuse/loop-blocks.mlir and loops.mlir): the carried block, the loop's destination
(a concat's part, a row; not a row the body reads), the carried block in place."""


@pytest.mark.parametrize("function", LOOP_CASES)
def test_loops_whose_arrays_move_on_the_gpu(function):
    source = case_defining(function, *MEMORY_REUSE)
    rng = np.random.default_rng(0)
    args = [[rng.integers(-50, 50, n).astype(np.int32)] for n in (0, 1, 7, 300)]
    if function == "r_loop_carried_block":
        args = [a + [np.int32(3)] for a in args]
    elif function in ("r_loop_into_row", "r_loop_into_destination_read_in_body"):
        args = [a + [3] for a in args]  # (rows of m)
    check(source, args, 0.0, 0.0)
