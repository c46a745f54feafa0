"""A program's results on the GPU and on the reference executor, for the GPU tests
that compare the two (each side gets its own copies of array arguments: programs may
update them in place). Tests import it as `tests.support.gpu_reference`."""

from __future__ import annotations

import numpy as np

import soacc


def gpu_and_reference(source: str, *args, entry: str = "main"):
    """(the cuda backend's results, the numpy backend's results) of `entry`."""
    copies = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
    gpu = soacc.compile(source, backend="cuda").entry(entry)(*args)
    cpu = soacc.compile(source, backend="numpy").entry(entry)(*copies)
    return gpu, cpu
