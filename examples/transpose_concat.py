"""transpose_concat: array construction and rearrangement around ``S = M + M^T``.

From a vector v of length n: ``M[i][j] = v[j]*(i+1) + j`` and ``S = M + M^T``. Returns
``S``; ``R``, the rows of S reordered even-indexed first then odd-indexed; the
diagonal of S; ``L = [v, diag]`` (2 x n); ``C``, a copy of S with its even rows
negated; and ``D = S[:, 1::2]``, the odd columns.

Exercises: ``soac.replicate`` of a row, ``soac.iota`` of i64, i32 and index, nested
``soac.map``s (with i64 and i32 -> f32 conversions), ``soac.transpose``, strided
``soac.slice``s on rows and on columns, ``soac.concat`` of matrices, ``soac.index``
inside a lambda, a ``soac.array`` literal whose elements are rows, ``soac.copy``, a
strided ``soac.update`` of a block of rows, ``arith.negf``, and ``soac.size``.

The reference rounds every f32 operation in the program's order, so the results
match bit for bit unless an implementation contracts ``x*fi + fj`` into a fused
multiply-add (hence the small tolerances; entries of S can cancel to near 0). Size 0 (an empty vector) gives empty results (L is 2 x 0).
"""

import numpy as np

RTOL = 1e-6
ATOL = 1e-5
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    v = rng.uniform(-1.0, 1.0, size=size).astype(np.float32)
    return (v,)


def reference(v):
    n = v.size
    i = np.arange(n)
    m = v[None, :] * (i + 1).astype(np.float32)[:, None] + i.astype(np.float32)[None, :]
    s = m + m.T
    r = np.concatenate([s[0::2], s[1::2]])
    diag = np.diagonal(s).copy()
    lit = np.stack([v, diag])
    c = s.copy()
    c[0::2] = -s[0::2]
    d = np.ascontiguousarray(s[:, 1::2])
    return s, r, diag, lit, c, d
