"""literal_loop_2: Listing 12 of the study, an array literal [1, v] of a loop-variant
scalar built in every iteration of a loop. Size: iterations (the study runs 1000)."""

import numpy as np

RTOL = 0.0
DEFAULT_SIZE = 1000
SMALL_SIZE = 10


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return np.zeros(2, np.int64), np.int64(rng.integers(0, 100)), size


def reference(a0, v0, n):
    if n == 0:
        return a0, np.int64(v0)
    return np.array([1, v0 + n - 1], np.int64), np.int64(v0 + n)
