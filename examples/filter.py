"""filter: stream compaction (Futhark's ``filter``) by scan and scatter.

With ``keep = x > t`` if ``above`` else ``x <= t``, returns the kept elements in
order, their positions in x (i64), the mask itself (i1), the number kept (i64) and
whether every element was kept (i1; true for an empty input).

Exercises: i1 values everywhere (an i1 scalar parameter captured by a lambda, a map
producing ``tensor<?xi1>``, ``arith.select`` on i1, ``arith.extui`` i1 -> i32, a
``soac.reduce`` with ``arith.andi`` and an i1 tensor and scalar result), an i32
``soac.scan``, a host-level ``scf.if`` whose branch does a ``soac.index`` read of
the last offset (the read sets the size of the result: a data-dependent size),
``soac.replicate`` of that size, two ``soac.scatter``s with i64 positions where -1
marks a dropped element, and ``soac.iota`` of i64.

Inputs: x uniform in [0, 1), t = 0.5 and ``above`` true for even sizes, t = 0.25 and
``above`` false for odd sizes. Size 0 gives empty results, count 0 and all = true.
"""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    x = rng.random(size, dtype=np.float32)
    if size % 2 == 0:
        return x, np.float32(0.5), np.bool_(True)
    return x, np.float32(0.25), np.bool_(False)


def reference(x, t, above):
    keep = x > t if above else x <= t
    idxs = np.flatnonzero(keep).astype(np.int64)
    return x[keep], idxs, keep, np.int64(idxs.size), np.bool_(keep.all())
