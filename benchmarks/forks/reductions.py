"""reductions: eight independent sums of small arrays. Size: elements per array."""

import numpy as np

RTOL = 1e-5
ATOL = 1e-5
DEFAULT_SIZE = 65536
SMALL_SIZE = 16


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    return tuple(rng.uniform(0.0, 1.0, size=n).astype(np.float32) for _ in range(8))


def reference(*xs):
    return tuple(np.float32(np.sum(x.astype(np.float64))) for x in xs)
