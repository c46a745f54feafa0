"""The peer benchmark: the same programs in soacc, in JAX and in CuPy, timed in one run
on the same GPU (issue 18's measurement; soacc's aim is to be at least as fast as both).

The programs are soacc's own (examples/, benchmarks/device_syncs/, benchmarks/memory/:
a .mlir with a .py giving its inputs and its NumPy definition); peers_jax.py has them as
a JAX expert writes them (jit, loops on the device), peers_eager.py as a CuPy user
writes them (eager array code, a Python loop where the program loops). Every
framework's result is checked against the program's NumPy definition in the same run;
a framework whose result is wrong, or that fails, is reported so and not timed.

Timing rule: host in, host out, for all three. soacc's entry points take NumPy arrays
and return NumPy arrays (a call uploads its arguments and downloads its results), so no
framework gets its inputs on the device beforehand: each timed call starts from the
NumPy inputs and ends with the results in NumPy arrays on the host. JAX's call is the
jitted function on the NumPy arguments (jit uploads them), `block_until_ready`, then
`np.asarray` of every result; CuPy's is `cupy.asarray` of every array argument, the
program, a device synchronize and `cupy.asnumpy` of every result. Scalars are host
values for all three. Each framework makes one untimed call first (JIT compilation for
JAX, module loading for soacc, kernel compilation for CuPy), whose result is the one
checked; then the frameworks' timed calls alternate, one each per round, the order
reversed every other round, and the table gives the median of `--repeat` rounds. The
ratios are peer time / soacc time (above 1: soacc is faster): the ratio of the medians,
and in brackets the 95% interval of the median of the rounds' own ratios
(paired_timing.py).

    python benchmarks/peers.py                           # on the GPU: soacc, JAX, CuPy
    python benchmarks/peers.py --backend numpy --small   # on the CPU: soacc's reference executor and NumPy
    ... [--repeat N] [--programs a,b] [--peers jax,cupy,numpy,soacc-eager,soacc-transfers] [--json FILE] [--seed S]

With `--backend numpy` soacc runs on its CPU reference executor and the peer is NumPy
running the CuPy versions (`xp = numpy`), which tests the harness and the eager versions
on a machine without a GPU; `--peers numpy,jax` adds JAX on the CPU. A framework that
is not installed, or has no GPU, is left out with a note. Not a test: nothing about
times is asserted. The exit status is 1 when soacc's own result is wrong or fails, 2 for
a bad command line or no GPU.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the sibling modules, however this script is loaded
from paired_timing import paired_summary  # noqa: E402
from report_files import write_report  # noqa: E402
from peers_eager import PROGRAMS as EAGER_PROGRAMS  # noqa: E402

from soacc.tools.examples import as_tuple  # noqa: E402

ROOT = HERE.parent
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX would take 75% of the GPU's memory

TIMING_RULE = (
    "host in, host out: every framework starts from the NumPy inputs and ends with NumPy results "
    "(uploads, downloads and the wait for the device included); median of the timed rounds after one "
    "untimed, checked call; frameworks alternate within a round, the order reversed every other round"
)


@dataclass(frozen=True)
class Allowance:
    """What a peer's result may differ by where the program's definition asks for the
    exact f32 arithmetic that soacc does (it compiles without contracting a*b+c):
    elements outside rtol/atol, at most `fraction` of each result's elements."""

    rtol: float
    atol: float
    fraction: float
    why: str


FMA = "XLA contracts a*b+c into one fused multiply-add and has no switch to stop it"


@dataclass(frozen=True)
class Benchmark:
    """One program of the peer benchmark: where its .mlir and .py are, its sizes."""

    name: str
    folder: str
    """The folder of its .mlir and .py, from the repository's root."""
    size: int
    small: int
    iterative: bool
    """One of the iterative programs issue 18 names (Gauss-Jordan, srad, LUD, k-means,
    crypt, the convergence loops, BFS), whose geometric mean its target is about."""
    streaming: bool = False
    """Its arguments' and results' bytes are the least it must move: GB/s means something."""
    allowance: Allowance | None = None


EXAMPLES, SYNCS, MEMORY = "examples", "benchmarks/device_syncs", "benchmarks/memory"

BENCHMARKS = [
    Benchmark("gauss_jordan", SYNCS, 256, 8, iterative=True),
    Benchmark("srad", SYNCS, 512, 12, iterative=True),
    Benchmark(
        "lud", MEMORY, 1024, 48, iterative=True,
        allowance=Allowance(1e-5, 1e-6, 0.0, FMA + "; LUD's definition is soacc's exact f32 operations"),
    ),
    Benchmark("kmeans", EXAMPLES, 1_000_000, 1000, iterative=True),
    Benchmark("crypt", SYNCS, 375_000, 16, iterative=True, streaming=True),
    Benchmark("convergence", SYNCS, 1_000_000, 100, iterative=True),
    Benchmark("convergence_loop", EXAMPLES, 1_000_000, 1000, iterative=True),
    Benchmark("bfs", MEMORY, 1 << 20, 2000, iterative=True),
    Benchmark("dot_product", EXAMPLES, 10_000_000, 1000, iterative=False, streaming=True),
    Benchmark("vector_norm", SYNCS, 10_000_000, 1000, iterative=False, streaming=True),
    Benchmark("prefix_sum", EXAMPLES, 10_000_000, 1000, iterative=False, streaming=True),
    Benchmark("histogram", EXAMPLES, 10_000_000, 1000, iterative=False, streaming=True),
    # 2,000,015 rows of 2,000,015 % 17 = 16 columns (the example's shape rule)
    Benchmark("row_sums", EXAMPLES, 2_000_015, 1000, iterative=False, streaming=True),
    Benchmark(
        "mandelbrot", EXAMPLES, 1_000_000, 1000, iterative=False,
        allowance=Allowance(0.0, 0.0, 1e-2, FMA + "; a pixel near the set's edge may then take another count"),
    ),
    Benchmark("nbody", EXAMPLES, 2000, 50, iterative=False),
    Benchmark("locvolcalib", MEMORY, 256, 16, iterative=False),
    Benchmark("optionpricing", MEMORY, 1 << 18, 512, iterative=False),
    Benchmark("backprop", MEMORY, 1 << 20, 1000, iterative=False, streaming=True),
    # not one of issue 18's iterative programs, but one: a device loop whose positions
    # (a slice's offset, an element's index) come from a reduction (issue 18, item 6)
    Benchmark(
        "clean", EXAMPLES, 1_000_000, 1000, iterative=False,
        allowance=Allowance(1e-5, 1e-5, 1e-3, FMA + "; the residual's last bits then differ"),
    ),
]


# --- frameworks -----------------------------------------------------------------

Call = Callable[[tuple], tuple]
"""One framework's version of a program: host arguments in, host results out."""


@dataclass
class Framework:
    name: str
    available: bool
    note: str
    """Where it runs, or why it does not."""
    prepare: Callable[[Benchmark, object], Call] | None = None
    """The call for a program (its Example given): compiled, not yet run."""
    peer: bool = True


SOACC_WARM_UP_CALLS = 10
"""soacc's untimed calls: eager, capture, and a forked copy's contest (3 + 2 * 3)."""


def soacc_framework(
    backend: str, task_graphs: bool = True, transfers: bool = False, host_loops: bool = False, segments: bool | None = None,
) -> Framework:
    """soacc itself; with `task_graphs` False, soacc with its task graphs off (the peer
    `soacc-eager`, whose ratio to soacc is what the graphs gain); with `transfers`,
    soacc with fuse-transfers (the peer `soacc-transfers`, whose ratio to soacc says
    whether the pass may be on by default); with `host_loops`, soacc without device
    loops (`device-loops=false`: a while loop reads its condition on the host every
    iteration, so its calls run eagerly), with segment graphs (the peer
    `soacc-host-loops`) or without (`soacc-host-loops-unsegmented`): their ratio is
    what segment graphs gain (runtime/gpu/segment_graphs.py). `segments` None leaves
    segment graphs as the library has them (off by default)."""
    import soacc

    if host_loops:
        name = "soacc-host-loops" if segments else "soacc-host-loops-unsegmented"
    else:
        name = "soacc-transfers" if transfers else "soacc" if task_graphs else "soacc-eager"
    pipeline = None
    if backend == "cuda" and (transfers or host_loops):
        options = ["transfers=true"] * transfers + ["device-loops=false"] * host_loops
        pipeline = f"soacc-pipeline{{{' '.join(options)}}}"

    def prepare(benchmark: Benchmark, example) -> Call:
        program = soacc.compile(example.program_path, backend=backend, pipeline=pipeline)
        if program.backend == "cuda":
            program.task_graphs = task_graphs
            if segments is not None:
                program.segment_graphs = task_graphs and segments
        warm = []

        def call(args: tuple) -> tuple:
            # the first (untimed) call also makes the calls that capture the graph and
            # decide its forked copy's contest (task_graphs.py), as JAX's compiles
            if not warm:
                for _ in range(SOACC_WARM_UP_CALLS - 1):
                    program.main(*args)
                warm.append(True)
            return as_tuple(program.main(*args))

        return call

    if backend == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            return Framework(name, False, f"no GPU: {why}", peer=name != "soacc")
        graphs = "with task graphs" if task_graphs else "task graphs off"
        fused = ", fuse-transfers" if transfers else ""
        loops = f", device loops off, segment graphs {'on' if segments else 'off'}" if host_loops else ""
        return Framework(name, True, f"the GPU (cuda backend, {graphs}{fused}{loops})", prepare, peer=name != "soacc")
    return Framework(name, True, "the CPU reference executor", prepare, peer=name != "soacc")


def eager_framework(xp, name: str, note: str, to_host: Callable, synchronize: Callable[[], None]) -> Framework:
    def prepare(benchmark: Benchmark, example) -> Call:
        version = EAGER_PROGRAMS[benchmark.name]

        def call(args: tuple) -> tuple:
            device_args = [xp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
            results = as_tuple(version(xp, *device_args))
            synchronize()
            return tuple(to_host(r) for r in results)

        return call

    return Framework(name, True, note, prepare)


def numpy_framework() -> Framework:
    return eager_framework(np, "numpy", "the CPU (NumPy, peers_eager.py)", np.asarray, lambda: None)


def cupy_framework(backend: str) -> Framework:
    if backend != "cuda":
        return Framework("cupy", False, "CuPy runs on the GPU: only with --backend cuda")
    try:
        import cupy as cp

        device = cp.cuda.Device()
        name = cp.cuda.runtime.getDeviceProperties(device.id)["name"]
        name = name.decode() if isinstance(name, bytes) else name
    except Exception as error:  # not installed, or no usable device
        return Framework("cupy", False, f"CuPy is unusable here: {type(error).__name__}: {error}")

    def to_host(value):
        return cp.asnumpy(value) if isinstance(value, cp.ndarray) else np.asarray(value)

    return eager_framework(cp, "cupy", f"{name} (CuPy {cp.__version__})", to_host, device.synchronize)


def jax_framework(backend: str) -> Framework:
    try:
        import jax

        device = jax.devices()[0]  # (a broken CUDA plugin fails here, not at import)
    except Exception as error:
        return Framework("jax", False, f"JAX is unusable here: {type(error).__name__}: {error}")
    if backend == "cuda" and device.platform != "gpu":
        return Framework("jax", False, f"JAX has no GPU here (its device is {device.platform}: pip install 'jax[cuda12]')")
    try:
        from peers_jax import PROGRAMS as JAX_PROGRAMS
    except Exception as error:
        return Framework("jax", False, f"peers_jax.py does not load: {type(error).__name__}: {error}")

    def prepare(benchmark: Benchmark, example) -> Call:
        version = JAX_PROGRAMS[benchmark.name]

        def call(args: tuple) -> tuple:
            results = jax.block_until_ready(version(*args))
            return tuple(np.asarray(r) for r in as_tuple(results))

        return call

    return Framework("jax", True, f"{device.platform} {device.device_kind} (JAX {jax.__version__})", prepare)


def frameworks(backend: str, peers: list[str]) -> list[Framework]:
    """soacc first, then the peers asked for."""
    makers = {
        "jax": lambda: jax_framework(backend),
        "cupy": lambda: cupy_framework(backend),
        "numpy": numpy_framework,
        "soacc-eager": lambda: soacc_framework(backend, task_graphs=False),
        "soacc-transfers": lambda: soacc_framework(backend, transfers=True),
        "soacc-host-loops": lambda: soacc_framework(backend, host_loops=True, segments=True),
        "soacc-host-loops-unsegmented": lambda: soacc_framework(backend, host_loops=True, segments=False),
    }
    return [soacc_framework(backend), *(makers[name]() for name in peers)]


# --- measuring --------------------------------------------------------------------


def mismatch_with_allowance(got: tuple, expected, example, allowance: Allowance | None) -> tuple[str, str | None]:
    """("ok", None) when `got` agrees with the definition, ("ok~", why) when it only
    does within the program's allowance, ("wrong", why) otherwise."""
    from soacc.tools.examples import mismatch

    why = mismatch(got, expected, example.rtol, example.atol)
    if why is None:
        return "ok", None
    if allowance is None or within_allowance(got, as_tuple(expected), allowance) is not None:
        return "wrong", why
    return "ok~", f"within the allowance ({allowance.why}): {why}"


def within_allowance(got: tuple, expected: tuple, allowance: Allowance) -> str | None:
    """Why `got` is outside `allowance` around `expected`, or None when it is within."""
    if len(got) != len(expected):
        return f"{len(got)} results, expected {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        g, e = np.asarray(g), np.asarray(e)
        if g.shape != e.shape or g.dtype != e.dtype:
            return f"result {i} is {g.dtype}{list(g.shape)}, expected {e.dtype}{list(e.shape)}"
        close = np.isclose(g, e, rtol=allowance.rtol, atol=allowance.atol, equal_nan=True)
        if np.count_nonzero(~close) > allowance.fraction * close.size:
            return f"result {i}: {np.count_nonzero(~close)} of {close.size} elements differ"
    return None


@dataclass
class Outcome:
    """One framework on one program."""

    status: str
    """ok, ok~ (within the program's allowance), wrong, error, or absent."""
    why: str | None = None
    samples: list[float] = field(default_factory=list)

    @property
    def timed(self) -> bool:
        return self.status in ("ok", "ok~")

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.samples else None


def first_call(framework: Framework, benchmark: Benchmark, example, args: tuple, expected) -> tuple[Outcome, Call | None]:
    """The framework's call for the program, after one untimed call whose result is
    checked: an error in the framework's code or the program's is reported, not raised."""
    try:
        call = framework.prepare(benchmark, example)
        got = call(args)
    except Exception as error:  # any framework's failure is the table's to report
        where = traceback.extract_tb(error.__traceback__)[-1]
        return Outcome("error", f"{describe(error)} ({Path(where.filename).name}:{where.lineno})"), None
    status, why = mismatch_with_allowance(got, expected, example, None if not framework.peer else benchmark.allowance)
    return Outcome(status, why), call if status != "wrong" else None


def measure(benchmark: Benchmark, example, runners: list[Framework], size: int, repeat: int, seed: int) -> dict:
    """Each framework's outcome on the program (its first call checked, then `repeat`
    timed rounds), and the bytes the program must move where that means something."""
    pristine = tuple(example.make_inputs(np.random.default_rng(seed), size))
    expected = example.reference(*copies(pristine))
    outcomes: dict[str, Outcome] = {}
    calls: dict[str, Call] = {}
    args = copies(pristine)
    for framework in runners:
        print(f"{benchmark.name} {framework.name} ...", file=sys.stderr, flush=True)
        if not framework.available:
            outcomes[framework.name] = Outcome("absent", framework.note)
            continue
        outcome, call = first_call(framework, benchmark, example, args, expected)
        if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(args, pristine)):
            # the NumPy peer gets the very arrays (asarray copies nothing): an in-place
            # change would be every later call's input
            outcome, call, args = Outcome("error", "it changed its arguments"), None, copies(pristine)
        outcomes[framework.name] = outcome
        if call is not None:
            calls[framework.name] = call
    for round_ in range(repeat):
        order = list(calls.items())
        for name, call in order if round_ % 2 == 0 else reversed(order):
            started = time.perf_counter()
            try:
                call(args)
            except Exception as error:  # it ran once: a later failure (memory, say) ends its rounds
                outcomes[name] = Outcome("error", f"in a timed round: {describe(error)}")
                del calls[name]
                continue
            outcomes[name].samples.append(time.perf_counter() - started)
    release_device_memory()
    data_bytes = None
    if benchmark.streaming:
        data_bytes = sum(v.nbytes for v in (*pristine, *as_tuple(expected)) if isinstance(v, np.ndarray | np.generic))
    return {"outcomes": outcomes, "bytes": data_bytes}


def describe(error: Exception) -> str:
    lines = str(error).splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def copies(args: tuple) -> tuple:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def release_device_memory() -> None:
    """CuPy keeps freed blocks in its pool: give them back before the next program."""
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        try:
            cupy.get_default_memory_pool().free_all_blocks()
        except Exception:  # no device: nothing was kept
            pass


def ratio(peer: Outcome, soacc: Outcome) -> dict | None:
    """peer time / soacc time: of the medians, and the rounds' median with its interval."""
    if not (peer.samples and soacc.samples):
        return None
    paired = paired_summary(peer.samples, soacc.samples)
    return {"of_medians": peer.median / soacc.median, "paired": list(paired) if paired else None}


def geometric_mean(values: list[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


# --- the table ----------------------------------------------------------------------


def cell(outcome: Outcome) -> str:
    if outcome.timed and outcome.samples:
        return f"{outcome.median * 1e3:.3f}{'~' if outcome.status == 'ok~' else ''}"
    return {"ok": "untimed", "ok~": "untimed", "wrong": "WRONG", "error": "ERROR", "absent": "-"}[outcome.status]


def ratio_cell(r: dict | None) -> str:
    if r is None:
        return "-"
    text = f"{r['of_medians']:.2f}x"
    if r["paired"] is not None:
        text += f" [{r['paired'][1]:.2f},{r['paired'][2]:.2f}]"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size")
    parser.add_argument("--repeat", type=int, default=10, help="timed rounds (0: check the results only)")
    parser.add_argument("--programs", help="comma-separated names (default: all)")
    parser.add_argument(
        "--peers",
        help="comma-separated, of jax, cupy, numpy, soacc-eager (soacc with task graphs off), "
        "soacc-transfers (soacc with fuse-transfers), soacc-host-loops and soacc-host-loops-unsegmented "
        "(device loops off, segment graphs on and off) "
        "(default: jax,cupy on cuda; numpy on numpy)",
    )
    parser.add_argument("--json", type=Path, help="write every measurement to this file")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    if options.repeat < 0:
        parser.error(f"--repeat must be 0 or more (got {options.repeat})")
    if options.json and not options.json.parent.is_dir():
        parser.error(f"--json: there is no folder {options.json.parent} (checked before the run, not after it)")
    names = [n for n in (options.programs or "").split(",") if n]
    known = [b.name for b in BENCHMARKS]
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"no program named {', '.join(unknown)} (there are {', '.join(known)})")
    peers = [p for p in (options.peers or ("jax,cupy" if options.backend == "cuda" else "numpy")).split(",") if p]
    known_peers = {"jax", "cupy", "numpy", "soacc-eager", "soacc-transfers", "soacc-host-loops", "soacc-host-loops-unsegmented"}
    if not peers or set(peers) - known_peers:
        parser.error(f"--peers takes {', '.join(sorted(known_peers))} (got {options.peers!r})")
    chosen = [b for b in BENCHMARKS if not names or b.name in names]

    runners = frameworks(options.backend, list(dict.fromkeys(peers)))
    if not runners[0].available:
        print(f"peers: error: soacc cannot run on the {options.backend} backend: {runners[0].note} "
              "(use --backend numpy --small)", file=sys.stderr)
        return 2
    examples = load_programs()
    peer_names = [f.name for f in runners[1:]]

    print(f"backend {options.backend}; {TIMING_RULE}; median of {options.repeat} rounds, in ms")
    for f in runners:
        print(f"  {f.name}: {f.note}" if f.available else f"  {f.name}: left out: {f.note}")
    header = f"{'program':17} {'size':>9}  {'soacc':>10}" + "".join(f" {p:>10}" for p in peer_names)
    header += "".join(f" {p + '/soacc':>20}" for p in peer_names) + f" {'bytes':>11} {'soacc GB/s':>10}  notes"
    print(header)
    print("-" * len(header))
    report = {
        "backend": options.backend, "repeat": options.repeat, "seed": options.seed, "small": options.small,
        "timing": TIMING_RULE,
        "frameworks": {f.name: {"available": f.available, "note": f.note} for f in runners},
        "programs": [],
    }
    soacc_failed = False
    ratios: dict[str, list[tuple[float, bool]]] = {p: [] for p in peer_names}
    for benchmark in chosen:
        example = examples[(benchmark.folder, benchmark.name)]
        size = benchmark.small if options.small else benchmark.size
        measured = measure(benchmark, example, runners, size, options.repeat, options.seed)
        outcomes: dict[str, Outcome] = measured["outcomes"]
        soacc = outcomes["soacc"]
        soacc_failed |= soacc.status != "ok"
        row_ratios = {p: ratio(outcomes[p], soacc) for p in peer_names}
        for p, r in row_ratios.items():
            if r is not None:
                ratios[p].append((r["of_medians"], benchmark.iterative))
        data_bytes = measured["bytes"]
        throughput = f"{data_bytes / soacc.median / 1e9:.3g}" if data_bytes and soacc.samples else "-"
        notes = "; ".join(f"{n}: {o.status} {o.why}" for n, o in outcomes.items() if o.why and o.status != "absent")
        print(
            f"{benchmark.name:17} {size:>9}  {cell(soacc):>10}" + "".join(f" {cell(outcomes[p]):>10}" for p in peer_names)
            + "".join(f" {ratio_cell(row_ratios[p]):>20}" for p in peer_names)
            + f" {data_bytes if data_bytes else '-':>11} {throughput:>10}  {notes}",
            flush=True,
        )
        report["programs"].append({
            "name": benchmark.name, "size": size, "iterative": benchmark.iterative, "bytes": data_bytes,
            "results": {
                n: {"status": o.status, "why": o.why, "median_s": o.median, "samples_s": o.samples}
                for n, o in outcomes.items()
            },
            "ratios": row_ratios,
        })
    print()
    report["geomean"] = {}
    for p in peer_names:
        values = ratios[p]
        overall = geometric_mean([v for v, _ in values])
        iterative = geometric_mean([v for v, it in values if it])
        report["geomean"][p] = {"all": overall, "iterative": iterative, "programs": len(values)}
        if overall is None:
            print(f"{p}/soacc: no program timed for both")
            continue
        line = f"geometric mean {p}/soacc: {overall:.2f}x over {len(values)} programs"
        if iterative is not None:
            line += f" (issue 18's iterative ones: {iterative:.2f}x over {sum(it for _, it in values)})"
        print(line + " (above 1: soacc is faster)")
    if options.json and not write_report(options.json, report, "peers"):
        return 2
    return 1 if soacc_failed else 0


def load_programs() -> dict[tuple[str, str], object]:
    """Every program of the three folders, by (folder, name)."""
    from soacc.tools.examples import load_examples

    found = {}
    for folder in (EXAMPLES, SYNCS, MEMORY):
        directory = str(ROOT / folder)
        sys.path.insert(0, directory)  # crypt's definition imports keys.py beside it
        try:
            for example in load_examples(ROOT / folder):
                found[(folder, example.name)] = example
        finally:
            sys.path.remove(directory)
    return found


if __name__ == "__main__":
    sys.exit(main())
