"""forks: task parallelism and task graphs on the GPU (issue 18), the study's question
(its RQ4: how much faster?) answered on real programs.

Every program is compiled four ways and timed in the same run, the configurations
alternating round by round (paired_timing.py):

- `sequential`: soacc-pipeline, task graphs off: one stream, every launch from Python;
- `forks`: soacc-pipeline{forks=true}, task graphs off, as it runs by default: every
  thread's kernels on the call's one stream, in program order (what forks cost eagerly);
- `streams`: the same with each thread's kernels on a stream of its own
  (`SOACC_FORK_STREAMS=always`), launched from Python;
- `graph`: soacc-pipeline, task graphs on: the call's kernels as one CUDA graph;
- `graph+forks`: both: the threads' streams become the graph's parallel branches;
- `default`: soacc-pipeline as it is by default: task graphs, and the function's forked
  copy captured beside it, measured against it and kept only where faster.

The programs: benchmarks/forks/ (independent chains of small kernels, independent
reductions) and, with `--peers`, the peer benchmark's iterative programs. Each call is
host in, host out; every configuration's result is checked against the program's NumPy
definition. Ratios are sequential / configuration (above 1: faster), with the 95%
interval of the rounds' own ratios. Not a test: nothing about times is asserted.

    python benchmarks/forks.py [--repeat N] [--programs a,b] [--peers] [--configurations a,b] [--overlap] [--json FILE]
    python benchmarks/forks.py --backend numpy --small   # the harness on the CPU (no graphs)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "device_syncs"))  # crypt's definition imports keys

from paired_timing import alternating_rounds, paired_summary  # noqa: E402
from report_files import write_report  # noqa: E402

from soacc.runtime.errors import SoaccError  # noqa: E402
from soacc.tools.examples import as_tuple, load_examples, mismatch  # noqa: E402

CONFIGURATIONS = {
    "sequential": (False, False, False, False),
    "forks": (True, False, False, False),
    "streams": (True, False, True, False),
    "graph": (False, True, False, False),
    "graph+forks": (True, True, False, False),
    "default": (False, True, False, True),
}
"""name -> (forks, task graphs, fork streams in eager calls, forked copies)"""

WARM_UP_CALLS = 10
"""Calls before the timed rounds: the first runs eagerly, the second captures, and a
forked copy's contest (task_graphs.CONTEST_ROUNDS) is decided within the rest."""

PEER_PROGRAMS = {
    "gauss_jordan": "examples", "srad": "benchmarks/device_syncs", "lud": "benchmarks/memory",
    "kmeans": "examples", "crypt": "benchmarks/device_syncs", "convergence": "benchmarks/device_syncs",
    "convergence_loop": "examples", "bfs": "benchmarks/memory",
}
"""The peer benchmark's iterative programs (benchmarks/peers.py), at their own sizes."""


def programs(with_peers: bool) -> list:
    found = load_examples(HERE / "forks")
    if with_peers:
        for name, folder in PEER_PROGRAMS.items():
            found += [e for e in load_examples(HERE.parent / folder) if e.name == name]
    return found


def compile_all(example, backend: str, configurations: list[str]) -> dict:
    import soacc
    from soacc.pipeline import SoaccPipelinePass

    compiled = {}
    for name in configurations:
        forks, graphs, eager_streams, copies = CONFIGURATIONS[name]
        if backend == "cuda":
            pipeline = f"soacc-pipeline{{forks={str(forks).lower()} forked-copies={str(copies).lower()}}}"
        else:  # the reference executor runs level 2, its threads under its own scheduler
            pipeline = SoaccPipelinePass(forks=forks).level2_stages() + (",convert-fork-to-gpu" if forks else "")
        program = soacc.compile(example.program_path, backend=backend, pipeline=pipeline)
        if program.backend == "cuda":
            program.task_graphs = graphs
            program.executor.memory.eager_fork_streams(eager_streams)
        compiled[name] = program
    return compiled


OVERLAP_LAUNCHES = 50
"""Back-to-back launches of a graph whose mean is its replay time."""


def graph_overlap(program) -> dict | None:
    """The graph the program kept (after its warm-up calls): its structure and its
    replay time alone; None where the call is no graph."""
    graphs = getattr(program.executor, "task_graphs", None)
    entries = list(graphs.graphs.values()) if graphs is not None else []
    if len(entries) != 1 or not hasattr(entries[0], "graph"):
        return None
    graph, memory = entries[0].graph, program.executor.memory
    structure = graph.structure()
    memory.synchronize()
    started = time.perf_counter()
    for _ in range(OVERLAP_LAUNCHES):
        graph.launch()
    memory.synchronize()
    replay = (time.perf_counter() - started) / OVERLAP_LAUNCHES
    in_flight = structure["kernels"] / max(structure["longest_kernel_chain"], 1)
    return {**structure, "replay_s": replay, "kernels_in_flight": in_flight}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--programs", help="comma-separated names (default: all)")
    parser.add_argument("--peers", action="store_true", help="also the peer benchmark's iterative programs")
    parser.add_argument("--configurations", help=f"comma-separated, sequential first (default: all of {', '.join(CONFIGURATIONS)})")
    parser.add_argument(
        "--overlap", action="store_true",
        help="also each graph's own replay time (the graph alone, launched back to back), its kernels in flight "
        "and the overlap achieved (the graph without forks' replay time over each one's)",
    )
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    if options.json is not None and not options.json.parent.is_dir():
        parser.error(f"--json: no folder {options.json.parent}")
    if options.backend == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            print(f"forks: error: no GPU: {why}", file=sys.stderr)
            return 2
    # (the reference executor runs threads as threads: no streams, no graphs)
    configurations = list(CONFIGURATIONS) if options.backend == "cuda" else ["sequential", "forks"]
    if options.configurations:
        wanted = options.configurations.split(",")
        unknown = [c for c in wanted if c not in configurations]
        if unknown or wanted[0] != "sequential":
            parser.error(f"--configurations: sequential first, then some of {', '.join(configurations[1:])}")
        configurations = wanted
    chosen = programs(options.peers)
    if options.programs:
        names = options.programs.split(",")
        unknown = set(names) - {e.name for e in chosen}
        if unknown:
            parser.error(f"no program {', '.join(sorted(unknown))}; there are {', '.join(e.name for e in chosen)}")
        chosen = [e for e in chosen if e.name in names]

    report: dict = {"backend": options.backend, "repeat": options.repeat, "programs": {}}
    header = f"{'program':18} {'size':>9} " + " ".join(f"{c:>12}" for c in configurations) + "  " + "  ".join(
        f"{'seq/' + c:>22}" for c in configurations[1:]
    )
    lines = [header, "-" * len(header)]
    overlap_lines = [
        f"{'program':18} {'graph':12} {'nodes':>6} {'kernels':>8} {'chain':>6} {'in flight':>10} "
        f"{'replay':>12} {'graph/this':>11}"
    ]
    failed = False
    for example in chosen:
        size = getattr(example.definition, "SMALL_SIZE", 8) if options.small else example.default_size
        args = example.make_inputs(np.random.default_rng(0), size)
        expected = example.reference(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        print(f"{example.name} ...", file=sys.stderr, flush=True)
        samples: dict[str, list[float]] = {c: [] for c in configurations}
        status: dict[str, str] = {}
        try:
            compiled = compile_all(example, options.backend, configurations)
        except SoaccError as error:  # the row says why; the other programs still run
            compiled, failed = {}, True
            status = {c: f"ERROR: {error}".splitlines()[0] for c in configurations}
        for name, program in compiled.items():
            try:
                for _ in range(WARM_UP_CALLS):
                    got = as_tuple(program.main(*args))
            except SoaccError as error:
                status[name], failed = f"ERROR: {error}".splitlines()[0], True
                continue
            why = mismatch(got, expected, example.rtol, example.atol)
            status[name] = "ok" if why is None else f"WRONG: {why}"
            failed |= why is not None
        timed = [c for c in configurations if status.get(c) == "ok"]
        if "sequential" in timed:
            samples |= alternating_rounds({c: compiled[c] for c in timed}, args, options.repeat)
        overlap: dict[str, dict] = {}
        if options.overlap and options.backend == "cuda":
            for c in timed:
                measured = graph_overlap(compiled[c]) if CONFIGURATIONS[c][1] else None
                if measured is not None:
                    overlap[c] = measured
            for c, measured in overlap.items():
                # the overlap achieved: the graph without forks' replay over this one's
                gain = overlap["graph"]["replay_s"] / measured["replay_s"] if "graph" in overlap else float("nan")
                measured["gain_over_graph"] = gain
                overlap_lines.append(
                    f"{example.name:18} {c:12} {measured['nodes']:>6} {measured['kernels']:>8} "
                    f"{measured['longest_kernel_chain']:>6} {measured['kernels_in_flight']:>10.2f} "
                    f"{measured['replay_s'] * 1e3:>10.3f}ms {gain:>10.2f}x"
                )
        medians = {c: float(np.median(s)) if s else float("nan") for c, s in samples.items()}
        ratios = {c: paired_summary(samples["sequential"], samples[c]) if samples[c] else None for c in configurations[1:]}
        graph_states = {c: compiled[c].statistics.task_graph for c in compiled}
        kept = {
            c: list(graphs.chosen.values())
            for c, p in compiled.items()
            if (graphs := getattr(p.executor, "task_graphs", None)) is not None and graphs.chosen
        }
        report["programs"][example.name] = {
            "size": size, "status": status, "median_s": medians, "samples_s": samples,
            "ratio_to_sequential": ratios, "task_graph": graph_states, "forked_copy_contests": kept,
            "graph_overlap": overlap,
        }
        cells = " ".join(f"{medians[c] * 1e3:>10.3f}ms" for c in configurations)
        ratio_cells = "  ".join(
            f"{r[0]:>6.2f}x [{r[1]:.2f},{r[2]:.2f}]".rjust(22) if r else f"{'-':>22}" for r in ratios.values()
        )
        notes = "; ".join([f"{c}: {s}" for c, s in status.items() if s != "ok"] + [f"{c} kept: {', '.join(k)}" for c, k in kept.items()])
        lines.append(f"{example.name:18} {size:>9} {cells}  {ratio_cells}  {notes}")
        print(lines[-1], file=sys.stderr, flush=True)  # (progress: a long run shows each row as it comes)
    print(f"backend {options.backend}; median of {options.repeat} paired rounds; ratios sequential/configuration (above 1: faster)")
    print("\n".join(lines))
    if len(overlap_lines) > 1:
        print("\neach graph alone: its nodes, kernel nodes, longest chain of kernels, kernels in flight "
              f"(kernels / chain), its replay time ({OVERLAP_LAUNCHES} launches back to back, no uploads or "
              "downloads), and the overlap achieved: the graph without forks' replay time over this one's")
        print("\n".join(overlap_lines))
    if options.json is not None and not write_report(options.json, report, "forks"):
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
