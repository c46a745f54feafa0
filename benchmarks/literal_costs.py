"""What reduce-device-syncs trades in an array-literal loop (the study's Listings 12 and
13), on this GPU: the host-to-device transfer of a literal built on the host against the
one-thread gpu_body launch that builds it on the device, each timed to completion
(issued `--launches` times, then one synchronisation), beside CuPy's launch of the same
one-thread kernel and the whole literal_loop_2 program with the passes off and on.

    python benchmarks/literal_costs.py [--launches N]

Run on a GPU machine; it prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from launch_overhead import per_launch_us  # (a sibling script: run from benchmarks/)

ROOT = Path(__file__).resolve().parent
PROGRAM = ROOT / "device_syncs" / "literal_loop_2.mlir"


def per_call_us(call, synchronize, calls: int) -> float:
    return per_launch_us(call, synchronize, calls, to_completion=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--launches", type=int, default=1000)
    options = parser.parse_args(argv)

    import soacc
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"literal_costs: error: no GPU: {why}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(PROGRAM.parent))
    import literal_loop_2

    args = literal_loop_2.make_inputs(np.random.default_rng(0), options.launches)
    rows = []
    for label, pipeline in (("literal_loop_2, passes off", "soacc-pipeline{syncs=false}"), ("literal_loop_2, passes on", "soacc-pipeline")):
        program = soacc.compile(PROGRAM, backend="cuda", pipeline=pipeline)
        program.main(*args)
        times = []
        for _ in range(9):
            started = time.perf_counter()
            program.main(*args)
            times.append(time.perf_counter() - started)
        rows.append((f"{label} (per iteration)", statistics.median(times) / options.launches * 1e6))

    runtime = program.executor.runtime  # the program with the passes: it has gpu_body0
    memory = runtime.memory
    synchronize = memory.synchronize
    block = runtime.alloc_device(16)
    literal = block.view(0, (2,), None, np.int64)
    w = np.int64(5)
    rows.append(("gpu_body0 launch", per_call_us(lambda: runtime.launch("gpu_body0", (1, 1, 1), (1, 1, 1), w, *literal.kernel_args), synchronize, options.launches)))
    rows.append(("16-byte host-to-device write", per_call_us(lambda: memory.write(literal.address, np.array([1, w], np.int64)), synchronize, options.launches)))
    rows.append(("the literal as soacc builds it on the host", per_call_us(lambda: runtime.array([np.int64(1), w], literal), synchronize, options.launches)))
    try:
        import cupy

        kernel = cupy.RawKernel(r'extern "C" __global__ void f(long long *y, long long w) { y[0] = 1; y[1] = w; }', "f")
        y = cupy.zeros(2, cupy.int64)
        rows.append(("CuPy launch of the same kernel", per_call_us(lambda: kernel((1,), (1,), (y, w)), cupy.cuda.Device().synchronize, options.launches)))
    except ImportError:
        rows.append(("CuPy launch of the same kernel", float("nan")))

    print(f"{options.launches} calls, each to completion (median of 7 rounds)")
    for label, us in rows:
        print(f"{label:48} {us:8.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
