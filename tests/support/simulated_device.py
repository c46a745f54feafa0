"""A device simulated in host memory, for running emitted host code where there is no
GPU (tests only): it implements runtime/gpu/host_runtime.DeviceMemory with NumPy byte
buffers at made-up addresses, so the host code's views, copies (dense, strided,
staged, overlapping), reads, writes and statistics are checked against the reference
executor. It cannot run kernels: a launch is an error, so only programs without
kernels run on it; the GPU tests (tests/runtime/gpu) run the rest on a real device.

Tests import it as `tests.support.simulated_device`."""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from soacc.runtime.errors import ExecutionError

_SPACING = 1 << 40  # addresses of different buffers never come near each other


class SimulatedBuffer:
    """Device memory: bytes at an address (0xFF when fresh, as the reference executor's)."""

    def __init__(self, ptr: int, nbytes: int):
        self.ptr = ptr
        self.data = np.full(nbytes, 0xFF, np.uint8)


class SimulatedDevice:
    def __init__(self) -> None:
        self._buffers: weakref.WeakValueDictionary[int, SimulatedBuffer] = weakref.WeakValueDictionary()
        self._next = _SPACING
        self.allocations = 0
        self.synchronizations = 0

    # --- DeviceMemory ----------------------------------------------------------------

    def allocate(self, nbytes: int) -> SimulatedBuffer:
        buffer = SimulatedBuffer(self._next, nbytes)
        self._buffers[self._next] = buffer
        self._next += _SPACING
        self.allocations += 1
        return buffer

    def write(self, address: int, source: np.ndarray) -> None:
        assert source.flags.c_contiguous
        self._bytes(address, source.nbytes)[:] = source.reshape(-1).view(np.uint8)

    def read(self, destination: np.ndarray, address: int) -> None:
        assert destination.flags.c_contiguous and destination.flags.writeable
        destination.reshape(-1).view(np.uint8)[:] = self._bytes(address, destination.nbytes)

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        self._bytes(destination, nbytes)[:] = self._bytes(source, nbytes)

    def copy_strided(self, itemsize, destination, destination_strides, source, source_strides, shape) -> None:
        dtype = np.dtype(f"u{itemsize}")
        np.copyto(
            self._elements(destination, destination_strides, shape, dtype),
            self._elements(source, source_strides, shape, dtype),
        )

    def launch(self, kernel, grid, block, args, shared) -> None:
        raise ExecutionError("the simulated device cannot run kernels")

    def synchronize(self) -> None:
        self.synchronizations += 1

    # --- addresses -------------------------------------------------------------------

    def _find(self, address: int) -> tuple[SimulatedBuffer, int]:
        buffer = self._buffers.get(address - address % _SPACING)
        if buffer is None:
            raise AssertionError(f"address {address:#x} is in no live buffer")
        return buffer, address - buffer.ptr

    def _bytes(self, address: int, nbytes: int) -> np.ndarray:
        buffer, offset = self._find(address)
        assert 0 <= offset and offset + nbytes <= buffer.data.nbytes, "outside the buffer"
        return buffer.data[offset : offset + nbytes]

    def _elements(self, address: int, strides: Sequence[int], shape: Sequence[int], dtype) -> np.ndarray:
        buffer, offset = self._find(address)
        return np.ndarray(
            tuple(shape), dtype, buffer=buffer.data, offset=offset,
            strides=tuple(s * dtype.itemsize for s in strides),
        )
