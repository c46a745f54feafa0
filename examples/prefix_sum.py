"""prefix_sum: inclusive and exclusive prefix sums of an i32 vector.

Returns ``(cumsum(a), [0, cumsum(a)[:-1]...])`` with wrapping (two's-complement)
i32 addition.

Exercises: ``soac.scan`` (+) with a neutral element, ``soac.size``, a one-element
``soac.array`` literal, ``soac.concat`` and a ``soac.slice`` (offset:count).

The entries are drawn from the whole i32 range, so the sums do wrap around; size 0
gives two empty results.
"""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    info = np.iinfo(np.int32)
    a = rng.integers(info.min, info.max, size=size, endpoint=True, dtype=np.int32)
    return (a,)


def reference(a):
    # cumsum with an explicit int32 accumulator wraps around like i32 addition.
    incl = np.cumsum(a, dtype=np.int32)
    excl = np.concatenate([np.zeros(1, np.int32), incl[:-1]]) if a.size else incl.copy()
    return incl, excl
