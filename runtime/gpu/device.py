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


VIRTUAL_DEVICES = "SOACC_VIRTUAL_DEVICES"
"""Set to 1: husk devices past the first are further contexts on the program's GPU
(several contexts on one GPU standing in for several GPUs, for tests on a machine
with one)."""


def husk_devices(count: int, main: GpuDevice) -> list[GpuDevice]:
    """The devices a program's husks run on: `main` (the program's), then `count` - 1
    others (0: every usable GPU of main's kind), each with its context. Others are GPUs
    of main's name and compute capability, each with peer access to and from main
    (thesis §5.1: symmetric devices); with $SOACC_VIRTUAL_DEVICES=1, contexts of their
    own on main's GPU instead."""
    import pycuda.driver as cuda

    from soacc.runtime.errors import ArgumentError

    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ArgumentError(f"devices={count!r}: a number of devices, or 0 for every usable GPU")
    if count == 1:
        return [main]
    try:
        # (events and copies between devices; `as`: a bare import would rebind `cuda`)
        import cuda.bindings.driver as _peer_copies  # noqa: F401
    except ImportError:
        raise ArgumentError(
            f"devices={count}: husks on several GPUs copy between them through NVIDIA's cuda-bindings, "
            "which is not installed (pip install 'soacc[cuda]')"
        ) from None
    if os.environ.get(VIRTUAL_DEVICES, "0") == "1":
        if count == 0:
            raise ArgumentError(f"devices=0 asks for every usable GPU; with ${VIRTUAL_DEVICES}=1 give a number")
        devices = [main]
        for _ in range(count - 1):
            context = main.device.make_context()  # pushed: made current
            cuda.Context.pop()
            atexit.register(_detach_quietly, context)
            devices.append(GpuDevice(main.index, main.device, context))
        return devices
    others = [i for i in range(cuda.Device.count()) if i != main.index]
    same = [i for i in others if cuda.Device(i).name() == main.name and cuda.Device(i).compute_capability() == main.compute_capability]
    if count == 0:
        count = 1 + len(same)
    if count - 1 > len(same):
        kinds = ", ".join(f"GPU {i}: {cuda.Device(i).name()}" for i in others) or "no other GPU"
        raise ArgumentError(
            f"devices={count} asks for {count} GPUs of one kind, but this machine has {1 + len(same)} "
            f"{main.name} ({kinds}); husks split work over identical GPUs only"
        )
    devices = [main]
    for i in same[: count - 1]:
        device = cuda.Device(i)
        if not (main.device.can_access_peer(device) and device.can_access_peer(main.device)):
            raise ArgumentError(f"GPU {i} ({device.name()}) and GPU {main.index} cannot access each other's memory (no peer access): husks copy between them directly")
        context = device.retain_primary_context()
        context.push()
        cuda.Context.pop()
        devices.append(GpuDevice(i, device, context))
        _enable_peer_access(main.context, context)
        _enable_peer_access(context, main.context)
    return devices


def _enable_peer_access(context, peer) -> None:
    """`context` may access `peer`'s memory (already enabled is fine)."""
    import pycuda.driver as cuda

    context.push()
    try:
        cuda.Context.enable_peer_access(peer)
    except cuda.LogicError as error:  # already enabled: nothing to do
        if "already" not in str(error).lower():
            raise
    finally:
        cuda.Context.pop()


def _detach_quietly(context) -> None:
    try:
        context.detach()
    except Exception:
        pass
