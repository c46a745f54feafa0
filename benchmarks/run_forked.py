"""One forked program run on the GPU, for compute-sanitizer (racecheck, synccheck):
benchmarks/forks' programs with forks, eagerly on streams and as a task graph.

    compute-sanitizer --tool racecheck python benchmarks/run_forked.py [chains|reductions] [--size N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    import soacc
    from soacc.tools.examples import load_examples, mismatch

    examples = {e.name: e for e in load_examples(HERE / "forks")}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program", choices=sorted(examples))
    parser.add_argument("--size", type=int, default=1024)
    options = parser.parse_args(argv)
    example = examples[options.program]
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"run_forked: error: no GPU: {why}", file=sys.stderr)
        return 2
    program = soacc.compile(example.program_path, backend="cuda", pipeline="soacc-pipeline{forks=true}")
    args = example.make_inputs(np.random.default_rng(0), options.size)
    # eagerly on streams (what the sanitizers look at), then as a task graph
    for graphs, eager_streams in ((False, True), (True, False)):
        program.task_graphs = graphs
        program.executor.memory.eager_fork_streams(eager_streams)
        for _ in range(3):
            why = mismatch(program.main(*args), example.reference(*args), example.rtol, example.atol)
            if why is not None:
                print(f"{example.name}: wrong result (task graphs {graphs}, eager streams {eager_streams}): {why}")
                return 1
    print(f"{example.name}: ok, eagerly on streams and as a task graph ({program.statistics.task_graph})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
