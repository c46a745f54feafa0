"""Where one call's host time goes (issue 19: a small eager call costs far more than
its copies): a program of K array arguments of N floats (benchmarks/transfers.py's),
called eagerly and with task graphs, timed, then profiled by function with cProfile.
Not a test: nothing is asserted.

    python benchmarks/call_profile.py [--arguments 8] [--floats 4096] [--calls 300] [--top 30] [--on-device]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import numpy as np

import soacc

sys.path.insert(0, str(Path(__file__).parent))
from transfers import program  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arguments", type=int, default=8)
    parser.add_argument("--floats", type=int, default=4096)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--pipeline", default=None, help="the pass pipeline (default: the backend's)")
    parser.add_argument("--on-device", action="store_true", help="CuPy arguments and device results")
    options = parser.parse_args(argv)
    if options.arguments < 2 or options.floats < 0 or options.calls < 1:
        parser.error("--arguments must be at least 2, --floats at least 0 and --calls at least 1")
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"call_profile.py: no GPU: {why}", file=sys.stderr)
        return 2
    k, n = options.arguments, options.floats
    compiled = soacc.compile(program(k), backend="cuda", pipeline=options.pipeline, results="device" if options.on_device else "host")
    args = [np.random.default_rng(i).random(n, dtype=np.float32) for i in range(k)]
    if options.on_device:
        import cupy

        args = [cupy.asarray(a) for a in args]
    for graphs in (False, True):
        compiled.task_graphs = graphs
        main = compiled.main
        for _ in range(20):
            main(*args)
        start = time.perf_counter()
        for _ in range(options.calls):
            main(*args)
        per_call = (time.perf_counter() - start) / options.calls
        print(f"\n== {k} arguments of {n} floats, task graphs {'on' if graphs else 'off'}: {per_call * 1e6:.1f} us a call")
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(options.calls):
            main(*args)
        profile.disable()
        stats = pstats.Stats(profile)
        calls = stats.total_calls / options.calls
        print(f"{calls:.0f} Python function calls a call (profiled)")
        stats.sort_stats("tottime").print_stats(options.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
