"""chains: four independent chains of `steps` small maps (x -> 0.5 x + 1), one array
each. Size: elements per array; 32 steps."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 4096
SMALL_SIZE = 16
STEPS = 32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    return (*(rng.uniform(-1.0, 1.0, size=n).astype(np.float32) for _ in range(4)), STEPS)


def reference(a, b, c, d, steps):
    out = []
    for x in (a, b, c, d):
        x = x.copy()
        for _ in range(steps):
            x = x * np.float32(0.5) + np.float32(1.0)
        out.append(x)
    return tuple(out)
