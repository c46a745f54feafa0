"""Why calls of a program do not replay as task graphs, with and without a pipeline
option (a diagnostic: it found fuse-transfers' packed arguments refused by every
capture). For each program named: the times of 12 calls in ms, captures, replays,
guard misses, the last call's copies, and each pipeline's refusals by key.

    python benchmarks/tools/why_not_graphs.py PROGRAM[,PROGRAM...] [--size N] [--pipeline TEXT]

PROGRAM is an example's or a device_syncs/memory benchmark program's name; the size is
its small size unless given; the pipeline compared with the default is
`soacc-pipeline{transfers=true}` unless given.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import soacc
from soacc.tools.examples import load_examples

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.support.scripts import benchmark_programs  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", help="comma-separated program names")
    parser.add_argument("--size", type=int, help="the input size (default: each program's small size)")
    parser.add_argument("--pipeline", default="soacc-pipeline{transfers=true}")
    options = parser.parse_args(argv)
    if options.size is not None and options.size < 0:
        parser.error("--size must not be negative")
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"why_not_graphs.py: no GPU: {why}", file=sys.stderr)
        return 2
    programs = [*load_examples(ROOT / "examples"), *benchmark_programs("device_syncs"), *benchmark_programs("memory")]
    wanted = set(options.programs.split(","))
    unknown = wanted - {p.name for p in programs}
    if unknown:
        parser.error(f"no program named {', '.join(sorted(unknown))}; there are {', '.join(sorted({p.name for p in programs}))}")
    for example in programs:
        if example.name not in wanted:
            continue
        size = options.size if options.size is not None else getattr(example.definition, "SMALL_SIZE", 7)
        args = example.make_inputs(np.random.default_rng(5), size)
        for pipeline in (None, options.pipeline):
            try:
                program = soacc.compile(example.program_path, backend="cuda", pipeline=pipeline)
            except soacc.SoaccError as error:
                print(f"why_not_graphs.py: {error}", file=sys.stderr)
                return 1
            times = []
            for _ in range(12):
                start = time.perf_counter()
                program.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
                times.append(round((time.perf_counter() - start) * 1e3, 2))
            graphs = program.executor.task_graphs
            print(f"{example.program_path.parent.name}/{example.name} size {size}, {pipeline or 'the default pipeline'}:")
            print(f"  ms: {times}")
            if graphs is None:
                print("  task graphs off (SOACC_TASK_GRAPHS=0, or no cuda-bindings)")
                continue
            print(f"  captures {graphs.captures}, replays {graphs.replays}, guard misses {graphs.guard_misses}; last call: {program.statistics.task_graph}")
            print(f"  copies: {program.statistics.as_dict()['copies']}")
            for key, why in {**graphs.unsupported, **graphs.forked_unsupported}.items():
                print(f"  refused {key}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
