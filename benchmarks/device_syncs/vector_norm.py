"""vector_norm: Listing 1 of the study (A / sqrt(sum(A * A))).

The reduction's result is read by the host for the square root, which a map then
captures: one synchronous read per call, which reduce-device-syncs removes (the root
is computed in a gpu_body and the map reads it on the device). Size: elements."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-6
DEFAULT_SIZE = 10_000_000
SMALL_SIZE = 1000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return (rng.uniform(0.5, 1.5, size=size).astype(np.float32),)


def reference(a):
    return (a / np.sqrt(np.sum(a.astype(np.float64) ** 2))).astype(np.float32)
