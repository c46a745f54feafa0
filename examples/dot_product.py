"""dot_product: ``sum(a * b)`` of two f32 vectors.

Exercises: a two-input ``soac.map`` feeding a commutative ``soac.reduce`` (+), with
the scalar result returned from ``@main``.

The entries are drawn from [0, 1): with non-negative terms the sum grows like n and
a relative tolerance stays meaningful whatever order the implementation adds in.
Size 0 gives empty vectors and the result 0.
"""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    a = rng.random(size, dtype=np.float32)
    b = rng.random(size, dtype=np.float32)
    return a, b


def reference(a, b):
    return np.float32(np.dot(a.astype(np.float64), b.astype(np.float64)))
