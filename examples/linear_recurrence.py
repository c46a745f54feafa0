"""linear_recurrence: ``x[i] = a[i] * x[i-1] + b[i]`` with ``x[-1] = x0`` (f64).

Returns all of x and its last value (x0 when n = 0). The program solves the
recurrence in parallel: the affine maps ``x -> a[i]*x + b[i]`` are composed by a
scan (prefixes) and by a reduce (the whole), and applied to x0.

Exercises: a two-array (tuple) ``soac.scan`` and ``soac.reduce`` with a
*non-commutative* associative operator (no ``commutative`` flag: operand order
matters), neutral elements (1, 0), f64 tensors and an f64 scalar parameter.

The reference is the sequential recurrence itself (there is no stable closed form in
NumPy). Inputs: a uniform in (-0.99, 0.99) so the recurrence is contractive, b
uniform in (-1, 1), x0 = 1.5. Size 0 gives an empty x and the last value x0.
"""

import numpy as np

RTOL = 1e-9
ATOL = 1e-12
DEFAULT_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    a = rng.uniform(-0.99, 0.99, size=size)
    b = rng.uniform(-1.0, 1.0, size=size)
    return a, b, np.float64(1.5)


def reference(a, b, x0):
    xs = np.empty_like(a)
    x = float(x0)
    for i, (ai, bi) in enumerate(zip(a.tolist(), b.tolist())):
        x = ai * x + bi
        xs[i] = x
    return xs, np.float64(x)
