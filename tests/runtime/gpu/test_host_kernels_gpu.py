"""Kernels on the host with the cuda backend (marker gpu): every example and benchmark
program, with all its kernels and with a seeded random subset on the host, alone, with
fuse-transfers and with forks (a host kernel in a thread runs where the host issues
it, after the synchronous downloads it reads), gives the reference executor's results on the GPU, call after
call (a call with a host kernel is never a task graph: it runs eagerly); and the
study's graphs (benchmarks/transfer_graphs.py) with their CPU kernels on the host and
their transfers fused. Skipped where there is no GPU."""

from __future__ import annotations


import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import as_tuple, mismatch

from tests.passes.test_place_kernels import copies, kernel_names_of, random_placement
from tests.support.scripts import every_program, load_benchmark

pytestmark = pytest.mark.gpu

PROGRAMS = every_program("device_syncs", "memory")
LEVEL2 = SoaccPipelinePass().level2_stages()


@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_programs_with_host_kernels_on_the_gpu(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(7), size)
    want = soacc.compile(example.program_path, backend="numpy", pipeline=LEVEL2).main(*copies(args))
    placements = [("all",), random_placement(kernel_names_of(example.program_path.read_text()), example.name)]
    for host in placements:
        for options in ({}, {"transfers": True}, {"forks": True}):
            pipeline = str(SoaccPipelinePass(host_kernels=host, **options).pipeline_pass_spec())
            program = soacc.compile(example.program_path, backend="cuda", pipeline=pipeline)
            for _ in range(3):
                why = mismatch(program.main(*copies(args)), want, rtol=1e-5, atol=1e-6)
                assert why is None, f"host={host} {options}: {why}"
            if program.statistics.host_kernels:
                assert program.statistics.task_graph is None


GRAPHS = load_benchmark("transfer_graphs.py").all_graphs()


@pytest.mark.parametrize("graph", GRAPHS, ids=[g.name for g in GRAPHS])
def test_the_studys_graphs_on_the_gpu(graph):
    source = graph.program()
    args = [np.random.default_rng(i).random(3000, dtype=np.float32) for i, _ in enumerate(graph.entries)]
    host = graph.host_kernels
    want = soacc.compile(source, backend="numpy", pipeline=SoaccPipelinePass(fusion=False, host_kernels=host).level2_stages()).main(*args)
    fused = SoaccPipelinePass(fusion=False, host_kernels=host, transfers=True).stages()
    pipelines = [
        SoaccPipelinePass(fusion=False, host_kernels=host).stages(),
        fused,
        fused.replace("fuse-transfers", "fuse-transfers{mode=tight early-downloads=true}"),
    ]
    for pipeline in pipelines:
        program = soacc.compile(source, backend="cuda", pipeline=pipeline)
        for _ in range(3):
            got = program.main(*args)
            for g, w in zip(as_tuple(got), as_tuple(want), strict=True):
                np.testing.assert_allclose(g, w, rtol=1e-5)
