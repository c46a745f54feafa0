"""Device memory through a free-list pool: freed blocks are kept by size class and
handed out again, so a program that allocates the same sizes every iteration calls
cuMemAlloc once per size. The pool counts what it does, and on running out of memory
frees what it holds and tries again before reporting a clear error."""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from soacc.runtime.errors import ExecutionError


class DeviceOutOfMemory(ExecutionError):
    """The device has no room for an allocation, even with the pool emptied."""


def size_class(nbytes: int) -> int:
    """The capacity an allocation of `nbytes` gets: a multiple of 256 bytes up to 1 MiB,
    then one of the 8 steps between consecutive powers of two (at most 12.5% unused)."""
    if nbytes <= 0:
        return 256
    if nbytes <= 1 << 20:
        return (nbytes + 255) // 256 * 256
    step = 1 << (nbytes.bit_length() - 4)
    return (nbytes + step - 1) // step * step


@dataclass
class PoolCounters:
    allocations: int = 0
    """Requests served."""
    device_mallocs: int = 0
    """Requests that needed a new cuMemAlloc (the others reused a freed block)."""
    bytes_requested: int = 0
    live_bytes: int = 0
    peak_bytes: int = 0
    held_bytes: int = 0
    """Freed but kept for reuse."""


class DeviceBuffer:
    """A block of device memory from the pool; back to the pool when released or
    garbage-collected."""

    __slots__ = ("_pool", "allocation", "ptr", "nbytes", "capacity", "__weakref__")

    def __init__(self, pool: MemoryPool, allocation: Any, nbytes: int, capacity: int):
        self._pool = pool
        self.allocation = allocation
        self.ptr = int(allocation)
        """Its device address."""
        self.nbytes = nbytes
        self.capacity = capacity

    def __int__(self) -> int:
        return self.ptr

    def release(self) -> None:
        if self.allocation is not None:
            self._pool._give_back(self.allocation, self.nbytes, self.capacity)
            self.allocation = None

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass  # at interpreter exit the driver may be gone


class DeferredFrees(ABC):
    """Frees held back while device work of several streams is in flight: a block freed
    by the host may still be in use by a kernel queued on another stream than the next
    user's, so it is handed out again only after the device was waited for."""

    def __init__(self) -> None:
        self._deferred: list[tuple[Any, int, int]] | None = None

    @property
    def deferring(self) -> bool:
        return self._deferred is not None

    def defer_frees(self) -> None:
        if self._deferred is None:
            self._deferred = []

    def flush_deferred(self) -> None:
        """After the device was waited for: the frees held back happen."""
        deferred, self._deferred = self._deferred, None
        for allocation, nbytes, capacity in deferred or ():
            self._free_now(allocation, nbytes, capacity)

    def _give_back(self, allocation: Any, nbytes: int, capacity: int) -> None:
        if self._deferred is not None:
            self._deferred.append((allocation, nbytes, capacity))
        else:
            self._free_now(allocation, nbytes, capacity)

    @abstractmethod
    def _free_now(self, allocation: Any, nbytes: int, capacity: int) -> None:
        """The block is free: held for reuse (the pool) or reused inside the graph (an arena)."""


@dataclass
class MemoryPool(DeferredFrees):
    counters: PoolCounters = field(default_factory=PoolCounters)
    _free: dict[int, list[Any]] = field(default_factory=dict)
    _relievers: list = field(default_factory=list)
    """Weak references to functions that give memory back (task graphs dropping their
    arenas), called when the device is out of memory."""

    def add_reliever(self, method) -> None:
        """`method` (a bound method, held weakly) gives memory back to this pool when
        an allocation finds the device full."""
        self._relievers.append(weakref.WeakMethod(method))

    def _relieve(self) -> None:
        for reference in list(self._relievers):
            method = reference()
            if method is None:
                self._relievers.remove(reference)
            else:
                method()

    def __post_init__(self) -> None:
        DeferredFrees.__init__(self)

    def allocate(self, nbytes: int, what: str = "an array") -> DeviceBuffer:
        capacity = size_class(nbytes)
        allocation = self.take(capacity, what, nbytes)
        c = self.counters
        c.allocations += 1
        c.bytes_requested += nbytes
        c.live_bytes += nbytes
        c.peak_bytes = max(c.peak_bytes, c.live_bytes)
        return DeviceBuffer(self, allocation, nbytes, capacity)

    def take(self, capacity: int, what: str = "an array", nbytes: int | None = None) -> Any:
        """A raw allocation of `capacity` bytes (a size class): a held one, else a new one."""
        held = self._free.get(capacity)
        if held:
            self.counters.held_bytes -= capacity
            return held.pop()
        import pycuda.driver as cuda  # (not on the hot path: a held block is reused)

        try:
            allocation = cuda.mem_alloc(capacity)
        except (cuda.MemoryError, cuda.LogicError):
            self._relieve()
            self.free_held()
            try:
                allocation = cuda.mem_alloc(capacity)
            except (cuda.MemoryError, cuda.LogicError) as error:
                free, total = cuda.mem_get_info()
                raise DeviceOutOfMemory(
                    f"out of device memory allocating {capacity if nbytes is None else nbytes} bytes for {what}: "
                    f"{self.counters.live_bytes} bytes in use by soacc, {free} of "
                    f"{total} free on the device ({error})"
                ) from None
        self.counters.device_mallocs += 1
        return allocation

    def hold(self, allocation: Any, capacity: int) -> None:
        """Takes back a raw allocation from `take` (held for reuse)."""
        self._free.setdefault(capacity, []).append(allocation)
        self.counters.held_bytes += capacity

    def _free_now(self, allocation: Any, nbytes: int, capacity: int) -> None:
        self.hold(allocation, capacity)
        self.counters.live_bytes -= nbytes

    def free_held(self) -> None:
        """Returns every held block to the driver."""
        for blocks in self._free.values():
            for allocation in blocks:
                allocation.free()
        self._free.clear()
        self.counters.held_bytes = 0



class GraphArena(DeferredFrees):
    """The device memory of one task graph (runtime/gpu/task_graphs.py): while its
    graph is captured, allocations come from here, and a block freed is reused only by
    later allocations of the same capture. One stream's capture orders every node after
    the ones before it, so reuse inside the graph is safe; outside it is not, as a
    replay writes the same addresses again. So the arena keeps every block it took
    until the graph is released, then gives them back to the pool."""

    def __init__(self, pool: MemoryPool):
        super().__init__()
        self.pool = pool
        self._free: dict[int, list[Any]] = {}
        self._owned: list[tuple[Any, int]] | None = []
        self.bytes = 0
        """What the arena took from the pool: the graph's device memory."""

    def allocate(self, nbytes: int, what: str = "an array") -> DeviceBuffer:
        if self._owned is None:
            raise ExecutionError("allocates from a released task graph's memory (a bug in soacc)")
        capacity = size_class(nbytes)
        held = self._free.get(capacity)
        if held:
            allocation = held.pop()
        else:
            allocation = self.pool.take(capacity, what, nbytes)
            self._owned.append((allocation, capacity))
            self.bytes += capacity
        return DeviceBuffer(self, allocation, nbytes, capacity)

    def _free_now(self, allocation: Any, nbytes: int, capacity: int) -> None:
        if self._owned is not None:
            self._free.setdefault(capacity, []).append(allocation)

    def release(self) -> None:
        """Every block back to the pool; the graph must never run again."""
        if self._owned is None:
            return
        self._deferred = None
        for allocation, capacity in self._owned:
            self.pool.hold(allocation, capacity)
        self._owned = None
        self._free.clear()
        self.bytes = 0
