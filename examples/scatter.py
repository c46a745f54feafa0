"""scatter: inverse of a partial permutation, and data moved by it.

``perm`` is a permutation of 0..n-1 in which about 10% of the entries were replaced
by the out-of-bounds values n or -1. Returns ``inv`` with ``inv[perm[i]] = i``
(-1 where nothing was written) and ``moved`` with ``moved[perm[i]] = 2*data[i] + 1``
(0 where nothing was written).

Exercises: ``soac.scatter`` with i64 indices into ``soac.replicate``d destinations,
out-of-bounds indices being ignored (Futhark semantics; there are no duplicate
in-bounds indices, so the result is deterministic), ``soac.iota`` of i64 and a
``soac.map`` producing the values. For n >= 2 at least one index is n and one is -1.
"""

import numpy as np

RTOL = 1e-6
ATOL = 0.0
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    perm = rng.permutation(size).astype(np.int64)
    dropped = rng.random(size) < 0.1
    if size >= 2:
        dropped[rng.choice(size, 2, replace=False)] = True
    perm[dropped] = np.where(rng.random(int(dropped.sum())) < 0.5, size, -1)
    if size >= 2:
        idx = np.flatnonzero(dropped)
        perm[idx[0]], perm[idx[1]] = size, -1
    data = rng.uniform(-10.0, 10.0, size=size).astype(np.float32)
    return perm, data


def reference(perm, data):
    n = perm.size
    ok = (perm >= 0) & (perm < n)
    inv = np.full(n, -1, dtype=np.int64)
    inv[perm[ok]] = np.flatnonzero(ok)
    moved = np.zeros(n, dtype=np.float32)
    moved[perm[ok]] = data[ok] * np.float32(2) + np.float32(1)
    return inv, moved
