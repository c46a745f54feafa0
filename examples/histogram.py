"""histogram: 256-bin histogram of f32 data with ``soac.hist``.

For data x, the bin of x[i] is ``int(x[i] * 256)`` (truncated toward zero). Returns
``counts[b]``, the number of elements in bin b, and ``last[b]``, the largest
position i with x[i] in bin b (-1 for an empty bin).

Exercises: ``soac.map`` computing i32 bin indices (``arith.fptosi``), two
``soac.hist`` ops (a (+) histogram of ones and a ``max`` histogram of positions,
with i32 indices), ``soac.replicate`` (static and dynamic sizes), ``soac.iota`` of
i32, ``soac.size``, and hist's rule that out-of-range indices are ignored.

About 90% of the data is uniform in [0, 1); the rest is in [-1, 0) or [1, 2), so
that some bins are negative or >= 256 (ignored). Values in (-1/256, 0) truncate to
bin 0. Size 0 gives all-zero counts and all -1 positions.
"""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1000

NBINS = 256


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    x = rng.random(size, dtype=np.float32)
    outliers = rng.random(size) < 0.1
    shift = np.where(rng.random(size) < 0.5, -1.0, 1.0).astype(np.float32)
    x = np.where(outliers, x + shift, x).astype(np.float32)
    return (x,)


def reference(x):
    bins = (x * np.float32(NBINS)).astype(np.int32)  # astype truncates toward zero
    valid = (bins >= 0) & (bins < NBINS)
    counts = np.bincount(bins[valid], minlength=NBINS).astype(np.int32)
    last = np.full(NBINS, -1, dtype=np.int32)
    positions = np.arange(x.size, dtype=np.int32)
    np.maximum.at(last, bins[valid], positions[valid])
    return counts, last
