"""Differential test through every prefix of every pipeline the CPU runs: seeded random
programs of the "nested" family (written apart from the programs the passes were
built with) run as written (level 1, unoptimised), then after each prefix of the
level-2 pipelines of soacc-pipeline's switches (fusion and device syncs on and off;
memory block merging off is a prefix of on), and of the default one without its
leading canonicalize,cse, on the reference executor (level 3 runs its kernels on a GPU).

Every prefix must give the results of the program as written, bit for bit, or fail
with an ExecutionError exactly where the program as written fails: a pass may neither
lose a run-time error nor add one, nor end in any other exception. A pass that refuses
a program (a located ProgramError) is a failure too, except for the known class of
convert-soac-to-mem's refusals of valid programs, which is another branch's work: those
seeds are expected failures, with the reason. Prefixes share their passes (each pass
runs once per distinct prefix), so the cost is one pass and one run per prefix."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.program import Program, apply_pipeline, argument_size_checks, parse_program, parse_pipeline
from soacc.tools.examples import mismatch

from tests.support.marks import sweep
from tests.support.random_programs import random_program

SIZES = (0, 1, 4)


def pipelines() -> list[tuple[str, ...]]:
    """The level-2 pipelines of soacc-pipeline's switches: fusion and device syncs each
    on and off (with memory block merging; memory=false is a prefix of these), and the
    default one also without canonicalize,cse in front (what the later passes must take
    as written)."""
    found = []
    for fusion in (True, False):
        for syncs in (True, False):
            found.append(tuple(p.name for p in SoaccPipelinePass(fusion=fusion, syncs=syncs).level2_passes()))
    found.append(found[0][2:])
    return found


PIPELINES = pipelines()


@dataclass
class Outcome:
    """What one prefix did with one input: results, or the class of its failure."""

    results: tuple | None = None
    failure: str | None = None
    message: str = ""


def run_one(program: Program, args: tuple) -> Outcome:
    args = tuple(np.copy(a) if isinstance(a, np.ndarray) else a for a in args)
    try:
        results = program.main(*args)
    except soacc.ExecutionError as error:
        return Outcome(failure="ExecutionError", message=str(error))
    except Exception as error:  # noqa: BLE001 - any other exception is a finding
        return Outcome(failure=type(error).__name__, message=str(error))
    return Outcome(results=results if isinstance(results, tuple) else (results,))


def findings(source: str, inputs: dict[int, tuple]) -> list[str]:
    """Every way a prefix differs from the program as written on `inputs` (empty: none)."""
    module = parse_program(source)
    checks = argument_size_checks(module, None)
    as_written = Program(module.clone(), "numpy", checks)
    expected = {n: run_one(as_written, args) for n, args in inputs.items()}
    found: list[str] = []
    modules: dict[tuple[str, ...], ModuleOp | None] = {(): module}  # None: a pass failed
    texts: dict[tuple[str, ...], str] = {(): str(module)}
    for pipeline in PIPELINES:
        for length in range(1, len(pipeline) + 1):
            prefix = pipeline[:length]
            if prefix in modules:
                continue
            before = modules[prefix[:-1]]
            if before is None:
                modules[prefix] = None
                continue
            after = before.clone()
            try:
                apply_pipeline(after, parse_pipeline(prefix[-1]))
            except soacc.ProgramError as error:  # a refusal, or invalid IR a pass made
                found.append(f"{','.join(prefix)}: ProgramError: {str(error).splitlines()[0]}")
                modules[prefix] = None
                continue
            except Exception as error:  # noqa: BLE001
                found.append(f"{','.join(prefix)}: {type(error).__name__} in the pass: {str(error).splitlines()[0] if str(error) else ''}")
                modules[prefix] = None
                continue
            modules[prefix] = after
            texts[prefix] = str(after)
            if texts[prefix] == texts[prefix[:-1]]:
                continue  # the pass changed nothing: the program ran as it is already
            program = Program(after, "numpy", checks)
            for n, args in inputs.items():
                got, want = run_one(program, args), expected[n]
                why = compare(got, want)
                if why:
                    found.append(f"{','.join(prefix)} (n={n}): {why}")
    return found


def compare(got: Outcome, want: Outcome) -> str | None:
    if want.failure is not None and want.failure != "ExecutionError":
        return f"as written: {want.failure}: {want.message}"
    if got.failure is None and want.failure is None:
        differs = mismatch(got.results, want.results, 0.0, 0.0)
        return f"results differ: {differs}" if differs else None
    if got.failure == want.failure:
        return None
    if want.failure is None:
        return f"{got.failure} where the program as written runs: {got.message.splitlines()[0]}"
    if got.failure is None:
        return f"lost the run-time error: {want.message.splitlines()[0]}"
    return f"{got.failure} where the program as written has an ExecutionError: {got.message.splitlines()[0]}"


def check_seed(seed: int) -> None:
    program = random_program("nested", seed)
    inputs = {n: program.inputs(n) for n in SIZES}
    as_written = soacc.compile(program.source, backend="numpy", pipeline="")
    for n, args in inputs.items():
        outcome = run_one(as_written, args)
        # the generator's promise: a deliberate error fails wherever there are rows
        # (at host level also where there are none), and a program without one runs
        if not program.info["error"]:
            assert outcome.failure is None, f"seed {seed} as written, n={n}: {outcome.failure}: {outcome.message}"
        elif n > 0:
            assert outcome.failure == "ExecutionError", f"seed {seed} as written, n={n}: {outcome.failure or 'runs'}"
    found = findings(program.source, inputs)
    assert not found, f"seed {seed} ({program.info['error'] or 'no deliberate error'}):\n" + "\n".join(found[:12])


# Seeds whose programs meet a known failure: expected to fail (not strictly: they pass once
# it is fixed), never hidden. None now: seed 9's refusal by convert-soac-to-mem (a row's
# size computed from soac.size of a row the lambda made) is fixed.
KNOWN: dict[int, str] = {}

FAST_SEEDS = range(6)  # about 2.5 s of CPU a seed on the development machine
SLOW_BATCHES = [range(6, 12), range(12, 18)][: sweep(1, 2)]


def seed_param(seed: int):
    marks = [pytest.mark.xfail(strict=False, reason=KNOWN[seed])] if seed in KNOWN else []
    return pytest.param(seed, marks=marks, id=f"seed{seed}")


@pytest.mark.parametrize("seed", [seed_param(s) for s in FAST_SEEDS])
def test_every_prefix_agrees_with_the_program_as_written(seed):
    check_seed(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [seed_param(s) for batch in SLOW_BATCHES for s in batch])
def test_every_prefix_agrees_on_more_programs(seed):
    check_seed(seed)
