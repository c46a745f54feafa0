"""Why calls of a program with fuse-transfers do not replay as graphs (a diagnostic)."""
import sys
from pathlib import Path

import numpy as np

import soacc
from soacc.tools.examples import load_examples

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.support.scripts import benchmark_programs  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
wanted = set(sys.argv[1].split(","))
programs = [*load_examples(ROOT / "examples"), *benchmark_programs("device_syncs"), *benchmark_programs("memory")]
for example in programs:
    if example.name not in wanted:
        continue
    size = int(sys.argv[2]) if len(sys.argv) > 2 else getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(5), size)
    for pipeline in (None, "soacc-pipeline{transfers=true}"):
        program = soacc.compile(example.program_path, backend="cuda", pipeline=pipeline)
        import time

        times = []
        for _ in range(12):
            start = time.perf_counter()
            program.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
            times.append(round((time.perf_counter() - start) * 1e3, 2))
        graphs = program.executor.task_graphs
        print(times, graphs.captures, graphs.replays, graphs.guard_misses, program.statistics.as_dict()["copies"])
        print(example.program_path.parent.name, example.name, pipeline, program.statistics.task_graph, dict(graphs.unsupported), dict(graphs.forked_unsupported))
