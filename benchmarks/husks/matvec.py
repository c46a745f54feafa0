"""matvec: a matrix-vector product ``mat @ vec`` (f32), a map over the rows of a
redomap: the thesis's matrix-vector pattern (rows split, the vector broadcast).

``size`` is the number of matrix entries: a square matrix of isqrt(size) rows and
columns (4000 x 4000 for the default size; 0 x 0 for size 0, 1 x 1 for size 1), and a
vector of as many entries. Entries are uniform in [0, 1), so that the sums have no
cancellation and a relative tolerance holds whatever order the implementation adds in."""

import math

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 16_000_000
SMALL_SIZE = 100


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = math.isqrt(size)
    mat = rng.random((n, n), dtype=np.float32)
    vec = rng.random(n, dtype=np.float32)
    return mat, vec


def reference(mat, vec):
    return (mat.astype(np.float64) @ vec.astype(np.float64)).astype(np.float32)
