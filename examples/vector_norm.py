"""vector_norm: Listing 1 of seed 000.

Computes ``A / sqrt(sum(A * A))``, the vector scaled to unit Euclidean length.

Exercises: ``soac.map`` (squares), a commutative ``soac.reduce`` (+) whose scalar
result is used at host level (``math.sqrt`` on the host: the synchronous read that
``reduce-device-syncs`` removes), and a second ``soac.map`` capturing that host
scalar as a free variable.

Inputs are drawn from [0.5, 1.5) so the norm is never zero (an all-zero vector would
give 0/0 = NaN); size 0 gives an empty vector and an empty result.
"""

import numpy as np

RTOL = 1e-4
ATOL = 1e-6
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    a = rng.uniform(0.5, 1.5, size=size).astype(np.float32)
    return (a,)


def reference(a):
    norm = np.sqrt(np.sum(a.astype(np.float64) ** 2))
    return (a / norm).astype(np.float32)
