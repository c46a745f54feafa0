"""cfd: a simplified Rodinia CFD: ``steps`` explicit steps over an unstructured mesh,
each cell's four state variables (density, momentum x and y, energy) relaxed towards
the mean of its four neighbours': x_i + 0.1 * ((x[j0] + x[j1] + x[j2] + x[j3]) * 0.25 - x_i).
The thesis's CFD pattern: each step's map reads whole arrays through an index table.

Inputs: ``size`` cells with states uniform in [1, 2) (the momenta in [-1, 1)), a
neighbour table of ``size`` x 4 random cells (as in an unstructured mesh, no locality),
and STEPS steps (size 0: no cells). The reference does the same float32 operations in
the same order; the tolerance allows for a contracted multiply-add on the GPU."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 200_000
SMALL_SIZE = 50
STEPS = 20

f32 = np.float32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    density = rng.uniform(1.0, 2.0, size).astype(f32)
    momentum_x = rng.uniform(-1.0, 1.0, size).astype(f32)
    momentum_y = rng.uniform(-1.0, 1.0, size).astype(f32)
    energy = rng.uniform(1.0, 2.0, size).astype(f32)
    neighbours = rng.integers(0, max(size, 1), (size, 4), dtype=np.int64)
    return density, momentum_x, momentum_y, energy, neighbours, np.int64(STEPS)


def _relax(x, nb):
    total = ((x[nb[:, 0]] + x[nb[:, 1]]) + x[nb[:, 2]]) + x[nb[:, 3]]
    return x + (total * f32(0.25) - x) * f32(0.1)


def reference(density, momentum_x, momentum_y, energy, neighbours, steps):
    state = (density, momentum_x, momentum_y, energy)
    for _ in range(int(steps)):
        state = tuple(_relax(x, neighbours) for x in state)
    return state
