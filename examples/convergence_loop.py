"""convergence_loop: smooth a vector until the largest change drops below eps.

Each outer iteration does ``cfg[1]`` Jacobi sweeps ``v[i] <- 0.25*v[i-1] + 0.5*v[i]
+ 0.25*v[i+1]`` (end points fixed), then measures ``change = max |v_new - v_old|``.
The loop runs while ``it < cfg[0]`` and ``change >= eps``. Returns the final vector,
the number of outer iterations (index), the last change (+inf if no iteration ran)
and a ``cfg[0] x 2`` history whose row ``it`` is ``[it, change]`` (unused rows 0).

Exercises the loop shapes of seed 000 (reduce-device-syncs): ``soac.index`` of an
array element at host level feeding an ``scf.for`` trip count and an ``scf.while``
bound, an ``scf.while`` whose condition reads a ``soac.reduce`` result (a read per
iteration), an ``scf.for`` nested in it, a ``soac.array`` literal of loop-variant
scalars stored into the history with a row ``soac.update`` (the Listing 12/13
pattern), ``soac.replicate`` of a row, and a ``soac.map`` over ``soac.iota`` whose
lambda reads neighbours of a captured array with ``soac.index`` inside ``scf.if``.

Inputs: v0 uniform in [0, 1); cfg = [50, 4]; eps = 1e-3. Short vectors converge in a
few iterations; long ones stop at 50. Every f32 operation is exact or rounded in the
program's order, so the reference matches bit for bit. Size 0 (an empty vector)
stops after one iteration with change 0.
"""

import numpy as np

RTOL = 1e-6
ATOL = 1e-7
DEFAULT_SIZE = 1000

MAX_ITERS = 50
SWEEPS = 4
EPS = 1e-3


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    v0 = rng.random(size, dtype=np.float32)
    cfg = np.array([MAX_ITERS, SWEEPS], dtype=np.int64)
    return v0, cfg, np.float32(EPS)


def reference(v0, cfg, eps):
    maxit, sweeps = int(cfg[0]), int(cfg[1])
    f32 = np.float32
    v = v0.copy()
    it, change = 0, f32(np.inf)
    hist = np.zeros((maxit, 2), dtype=np.float32)
    while it < maxit and change >= eps:
        old = v
        for _ in range(sweeps):
            new = v.copy()
            new[1:-1] = f32(0.25) * v[:-2] + f32(0.5) * v[1:-1] + f32(0.25) * v[2:]
            v = new
        change = f32(np.max(np.abs(v - old), initial=0))
        hist[it] = (it, change)
        it += 1
    return v, np.int64(it), f32(change), hist
