"""stencils: four independent stencils, a loop of `steps` smoothing steps each over its
own array: 1-D [1 2 1]/4 (slices), 1-D [1 4 6 4 1]/16 (index arithmetic), 2-D five-point
(centre 1/2, neighbours 1/8) and 2-D 3x3 [1 2 1]/4 in two passes (slices); boundaries
clamped. Size: the 2-D arrays' side (the 1-D arrays have size * size elements); 16 steps."""

import numpy as np

RTOL = 1e-5
ATOL = 1e-6
DEFAULT_SIZE = 64
SMALL_SIZE = 6
STEPS = 16


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 2)
    a, b = (rng.uniform(0.0, 1.0, size=n * n).astype(np.float32) for _ in range(2))
    c, d = (rng.uniform(0.0, 1.0, size=(n, n)).astype(np.float32) for _ in range(2))
    return a, b, c, d, STEPS


def _shift(x, offset, axis):
    """x[i + offset] along `axis`, the index clamped to the array."""
    n = x.shape[axis]
    return np.take(x, np.clip(np.arange(n) + offset, 0, n - 1), axis=axis)


def reference(a, b, c, d, steps):
    a, b, c, d = (x.astype(np.float64) for x in (a, b, c, d))
    for _ in range(steps):
        a = (_shift(a, -1, 0) + 2 * a + _shift(a, 1, 0)) / 4
        b = (_shift(b, -2, 0) + 4 * _shift(b, -1, 0) + 6 * b + 4 * _shift(b, 1, 0) + _shift(b, 2, 0)) / 16
        c = c / 2 + (_shift(c, -1, 0) + _shift(c, 1, 0) + _shift(c, -1, 1) + _shift(c, 1, 1)) / 8
        d = (_shift(d, -1, 0) + 2 * d + _shift(d, 1, 0)) / 4
        d = (_shift(d, -1, 1) + 2 * d + _shift(d, 1, 1)) / 4
    return tuple(x.astype(np.float32) for x in (a, b, c, d))
