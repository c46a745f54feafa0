"""prefix_sum: ``scan (+) 0 (map (\\x -> 3x + 1) xs)`` over i64, the split scan (past
the thesis). Integers, so every device count gives the same bits.

``size`` is the number of elements; they are uniform in [-1000, 1000)."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 64_000_000
SMALL_SIZE = 100


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return (rng.integers(-1000, 1000, size, dtype=np.int64),)


def reference(xs):
    return np.cumsum(3 * xs + 1, dtype=np.int64)
