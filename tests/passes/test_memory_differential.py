"""Differential tests of memory block merging: every example, a few hundred random
programs and every lit test's program give bit-identical results with the passes on
and off (the examples and every fourth random program after soac-fusion too), on the reference executor, which runs level 2 with real aliasing (views are
NumPy views of byte buffers filled with 0xFF), so a wrong merge shows as a wrong
result. The passes add no allocation and no device-to-device copy (at sizes where
the loops run)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.tools.examples import load_examples, mismatch

from tests.support.lit import MEMORY_REUSE, argument, lit_files
from tests.support.marks import params
from tests.support.marks import sample, sweep
from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
BASE = "canonicalize,cse,convert-soac-to-mem"
MEMORY = {
    "all": BASE + ",hoist-allocations,short-circuit,memory-reuse",
    "linear-scan": BASE + ",hoist-allocations,short-circuit,memory-reuse{strategy=linear-scan}",
    "coalescing": BASE + ",hoist-allocations,short-circuit",
    "reuse": BASE + ",hoist-allocations{allocations=false},memory-reuse",
}


def copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def device_counts(program: soacc.Program) -> tuple[int, int]:
    s = program.statistics
    return s.spaces["device"].allocations if "device" in s.spaces else 0, s.copies["device->device"].count


FUSED = "canonicalize,cse,soac-fusion,convert-soac-to-mem"
"""The default pipeline's start: the memory passes then see soac-fusion's fused kernels."""


def check_same(source, args_list, modes=MEMORY, level1: bool = False, base_pipeline: str = BASE) -> None:
    """Runs `source` through the base pipeline and each memory pipeline on every
    argument tuple: the same results (as at level 1 too, where asked), and with the
    last (largest) arguments no more allocations or copies (with small ones a loop
    that runs no iteration can cost the copy memory-reuse makes once before it instead
    of in every iteration). Arguments the program rejects (an irregular array, an
    index out of bounds) must be rejected with the passes too."""
    base = soacc.compile(source, backend="numpy", pipeline=base_pipeline)
    merged = {mode: soacc.compile(source, backend="numpy", pipeline=p) for mode, p in modes.items()}
    as_written = soacc.compile(source, backend="numpy", pipeline="") if level1 else None
    for k, args in enumerate(args_list):
        try:
            want = base.main(*copies(args))
        except soacc.ExecutionError:
            for mode, program in merged.items():
                with pytest.raises(soacc.ExecutionError):
                    program.main(*copies(args))
            continue
        allocs, moved = device_counts(base)
        if as_written is not None:
            assert mismatch(as_written.main(*copies(args)), want, 0.0, 0.0) is None
        for mode, program in merged.items():
            got = program.main(*copies(args))
            assert mismatch(got, want, 0.0, 0.0) is None, f"{mode}: {mismatch(got, want, 0.0, 0.0)}"
            a, m = device_counts(program)
            if k == len(args_list) - 1:
                assert a <= allocs and m <= moved, f"{mode}: {a} allocations and {m} copies, against {allocs} and {moved}"


@pytest.mark.parametrize("example", params(EXAMPLES, [e.name for e in EXAMPLES], slow=["convergence_loop"]))
def test_every_example_gives_the_same_results(example):
    args = [example.make_inputs(np.random.default_rng(size), size) for size in (0, 1, 7, 40)]
    check_same(example.program_path, args)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_gives_the_same_results_after_fusion(example):
    args = [example.make_inputs(np.random.default_rng(size), size) for size in (1, 40)]
    check_same(example.program_path, args, {"fused": FUSED + ",hoist-allocations,short-circuit,memory-reuse"}, base_pipeline=FUSED)


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(sweep(6, 10)))
def test_random_programs_give_the_same_results(batch):
    """120 seeded programs (200 with SOACC_TESTS=deep; 20 a batch) at two sizes, also against level 1; each
    strategy of memory-reuse on every other program."""
    for seed in range(batch * 20, batch * 20 + 20):
        strategy = "all" if seed % 2 else "linear-scan"
        program = random_program("memory", seed)
        check_same(program.source, [program.inputs(n) for n in (1, 5)], {strategy: MEMORY[strategy]}, level1=True)
        if seed % 4 == 3:  # and after soac-fusion, whose fused kernels the passes then see
            fused = {"fused": FUSED + ",hoist-allocations,short-circuit,memory-reuse"}
            check_same(program.source, [program.inputs(n) for n in (1, 5)], fused, base_pipeline=FUSED)


# --------------------------------------------------------------------------------------
# The programs of the lit tests (the study's cases and the Futhark ports)
# --------------------------------------------------------------------------------------

LIT = ROOT / "tests" / "filecheck" / "passes"
LIT_FILES = [LIT / "short-circuit.mlir", *lit_files(*MEMORY_REUSE), LIT / "hoist-allocations.mlir"]
# (half of Futhark's ported programs by default: the lit tests check each one's blocks)
LIT_FILES += sample(sorted((LIT / "memory-block-merging").rglob("*.mlir")), 2)


def lit_programs():
    for path in LIT_FILES:
        for n, chunk in enumerate(path.read_text().split("\n// -----\n")):
            entries = re.findall(r"^func\.func @(\w+)\(", chunk, re.M)
            if entries:
                yield pytest.param(chunk, entries[-1], id=f"{path.relative_to(LIT)}:{n}")


@pytest.mark.parametrize("source, entry", list(lit_programs()))
def test_every_lit_program_gives_the_same_results(source, entry):
    if entry != "main":
        source = source.replace(f"@{entry}(", "@main(")
    types = soacc.compile(source, backend="numpy", pipeline="").entry("main").param_types
    args_list = []
    for n, flag in ((3, True), (4, False)):
        rng = np.random.default_rng(n)
        args = [argument(t, rng, n) for t in types]
        args_list.append([flag if a is True else a for a in args])
    check_same(source, args_list, level1=True)
