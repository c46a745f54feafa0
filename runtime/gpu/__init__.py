"""The CUDA runtime, on PyCUDA: the device and its context, a free-list memory pool,
compilation with a cache on disk, and prepared kernel launches, all counted.

PyCUDA is an optional dependency (`soacc[cuda]`): nothing here is imported unless a
GPU is asked for, and `gpu_available()` says whether one can be used, and if not why.
"""

from __future__ import annotations


def gpu_available() -> tuple[bool, str]:
    """(True, device name) when PyCUDA imports and a CUDA device answers, else
    (False, the reason). Never raises."""
    try:
        import pycuda.driver as cuda
    except ImportError:
        return False, "PyCUDA is not installed (pip install 'soacc[cuda]')"
    try:
        cuda.init()
        if cuda.Device.count() == 0:
            return False, "no CUDA device"
        return True, cuda.Device(0).name()
    except Exception as error:  # the driver's own errors (no driver, no device, ...)
        return False, f"CUDA is not usable: {error}"
