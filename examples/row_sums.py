"""row_sums: per-row sums and maxima of an f32 matrix.

Returns ``(a.sum(axis=1), a.max(axis=1))``; an empty row has sum 0 and max -inf.

Exercises: a ``soac.map`` over the rows of a ``tensor<?x?xf32>`` with two results,
whose lambda receives a row (``tensor<?xf32>``) and holds two nested commutative
``soac.reduce`` ops (+ and ``arith.maximumf``): segmented reductions. The max
reduction's neutral element is -inf, written as the hex float 0xFF800000.

Shape: ``size`` rows of ``size % 17`` columns (1 x 1 for size 1, 7 x 7 for size 7,
1000 x 14 for size 1000); size 0 gives a 0 x 0 matrix, and multiples of 17 give
rows of no columns (sums 0, maxima -inf). Entries are uniform in [0, 1) so that the
row sums have no cancellation.
"""

import numpy as np

RTOL = 1e-5
ATOL = 1e-6
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    a = rng.random((size, size % 17), dtype=np.float32)
    return (a,)


def reference(a):
    sums = a.astype(np.float64).sum(axis=1).astype(np.float32)
    maxs = np.max(a, axis=1, initial=-np.inf).astype(np.float32)
    return sums, maxs
