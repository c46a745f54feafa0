"""Memory block merging (issue 7): what hoist-allocations, short-circuit and
memory-reuse save, program by program.

    python benchmarks/memory.py                          # on the GPU, full sizes
    python benchmarks/memory.py --backend numpy --small  # on the CPU reference executor
    ... [--no-fusion] [--no-examples] [--repeat R] [names...]

Programs: the ports of futhark-benchmarks in benchmarks/memory/ (each a .mlir with a
.py beside it: inputs, a NumPy reference, DEFAULT_SIZE and SMALL_SIZE) and every
example in examples/. Each runs in three configurations:

  off     the passes left out (`soacc-pipeline{memory=false}`)
  on      the default pipeline (memory-reuse by interference-graph colouring)
  linear  the same with memory-reuse{strategy=linear-scan} (the study's algorithm)

all with soac-fusion, as in the default pipeline, or all without (`--no-fusion`).

and the table gives, per configuration: the peak of live device bytes, the number of
device allocations, of device-to-device copies, the bytes allocated in all, the best
run time of --repeat rounds (after one untimed run whose results are checked against
the reference; each round runs every configuration once, in alternating order), the
median of the rounds' off/this ratios with its 95% interval (paired_timing.py; above
1x this configuration is faster), on the GPU the device time of the call's kernels (one
more run, profiled), and whether the results agree with the reference. The reduction
in % is against `off`. A last line says which programs `on` is shown slower than 0.98x
(the issue's "no program slower by more than 2%"), or leaves undecided.

Blocks are freed at their last use by both backends, which is stricter than the
study's baseline (Futhark of 2017 kept a block until the end of the scope that made
it). The table also gives the peak under that scope-end model (`scope peak`), the
quantity the study's reductions are measured in: one more run with the blocks freed
when their scope ends (on the GPU, host code emitted that way).

Not a test: nothing is asserted but the results. Progress to stderr, the table to
stdout; the exit status is 1 when a result disagrees with its reference.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.runtime.errors import SoaccError
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import Example, as_tuple, load_examples, mismatch

sys.path.insert(0, str(Path(__file__).resolve().parent))  # a sibling module, however this script is loaded
from paired_timing import SLOWDOWN_LIMIT, paired_summary, slowdown_verdict  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "benchmarks" / "memory"
EXAMPLES = ROOT / "examples"

def pipelines(backend: str, fusion: bool = True) -> dict[str, str]:
    """The three configurations' pipelines; the reference executor runs level 2."""
    def stages(p: SoaccPipelinePass) -> str:
        return p.level2_stages() if backend == "numpy" else p.stages()

    on = stages(SoaccPipelinePass(fusion=fusion))
    return {
        "off": stages(SoaccPipelinePass(fusion=fusion, memory=False)),
        "on": on,
        "linear": on.replace("memory-reuse", "memory-reuse{strategy=linear-scan}"),
    }


@dataclass
class Measurement:
    """One configuration of one program: counts from its first run, its timed runs."""

    peak: int
    allocations: int
    copies: int
    allocated: int
    samples: list[float]
    """The timed runs, one per round."""
    kernel_seconds: float | None
    scope_peak: int | None
    check: str

    @property
    def seconds(self) -> float:
        return min(self.samples, default=float("nan"))

    def paired(self, baseline: Measurement) -> tuple[float, float, float] | None:
        """The median of the rounds' baseline/this time ratios and its 95% interval
        (above 1: this configuration is faster)."""
        return paired_summary(baseline.samples, self.samples)


def measure(example: Example, pipelines: dict[str, str], backend: str, size: int, repeat: int) -> dict[str, Measurement | SoaccError]:
    """Each configuration's counts (of its first run, whose results are checked), its
    `repeat` timed runs, the configurations' runs alternating (their order flipped every
    round) so that drift in the machine's speed falls on all alike, and on the GPU the device time of its kernels
    (one more run, profiled); a configuration that does not compile gives its error."""
    args = example.make_inputs(np.random.default_rng(0), size)
    programs: dict[str, soacc.Program] = {}
    measured: dict[str, Measurement | SoaccError] = {}
    for config, pipeline in pipelines.items():
        print(f"{example.name} {config} ...", file=sys.stderr, flush=True)
        try:
            program = soacc.compile(example.program_path, backend=backend, pipeline=pipeline)
            got = program.main(*args)
        except SoaccError as error:
            measured[config] = error
            continue
        why = mismatch(got, example.reference(*args), example.rtol, example.atol)
        statistics = program.statistics
        device = statistics.space("device")
        programs[config] = program
        measured[config] = Measurement(
            peak=device.peak_bytes,
            allocations=device.allocations,
            copies=statistics.copies["device->device"].count,
            allocated=device.bytes_allocated,
            samples=[],
            kernel_seconds=None,
            scope_peak=None,
            check="ok" if why is None else "MISMATCH: " + why,
        )
    for round_ in range(repeat):
        order = list(programs.items())
        for config, program in order if round_ % 2 == 0 else reversed(order):  # (no config always last)
            started = time.perf_counter()
            as_tuple(program.main(*args))
            measured[config].samples.append(time.perf_counter() - started)
    for config, program in programs.items():
        m = measured[config]
        if backend == "cuda":
            from soacc.backends import cuda_executor

            program.profiling = True
            program.main(*args)
            program.profiling = False
            m.kernel_seconds = sum((program.statistics.kernel_time_s or {}).values())
            scoped = cuda_executor(program.module, free_at_last_use=False)
        else:
            scoped = ReferenceExecutor(program.module, free_at_last_use=False)
        scoped.call("main", program.entry("main").check_arguments(args))
        m.scope_peak = scoped.last_statistics.space("device").peak_bytes
    return measured


def reduction(before: int | None, after: int | None) -> str:
    if before is None or after is None:
        return ""
    return f"{100.0 * (before - after) / before:+.1f}%" if before else "0.0%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="cuda", choices=["cuda", "numpy"])
    parser.add_argument("--small", action="store_true", help="each program's SMALL_SIZE")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds (the best time is shown; 0: counts only)")
    parser.add_argument("--no-examples", action="store_true", help="only benchmarks/memory/")
    parser.add_argument("--no-fusion", action="store_true", help="soacc-pipeline{fusion=false} in every configuration")
    parser.add_argument("names", nargs="*", help="only these programs")
    options = parser.parse_args(argv)
    if options.repeat < 0:
        parser.error(f"--repeat must be 0 (counts only) or more (got {options.repeat})")

    programs = load_examples(PROGRAMS) + ([] if options.no_examples else load_examples(EXAMPLES))
    if options.names:
        unknown = set(options.names) - {p.name for p in programs}
        if unknown:
            parser.error(f"no program named {', '.join(sorted(unknown))}")
        programs = [p for p in programs if p.name in options.names]
    configurations = pipelines(options.backend, fusion=not options.no_fusion)

    header = (
        f"{'program':18} {'size':>6} {'config':6} {'peak B':>11} {'peak':>7} "
        f"{'scope peak B':>12} {'scope':>7} {'allocs':>6} {'copies':>6} "
        f"{'allocated B':>12} {'time ms':>9} {'vs off, 95% interval':>21} {'kernels ms':>10}  check"
    )
    print(header)
    print("-" * len(header))
    failures = 0
    reductions: dict[str, list[float]] = {name: [] for name in configurations}
    scope_reductions: dict[str, list[float]] = {name: [] for name in configurations}
    intervals: list[tuple[str, float, float]] = []
    for program in programs:
        size = getattr(program.definition, "SMALL_SIZE" if options.small else "DEFAULT_SIZE", None)
        size = size if size is not None else program.default_size
        baseline: Measurement | None = None
        for config, m in measure(program, configurations, options.backend, size, options.repeat).items():
            if isinstance(m, SoaccError):
                # (a program the passes leave unlowerable is a failure; one that does
                # not lower without them either is only reported)
                failures += config != "off"
                print(f"{program.name:18} {size:>6} {config:6} ERROR: {str(m).splitlines()[0]}")
                continue
            if config == "off":
                baseline = m
            failures += m.check != "ok"
            if baseline is not None and baseline.peak:
                reductions[config].append((baseline.peak - m.peak) / baseline.peak)
            if baseline is not None and baseline.scope_peak and m.scope_peak is not None:
                scope_reductions[config].append((baseline.scope_peak - m.scope_peak) / baseline.scope_peak)
            scope = "" if m.scope_peak is None else str(m.scope_peak)
            kernels = "-" if m.kernel_seconds is None else f"{m.kernel_seconds * 1e3:.2f}"
            seconds = f"{m.seconds * 1e3:.2f}" if m.samples else "-"
            paired = m.paired(baseline) if baseline is not None and config != "off" else None
            versus = "" if paired is None else f"{paired[0]:.2f}x [{paired[1]:.2f}, {paired[2]:.2f}]"
            if paired is not None and config == "on":
                intervals.append((program.name, paired[1], paired[2]))
            peak_cut = reduction(baseline.peak, m.peak) if baseline else ""
            scope_cut = reduction(baseline.scope_peak, m.scope_peak) if baseline else ""
            print(
                f"{program.name:18} {size:>6} {config:6} {m.peak:>11} {peak_cut:>7} "
                f"{scope:>12} {scope_cut:>7} {m.allocations:>6} "
                f"{m.copies:>6} {m.allocated:>12} {seconds:>9} {versus:>21} {kernels:>10}  {m.check}",
                flush=True,
            )
    print()
    for config, values in reductions.items():
        if values:
            print(f"mean peak reduction ({config}): {100.0 * sum(values) / len(values):.1f}% over {len(values)} programs")
    for config, values in scope_reductions.items():
        if values:
            print(f"mean scope-model peak reduction ({config}): {100.0 * sum(values) / len(values):.1f}% over {len(values)} programs")
    if intervals:
        print("on against off, " + slowdown_verdict(intervals, SLOWDOWN_LIMIT, options.repeat))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
