"""Runs one operation of benchmarks/kernels.py once on the GPU, for a profiler:

    ncu --kernel-name regex:scan --launch-skip 2 --launch-count 1 python benchmarks/run_once.py scan --log2n 26

Operations: map, sum, fused_sum, max_by_key, scan, row_sums, hist, scatter. The program is run
twice (the first compiles and warms the memory pool); asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import kernels  # noqa: E402  (benchmarks/kernels.py: the programs)

import soacc  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("operation", choices=["map", "sum", "fused_sum", "max_by_key", "scan", "row_sums", "hist", "scatter"])
    parser.add_argument("--log2n", type=int, default=26)
    options = parser.parse_args(argv)
    n = 1 << options.log2n
    side = 1 << (options.log2n // 2)
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    cases = {
        "map": (kernels.MAP_ADD, (a, a)),
        "sum": (kernels.SUM, (a,)),
        "fused_sum": (kernels.SUM_SQUARES_PLUS_ONE, (a,)),
        "max_by_key": (kernels.MAX_BY_KEY, (a, np.arange(n, dtype=np.int32))),
        "scan": (kernels.SCAN, (a,)),
        "row_sums": (kernels.ROW_SUMS, (a[: side * side].reshape(side, side),)),
        "hist": (kernels.HIST, (rng.integers(0, 256, n, dtype=np.int32), np.ones(n, np.int32))),
        "scatter": (kernels.SCATTER, (np.zeros(n, np.float32), rng.permutation(n).astype(np.int32), a)),
    }
    source, args = cases[options.operation]
    program = soacc.compile(source, backend="cuda")
    program.main(*args)
    program.main(*args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
