"""lud: LU decomposition without pivoting (futhark-benchmarks rodinia/lud, unblocked):
each step updates the rows below the pivot in place in the matrix (the study's LUD
case, a copy into a slice inside a loop).

Inputs: a diagonally dominant size x size float32 matrix. The reference does the same
float32 operations."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1024
SMALL_SIZE = 48


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    a = rng.random((n, n), dtype=np.float32) + np.float32(n) * np.eye(n, dtype=np.float32)
    return (a,)


def reference(a):
    m = a.copy()
    n = m.shape[0]
    for k in range(n - 1):
        piv = m[k, k]
        l = m[k + 1 :, k] / piv
        m[k + 1 :, k + 1 :] = m[k + 1 :, k + 1 :] - l[:, None] * m[k, k + 1 :][None, :]
        m[k + 1 :, k] = l
    return m
