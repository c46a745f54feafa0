"""`soacc.host_array`: NumPy arrays in page-locked host memory, for arguments (issue 19,
item 4: all host memory that transfers touch page-locked, from a pool).

An upload from pageable memory goes through a staging buffer (the driver's, or
soacc's staged copies); from page-locked memory it is one DMA at the link's speed. A
caller who fills an argument in an array from `host_array` gets that DMA. The memory
comes from the pool that results come back in (runtime/gpu/pinned_results.py), and
goes back to it when the array and every view of it are dropped.
"""

from __future__ import annotations

import numpy as np

from soacc.runtime.errors import ArgumentError


def host_array(shape, dtype=np.float32) -> np.ndarray:
    """An uninitialised C-contiguous NumPy array of `shape` and `dtype` in page-locked
    memory where that pays and can be had: 2 MB and more, a GPU present, the pool
    (`SOACC_PINNED_BYTES`) not full; otherwise an ordinary NumPy array (a small copy
    costs its start-up either way)."""
    try:
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
    except (TypeError, ValueError) as error:
        raise ArgumentError(f"host_array: {error}") from None
    if any(n < 0 for n in shape):
        raise ArgumentError(f"host_array: a negative size in shape {list(shape)}")
    nbytes = 1
    for n in (*shape, dtype.itemsize):
        nbytes *= n  # (Python ints: a product past 64 bits stays visible)
    buffer = _pinned_bytes(nbytes)
    if buffer is not None:
        return buffer.view(dtype).reshape(shape)
    try:
        return np.empty(shape, dtype)
    except (MemoryError, ValueError) as error:
        raise ArgumentError(f"host_array: {nbytes} bytes for shape {list(shape)} of {dtype.name} cannot be had: {error}") from None


def _pinned_bytes(nbytes: int) -> np.ndarray | None:
    from soacc.program import backend_usable

    if not backend_usable("cuda")[0]:
        return None
    from soacc.runtime.cuda_backend import pinned_pool
    from soacc.runtime.gpu.device import get_device

    pool = pinned_pool(get_device().index)
    return pool.take(nbytes) if pool is not None else None
