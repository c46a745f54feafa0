"""Host time of one kernel launch: soacc's prepared launch against a CuPy elementwise
kernel launch, in the same run (run on a GPU machine; it prints a table, it is no test).

    python benchmarks/launch_overhead.py [--launches N]

Both launch a trivial kernel over 1 element N times without synchronising; the host
time per launch is the time to issue them (then one synchronisation, not counted).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

KERNEL = r"""
extern "C" __global__ void bump(float *y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0f;
}
"""


def per_launch_us(issue, synchronize, launches: int, rounds: int = 7, to_completion: bool = False) -> float:
    """Median over `rounds` of the microseconds per call of `launches` calls of `issue`:
    the host time to issue them, or with `to_completion` until the device has done them
    (one synchronisation timed with them)."""
    issue()  # warm up
    synchronize()
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(launches):
            issue()
        if to_completion:
            synchronize()
        samples.append((time.perf_counter() - started) / launches * 1e6)
        synchronize()
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--launches", type=int, default=20000)
    options = parser.parse_args(argv)

    from soacc.runtime.gpu.device import get_device
    from soacc.runtime.gpu.kernels import Kernel, LaunchCounters
    from soacc.runtime.gpu.memory_pool import MemoryPool
    from soacc.runtime.gpu.module_cache import ModuleCache

    device = get_device()
    pool = MemoryPool()
    buffer = pool.allocate(4)
    kernel = Kernel(ModuleCache(device.arch).load(KERNEL, "launch benchmark"), "bump", "Pq", LaunchCounters(), "launch benchmark")
    n = np.int64(1)
    soacc_us = per_launch_us(lambda: kernel((1, 1), (32, 1, 1), buffer.ptr, n), device.synchronize, options.launches)

    rows = [("soacc prepared launch", soacc_us)]
    try:
        import cupy

        x = cupy.zeros(1, dtype=cupy.float32)
        bump = cupy.ElementwiseKernel("", "float32 y", "y += 1.0f", "bump")
        cupy_us = per_launch_us(lambda: bump(x), cupy.cuda.Device().synchronize, options.launches)
        rows.append(("CuPy elementwise launch", cupy_us))
    except ImportError:
        print("CuPy is not installed: no comparison", file=sys.stderr)

    print(f"host time per kernel launch on {device.name} (median of 7 rounds of {options.launches})")
    for name, us in rows:
        print(f"{name:28} {us:8.2f} us")
    if len(rows) == 2:
        print(f"{'ratio soacc / CuPy':28} {rows[0][1] / rows[1][1]:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
