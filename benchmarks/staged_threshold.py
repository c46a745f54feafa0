"""Where staged copies start to pay (runtime/gpu/staged_copies.py's STAGED_FROM): one
argument of 1 to 64 MB uploaded and reduced, its upload through the driver's own copy
of pageable memory, through soacc's staged copies, and from page-locked memory
(soacc.host_array). Median of `--repeat` calls, ms. Not a test: nothing is asserted.

    python benchmarks/staged_threshold.py [--sizes-mb 1,2,3,4,6,8,12,16,24,32,64] [--repeat 25]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import soacc

sys.path.insert(0, str(Path(__file__).parent))
from transfers import parse_sizes, timed  # noqa: E402

SUM = """func.func @main(%a: tensor<?xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb1(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    soac.yield %m : f32
  }
  func.return %s : f32
}"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", dest="sizes", default="1,2,3,4,6,8,12,16,24,32,64")
    parser.add_argument("--repeat", type=int, default=25)
    options = parser.parse_args(argv)
    sizes = parse_sizes(parser, options.sizes, "--sizes-mb")
    if options.repeat < 1 or any(mb < 1 for mb in sizes):
        parser.error("--repeat and every size must be at least 1")
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"staged_threshold.py: no GPU: {why}", file=sys.stderr)
        return 2
    # (borrow=false: a borrow would skip the upload being timed; graphs off: eager copies)
    program = soacc.compile(SUM, backend="cuda", pipeline="soacc-pipeline{borrow=false}")
    program.task_graphs = False
    memory = program.executor.memory
    print("MB   driver  staged  pinned  (upload of one argument + a reduce), ms")
    for mb in sizes:
        n = mb * (1 << 20) // 4
        pageable = np.random.default_rng(0).random(n, dtype=np.float32)
        pinned = soacc.host_array(n)
        pinned[:] = pageable
        memory.staging_on = False
        driver = timed(lambda: program.main(pageable), options.repeat)
        memory.staging_on = True
        staged = timed(lambda: program.main(pageable), options.repeat)
        locked = timed(lambda: program.main(pinned), options.repeat)
        print(f"{mb:3d} {driver * 1e3:7.3f} {staged * 1e3:7.3f} {locked * 1e3:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
