"""convert-fork-to-gpu on every example and benchmark program: after introduce-forks
(with its three optimisations) the pass finds a program order that schedules the
threads, or says why not; the program then still meets its NumPy definition on the
reference executor (its seeded scheduler runs the threads that remain), and the
threads left are exactly those with device work."""

from __future__ import annotations

import numpy as np
import pytest

import soacc
from soacc.dialects import fork
from soacc.lowering.convert_fork_to_gpu import _Schedule, does_device_work
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.tools.examples import mismatch

from tests.support.scripts import every_program

PROGRAMS = every_program("device_syncs", "memory", "forks")
FORKED = SoaccPipelinePass(forks=True).level2_stages()


@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_program_order_schedules_every_program_and_its_meaning_is_kept(example):
    module = parse_program(example.program_path.read_text())
    apply_pipeline(module, FORKED + ",convert-fork-to-gpu")
    for function in module.ops:
        if function.name == "func.func" and function.body.blocks:
            _Schedule(set()).check_block_ops(function.body.block)  # raises where a wait comes first
    threads = [op for op in module.walk() if isinstance(op, fork.ForkOp)]
    assert all(does_device_work(t) for t in threads)
    program = soacc.compile(module, backend="numpy", pipeline="")
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(1), min(size, 12))
    got = program.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    problem = mismatch(got, example.reference(*args), example.rtol, example.atol)
    assert problem is None, problem
