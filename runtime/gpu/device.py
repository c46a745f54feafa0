"""The device a program runs on, and its context (the primary context, shared with
other CUDA users of the process such as CuPy)."""

from __future__ import annotations

import atexit
import os
from dataclasses import dataclass
from typing import Any


@dataclass
class GpuDevice:
    """One CUDA device with its primary context made current."""

    index: int
    device: Any
    context: Any

    @property
    def name(self) -> str:
        return self.device.name()

    @property
    def compute_capability(self) -> tuple[int, int]:
        return self.device.compute_capability()

    @property
    def arch(self) -> str:
        major, minor = self.compute_capability
        return f"sm_{major}{minor}"

    def attribute(self, name: str) -> int:
        import pycuda.driver as cuda

        return self.device.get_attribute(getattr(cuda.device_attribute, name))

    def synchronize(self) -> None:
        self.context.synchronize()


_DEVICES: dict[int, GpuDevice] = {}


def get_device(index: int | None = None) -> GpuDevice:
    """The device `index` (default: $SOACC_DEVICE, else 0), its primary context made
    current; one per process and device."""
    import pycuda.driver as cuda

    if index is None:
        index = int(os.environ.get("SOACC_DEVICE", "0"))
    if index in _DEVICES:
        _DEVICES[index].context.push()
        _DEVICES[index].context.pop()
        return _DEVICES[index]
    cuda.init()
    count = cuda.Device.count()
    if not 0 <= index < count:
        from soacc.runtime.errors import ArgumentError

        raise ArgumentError(f"no CUDA device {index}: this machine has {count}")
    device = cuda.Device(index)
    context = device.retain_primary_context()
    context.push()
    atexit.register(_pop_quietly, context)
    _DEVICES[index] = GpuDevice(index, device, context)
    return _DEVICES[index]


def _pop_quietly(context) -> None:
    try:
        context.pop()
    except Exception:
        pass
