"""gauss_jordan: solve ``A x = b`` by Gauss-Jordan elimination with partial pivoting.

Returns x (f32), compared with ``numpy.linalg.solve`` on the same system.

Exercises, per elimination step inside an ``scf.for`` over a tensor: a column
``soac.slice`` (range and fixed index), a two-array (tuple) ``soac.reduce`` argmax
with ``arith.select`` and an index-typed tie-break, host-level ``soac.index`` reads
(the pivot value and whole rows), ``soac.copy`` of rows, a row swap with two
``soac.update`` ops, and the elimination as a ``soac.map`` over (``soac.iota``, rows)
holding an ``scf.if`` and a nested ``soac.map``. The augmented matrix is built with a
one-element ``soac.array`` and ``soac.concat`` per row; the solution is read back as
a column ``soac.slice``.

Inputs: n = size clamped to 1..64 (at least one unknown: a map over zero rows
could not tell the width n+1 of the augmented matrix). A is a row-shuffled
strictly diagonally dominant matrix (uniform off-diagonal entries in (-1, 1),
diagonal entries in (n, n+2)), so it is well conditioned, pivoting has to swap rows
back into place, and the pivot choice has no near-ties. b is uniform in
(-n, n), so x is of order 1.
"""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = min(max(size, 1), 64)
    d = rng.uniform(-1.0, 1.0, size=(n, n))
    d[np.diag_indices(n)] = n + rng.uniform(0.0, 2.0, size=n)
    a = d[rng.permutation(n)].astype(np.float32)
    b = (n * rng.uniform(-1.0, 1.0, size=n)).astype(np.float32)
    return a, b


def reference(a, b):
    return np.linalg.solve(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
