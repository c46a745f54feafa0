"""convergence: a loop whose `while` condition reads a reduction (the largest change of
a smoothing sweep), with the vector's mean kept by a second reduction that only a kernel
uses (and the input's mean, computed before the loop). Two reads per sweep and one
before the loop; after reduce-device-syncs one per sweep (the condition's, which the
host needs). Size: elements; 50 sweeps."""

import numpy as np

RTOL = 2e-3
ATOL = 2e-3
DEFAULT_SIZE = 1_000_000
SMALL_SIZE = 100
SWEEPS = 50


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 3)
    return rng.uniform(-1.0, 1.0, size=n).astype(np.float32), np.float32(0.0), SWEEPS


def reference(v0, eps, maxit):
    v = v0.astype(np.float64)
    mean0 = v.mean()
    change, it = np.inf, 0
    while it < maxit and change > eps:
        w = v.copy()
        w[1:-1] = 0.25 * v[:-2] + 0.5 * v[1:-1] + 0.25 * v[2:]
        w += mean0 - w.mean()
        change = np.abs(w - v).max()
        v, it = w, it + 1
    return v.astype(np.float32), it
