"""Nested parallelism on the GPU (issue 21's measurement): programs whose parallelism is
nested, written as the natural nest (benchmarks/nested/*.mlir), each beside its natural
CuPy version (cuBLAS for the matrix product) and the device's copy bandwidth, all in
the same run.

The programs: a matrix product (a map over A's rows of a map over B's columns of a dot
product), a 3-D 7-point and a 2-D 5-point stencil (maps of maps over index ranges,
reading clamped neighbours), a histogram inside a map (one per row), a scatter inside
a map (one per row), n-body (each body sums the pull of every body), and the segmented
reduce, scan and histogram for few large and many small segments (a map of a reduce,
scan or hist over rows). Each program's result, and CuPy's, is checked against a NumPy
definition in the same run (exact for integer programs, within a tolerance for
floats); a wrong or failing one is reported WRONG or ERROR with its reason and not
timed.

Columns: soacc's device time (its kernels only: CUDA events around every launch, the
backend's profiling mode, as kernels.py; the arguments are CuPy arrays already on the
device), CuPy's (events around the call), CuPy/soacc (above 1: soacc is faster), the
GB/s of the memory-bound programs (the bytes of their arguments and results, the least
they move) and its fraction of a device-to-device copy's bandwidth (read + write), for
the matrix product cuBLAS's time over soacc's, and whether the issue's targets are met:
memory-bound nests at least 0.8 of copy bandwidth, segmented operations at least
CuPy's speed, the matrix product at least 0.3 of cuBLAS's FP32 speed, no program
slower than CuPy by more than 2x. Below the table, how soacc parallelised each program
(`soacc-pipeline{report=true}`: each kernel, how it shares out its combinator's work,
and the nested combinators each thread runs sequentially), and the launches of few
threads that ran nested combinators sequentially (statistics.sequential_inside).

    python benchmarks/nested.py                           # on the GPU: soacc, CuPy, copy bandwidth
    python benchmarks/nested.py --backend numpy --small   # on the CPU: the reference executor and NumPy
    ... [--repeat N] [--programs a,b] [--size NAME=AxB ...] [--scale F] [--issue-sizes]
        [--timeout-per-program S] [--run-budget S] [--json FILE] [--seed S]

On the GPU every program runs in a child process of its own, killed after
`--timeout-per-program` seconds (default 120; reported TIMEOUT), so a slow nest or a
kernel that fails the CUDA context cannot take the others with it; 0 runs them all in
this process (the CPU's default). The whole run keeps within `--run-budget` seconds
(default 450 on the GPU, so that it ends within about 8 minutes): a program's time-out
is at most what is left, and a program that cannot start with 15 s left is reported
SKIPPED. A program's timed rounds stop early once they have taken a third of its
time-out (at least one round; the notes say how many). The default sizes are the
issue's (n-body, which it does not size, has 16384 bodies; the 2-D stencil 8192^2); a
program that soacc runs too slowly for the run's time may be given a smaller default
(`Nested.default`, with its reason, which the output prints; `--issue-sizes` restores
the issue's; none has one yet, as no run on a GPU has timed them); `--size NAME=AxB`
sets one program's shape and `--scale F` multiplies every dimension of every default
shape (`--scale 0.5` is an eighth of the 3-D stencil's work).

With `--backend numpy` soacc runs on its CPU reference executor and the CuPy versions
run on NumPy (`xp = numpy`), which tests the harness, the definitions and the checks on
a machine without a GPU; times are then wall-clock. Needs CuPy on the GPU. Not a test:
no time is asserted. The exit status is 1 when a soacc result is wrong (a compile
error, a time-out or a missed target is reported, not an exit status), 2 for a bad
command line or no GPU.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the sibling modules, however this script is loaded
from report_files import write_report  # noqa: E402

from soacc.tools.examples import mismatch as examples_mismatch  # noqa: E402

PROGRAMS_DIR = HERE / "nested"
REPORT_PIPELINE = "soacc-pipeline{report=true}"
"""The cuda backend's own pipeline (soacc-pipeline), printing each kernel's parallelism."""

DEFAULT_TIMEOUT_S = 120.0
DEFAULT_RUN_BUDGET_S = 450.0
"""The whole run's default on the GPU: it ends within about 8 minutes on an H100."""
MIN_PROGRAM_S = 15.0
"""A program is not started with less than this left of the run's budget."""

# the issue's targets
COPY_TARGET = 0.8
SEGMENTED_TARGET = 1.0
CUBLAS_TARGET = 0.3
CUPY_TARGET = 0.5


def as_tuple(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


# --- the programs: inputs, NumPy definitions, CuPy versions --------------------------

F32 = np.float32


def small_integers(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """f32 whole numbers in [-8, 8]: their sums and products stay exact in f32 (below
    2^24) at the issue's sizes, in any order, so a float program's check is tight."""
    return rng.integers(-8, 9, shape).astype(F32)


def matmul_inputs(rng, shape):
    n, k, m = shape
    return small_integers(rng, (n, k)), small_integers(rng, (k, m))


def matmul_definition(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(F32)


def matmul_xp(xp, a, b):
    return xp.matmul(a, b)  # cuBLAS on the GPU


def normal_inputs(rng, shape):
    return (rng.standard_normal(shape, dtype=F32),)


STENCIL3D_CENTRE, STENCIL3D_NEIGHBOURS = F32(0.4), F32(0.1)
STENCIL2D_CENTRE, STENCIL2D_NEIGHBOURS = F32(0.6), F32(0.1)


def stencil3d_xp(xp, m):
    """By slicing an edge-padded copy: the natural array version."""
    p = xp.pad(m, 1, mode="edge")
    c = (slice(1, -1),) * 3
    s = p[:-2, 1:-1, 1:-1] + p[2:, 1:-1, 1:-1]
    s = s + p[1:-1, :-2, 1:-1]
    s = s + p[1:-1, 2:, 1:-1]
    s = s + p[1:-1, 1:-1, :-2]
    s = s + p[1:-1, 1:-1, 2:]
    return STENCIL3D_CENTRE * p[c] + STENCIL3D_NEIGHBOURS * s


def stencil3d_definition(m):
    """Each point from its clamped neighbours by index (the program's f32 operations,
    in its order)."""
    n0, n1, n2 = m.shape
    i, j, k = np.arange(n0), np.arange(n1), np.arange(n2)
    lo = lambda v: np.maximum(v - 1, 0)  # noqa: E731
    hi = lambda v, n: np.minimum(v + 1, n - 1)  # noqa: E731
    s = m[lo(i)] + m[hi(i, n0)]
    s = s + m[:, lo(j)]
    s = s + m[:, hi(j, n1)]
    s = s + m[:, :, lo(k)]
    s = s + m[:, :, hi(k, n2)]
    return STENCIL3D_CENTRE * m + STENCIL3D_NEIGHBOURS * s


def stencil2d_xp(xp, m):
    p = xp.pad(m, 1, mode="edge")
    s = p[:-2, 1:-1] + p[2:, 1:-1]
    s = s + p[1:-1, :-2]
    s = s + p[1:-1, 2:]
    return STENCIL2D_CENTRE * p[1:-1, 1:-1] + STENCIL2D_NEIGHBOURS * s


def stencil2d_definition(m):
    rows, cols = m.shape
    i, j = np.arange(rows), np.arange(cols)
    s = m[np.maximum(i - 1, 0)] + m[np.minimum(i + 1, rows - 1)]
    s = s + m[:, np.maximum(j - 1, 0)]
    s = s + m[:, np.minimum(j + 1, cols - 1)]
    return STENCIL2D_CENTRE * m + STENCIL2D_NEIGHBOURS * s


def row_histograms(xp, bins_of_rows, bins: int):
    """One histogram per row by one bincount: each row's bins offset by row * bins."""
    rows = bins_of_rows.shape[0]
    offsets = xp.arange(rows, dtype=xp.int64)[:, None] * bins
    counts = xp.bincount((bins_of_rows + offsets).ravel(), minlength=rows * bins)
    return counts.reshape(rows, bins).astype(xp.int32)


def hist_rows_inputs(rng, shape):
    return (rng.integers(0, 2**31 - 1, shape, dtype=np.int32),)


def hist_rows_xp(xp, xss):
    return row_histograms(xp, xss & 255, 256)


def hist_rows_definition(xss):
    out = np.zeros((xss.shape[0], 256), dtype=np.int32)
    for r in range(xss.shape[0]):
        out[r] = np.bincount(xss[r] & 255, minlength=256)
    return out


def scatter_rows_inputs(rng, shape):
    rows, cols = shape
    dest = rng.standard_normal(shape, dtype=F32)
    positions = rng.permuted(np.broadcast_to(np.arange(cols, dtype=np.int32), shape), axis=1)
    return dest, np.ascontiguousarray(positions), rng.standard_normal(shape, dtype=F32)


def scatter_rows_xp(xp, dest, iss, vss):
    """In place, into the harness's own copy of dest (every call writes the same)."""
    dest[xp.arange(dest.shape[0])[:, None], iss] = vss
    return dest


def scatter_rows_definition(dest, iss, vss):
    out = dest.copy()
    for r in range(dest.shape[0]):
        out[r, iss[r]] = vss[r]
    return out


NBODY_EPS2 = 0.01


def nbody_inputs(rng, shape):
    (n,) = shape
    xs, ys, zs = (rng.uniform(-1.0, 1.0, n).astype(F32) for _ in range(3))
    ms = (rng.uniform(0.5, 1.5, n) / max(n, 1)).astype(F32)
    return xs, ys, zs, ms


def nbody_accelerations(xp, xs, ys, zs, ms, dtype, chunk: int = 1024):
    """Broadcasting, a block of `chunk` bodies at a time (the whole n x n would not fit)."""
    eps2 = dtype(NBODY_EPS2)
    xs, ys, zs, ms = (v.astype(dtype) for v in (xs, ys, zs, ms))
    out = [xp.empty_like(xs) for _ in range(3)]
    for start in range(0, xs.shape[0], chunk):
        part = slice(start, start + chunk)
        dx = xs[None, :] - xs[part, None]
        dy = ys[None, :] - ys[part, None]
        dz = zs[None, :] - zs[part, None]
        r2 = dx * dx + dy * dy + dz * dz + eps2
        w = ms[None, :] / (r2 * xp.sqrt(r2))
        for o, d in zip(out, (dx, dy, dz)):
            o[part] = (d * w).sum(axis=1)
    return tuple(out)


def nbody_xp(xp, xs, ys, zs, ms):
    return nbody_accelerations(xp, xs, ys, zs, ms, xp.float32)


def nbody_definition(xs, ys, zs, ms):
    """In f64, rounded to f32 at the end."""
    return tuple(a.astype(F32) for a in nbody_accelerations(np, xs, ys, zs, ms, np.float64))


def segmented_values(rng, shape):
    return (small_integers(rng, shape),)


def row_sums_xp(xp, xss):
    return xss.sum(axis=1)


def row_sums_definition(xss):
    return xss.astype(np.float64).sum(axis=1).astype(F32)


def row_scans_xp(xp, xss):
    return xp.cumsum(xss, axis=1)


def row_scans_definition(xss):
    return np.cumsum(xss.astype(np.float64), axis=1).astype(F32)


def bin_numbers(rng, shape):
    return (rng.integers(0, 16, shape, dtype=np.int32),)


def row_hists_xp(xp, xss):
    return row_histograms(xp, xss, 16)


def row_hists_definition(xss):
    out = np.zeros((xss.shape[0], 16), dtype=np.int32)
    for b in range(16):
        out[:, b] = np.count_nonzero(xss == b, axis=1)
    return out


@dataclass(frozen=True)
class Nested:
    """One program of the benchmark."""

    name: str
    file: str
    """Its program, benchmarks/nested/<file>.mlir."""
    issue: tuple[int, ...]
    """Its shape at the issue's size."""
    small: tuple[int, ...]
    """Its shape for --small (the CPU reference executor)."""
    make_inputs: Callable[[np.random.Generator, tuple[int, ...]], tuple]
    definition: Callable[..., object]
    """The NumPy definition its result is checked against."""
    xp_version: Callable[..., object]
    """The natural CuPy version, `(xp, *args)`; run on NumPy with --backend numpy."""
    kind: str
    """memory (a memory-bound nest), segmented, matmul or compute."""
    what: str
    """The table's size column: what the shape means."""
    tolerance: tuple[float, float] | None = (1e-5, 1e-6)
    """(rtol, atol as a fraction of the largest expected magnitude) for float results;
    integer results are compared exactly."""
    default: tuple[int, ...] | None = None
    """A smaller default than the issue's, where soacc runs it very slowly today."""
    why_smaller: str = ""
    moves: Callable[[tuple, tuple], int] | None = None
    """The least bytes it must move (default: its arguments' and results')."""
    flops: Callable[[tuple[int, ...]], float] | None = None

    @property
    def path(self) -> Path:
        return PROGRAMS_DIR / f"{self.file}.mlir"


def scatter_moves(args: tuple, results: tuple) -> int:
    """Positions and values read, the destination written in place."""
    return args[1].nbytes + args[2].nbytes + results[0].nbytes


M = 1 << 20
NBODY_FLOPS = 20
"""Floating-point operations a body pair costs in the program (3 sub, 3 mul, 3 add,
sqrt, mul, div, 3 mul, 3 add), the usual n-body count."""

BENCHMARKS = [
    Nested(
        "matmul", "matmul", (4096, 4096, 4096), (9, 17, 13), matmul_inputs, matmul_definition, matmul_xp,
        "matmul", "n k m", tolerance=(1e-6, 0.0), flops=lambda s: 2.0 * s[0] * s[1] * s[2],
    ),
    Nested("stencil3d", "stencil3d", (512, 512, 512), (5, 6, 7), normal_inputs, stencil3d_definition, stencil3d_xp, "memory", "n0 n1 n2"),
    Nested("stencil2d", "stencil2d", (8192, 8192), (9, 13), normal_inputs, stencil2d_definition, stencil2d_xp, "memory", "rows cols"),
    Nested("hist_rows", "hist_rows", (4096, 16384), (7, 50), hist_rows_inputs, hist_rows_definition, hist_rows_xp, "memory", "rows cols"),
    Nested(
        "scatter_rows", "scatter_rows", (4096, 16384), (7, 50), scatter_rows_inputs, scatter_rows_definition, scatter_rows_xp,
        "memory", "rows cols", moves=scatter_moves,
    ),
    Nested(
        "nbody", "nbody", (16384,), (40,), nbody_inputs, nbody_definition, nbody_xp, "compute", "bodies",
        tolerance=(1e-3, 1e-4), flops=lambda s: NBODY_FLOPS * float(s[0]) ** 2,
    ),
    Nested("seg_reduce_few", "segmented_reduce", (64, M), (3, 100), segmented_values, row_sums_definition, row_sums_xp, "segmented", "rows cols"),
    Nested("seg_reduce_many", "segmented_reduce", (M, 64), (100, 3), segmented_values, row_sums_definition, row_sums_xp, "segmented", "rows cols"),
    Nested("seg_scan_few", "segmented_scan", (64, M), (3, 100), segmented_values, row_scans_definition, row_scans_xp, "segmented", "rows cols"),
    Nested("seg_scan_many", "segmented_scan", (M, 64), (100, 3), segmented_values, row_scans_definition, row_scans_xp, "segmented", "rows cols"),
    Nested("seg_hist_few", "segmented_hist", (64, M), (3, 100), bin_numbers, row_hists_definition, row_hists_xp, "segmented", "rows cols"),
    Nested("seg_hist_many", "segmented_hist", (M, 64), (100, 3), bin_numbers, row_hists_definition, row_hists_xp, "segmented", "rows cols"),
]
BY_NAME = {b.name: b for b in BENCHMARKS}


# --- checking ----------------------------------------------------------------------


def mismatch(got, expected, tolerance: tuple[float, float] | None) -> str | None:
    """Why `got` differs from `expected` (result by result), or None when they agree:
    integers exactly, floats within (rtol, atol as a fraction of the largest expected
    magnitude), or exactly where `tolerance` is None (the examples' check)."""
    got, expected = as_tuple(got), as_tuple(expected)
    if len(got) != len(expected):
        return f"{len(got)} results, expected {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        rtol, fraction = tolerance if tolerance is not None else (0.0, 0.0)
        atol = fraction * float(np.max(np.abs(e))) if e.size and e.dtype.kind == "f" else 0.0
        why = examples_mismatch((g,), (e,), rtol, atol)
        if why is not None:
            return why.replace("result 0 ", f"result {i} ", 1)
    return None


def describe(error: BaseException) -> str:
    """The error's type and first line (paths from the repository's root)."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0] if lines else ''}".replace(f"{HERE.parent}/", "")


# --- measuring ---------------------------------------------------------------------


class Device:
    """Where the programs run: arrays there, a clock for a call's device time."""

    def __init__(self, backend: str):
        self.backend = backend
        if backend == "cuda":
            import cupy

            self.xp = cupy
        else:
            self.xp = np

    def put(self, value):
        """The harness's own copy of an argument where the program runs."""
        if isinstance(value, np.ndarray):
            return self.xp.array(value, copy=True)
        return value

    def host(self, value) -> np.ndarray:
        if self.backend == "cuda" and isinstance(value, self.xp.ndarray):
            return self.xp.asnumpy(value)
        return np.asarray(value)

    def time(self, fn: Callable[[], object]) -> float:
        """Seconds fn() takes: device time by CUDA events on the GPU, wall time on the CPU."""
        if self.backend != "cuda":
            started = time.perf_counter()
            fn()
            return time.perf_counter() - started
        start, end = self.xp.cuda.Event(), self.xp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        return self.xp.cuda.get_elapsed_time(start, end) / 1e3

    def release(self) -> None:
        if self.backend == "cuda":
            self.xp.get_default_memory_pool().free_all_blocks()


def copy_bandwidth(device: Device, floats: int, repeat: int) -> float:
    """Bytes per second of a device-to-device copy (read + write) of `floats` f32."""
    xp = device.xp
    a = xp.ones(floats, dtype=xp.float32)
    out = xp.empty_like(a)
    xp.copyto(out, a)
    seconds = statistics.median(device.time(lambda: xp.copyto(out, a)) for _ in range(max(repeat, 3)))
    del a, out
    device.release()
    return 2 * 4 * floats / seconds


NO_KERNELS = "does not compile for the GPU"


def parallelism_report(path: Path, backend: str):
    """The program compiled by soacc-pipeline{report=true} for the backend (on the CPU:
    compiled for the GPU only for its report) and the report's lines, each without its
    `convert-mem-to-gpu: @main: ` prefix."""
    import soacc

    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        program = soacc.compile(path, backend="cuda" if backend == "cuda" else "numpy", pipeline=REPORT_PIPELINE)
    lines = [line.split(": ", 2)[-1] for line in captured.getvalue().splitlines() if line.startswith("convert-mem-to-gpu:")]
    return program, lines


def short_strategy(lines: list[str]) -> str:
    """One report line as a table cell: how the outer level is shared out, and what
    each thread runs sequentially."""
    cells = []
    for line in lines:
        if line.startswith(NO_KERNELS):
            cells.append("no kernels: compile error")
            continue
        how = line.split(": ", 1)[1] if ": " in line else line
        share, _, inside = how.partition("; in each thread: ")
        share = {
            "a thread, a warp or a block per row (by the rows' length)": "group/row",
            "a thread per row": "thread/row",
            "a thread per element of its perfectly nested maps (flattened)": "flat",
        }.get(share, share)
        if share.startswith("a block per tile of its results"):
            share = "tiled"
        elif share.startswith("a thread per element of every row's scatter"):
            share = "flat scatter"
        if inside:
            ops = [part.split(" (as ")[0].split(" %")[0] for part in inside.split(", ")]
            share += ", seq. " + "+".join(o.removeprefix("soac.").removeprefix("mem.") for o in ops)
        cells.append(share)
    return "; ".join(cells) if cells else "-"


def sequential_launches(statistics_) -> list[str]:
    """The call's launches of few threads that ran nested combinators sequentially."""
    return [
        f"{kernel}: each thread runs {seen.inside}; {seen.launches} launch(es), {seen.fewest_threads} threads at fewest"
        for kernel, seen in statistics_.sequential_inside.items()
    ]


def measure(benchmark: Nested, shape: tuple[int, ...], backend: str, repeat: int, seed: int, budget_s: float) -> dict:
    """One program: its report, soacc's and CuPy's results checked against the
    definition, then up to `repeat` timed rounds of each (fewer once they have taken
    `budget_s`; 0: no limit)."""
    row: dict = {"name": benchmark.name, "shape": list(shape), "kind": benchmark.kind}
    device = Device(backend)
    started = time.perf_counter()
    print(f"{benchmark.name} {'x'.join(map(str, shape))}: inputs and definition ...", file=sys.stderr, flush=True)
    pristine = tuple(benchmark.make_inputs(np.random.default_rng(seed), shape))
    expected = as_tuple(benchmark.definition(*(a.copy() for a in pristine)))
    row["bytes"] = (benchmark.moves or (lambda a, r: sum(v.nbytes for v in (*a, *r))))(pristine, expected)
    row["flops"] = benchmark.flops(shape) if benchmark.flops else None

    print(f"{benchmark.name}: soacc ...", file=sys.stderr, flush=True)
    soacc_args = tuple(device.put(a) for a in pristine)
    row["soacc"] = run_soacc(benchmark, soacc_args, expected, device, repeat, budget_s, row)
    del soacc_args
    device.release()
    print(f"{benchmark.name}: {'cupy' if backend == 'cuda' else 'numpy'} ...", file=sys.stderr, flush=True)
    xp_args = tuple(device.put(a) for a in pristine)
    row["cupy"] = run_xp(benchmark, xp_args, pristine, expected, device, repeat, budget_s)
    del xp_args
    device.release()
    row["seconds"] = time.perf_counter() - started
    return row


def outcome(status: str, why: str | None = None, samples: list[float] | None = None) -> dict:
    samples = samples or []
    return {"status": status, "why": why, "samples_s": samples, "median_s": statistics.median(samples) if samples else None}


def timed_rounds(once: Callable[[], float], repeat: int, budget_s: float) -> list[float]:
    samples: list[float] = []
    started = time.perf_counter()
    for _ in range(repeat):
        samples.append(once())
        if budget_s and time.perf_counter() - started > budget_s:
            break
    return samples


def run_soacc(benchmark: Nested, args: tuple, expected: tuple, device: Device, repeat: int, budget_s: float, row: dict) -> dict:
    import soacc

    try:
        program, lines = parallelism_report(benchmark.path, device.backend)
    except Exception as error:  # a compile error is the table's to report
        row["strategy"] = [f"{NO_KERNELS}: {describe(error)}"]
        if device.backend == "cuda":
            return outcome("error", f"compile: {describe(error)}")
    else:
        row["strategy"] = lines
    if device.backend != "cuda":
        try:  # the report's program is the GPU's: the reference executor runs the default pipeline's
            program = soacc.compile(benchmark.path, backend="numpy")
        except Exception as error:
            return outcome("error", f"compile: {describe(error)}")
    try:
        got = tuple(device.host(r) for r in as_tuple(program.main(*args)))
    except Exception as error:
        return outcome("error", describe(error))
    row["sequential_inside"] = sequential_launches(program.statistics)
    why = mismatch(got, expected, benchmark.tolerance)
    if why is not None:
        return outcome("wrong", why)
    if device.backend == "cuda":
        program.profiling = True

        def once() -> float:
            program.main(*args)
            return sum(program.statistics.kernel_time_s.values())
    else:

        def once() -> float:
            started = time.perf_counter()
            program.main(*args)
            return time.perf_counter() - started

    try:
        samples = timed_rounds(once, repeat, budget_s)
    except Exception as error:
        return outcome("error", f"in a timed round: {describe(error)}")
    return outcome("ok", None, samples)


def run_xp(benchmark: Nested, args: tuple, pristine: tuple, expected: tuple, device: Device, repeat: int, budget_s: float) -> dict:
    xp = device.xp
    try:
        got = tuple(device.host(r) for r in as_tuple(benchmark.xp_version(xp, *args)))
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        return outcome("error", f"{describe(error)} ({Path(where.filename).name}:{where.lineno})")
    why = mismatch(got, expected, benchmark.tolerance)
    if why is not None:
        return outcome("wrong", why)
    try:
        samples = timed_rounds(lambda: device.time(lambda: benchmark.xp_version(xp, *args)), repeat, budget_s)
    except Exception as error:
        return outcome("error", f"in a timed round: {describe(error)}")
    return outcome("ok", None, samples)


def measure_in_child(benchmark: Nested, shape: tuple[int, ...], options, limit_s: float) -> dict:
    """measure() in a process of its own, killed after `limit_s` seconds."""
    with tempfile.TemporaryDirectory() as folder:
        result = Path(folder) / "row.json"
        command = [
            sys.executable, str(Path(__file__).resolve()), "--backend", options.backend, "--programs", benchmark.name,
            "--size", f"{benchmark.name}={'x'.join(map(str, shape))}", "--repeat", str(options.repeat),
            "--seed", str(options.seed), "--timeout-per-program", f"{limit_s:g}", "--child", str(result),
        ]
        try:
            done = subprocess.run(command, timeout=limit_s, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except subprocess.TimeoutExpired as expired:
            sys.stderr.write(expired.stderr.decode() if isinstance(expired.stderr, bytes) else expired.stderr or "")
            cause = "--timeout-per-program" if limit_s >= options.timeout_per_program else "what was left of --run-budget"
            return not_measured(benchmark, shape, "timeout", f"killed after {limit_s:g} s ({cause})")
        sys.stderr.write(done.stderr)
        if result.exists():
            return json.loads(result.read_text())
        last = [line for line in done.stderr.splitlines() if line.strip()][-1:] or [f"exit status {done.returncode}"]
        return not_measured(benchmark, shape, "error", f"the child process failed: {last[0]}")


def not_measured(benchmark: Nested, shape: tuple[int, ...], status: str, why: str) -> dict:
    """The row of a program that was not measured (timeout, error, skipped)."""
    return {"name": benchmark.name, "shape": list(shape), "kind": benchmark.kind, "soacc": outcome(status, why),
            "cupy": outcome(status, why), "strategy": [], "bytes": None, "flops": None}


# --- the table ---------------------------------------------------------------------


def derive(row: dict, copy_bw: float | None, backend: str) -> None:
    """The row's ratios, throughputs and targets, from its times."""
    ours, theirs = row["soacc"]["median_s"], row["cupy"]["median_s"]
    row["cupy_over_soacc"] = theirs / ours if ours and theirs else None
    row["gb_s"] = row["bytes"] / ours / 1e9 if ours and row.get("bytes") and row["kind"] in ("memory", "segmented") else None
    row["of_copy"] = row["gb_s"] * 1e9 / copy_bw if row["gb_s"] and copy_bw else None
    row["gflop_s"] = row["flops"] / ours / 1e9 if ours and row.get("flops") else None
    row["cublas_fraction"] = row["cupy_over_soacc"] if row["kind"] == "matmul" else None
    targets = []
    if row["kind"] == "memory":
        targets.append(("copy", row["of_copy"], COPY_TARGET))
    if row["kind"] == "segmented":
        targets.append(("CuPy", row["cupy_over_soacc"], SEGMENTED_TARGET))
    if row["kind"] == "matmul":
        targets.append(("cuBLAS", row["cublas_fraction"], CUBLAS_TARGET))
    else:
        targets.append(("CuPy", row["cupy_over_soacc"], CUPY_TARGET))
    row["targets"] = {f"{name}>={goal:g}": None if value is None else value >= goal for name, value, goal in targets}
    if backend != "cuda":
        row["target_cell"] = "-"  # the issue's targets are the GPU's
    elif any(v is None for v in row["targets"].values()):
        row["target_cell"] = "-"
    else:
        missed = [k for k, v in row["targets"].items() if not v]
        row["target_cell"] = "met" if not missed else "MISSED " + ",".join(missed)


def time_cell(result: dict) -> str:
    if result["median_s"] is not None:
        return f"{result['median_s'] * 1e3:.3f}"
    return {"ok": "untimed", "wrong": "WRONG", "error": "ERROR", "timeout": "TIMEOUT", "skipped": "SKIPPED"}[result["status"]]


def number(value: float | None, form: str) -> str:
    return "-" if value is None else format(value, form)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size (for the CPU)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds (0: check the results only)")
    parser.add_argument("--programs", help=f"comma-separated names (default: all: {', '.join(BY_NAME)})")
    parser.add_argument("--size", action="append", default=[], metavar="NAME=AxB", help="one program's shape (repeatable)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every dimension of every default shape")
    parser.add_argument("--issue-sizes", action="store_true", help="the issue's sizes also for the programs soacc runs slowly today")
    parser.add_argument(
        "--timeout-per-program", type=float, default=None,
        help=f"seconds, each program in a child process (default {DEFAULT_TIMEOUT_S:g} on cuda; 0, in this process, on numpy)",
    )
    parser.add_argument(
        "--run-budget", type=float, default=None,
        help=f"seconds for the whole run (default {DEFAULT_RUN_BUDGET_S:g} on cuda, 0: none): a program's time-out is at most "
        "what is left of it, and a program it cannot start is reported SKIPPED",
    )
    parser.add_argument("--json", type=Path, help="write every measurement to this file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.repeat < 0:
        parser.error(f"--repeat must be 0 or more (got {options.repeat})")
    if options.scale <= 0:
        parser.error(f"--scale must be positive (got {options.scale:g})")
    if options.json and not options.json.parent.is_dir():
        parser.error(f"--json: there is no folder {options.json.parent} (checked before the run, not after it)")
    names = [n for n in (options.programs or "").split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"no program named {', '.join(unknown)} (there are {', '.join(BY_NAME)})")
    overrides = parse_sizes(parser, options.size)
    if options.timeout_per_program is None:
        options.timeout_per_program = DEFAULT_TIMEOUT_S if options.backend == "cuda" else 0.0
    if options.timeout_per_program < 0:
        parser.error(f"--timeout-per-program must be 0 or more (got {options.timeout_per_program:g})")
    if options.run_budget is None:
        options.run_budget = DEFAULT_RUN_BUDGET_S if options.backend == "cuda" else 0.0
    if options.run_budget < 0:
        parser.error(f"--run-budget must be 0 or more (got {options.run_budget:g})")
    chosen = [b for b in BENCHMARKS if not names or b.name in names]
    shapes = {b.name: shape_of(b, options, overrides) for b in chosen}
    budget_s = options.timeout_per_program / 3

    if options.child is not None:  # one program, in a process of its own: its row as JSON
        rows = [measure(b, shapes[b.name], options.backend, options.repeat, options.seed, budget_s) for b in chosen]
        options.child.write_text(json.dumps(rows[0] if len(rows) == 1 else rows))
        return 0

    if options.backend == "cuda":
        usable, why = gpu_usable()
        if not usable:
            print(f"nested: error: no GPU: {why} (use --backend numpy --small)", file=sys.stderr)
            return 2
    started = time.perf_counter()
    device = Device(options.backend)
    copy_floats = 1 << (28 if options.backend == "cuda" else 22)
    copy_bw = copy_bandwidth(device, copy_floats, options.repeat)
    where = device_name(device)
    print(f"nested parallelism (issue 21): backend {options.backend}, {where}; median of up to {options.repeat} rounds, in ms")
    print(
        "soacc ms: its kernels' device time (CUDA events, profiling mode)" if options.backend == "cuda"
        else "soacc ms: a call's wall time on the CPU reference executor; CuPy column: the CuPy versions on NumPy"
    )
    print(f"device-to-device copy of 2^{copy_floats.bit_length() - 1} f32: {copy_bw / 1e9:.0f} GB/s (read + write)")
    print(
        f"targets: memory-bound nests /copy >= {COPY_TARGET}; segmented CuPy/soacc >= {SEGMENTED_TARGET}; "
        f"matmul cuBLAS/soacc >= {CUBLAS_TARGET}; every program CuPy/soacc >= {CUPY_TARGET}"
    )
    if options.timeout_per_program:
        print(f"each program in a process of its own, killed after {options.timeout_per_program:g} s")
    if options.run_budget:
        print(f"the whole run within {options.run_budget:g} s: a program that cannot start before then is SKIPPED")
    for b in chosen:
        shape = shapes[b.name]
        if not options.small and b.name not in overrides and tuple(shape) != scaled(b.issue, options.scale):
            print(f"  {b.name}: {'x'.join(map(str, shape))}, not the issue's {'x'.join(map(str, b.issue))}: {b.why_smaller}")
    print()
    header = (
        f"{'program':16} {'size':>18} {'soacc ms':>10} {'CuPy ms':>10} {'CuPy/soacc':>10} {'GB/s':>7} {'/copy':>6} "
        f"{'GFLOP/s':>8}  {'target':28} strategy"
    )
    print(header)
    print("-" * len(header))
    report = {
        "backend": options.backend, "device": where, "repeat": options.repeat, "seed": options.seed, "small": options.small,
        "copy_bytes_per_s": copy_bw, "timeout_per_program_s": options.timeout_per_program, "run_budget_s": options.run_budget,
        "programs": [],
    }
    soacc_wrong = False
    deadline = started + options.run_budget
    for b in chosen:
        shape = shapes[b.name]
        left = deadline - time.perf_counter() if options.run_budget else float("inf")
        if left < MIN_PROGRAM_S:
            row = not_measured(b, shape, "skipped", "the run's time (--run-budget) was spent")
        elif options.timeout_per_program:
            row = measure_in_child(b, shape, options, min(options.timeout_per_program, left))
        else:
            row = measure(b, shape, options.backend, options.repeat, options.seed, budget_s)
        derive(row, copy_bw, options.backend)
        soacc_wrong |= row["soacc"]["status"] == "wrong"
        print(
            f"{b.name:16} {'x'.join(map(str, shape)):>18} {time_cell(row['soacc']):>10} {time_cell(row['cupy']):>10} "
            f"{number(row['cupy_over_soacc'], '.2f'):>10} {number(row['gb_s'], '.0f'):>7} {number(row['of_copy'], '.2f'):>6} "
            f"{number(row['gflop_s'], '.0f'):>8}  {row['target_cell']:28} {short_strategy(row.get('strategy', []))}",
            flush=True,
        )
        report["programs"].append(row)
    print()
    print("how soacc parallelised each program (soacc-pipeline{report=true}), and the notes:")
    for row in report["programs"]:
        for line in row.get("strategy", []):
            print(f"  {row['name']}: {line}")
        for line in row.get("sequential_inside", []):
            print(f"  {row['name']}: few threads ran nested combinators sequentially: {line}")
        for framework in ("soacc", "cupy"):
            result = row[framework]
            label = framework if options.backend == "cuda" or framework == "soacc" else "numpy"
            if result["why"]:
                print(f"  {row['name']}: {label}: {result['status'].upper()}: {result['why']}")
            elif result["status"] == "ok" and len(result["samples_s"]) < options.repeat:
                print(f"  {row['name']}: {label}: {len(result['samples_s'])} timed round(s) of {options.repeat} (a third of the time-out spent)")
    if options.json and not write_report(options.json, report, "nested"):
        return 2
    return 1 if soacc_wrong else 0


def parse_sizes(parser: argparse.ArgumentParser, specs: list[str]) -> dict[str, tuple[int, ...]]:
    sizes = {}
    for spec in specs:
        name, _, dims = spec.partition("=")
        if name not in BY_NAME:
            parser.error(f"--size {spec}: no program named {name!r} (there are {', '.join(BY_NAME)})")
        try:
            shape = tuple(int(d) for d in dims.lower().split("x"))
        except ValueError:
            parser.error(f"--size {spec}: expected NAME=AxB..., dimensions as whole numbers")
        if len(shape) != len(BY_NAME[name].issue) or min(shape) < 1:
            parser.error(f"--size {spec}: {name} takes {len(BY_NAME[name].issue)} positive dimensions ({BY_NAME[name].what})")
        sizes[name] = shape
    return sizes


def scaled(shape: tuple[int, ...], scale: float) -> tuple[int, ...]:
    return tuple(max(1, round(d * scale)) for d in shape)


def shape_of(benchmark: Nested, options, overrides: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    if benchmark.name in overrides:
        return overrides[benchmark.name]
    if options.small:
        return benchmark.small
    base = benchmark.issue if options.issue_sizes or benchmark.default is None else benchmark.default
    return scaled(base, options.scale)


def gpu_usable() -> tuple[bool, str]:
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False, "benchmarks/nested.py needs CuPy on the GPU"
    from soacc.runtime.gpu import gpu_available

    return gpu_available()


def device_name(device: Device) -> str:
    if device.backend != "cuda":
        return "the CPU (reference executor; NumPy for the CuPy versions)"
    name = device.xp.cuda.runtime.getDeviceProperties(device.xp.cuda.Device().id)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    return f"{name} (CuPy {device.xp.__version__})"


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
