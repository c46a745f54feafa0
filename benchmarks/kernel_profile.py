"""kernel_profile: where a program's time goes on the GPU, kernel by kernel, for the peer
benchmark's programs (benchmarks/peers.py: its programs, inputs and sizes), to see why
some of them are slower than JAX.

    python benchmarks/kernel_profile.py [--programs srad,crypt,nbody] [--repeat N] [--json FILE] [--seed S]
    python benchmarks/kernel_profile.py --no-profile [...]              # wall only: task graphs on against off
    python benchmarks/kernel_profile.py --backend numpy --small [...]   # the harness on the CPU

Each program is compiled for the cuda backend, given peers.py's inputs at peers.py's
size (`--small`: its small size) and called once, untimed, its result checked against
the program's NumPy definition. A program that does not compile or fails a call, or
whose result is wrong, is a row saying so (exit status 1), not a traceback; the others
still run. Then:

- profiled (the default): `--repeat` calls with `program.profiling = True`. Each call's
  wall time is host in, host out (peers.py's rule), and its Statistics give each
  kernel's device time (CUDA events around every launch) and launches, the program's
  launches, its synchronous scalar reads and writes and its copies each way. A program's
  first line gives the medians over the calls of the wall time, of the kernels' device
  time, and of the host overhead (wall minus kernel time: the Python host code,
  launches, transfers and waits); the next its counts per call; then the top 12 kernels
  by device time: launches per call, device ms per call, µs per launch and share of the
  kernel time (means over the calls, so that the rows add up). soacc's strided copy
  kernels (`soacc_copy_strided_*`) are kernels here but not among the program's
  launches. A profiled call runs eagerly (no task graph) with two events recorded
  around each launch: its wall and host times are an eager call's plus that cost, not
  what a call takes by default (for that, `--no-profile`).
- `--no-profile`: wall times only, of the program with task graphs on (the default: its
  second call is captured, later calls replay the graph) and off (every call runs its
  host code), in one run, the two alternating call by call and the order reversed every
  other round (paired_timing.py): medians, the ratio off/on with its 95% interval, and
  whether the last call replayed a graph.

A summary table, a row per program, ends the output. With `--backend numpy` the
programs run on soacc's CPU reference executor: no kernels, so no kernel times, and its
wall times mean nothing for the GPU; its counts are the reference executor's (a GPU
reduction's two launches are one there). Not a test: nothing about times is asserted.
The exit status is 1 when a program fails or its result is wrong, 2 for a bad command
line or no GPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import traceback
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the sibling modules, however this script is loaded
import peers  # noqa: E402
from paired_timing import paired_summary  # noqa: E402
from report_files import write_report  # noqa: E402

from soacc.runtime.errors import SoaccError  # noqa: E402
from soacc.tools.examples import as_tuple, mismatch  # noqa: E402

TOP = 12
"""Kernels tabled per program; the rest are summed on one line."""

COUNTERS = (
    "launches", "sync reads", "scalar writes",
    "h->d", "h->d bytes", "d->h", "d->h bytes", "d->d", "d->d bytes",
)
"""What a call's Statistics count, per call (`launches`: the program's own)."""

load_programs = peers.load_programs  # (a test may replace it)


def counts_of(s) -> dict[str, int]:
    copies = s.copies
    return {
        "launches": s.kernel_launches, "sync reads": s.sync_reads, "scalar writes": s.scalar_writes,
        "h->d": copies["host->device"].count, "h->d bytes": copies["host->device"].bytes,
        "d->h": copies["device->host"].count, "d->h bytes": copies["device->host"].bytes,
        "d->d": copies["device->device"].count, "d->d bytes": copies["device->device"].bytes,
    }


def describe(error: Exception) -> str:
    """The error in one line; where it was raised when it is not soacc's own."""
    text = peers.describe(error)
    if isinstance(error, SoaccError):
        return text
    where = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    return f"{text} ({Path(where.filename).name}:{where.lineno})" if where else text


def compile_program(example, backend: str, task_graphs: bool | None = None, profiling: bool = False):
    import soacc

    program = soacc.compile(example.program_path, backend=backend)
    if program.backend == "cuda":
        if task_graphs is not None:
            program.task_graphs = task_graphs
        program.profiling = profiling
    return program


def checked_call(program, args: tuple, expected, example) -> tuple[str, str | None]:
    """("ok", None), ("wrong", why) or ("error", why): one call, its result checked."""
    try:
        got = as_tuple(program.main(*args))
    except Exception as error:  # the row says why
        return "error", describe(error)
    why = mismatch(got, expected, example.rtol, example.atol)
    return ("ok", None) if why is None else ("wrong", why)


def inputs(example, size: int, seed: int) -> tuple[tuple, object]:
    """peers.py's inputs at `size`, and the definition's result on them."""
    args = tuple(example.make_inputs(np.random.default_rng(seed), size))
    return args, example.reference(*peers.copies(args))


# --- profiled ---------------------------------------------------------------------------


def profile(example, backend: str, args: tuple, expected, repeat: int) -> dict:
    """One checked call, then `repeat` profiled calls: each call's wall time, kernel
    device times and launches by kernel, and counts."""
    entry: dict = {"status": "ok", "why": None, "calls": []}
    try:
        program = compile_program(example, backend, profiling=True)
    except Exception as error:
        entry.update(status="error", why=f"does not compile: {describe(error)}")
        return entry
    entry["status"], entry["why"] = checked_call(program, args, expected, example)
    if entry["status"] != "ok":
        return entry
    for _ in range(repeat):
        started = time.perf_counter()
        try:
            program.main(*args)
        except Exception as error:  # it ran once: a later failure ends its calls
            entry.update(status="error", why=f"in a timed call: {describe(error)}")
            break
        wall = time.perf_counter() - started
        s = program.statistics
        entry["calls"].append({
            "wall_s": wall,
            "kernel_time_s": None if s.kernel_time_s is None else dict(s.kernel_time_s),
            "kernel_launch_counts": None if s.kernel_launch_counts is None else dict(s.kernel_launch_counts),
            "counts": counts_of(s),
        })
    return entry


def summarize(calls: list[dict]) -> dict:
    """Medians of wall, kernel and host time per call; counts per call (means); the
    kernels, each with its means per call, by device time."""
    n = len(calls)
    walls = [c["wall_s"] for c in calls]
    profiled = all(c["kernel_time_s"] is not None for c in calls)
    kernel_totals = [sum(c["kernel_time_s"].values()) for c in calls] if profiled else None
    summary: dict = {
        "calls": n,
        "wall_s": statistics.median(walls),
        "kernel_s": statistics.median(kernel_totals) if kernel_totals else None,
        "host_s": statistics.median([w - k for w, k in zip(walls, kernel_totals)]) if kernel_totals else None,
        "counts": {k: sum(c["counts"][k] for c in calls) / n for k in COUNTERS},
        "kernels": None,
    }
    if profiled:
        seconds: dict[str, float] = {}
        launches: dict[str, int] = {}
        for c in calls:
            for name, s in c["kernel_time_s"].items():
                seconds[name] = seconds.get(name, 0.0) + s
            for name, count in (c["kernel_launch_counts"] or {}).items():
                launches[name] = launches.get(name, 0) + count
        total = sum(seconds.values())
        summary["kernels"] = [
            {
                "name": name,
                "launches_per_call": launches.get(name, 0) / n,
                "seconds_per_call": s / n,
                "seconds_per_launch": s / launches[name] if launches.get(name) else None,
                "share": s / total if total > 0 else None,
            }
            for name, s in sorted(seconds.items(), key=lambda item: (-item[1], item[0]))
        ]
    return summary


def ms(seconds: float | None, width: int = 0) -> str:
    return f"{'-' if seconds is None else f'{seconds * 1e3:.3f}':>{width}}"


def with_unit(seconds: float | None) -> str:
    return "-" if seconds is None else f"{ms(seconds)} ms"


def per_call(value: float) -> str:
    """A count per call: whole where it is."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def copies(count: float, nbytes: float) -> str:
    """A count of copies per call, with their bytes where there are any."""
    if not nbytes:
        return per_call(count)
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{per_call(count)} ({nbytes / scale:.3g} {unit})"
    return f"{per_call(count)} ({nbytes:.0f} B)"


def program_block(name: str, size: int, summary: dict) -> list[str]:
    c = summary["counts"]
    host = summary["host_s"]
    share = f" ({host / summary['wall_s']:.0%} of wall)" if host is not None and summary["wall_s"] > 0 else ""
    lines = [
        f"{name} (size {size}): {summary['calls']} calls; per call, medians: wall {with_unit(summary['wall_s'])}, "
        f"kernels {with_unit(summary['kernel_s'])}, host {with_unit(host)}{share}",
        f"  per call: {per_call(c['launches'])} launches, {per_call(c['sync reads'])} sync reads, "
        f"{per_call(c['scalar writes'])} scalar writes; copies h->d {copies(c['h->d'], c['h->d bytes'])}, "
        f"d->h {copies(c['d->h'], c['d->h bytes'])}, d->d {copies(c['d->d'], c['d->d bytes'])}",
    ]
    kernels = summary["kernels"]
    if kernels is None:
        lines.append("  no kernel times: the reference executor runs no kernels")
        return lines
    if not kernels:
        lines.append("  no kernel was launched")
        return lines
    lines.append(f"  {'kernel':40} {'launches/call':>13} {'ms/call':>10} {'us/launch':>10} {'share':>7}")
    for k in kernels[:TOP]:
        mean = "-" if k["seconds_per_launch"] is None else f"{k['seconds_per_launch'] * 1e6:.3f}"
        share = "-" if k["share"] is None else f"{k['share']:.1%}"
        lines.append(
            f"  {k['name']:40} {per_call(k['launches_per_call']):>13} {ms(k['seconds_per_call'], 10)} {mean:>10} {share:>7}"
        )
    rest = kernels[TOP:]
    if rest:
        seconds = sum(k["seconds_per_call"] for k in rest)
        share = sum(k["share"] or 0.0 for k in rest)
        lines.append(f"  ... {len(rest)} more kernels: {ms(seconds)} ms/call ({share:.1%})")
    return lines


PROFILE_HEADER = (
    f"{'program':17} {'size':>9} {'wall ms':>10} {'kernel ms':>10} {'host ms':>10} {'host%':>6} "
    f"{'launches':>9} {'reads':>7} {'writes':>7} {'h->d':>5} {'d->h':>5} {'d->d':>5}  top kernel (share) / notes"
)
PROFILE_LEGEND = (
    "per call: wall, kernel (device) and host (wall - kernel) ms are medians; launches: the program's; reads: "
    "synchronous device->host scalar reads; writes: host->device scalar writes; h->d, d->h, d->d: copies"
)


def profile_row(name: str, size: int, entry: dict, summary: dict | None) -> str:
    if summary is None:  # failed before a timed call
        status = {"wrong": "WRONG", "error": "ERROR"}[entry["status"]]
        return f"{name:17} {size:>9} {status:>10}  {entry['why']}"
    c = summary["counts"]
    host = summary["host_s"]
    percent = f"{host / summary['wall_s']:.0%}" if host is not None and summary["wall_s"] > 0 else "-"
    kernels = summary["kernels"]
    top = f"{kernels[0]['name']} ({kernels[0]['share']:.0%})" if kernels and kernels[0]["share"] is not None else "-"
    if entry["status"] != "ok":
        top += f"; ERROR {entry['why']}"
    return (
        f"{name:17} {size:>9} {ms(summary['wall_s'], 10)} {ms(summary['kernel_s'], 10)} {ms(host, 10)} {percent:>6} "
        f"{per_call(c['launches']):>9} {per_call(c['sync reads']):>7} {per_call(c['scalar writes']):>7} "
        f"{per_call(c['h->d']):>5} {per_call(c['d->h']):>5} {per_call(c['d->d']):>5}  {top}"
    )


# --- unprofiled: task graphs on against off ---------------------------------------------------


def configurations(backend: str) -> dict[str, bool | None]:
    """name -> task graphs on or off (None: as the program compiles, on unless
    SOACC_TASK_GRAPHS=0 or cuda-bindings is missing; the reference executor has none)."""
    return {"graphs": None, "eager": False} if backend == "cuda" else {"reference": None}


def time_configurations(example, backend: str, args: tuple, expected, repeat: int) -> dict:
    """Each configuration checked (the graphs' capturing call too), then timed in
    alternating rounds."""
    entry: dict = {"configurations": {}}
    programs = {}
    for name, graphs in configurations(backend).items():
        result: dict = {"status": "ok", "why": None, "samples_s": [], "task_graph": None}
        entry["configurations"][name] = result
        try:
            program = compile_program(example, backend, task_graphs=graphs)
        except Exception as error:
            result.update(status="error", why=f"does not compile: {describe(error)}")
            continue
        if name == "graphs" and not program.task_graphs:
            result["why"] = "task graphs are off here (SOACC_TASK_GRAPHS=0, or cuda-bindings is not installed)"
        for _ in range(2 if program.task_graphs else 1):  # with graphs, the second call is captured
            result["status"], why = checked_call(program, args, expected, example)
            if result["status"] != "ok":
                result["why"] = why
                break
        else:
            programs[name] = program
    for round_ in range(repeat):
        order = list(programs.items())
        for name, program in order if round_ % 2 == 0 else order[::-1]:
            result = entry["configurations"][name]
            started = time.perf_counter()
            try:
                program.main(*args)
            except Exception as error:
                result.update(status="error", why=f"in a timed call: {describe(error)}")
                del programs[name]
                continue
            result["samples_s"].append(time.perf_counter() - started)
            result["task_graph"] = program.statistics.task_graph
    for name, result in entry["configurations"].items():
        result["median_s"] = statistics.median(result["samples_s"]) if result["samples_s"] else None
    graphs, eager = entry["configurations"].get("graphs"), entry["configurations"].get("eager")
    entry["eager_over_graphs"] = None
    if graphs and eager and graphs["samples_s"] and eager["samples_s"] and len(graphs["samples_s"]) == len(eager["samples_s"]):
        entry["eager_over_graphs"] = list(paired_summary(eager["samples_s"], graphs["samples_s"]))
    return entry


def no_profile_header(names: list[str]) -> str:
    header = f"{'program':17} {'size':>9} " + " ".join(f"{n + ' ms':>10}" for n in names)
    if "graphs" in names:
        header += f" {'eager/graphs':>22} {'last call':>9}"
    return header + "  notes"


def no_profile_row(name: str, size: int, entry: dict) -> str:
    cells = []
    notes = []
    for config, result in entry["configurations"].items():
        if result["median_s"] is not None and result["status"] == "ok":
            cells.append(ms(result["median_s"], 10))
        else:
            cells.append(f"{ {'ok': '-', 'wrong': 'WRONG', 'error': 'ERROR'}[result['status']]:>10}")
        if result["why"]:
            notes.append(f"{config}: {result['why']}")
    row = f"{name:17} {size:>9} " + " ".join(cells)
    graphs = entry["configurations"].get("graphs")
    if graphs is not None:
        ratio = entry["eager_over_graphs"]
        row += f" {f'{ratio[0]:.2f}x [{ratio[1]:.2f},{ratio[2]:.2f}]' if ratio else '-':>22}"
        row += f" {graphs['task_graph'] or 'eager':>9}"
        if graphs["status"] == "ok" and graphs["samples_s"] and graphs["task_graph"] != "replayed" and not graphs["why"]:
            notes.append("graphs: the last call replayed no graph (too little device work, or the call cannot be one)")
    return row + "  " + "; ".join(notes)


def gpu_description() -> str:
    try:
        from soacc.runtime.gpu.device import get_device

        device = get_device()
        return f"{device.name} ({device.arch})"
    except Exception as error:  # (gpu_available said yes; the programs will say what fails)
        return f"the GPU ({describe(error)})"


# --- the run ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size")
    parser.add_argument("--repeat", type=int, default=10, help="timed calls per program (per configuration)")
    parser.add_argument("--programs", help="comma-separated names (default: all of peers.py's)")
    parser.add_argument("--no-profile", action="store_true", help="wall times only: task graphs on against off")
    parser.add_argument("--json", type=Path, help="write every measurement to this file")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    if options.repeat < 1:
        parser.error(f"--repeat must be at least 1 (got {options.repeat})")
    if options.json is not None and not options.json.parent.is_dir():
        parser.error(f"--json: there is no folder {options.json.parent} (checked before the run, not after it)")
    names = [n for n in (options.programs or "").split(",") if n]
    known = [b.name for b in peers.BENCHMARKS]
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"no program named {', '.join(unknown)} (there are {', '.join(known)})")
    chosen = [b for b in peers.BENCHMARKS if not names or b.name in names]
    if options.backend == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            print(f"kernel_profile: error: no GPU: {why} (use --backend numpy --small)", file=sys.stderr)
            return 2

    mode = "no-profile" if options.no_profile else "profile"
    if options.backend == "numpy":
        print(
            "backend numpy: the CPU reference executor; no kernels run, so there are no kernel times, "
            "and its wall times mean nothing for the GPU; its counts are the reference executor's"
        )
    else:
        print(f"backend cuda: {gpu_description()}")
    if options.no_profile:
        print(
            f"wall ms per call, host in, host out: median of {options.repeat} calls per configuration after "
            "untimed, checked ones"
            + (
                "; graphs (the default) and eager (task graphs off) alternate call by call; eager/graphs: the "
                "median of the rounds' ratios and its 95% interval (above 1: graphs are faster)"
                if options.backend == "cuda" else ""
            )
        )
    elif options.backend == "cuda":
        print(
            f"per program: medians of {options.repeat} profiled calls after an untimed, checked one (host in, "
            "host out; eager, no task graph; CUDA events around every launch); the kernel table's rows are "
            f"means per call, the top {TOP} by device time"
        )
    else:
        print(f"per program: medians of {options.repeat} calls after an untimed, checked one (host in, host out)")
    report: dict = {
        "backend": options.backend, "mode": mode, "repeat": options.repeat, "seed": options.seed,
        "small": options.small, "programs": [],
    }
    examples = load_programs()
    failed = False
    rows = []
    for benchmark in chosen:
        example = examples[(benchmark.folder, benchmark.name)]
        size = benchmark.small if options.small else benchmark.size
        print(f"{benchmark.name} ...", file=sys.stderr, flush=True)
        record: dict = {"name": benchmark.name, "size": size}
        report["programs"].append(record)
        try:
            args, expected = inputs(example, size, options.seed)
        except Exception as error:  # the definition's own failure
            record.update(status="error", why=f"the inputs or the definition failed: {describe(error)}")
            failed = True
            rows.append(f"{benchmark.name:17} {size:>9} {'ERROR':>10}  {record['why']}")
            print(rows[-1], flush=True)
            continue
        if options.no_profile:
            record.update(time_configurations(example, options.backend, args, expected, options.repeat))
            statuses = [r["status"] for r in record["configurations"].values()]
            record["status"] = next((s for s in statuses if s != "ok"), "ok")
            failed |= record["status"] != "ok"
            rows.append(no_profile_row(benchmark.name, size, record))
            print(rows[-1], file=sys.stderr, flush=True)  # (progress: the table comes at the end)
        else:
            entry = profile(example, options.backend, args, expected, options.repeat)
            summary = summarize(entry["calls"]) if entry["calls"] else None
            record.update(status=entry["status"], why=entry["why"], calls=entry["calls"], summary=summary)
            failed |= entry["status"] != "ok"
            if summary is not None:
                print("\n".join(program_block(benchmark.name, size, summary)), flush=True)
                if entry["status"] != "ok":
                    print(f"  ERROR {entry['why']}", flush=True)
            else:
                print(f"{benchmark.name} (size {size}): {entry['status'].upper()} {entry['why']}", flush=True)
            rows.append(profile_row(benchmark.name, size, entry, summary))
        del args, expected
    print()
    header = no_profile_header(list(configurations(options.backend))) if options.no_profile else PROFILE_HEADER
    print(header)
    print("-" * len(header))
    print("\n".join(rows))
    if not options.no_profile:
        print(PROFILE_LEGEND)
    if options.json is not None and not write_report(options.json, report, "kernel_profile"):
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
