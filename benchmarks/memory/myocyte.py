"""myocyte: explicit time stepping of a cardiac myocyte model for many cells (Rodinia's
myocyte, futhark-benchmarks rodinia/myocyte) in skeleton: three modules of equations
concatenated into the right-hand side, an Euler step, inside a time loop.

Inputs: size cells of 91 state variables in [0, 1), and 20 time steps."""

import numpy as np

RTOL = 1e-5
ATOL = 1e-6
DEFAULT_SIZE = 65536
SMALL_SIZE = 256
STEPS = 20


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return rng.random((size, 91), dtype=np.float32), STEPS


def reference(y0, steps):
    f = np.float32
    y = y0.copy()
    for _ in range(steps):
        a, b = y[:, :46], y[:, 45:91]
        ecc = b - (a * b) * f(0.5)
        c = y[:, 46:61]
        cam = np.exp(c) * f(0.25) - c
        d, e = y[:, 61:91], y[:, :30]
        sr = (d / (f(1.0) + e)) * f(0.1)
        rhs = np.concatenate([ecc, cam, sr], axis=1)
        y = y + f(0.01) * rhs
    return y
