"""literal_loop_10: Listing 13 of the study, an array literal of ten scalars (one of them
loop-variant) built in every iteration of a loop. Size: iterations (the study runs 1000)."""

import numpy as np

RTOL = 0.0
DEFAULT_SIZE = 1000
SMALL_SIZE = 10


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return np.zeros(10, np.int64), np.int64(rng.integers(0, 100)), size


def reference(a0, v0, n):
    if n == 0:
        return a0, np.int64(v0)
    return np.array([1, v0 + n - 1, 0, 1, 1, 1, 0, 0, 1, 1], np.int64), np.int64(v0 + n)
