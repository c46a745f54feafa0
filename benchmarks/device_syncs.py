"""reduce-device-syncs and merge-gpu-bodies, off and on (issue 6's table).

For each program of benchmarks/device_syncs/ (a .mlir, or an example's program named by
PROGRAM, with a .py giving its inputs, `make_inputs(rng, size)`, and its NumPy
definition, `reference(*args)`): the synchronous
device-to-host reads of one run (and the cut's bound on them: the analysis's read points
counted over the same run on the CPU reference executor), the scalar host-to-device
writes, the host-to-device transfers (array literals built on the host are one each, the
arguments too), the kernel launches, and the median run time over `--repeat` runs, with
the passes off and on; then the speedup (time off / time on) and its arithmetic mean
over the programs (as the study averages its per-program ratios). As each round runs off
and on back to back, the table also gives the median of the rounds' off/on ratios with
a distribution-free 95% interval for it, and says which programs that interval shows
slower than 0.98x (the issue's "no program slower by more than 2%"), which it shows
not to be, and which it leaves undecided. The run time is the
whole call, the arguments' upload and the results' download included (the study's
`futhark bench` leaves them out); on the GPU the last column is the device time of the
call's kernels (one profiled run), which shows what the passes change on the device.
Results are checked against the NumPy definition, off and on.

    python benchmarks/device_syncs.py                         # on the GPU (PyCUDA)
    python benchmarks/device_syncs.py --backend numpy --small # on the CPU, small sizes

`--size N` runs every program at size N, `--repeat` sets the timed runs (default 10),
`--no-bound` skips counting the bound (a level-1 run on the CPU), and names pick
programs. Prints the table; asserts nothing (a wrong result is reported in its row).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from soacc.pipeline import SoaccPipelinePass

sys.path.insert(0, str(Path(__file__).resolve().parent))  # a sibling module, however this script is loaded
from paired_timing import SLOWDOWN_LIMIT, paired_summary, slowdown_verdict  # noqa: E402

ROOT = Path(__file__).resolve().parent
PROGRAMS = ROOT / "device_syncs"

PIPELINES = {
    # (off, on): the backend's own pipeline without and with the two passes; on the
    # reference executor, soacc-pipeline's stages down to level 2 (fusion included)
    "cuda": ("soacc-pipeline{syncs=false}", "soacc-pipeline"),
    "numpy": (
        SoaccPipelinePass(syncs=False).level2_stages(),
        SoaccPipelinePass().level2_stages(),
    ),
}


def cut_bound(source: str, args) -> int:
    """The reads reduce-device-syncs leaves in one run of @main: its cut's read points,
    counted over a run of the program it analyses (after the stages of soacc-pipeline
    before it) on the reference executor."""
    from xdsl.dialects import func

    from soacc.passes.analysis.device_loops import with_device_loops
    from soacc.passes.analysis.migration_table import analyse_module
    from soacc.passes.reduce_device_syncs import rotate_host_loops
    from soacc.runtime.execution_counts import count_executions
    from soacc.program import apply_pipeline, parse_program

    module = parse_program(source)
    stages = SoaccPipelinePass().stages().split(",")
    apply_pipeline(module, ",".join(stages[: stages.index("reduce-device-syncs")]))
    for f in module.ops:
        if isinstance(f, func.FuncOp) and f.body.blocks:
            rotate_host_loops(f)
    points = [p for table in analyse_module(module).values() for p in with_device_loops(table).read_points()]
    return count_executions(module, "main", args, points)


def measure(programs, args, repeat: int) -> list[tuple[object, dict, list[float], float | None]]:
    """For each program: the result and statistics of one run, the median time of
    `repeat` runs after a warm-up, and (on the GPU) the device time of all its kernels
    in one more run. The programs' timed runs alternate, so that drift in the
    machine's speed (another process, clocks) falls on all of them alike, and their
    order flips every round (off, on, then on, off): whichever ran second was slower
    by up to 7% when the order was fixed (identical programs, pathfinder, measured
    0.93-1.00x), so no program may always go second."""
    firsts = []
    for program in programs:
        result = program.main(*args)
        firsts.append((result, program.statistics.as_dict()))
    times: list[list[float]] = [[] for _ in programs]
    for round_ in range(repeat):
        pairs = list(zip(programs, times))
        for program, samples in pairs if round_ % 2 == 0 else reversed(pairs):
            start = time.perf_counter()
            program.main(*args)
            samples.append(time.perf_counter() - start)
    measured = []
    for program, (result, stats), samples in zip(programs, firsts, times):
        kernels = None
        if program.backend == "cuda":
            program.profiling = True
            program.main(*args)
            program.profiling = False
            kernels = sum((program.statistics.kernel_time_s or {}).values())
        measured.append((result, stats, samples, kernels))
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="programs to run (default: all)")
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size")
    parser.add_argument("--size", type=int, help="run every program at this size")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-bound", action="store_true", help="do not count the cut's bound")
    options = parser.parse_args(argv)
    if options.repeat < 1:
        parser.error(f"--repeat must be at least 1 (got {options.repeat})")

    import soacc
    from soacc.tools.examples import load_examples, mismatch

    sys.path.insert(0, str(PROGRAMS))  # the definitions share helpers (crypt uses keys)
    programs = load_examples(PROGRAMS)
    unknown = set(options.names) - {p.name for p in programs}
    if unknown:
        parser.error(f"no program named {', '.join(sorted(unknown))} (there are {', '.join(p.name for p in programs)})")
    programs = [p for p in programs if not options.names or p.name in options.names]
    if options.backend == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            print(f"device_syncs: error: no GPU: {why} (use --backend numpy --small)", file=sys.stderr)
            return 2
    off_pipeline, on_pipeline = PIPELINES[options.backend]

    header = (
        f"{'program':16} {'size':>9}  {'reads off>on':>13} {'bound':>6}  {'writes':>7}  {'h2d':>9}  "
        f"{'launches':>11}  {'time off':>10} {'time on':>10} {'speedup':>8} {'paired, 95% interval':>22}  "
        f"{'kernels off>on':>17}  result"
    )
    print(
        f"backend {options.backend}; median of {options.repeat} runs after a warm-up, off and on alternating "
        "(in either order); paired: the median of the rounds' off/on ratios and its 95% interval"
    )
    print(header)
    print("-" * len(header))
    speedups = []
    intervals = []
    for p in programs:
        definition = p.definition
        size = options.size if options.size is not None else (
            getattr(definition, "SMALL_SIZE", 10) if options.small else p.default_size
        )
        args = p.make_inputs(np.random.default_rng(options.seed), size)
        expected = p.reference(*args)
        off = soacc.compile(p.program_path, backend=options.backend, pipeline=off_pipeline)
        on = soacc.compile(p.program_path, backend=options.backend, pipeline=on_pipeline)
        (got_off, s_off, t_off, k_off), (got_on, s_on, t_on, k_on) = measure([off, on], args, options.repeat)
        problems = [
            f"{which}: {why}"
            for which, got in (("off", got_off), ("on", got_on))
            if (why := mismatch(got, expected, p.rtol, p.atol)) is not None
        ]
        bound = "-" if options.no_bound else str(cut_bound(p.program_path.read_text(), args))
        if bound != "-" and int(bound) != s_on["sync_reads"]:
            problems.append(f"{s_on['sync_reads']} reads, not the bound {bound}")
        time_off, time_on = statistics.median(t_off), statistics.median(t_on)
        speedup = time_off / time_on
        speedups.append((speedup, p.name))
        median, low, high = paired_summary(t_off, t_on)
        intervals.append((p.name, low, high))
        paired = f"{median:.2f}x [{low:.2f}, {high:.2f}]"

        def pair(key):
            a, b = s_off[key], s_on[key]
            return f"{a}>{b}"

        kernel_times = "-" if k_off is None else f"{k_off * 1e3:.2f}>{k_on * 1e3:.2f}ms"
        h2d = f"{s_off['copies']['host->device']['count']}>{s_on['copies']['host->device']['count']}"
        print(
            f"{p.name:16} {size:>9}  {pair('sync_reads'):>13} {bound:>6}  {pair('scalar_writes'):>7}  {h2d:>9}  "
            f"{pair('kernel_launches'):>11}  {time_off * 1e3:>8.2f}ms {time_on * 1e3:>8.2f}ms {speedup:>7.2f}x "
            f"{paired:>22}  {kernel_times:>17}  {'; '.join(problems) or 'ok'}"
        )
    if speedups:
        mean = sum(s for s, _ in speedups) / len(speedups)
        slowest = min(speedups)
        print(
            f"\nmean speedup {mean:.2f}x (arithmetic mean of the {len(speedups)} ratios); "
            f"least: {slowest[1]} {slowest[0]:.2f}x"
        )
        print(slowdown_verdict(intervals, SLOWDOWN_LIMIT, options.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
