"""Memory blocks and views for the host code of the cuda backend (level 3 at run time).

A block is a host buffer (NumPy bytes) or a device buffer (from the memory pool); it is
freed, and counted as freed, when its last reference dies, so the emitted host code
frees memory by deleting each block and view after its last use. A view is an array
over a block: a byte offset, a shape, strides in elements and a dtype. Slicing and
transposing are arithmetic on that metadata, never a copy. Every index is checked, and
a view is checked to lie inside its block, as the reference executor checks them.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from math import prod

import numpy as np

from soacc.dialects.shared.kernel_abi import view_arguments
from soacc.runtime.array_sizes import MAX_SIZE
from soacc.runtime.errors import ExecutionError
from soacc.runtime.statistics import Statistics


_DTYPES = {t: np.dtype(t) for t in (np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_)}
"""The dtypes host code names (np.float32, ...), made once."""


class OutOfBounds(ExecutionError):
    """An index outside its array (the executor adds which array it was)."""


def dense_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides, in elements."""
    if len(shape) <= 1:
        return (1,) * len(shape)
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    return tuple(strides)


class Block:
    """A block of memory; `nbytes` as allocated."""

    __slots__ = ("nbytes",)
    space = ""

    def __init__(self, nbytes: int):
        self.nbytes = nbytes

    def view(self, byte_offset, shape: Sequence, strides: Sequence | None, dtype) -> View:
        """The array at `byte_offset` with the given shape and element strides (row-major
        when None), checked to lie inside the block (mem.view)."""
        # (hot: host code makes views every iteration; hence map and the cached dtype)
        dtype = _DTYPES.get(dtype) or np.dtype(dtype)
        shape = tuple(map(int, shape))
        if shape and min(shape) < 0:
            raise ExecutionError(f"a view cannot have negative size {list(shape)}")
        byte_offset = int(byte_offset)
        if strides is None:
            view = View(self, byte_offset, shape, dense_strides(shape), dtype)
            lo, hi = byte_offset, byte_offset + view.count * dtype.itemsize
        else:
            view = View(self, byte_offset, shape, tuple(map(int, strides)), dtype)
            lo, hi = view.byte_extent() if view.count else (0, 0)
        if view.count:
            if hi > MAX_SIZE or lo < -MAX_SIZE:  # (the block's size, computed alike, wrapped)
                raise ExecutionError(f"the view of shape {list(shape)} reaches byte {max(hi, -lo)}, past 64 bits (sizes are at most 2^63 - 1)")
            if lo < 0 or hi > self.nbytes:
                raise ExecutionError(f"the view covers bytes [{lo}, {hi}) of a block of {self.nbytes} bytes")
        elif not 0 <= byte_offset <= self.nbytes:
            raise ExecutionError(f"the view starts at byte {byte_offset} of a block of {self.nbytes} bytes")
        return view


class HostBlock(Block):
    """Host memory: a contiguous uint8 NumPy array. It is counted as freed in
    `statistics` (None for the caller's own arrays) when the buffer dies, which may be
    after the block: a result handed to the caller keeps it (as in the reference
    executor)."""

    __slots__ = ("buffer",)
    space = "host"

    def __init__(self, buffer: np.ndarray, statistics: Statistics | None):
        self.nbytes = buffer.nbytes
        self.buffer = buffer
        if statistics is not None:
            weakref.finalize(buffer, statistics.freed, "host", buffer.nbytes)


class DeviceBlock(Block):
    """Device memory: a buffer from the pool, given back, and counted as freed in
    `statistics`, when this block dies (with its last view)."""

    __slots__ = ("buffer", "address", "_statistics", "space", "__weakref__")

    def __init__(self, buffer, nbytes: int, statistics: Statistics, space: str = "device"):
        self.nbytes = nbytes  # (Block's, set here: a call makes a block per array)
        self.buffer = buffer
        self.address = int(buffer.ptr)
        self._statistics = statistics
        self.space = space
        """`device` (the program's), or `device i` (a husk's device i)."""

    def __del__(self) -> None:
        self._statistics.freed(self.space, self.nbytes)


class BorrowedMemory:
    """Device memory of the caller's (an argument already on the GPU), as a block's
    buffer: its address, and the caller's object, which keeps it alive as long as the
    block is. Never the pool's: nothing is given back when it dies."""

    __slots__ = ("ptr", "owner")

    def __init__(self, ptr: int, owner):
        self.ptr = ptr
        self.owner = owner


def is_borrowed(block: Block) -> bool:
    """Whether a device block is the caller's memory."""
    return isinstance(block, DeviceBlock) and type(block.buffer) is BorrowedMemory


class View:
    """An array in a block: element (i, j, ...) is at byte
    `byte_offset + (i*strides[0] + j*strides[1] + ...) * itemsize` of the block."""

    __slots__ = ("block", "byte_offset", "shape", "strides", "dtype", "count", "_kernel_args")

    def __init__(self, block: Block, byte_offset: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype):
        self.block = block
        self.byte_offset = byte_offset
        self.shape = shape
        self.strides = strides
        self.dtype = dtype
        self.count: int = prod(shape)
        """Its number of elements (asked on every copy: made once)."""
        self._kernel_args: tuple | None = None

    def __repr__(self) -> str:
        return (
            f"View({self.block.space}, offset {self.byte_offset}, shape {list(self.shape)}, "
            f"strides {list(self.strides)}, {self.dtype})"
        )

    # --- metadata ----------------------------------------------------------------------

    @property
    def on_device(self) -> bool:
        return isinstance(self.block, DeviceBlock)

    @property
    def nbytes(self) -> int:
        return self.count * self.dtype.itemsize

    def size(self, dim: int) -> np.int64:
        """mem.size"""
        return np.int64(self.shape[dim])

    def byte_extent(self) -> tuple[int, int]:
        """The bytes [lo, hi) of its block that a non-empty view touches."""
        itemsize = self.dtype.itemsize
        lo = hi = self.byte_offset
        hi += itemsize
        for n, s in zip(self.shape, self.strides):
            extent = (n - 1) * s * itemsize
            if extent < 0:
                lo += extent
            else:
                hi += extent
        return lo, hi

    def is_dense(self) -> bool:
        """Whether the elements fill [byte_offset, byte_offset + nbytes) in row-major order
        (one memcpy moves them)."""
        expected = 1
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if n == 0:
                return True
            if n != 1 and s != expected:
                return False
            expected *= n
        return True

    # --- views of views ----------------------------------------------------------------

    def slice(self, entries: Sequence) -> View:
        """mem.slice: one entry per leading dimension, an index (the dimension goes away)
        or a tuple (offset, count) or (offset, count, stride); the rest is kept whole."""
        itemsize = self.dtype.itemsize
        offset = self.byte_offset
        shape: list[int] = []
        strides: list[int] = []
        for dim, entry in enumerate(entries):
            size, stride = self.shape[dim], self.strides[dim]
            if not isinstance(entry, tuple):
                index = int(entry)
                _check_index(index, size, dim)
                offset += index * stride * itemsize
                continue
            start, count = int(entry[0]), int(entry[1])
            step = int(entry[2]) if len(entry) == 3 else 1
            if count < 0:
                raise ExecutionError(f"negative slice count {count} in dimension {dim}")
            if count:
                if step == 0 and count > 1:
                    raise ExecutionError(f"slice stride is 0 in dimension {dim}")
                _check_index(start, size, dim)
                _check_index(start + (count - 1) * step, size, dim)
                offset += start * stride * itemsize
            shape.append(count)
            strides.append(stride * step)
        rest = len(entries)
        return View(self.block, offset, (*shape, *self.shape[rest:]), (*strides, *self.strides[rest:]), self.dtype)

    def transpose(self, permutation: Sequence[int]) -> View:
        """mem.transpose: result dimension i is dimension permutation[i]."""
        return View(
            self.block,
            self.byte_offset,
            tuple(self.shape[p] for p in permutation),
            tuple(self.strides[p] for p in permutation),
            self.dtype,
        )

    def element_byte_offset(self, indices: Sequence) -> int:
        """The byte offset in the block of element `indices`, each checked."""
        offset = self.byte_offset
        for dim, (index, size, stride) in enumerate(zip(indices, self.shape, self.strides)):
            index = int(index)
            _check_index(index, size, dim)
            offset += index * stride * self.dtype.itemsize
        return offset

    # --- what the host and the kernels see ---------------------------------------------

    @property
    def array(self) -> np.ndarray:
        """A host view as a NumPy array sharing its memory."""
        block = self.block
        if not isinstance(block, HostBlock):
            raise ExecutionError("an array in device memory cannot be read by the host directly")
        if not self.count:
            return np.zeros(self.shape, self.dtype)
        itemsize = self.dtype.itemsize
        return np.ndarray(
            self.shape,
            self.dtype,
            buffer=block.buffer,
            offset=self.byte_offset,
            strides=tuple(s * itemsize for s in self.strides),
        )

    @property
    def address(self) -> int:
        """The device address of element (0, ..., 0)."""
        block = self.block
        if not isinstance(block, DeviceBlock):
            raise ExecutionError("an array in host memory has no device address")
        return block.address + self.byte_offset

    @property
    def kernel_args(self) -> tuple:
        """The view as a kernel takes it (lowering/emit_cuda.py): pointer, offset, sizes,
        strides, in elements. The pointer is that of element 0, so the offset is 0."""
        if self._kernel_args is None:
            if not self.on_device:
                raise ExecutionError("a kernel was given an array in host memory")
            self._kernel_args = view_arguments(self.address, 0, self.shape, self.strides)
        return self._kernel_args


def _check_index(index: int, size: int, dim: int) -> None:
    if not 0 <= index < size:
        raise OutOfBounds(f"index {index} is out of bounds for dimension {dim} of size {size}")
