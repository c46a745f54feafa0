"""What soac-fusion buys (issue 5's table): each program with fusion off and on, CuPy's
natural expression of the same computation, and one pass over the program's inputs,
all measured in the same run.

Programs (at 2^28 f32 elements by default): sum(x*x + 1) (a map, a map and a reduce),
the vector norm of seed 000's Listing 1 (examples/vector_norm.mlir), the dot product
(examples/dot_product.mlir) and a chain of five maps. For each: the kernels launched and
the device bytes allocated without and with fusion, the time of both, and the fused
time over the time of one pass over the inputs, which is measured as a device-to-device
copy of the input bytes (target: within 1.1x), and CuPy's time over the fused time
(target for sum(x*x + 1): 7x or more). Every result is checked against NumPy.

    python benchmarks/fusion.py                          # on the GPU (needs PyCUDA and CuPy)
    python benchmarks/fusion.py --backend numpy --small  # on the CPU reference executor

On the GPU the times are the device time of the kernels (CUDA events around each launch,
the backend's profiling; transfers of arguments and results are not counted) and of
CuPy's kernels; on the reference executor they are the wall time of a call (which
includes its copies to and from "device" memory), and there is no CuPy column. Prints a
table; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

SUM_SQUARES_PLUS_ONE = """
func.func @main(%x: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sq = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %v : f32
    soac.yield %s : f32
  }
  %inc = soac.map(%sq) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %s = arith.addf %v, %one : f32
    soac.yield %s : f32
  }
  %sum = soac.reduce(%inc) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %sum : f32
}
"""

MAP_CHAIN_5 = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %m1 = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %two : f32
    soac.yield %r : f32
  }
  %m2 = soac.map(%m1) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.addf %v, %one : f32
    soac.yield %r : f32
  }
  %m3 = soac.map(%m2) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    soac.yield %r : f32
  }
  %m4 = soac.map(%m3) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.subf %v, %half : f32
    soac.yield %r : f32
  }
  %m5 = soac.map(%m4) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %half : f32
    soac.yield %r : f32
  }
  func.return %m5 : tensor<?xf32>
}
"""


def cases(xp):
    """(name, program, number of f32 inputs, NumPy/CuPy function of the inputs) per case:
    `xp` is numpy (the check) or cupy (CuPy's natural expression)."""
    return [
        ("sum(x*x + 1)", SUM_SQUARES_PLUS_ONE, 1, lambda x: (x * x + 1).sum()),
        ("vector norm", (ROOT / "examples" / "vector_norm.mlir").read_text(), 1, lambda x: x / xp.sqrt((x * x).sum())),
        ("dot product", (ROOT / "examples" / "dot_product.mlir").read_text(), 2, lambda a, b: xp.dot(a, b)),
        ("5-stage map chain", MAP_CHAIN_5, 1, lambda x: ((x * 2 + 1) ** 2 - 0.5) * 0.5),
    ]


PIPELINES = {
    # (fusion off, fusion on) per backend: the pipeline each backend runs by default
    "cuda": ("soacc-pipeline{fusion=false}", "soacc-pipeline{fusion=true}"),
    "numpy": ("canonicalize,cse,convert-soac-to-mem", "canonicalize,cse,soac-fusion,convert-soac-to-mem"),
}


def _median(times: list[float]) -> float:
    return statistics.median(times)


# Columns: kernels launched and device megabytes allocated without -> with fusion; the
# time without and with fusion and their ratio; one pass over the inputs (a device copy
# of their bytes) and the fused time over it; CuPy's time and its ratio to the fused time.


class CpuClock:
    """Times on the reference executor: wall time of a call; a pass over the inputs is
    a NumPy copy of them."""

    name = "numpy"

    def program_time(self, program, args, repeat: int) -> float:
        program.main(*args)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            program.main(*args)
            times.append(time.perf_counter() - start)
        return _median(times)

    def copy_time(self, args, repeat: int) -> float:
        outs = [np.empty_like(a) for a in args]
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            for a, o in zip(args, outs):
                np.copyto(o, a)
            times.append(time.perf_counter() - start)
        return _median(times)

    def cupy_time(self, fn, args, repeat: int) -> float | None:
        return None


class GpuClock:
    """Times on the GPU: the device time of the program's kernels (profiling), of a
    device-to-device copy of the inputs, and of CuPy's kernels (CUDA events)."""

    name = "cuda"

    def __init__(self, cp):
        self.cp = cp

    def events(self, fn, repeat: int) -> float:
        cp = self.cp
        fn()
        times = []
        for _ in range(repeat):
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) / 1e3)
        return _median(times)

    def program_time(self, program, args, repeat: int) -> float:
        program.main(*args)  # compile, warm the memory pool
        program.profiling = True
        times = []
        for _ in range(repeat):
            program.main(*args)
            times.append(sum(program.statistics.kernel_time_s.values()))
        program.profiling = False
        return _median(times)

    def copy_time(self, args, repeat: int) -> float:
        ins = [self.cp.asarray(a) for a in args]
        outs = [self.cp.empty_like(a) for a in ins]
        return self.events(lambda: [self.cp.copyto(o, a) for a, o in zip(ins, outs)], repeat)

    def cupy_time(self, fn, args, repeat: int) -> float:
        ins = [self.cp.asarray(a) for a in args]
        return self.events(lambda: fn(*ins), repeat)


def _agrees(got, want) -> bool:
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=1e-3, atol=1e-3))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--log2n", type=int, default=28, help="elements per input: 2^log2n f32 (default 28)")
    parser.add_argument("--small", action="store_true", help="2^16 elements (for the CPU reference executor)")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args(argv)
    import soacc

    if options.backend == "cuda":
        try:
            import cupy as cp
        except ImportError:
            print("benchmarks/fusion.py --backend cuda needs CuPy (or run --backend numpy --small)", file=sys.stderr)
            return 2
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            print(f"benchmarks/fusion.py --backend cuda needs a GPU: {why}", file=sys.stderr)
            return 2
        clock = GpuClock(cp)
        device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        xp = cp
    else:
        clock, device, xp = CpuClock(), "the CPU reference executor (NumPy)", np
    log2n = 16 if options.small else options.log2n
    n = 1 << log2n
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(n, dtype=np.float32) for _ in range(2)]
    print(f"{device}, n = 2^{log2n} f32, median of {options.repeat}")
    header = (
        f"{'program':18} {'kernels':>8} {'device MB':>12} {'off ms':>9} {'on ms':>9} {'off/on':>7} "
        f"{'pass ms':>8} {'on/pass':>8} {'CuPy ms':>9} {'CuPy/on':>8}  check"
    )
    print(header)
    print("-" * len(header))
    failures: list[str] = []
    for name, source, arity, natural in cases(xp):
        args = inputs[:arity]
        want = cases(np)[[c[0] for c in cases(np)].index(name)][3](*args)
        row = {}
        for label, pipeline in zip(("off", "on"), PIPELINES[clock.name]):
            try:
                program = soacc.compile(source, backend=clock.name, pipeline=pipeline)
                got = program.main(*args)
                row[label] = (clock.program_time(program, args, options.repeat), program.statistics, _agrees(got, want))
            except soacc.SoaccError as error:
                row[label] = str(error).splitlines()[0]
        if isinstance(row["off"], str):
            print(f"{name:18} failed without fusion: {row['off']}")
            continue
        one_pass = clock.copy_time(args, options.repeat)
        theirs = clock.cupy_time(natural, args, options.repeat)
        t_off, s_off, ok = row["off"]
        if isinstance(row["on"], str):
            # no fused kernels yet: the unfused side of the table, and why not the fused one
            cupy = f"{theirs * 1e3:9.3f} {'-':>8}" if theirs is not None else f"{'-':>9} {'-':>8}"
            print(
                f"{name:18} {f'{s_off.kernel_launches}->?':>8} {f'{_mb(s_off):.1f}->?':>12} {t_off * 1e3:9.3f} "
                f"{'-':>9} {'-':>7} {one_pass * 1e3:8.3f} {'-':>8} {cupy}  {'ok' if ok else 'WRONG'}"
            )
            failures.append(f"{name}: fusion on: {row['on']}")
            continue
        t_on, s_on, ok_on = row["on"]
        cupy = f"{theirs * 1e3:9.3f} {theirs / t_on:8.2f}" if theirs is not None else f"{'-':>9} {'-':>8}"
        print(
            f"{name:18} {f'{s_off.kernel_launches}->{s_on.kernel_launches}':>8} "
            f"{f'{_mb(s_off):.1f}->{_mb(s_on):.1f}':>12} {t_off * 1e3:9.3f} {t_on * 1e3:9.3f} {t_off / t_on:7.2f} "
            f"{one_pass * 1e3:8.3f} {t_on / one_pass:8.2f} {cupy}  {'ok' if ok and ok_on else 'WRONG'}"
        )
    for line in failures:
        print(line)
    return 0


def _mb(stats) -> float:
    device = stats.spaces.get("device")
    return device.bytes_allocated / 1e6 if device is not None else 0.0


if __name__ == "__main__":
    sys.exit(main())
