"""gauss_jordan: Gauss-Jordan elimination with partial pivoting (the program that
motivated the study): every step picks its pivot row by an argmax reduction, reads the
pivot's index (it decides which rows to swap, on the host) and the pivot's value (a map
divides by it). reduce-device-syncs leaves the index's read and moves the value's to
the device: one read per step instead of two. Size: unknowns n (an n x n system)."""

import numpy as np

PROGRAM = "../../examples/gauss_jordan.mlir"
"""The example itself, here unclamped in size (the example's inputs stop at 64)."""
RTOL = 1e-3
ATOL = 1e-4
DEFAULT_SIZE = 256
SMALL_SIZE = 8


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    d = rng.uniform(-1.0, 1.0, size=(n, n))
    d[np.diag_indices(n)] = n + rng.uniform(0.0, 2.0, size=n)
    a = d[rng.permutation(n)].astype(np.float32)
    b = (n * rng.uniform(-1.0, 1.0, size=n)).astype(np.float32)
    return a, b


def reference(a, b):
    return np.linalg.solve(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
