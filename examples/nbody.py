"""nbody: direct-sum gravitational n-body simulation in f64.

Each of ``steps`` semi-implicit Euler steps computes every body's acceleration
``a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + 0.01)^(3/2)`` (softened, G = 1; the
j = i term is 0), then ``v += dt*a`` and ``p += dt*v``. Returns the final positions
and velocities (n x 3).

Exercises: f64 throughout (tensors and an f64 scalar parameter), static inner
dimensions (``tensor<?x3xf64>`` with rows ``tensor<3xf64>``), an ``scf.for`` with two
tensor iteration arguments and an index trip count, a ``soac.map`` over bodies whose
lambda holds a three-result ``soac.map`` over all bodies and a three-array (tuple)
``soac.reduce``, ``soac.index`` of row components, ``math.sqrt``, a ``soac.array``
literal of three reduction results as the lambda's row result, and maps of maps.

Inputs: ``size`` bodies with positions uniform in [-1, 1)^3, small random
velocities, masses uniform in [0.5, 1.5) / n; dt = 0.01 and 5 steps. Size 0 gives
empty results.
"""

import numpy as np

RTOL = 1e-9
ATOL = 1e-12
DEFAULT_SIZE = 500

EPS2 = 0.01
STEPS = 5


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    pos = rng.uniform(-1.0, 1.0, size=(size, 3))
    vel = rng.normal(0.0, 0.1, size=(size, 3))
    mass = rng.uniform(0.5, 1.5, size=size) / max(size, 1)
    return pos, vel, mass, np.float64(0.01), np.int64(STEPS)


def reference(pos, vel, mass, dt, steps):
    pos, vel = pos.copy(), vel.copy()
    for _ in range(int(steps)):
        d = pos[None, :, :] - pos[:, None, :]  # d[i, j] = p_j - p_i
        r2 = (d * d).sum(axis=2) + EPS2
        acc = (d * (mass[None, :] / (r2 * np.sqrt(r2)))[:, :, None]).sum(axis=1)
        vel = vel + dt * acc
        pos = pos + dt * vel
    return pos, vel
