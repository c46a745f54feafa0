"""Arrays already in GPU memory, as arguments and as results (issue 19, item 5).

An argument may be any object that describes GPU memory by the CUDA Array Interface
(`__cuda_array_interface__`, versions 2 and 3: CuPy, PyTorch, Numba, JAX): it is
taken where it is, without a copy to the host, as a `ForeignDeviceArray` (its address,
shape, dtype and strides, and the object, which keeps the memory alive). A result may
be returned as a `DeviceArray`, which describes soacc's own device memory by the same
interface, so CuPy (`cupy.asarray`), PyTorch (`torch.as_tensor`) and Numba take it
without a copy either.

Pure Python and NumPy: nothing here imports PyCUDA (the tools describe and check these
arrays before any device is touched).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from soacc.runtime.errors import ArgumentError

LEGACY_DEFAULT_STREAM = 1
"""The interface's name for the legacy default stream, which soacc's own work is
ordered with (it runs on it, in the device's primary context)."""


class ForeignDeviceArray:
    """An argument in GPU memory that soacc did not allocate: element (i, j, ...) is at
    `address + (i*strides[0] + j*strides[1] + ...) * itemsize`."""

    __slots__ = ("owner", "address", "shape", "dtype", "strides", "stream", "readonly")

    def __init__(self, owner: Any, address: int, shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...], stream: int | None, readonly: bool):
        self.owner = owner
        """The caller's object (its memory lives as long as it does)."""
        self.address = address
        self.shape = shape
        self.dtype = dtype
        self.strides = strides
        """In elements."""
        self.stream = stream
        """The stream the producer's work on the data is queued on (interface version 3),
        which a consumer must wait for; None: the data is ready."""
        self.readonly = readonly

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self) -> str:
        return f"ForeignDeviceArray({self.dtype.name}, shape {list(self.shape)}, at {self.address:#x})"


def has_device_interface(value: Any) -> bool:
    """Whether `value` says it is in GPU memory (NumPy arrays never do)."""
    if isinstance(value, np.ndarray):
        return False
    try:
        return hasattr(value, "__cuda_array_interface__")
    except Exception:  # a property that fails otherwise than by AttributeError
        return True  # (foreign_device_array reports the failure)


def foreign_device_array(value: Any) -> ForeignDeviceArray:
    """The array `value`'s `__cuda_array_interface__` describes; an ArgumentError says
    what is wrong with a description soacc cannot take (a mask, strides that are not
    whole elements, an unknown element type)."""
    try:
        interface = value.__cuda_array_interface__
    except Exception as error:  # the producer's own refusal (a CPU tensor, say)
        raise ArgumentError(f"{type(value).__name__}'s __cuda_array_interface__ failed: {error}") from None
    what = f"{type(value).__name__} (by __cuda_array_interface__)"
    if not isinstance(interface, dict):
        raise ArgumentError(f"{what}: the interface is a {type(interface).__name__}, not a dict")
    try:
        shape = tuple(int(n) for n in interface["shape"])
        dtype = np.dtype(interface["typestr"])
        address, readonly = interface["data"]
        version = int(interface.get("version", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise ArgumentError(f"{what}: an incomplete description ({type(error).__name__}: {error})") from None
    if version < 2:
        raise ArgumentError(f"{what}: version {version} of the interface; soacc reads versions 2 and 3")
    if interface.get("mask") is not None:
        raise ArgumentError(f"{what}: a masked array; soacc takes arrays without a mask")
    if dtype.kind not in "biuf" or dtype.byteorder == ">":
        raise ArgumentError(f"{what}: elements of type {interface['typestr']!r}, which no soacc type has")
    if any(n < 0 for n in shape):
        raise ArgumentError(f"{what}: a negative size in shape {list(shape)}")
    byte_strides = interface.get("strides")
    if byte_strides is None:
        strides = _dense(shape)
    else:
        byte_strides = tuple(int(s) for s in byte_strides)
        if len(byte_strides) != len(shape) or any(s % dtype.itemsize for s in byte_strides):
            raise ArgumentError(f"{what}: strides {list(byte_strides)} in bytes are not whole elements of {dtype.itemsize} bytes for shape {list(shape)}")
        strides = tuple(s // dtype.itemsize for s in byte_strides)
    stream = interface.get("stream")
    if stream is not None:
        stream = int(stream)
        if stream == 0:
            raise ArgumentError(f"{what}: stream 0, which the interface forbids (ambiguous)")
    address = int(address or 0)
    if address == 0 and all(shape):
        raise ArgumentError(f"{what}: a null pointer for a non-empty array")
    return ForeignDeviceArray(value, address, shape, dtype, strides, stream, bool(readonly))


def byte_extent(array: ForeignDeviceArray) -> tuple[int, int]:
    """The bytes [lo, hi) relative to `address` that a non-empty array touches (lo is
    negative where a stride is)."""
    lo, hi = 0, array.dtype.itemsize
    for n, s in zip(array.shape, array.strides):
        extent = (n - 1) * s * array.dtype.itemsize
        if extent < 0:
            lo += extent
        else:
            hi += extent
    return lo, hi


def _dense(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


class DeviceArray:
    """A result left in soacc's device memory (`soacc.compile(..., results="device")`):
    shape, dtype, the CUDA Array Interface (version 3; the data is ready: soacc waited
    for its work before returning it), and `numpy()` for a copy on the host. It keeps
    its memory (a block of soacc's pool) until it dies."""

    __slots__ = ("_block", "_address", "shape", "dtype", "strides", "_copy_to_host", "__weakref__")

    def __init__(self, block: Any, address: int, shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...], copy_to_host):
        self._block = block
        self._address = address
        self.shape = shape
        self.dtype = dtype
        self.strides = strides
        """In elements."""
        self._copy_to_host = copy_to_host

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def __cuda_array_interface__(self) -> dict:
        itemsize = self.dtype.itemsize
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self._address if self.size else 0, False),
            "strides": tuple(s * itemsize for s in self.strides),
            "version": 3,
            "stream": None,
        }

    def numpy(self) -> np.ndarray:
        """A copy on the host, as a NumPy array."""
        return self._copy_to_host(self)

    def __repr__(self) -> str:
        return f"soacc.DeviceArray({self.dtype.name}, shape {list(self.shape)})"
