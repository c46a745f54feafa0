"""series: Fourier coefficients by trapezoidal integration (JGF Series), as the
study's series benchmark: the two results are concatenations of one first element
and the rest.

Inputs: the number of coefficients (size, at least 1). The reference computes the same
integrals in the same order in float64."""

import numpy as np

RTOL = 1e-9
ATOL = 1e-12
DEFAULT_SIZE = 100_000
SMALL_SIZE = 1000
STEPS = 64


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return (max(size, 1),)


def reference(n):
    dx = 2.0 / STEPS
    xs = np.zeros(STEPS - 1)
    for k in range(STEPS - 2):
        xs[k + 1] = xs[k] + dx
    inner = xs[1:]
    p = (inner + 1.0) ** inner
    p0, p1 = 1.0 ** 0.0, 3.0 ** 2.0
    r = p0 / 2.0
    for v in p:
        r = r + v
    first = ((r + p1 / 2.0) * dx) / 2.0
    om = np.pi * np.arange(1, n, dtype=np.float64)
    c = np.full(n - 1, p0 / 2.0)
    s = np.zeros(n - 1)
    for x, v in zip(inner, p):
        c = c + v * np.cos(om * x)
        s = s + v * np.sin(om * x)
    c = (c + (p1 * np.cos(om * 2.0)) / 2.0) * dx
    s = (s + (p1 * np.sin(om * 2.0)) / 2.0) * dx
    return np.concatenate([[first], c]), np.concatenate([[0.0], s])
