"""pathfinder (futhark-benchmarks rodinia/pathfinder): dynamic programming over the rows
of a wall of costs 0..9 (the benchmark makes them with a Sobol sequence; random here).
No host read of a scalar: the passes must leave it as it is. Size: columns; 100 rows."""

import numpy as np

RTOL = 0.0
DEFAULT_SIZE = 100_000
SMALL_SIZE = 50
ROWS = 100


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return (rng.integers(0, 10, size=(ROWS, max(size, 1))).astype(np.int32),)


def reference(wall):
    result = wall[0].copy()
    for t in range(1, wall.shape[0]):
        best = result.copy()
        best[1:] = np.minimum(best[1:], result[:-1])
        best[:-1] = np.minimum(best[:-1], result[1:])
        result = wall[t] + best
    return result
