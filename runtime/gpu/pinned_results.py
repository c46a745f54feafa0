"""Host memory for results, page-locked and pooled (issue 19, item 4: results come back
into page-locked memory and are returned as NumPy arrays that view it, no extra copy).

A download into pageable memory is the driver's staging, or ours
(staged_copies.py): the device copies into a page-locked buffer and the host copies
that into the result, whose pages the kernel maps in as they are first touched (about
0.25 ms per MB on an H200 machine, most of crypt's 48 MB of results). A download
into page-locked memory is one DMA at the link's speed and touches no page. So the
cuda backend's host allocations of at least POOLED_FROM bytes (an entry point's
results, the blocks a task graph's replay fills) come from this pool: page-locked
buffers kept for reuse, since allocating one takes the driver milliseconds.

A result is a NumPy array over a lease of a pooled buffer: the lease is the arrays'
base (a ctypes array at the buffer's address, which every view and slice of the
result keeps alive), and when the last of them dies the buffer goes back to the pool.
The pool holds at most `capacity` bytes (`SOACC_PINNED_BYTES`, 1 GiB by default;
buffers free in the pool are dropped first to make room), since page-locked memory is
memory the system cannot swap: beyond it allocations are pageable, as before.

The page-locked allocator is given (`allocate`), so the pool runs without a GPU in the
tests.
"""

from __future__ import annotations

import ctypes
import os
import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable

import numpy as np

POOLED_FROM = 2 << 20
"""Host allocations of at least this many bytes come from the pool (below it a copy
into pageable memory costs little more than its start-up)."""

GRANULE = 1 << 20
"""Buffers are whole multiples of this, so that similar sizes share buffers."""

DEFAULT_CAPACITY = 1 << 30


def capacity_from_environment() -> int:
    """SOACC_PINNED_BYTES, else DEFAULT_CAPACITY; 0 turns the pool off."""
    text = os.environ.get("SOACC_PINNED_BYTES")
    if text is None:
        return DEFAULT_CAPACITY
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"SOACC_PINNED_BYTES must be a number of bytes, not {text!r}") from None
    if value < 0:
        raise ValueError(f"SOACC_PINNED_BYTES must not be negative, not {value}")
    return value


class PinnedPool:
    """Page-locked buffers by size, lent as NumPy arrays (module docstring)."""

    def __init__(self, allocate: Callable[[int], np.ndarray], capacity: int = DEFAULT_CAPACITY):
        self._allocate = allocate
        self.capacity = capacity
        self._free: OrderedDict[int, list[np.ndarray]] = OrderedDict()
        """size -> buffers of that size no lease holds, the least recently freed first."""
        self._lock = threading.Lock()  # (programs may run in several threads)
        self._returned: deque[np.ndarray] = deque()
        """Buffers whose leases died, not yet filed (_give_back)."""
        self.held = 0
        """Bytes of every buffer the pool owns, lent or free."""
        self.lent = 0
        self.allocations = 0
        self.reuses = 0
        self._addresses: dict[int, int] = {}
        """Address of each buffer the pool owns -> its size (is_pinned)."""

    def take(self, nbytes: int) -> np.ndarray | None:
        """`nbytes` page-locked bytes (a uint8 array over a lease), or None where the
        pool would grow past its capacity."""
        if nbytes < POOLED_FROM or self.capacity == 0:
            return None
        size = -(-nbytes // GRANULE) * GRANULE
        with self._lock:
            self._drain()
            free = self._free.get(size)
            if free:
                buffer = free.pop()
                if not free:
                    del self._free[size]
                self.reuses += 1
            else:
                if not self._make_room(size):
                    return None
                buffer = None
        if buffer is None:
            try:
                buffer = self._allocate(size)
            except Exception:  # no page-locked memory to be had: pageable, as before
                with self._lock:
                    self.held -= size
                return None
            with self._lock:
                self.allocations += 1
                self._addresses[buffer.ctypes.data] = size
        with self._lock:
            self.lent += size
        return self._lend(buffer, nbytes)

    def _make_room(self, size: int) -> bool:
        """Counts `size` more bytes held, dropping free buffers as needed (lock held)."""
        while self.held + size > self.capacity and self._free:
            old_size, buffers = next(iter(self._free.items()))
            dropped = buffers.pop(0)
            if not buffers:
                del self._free[old_size]
            self._addresses.pop(dropped.ctypes.data, None)
            self.held -= old_size
        if self.held + size > self.capacity:
            return False
        self.held += size
        return True

    def _lend(self, buffer: np.ndarray, nbytes: int) -> np.ndarray:
        lease = _lease(buffer, nbytes)
        weakref.finalize(lease, self._give_back, buffer)
        return np.frombuffer(lease, np.uint8)

    def _give_back(self, buffer: np.ndarray) -> None:
        # (a finalizer: it may run in the middle of any code, by the collector, the
        # pool's own included, so it only queues the buffer; _drain files it)
        self._returned.append(buffer)

    def _drain(self) -> None:
        """Files the buffers whose leases died (lock held)."""
        while self._returned:
            buffer = self._returned.popleft()
            size = buffer.nbytes
            self.lent -= size
            if buffer.ctypes.data in self._addresses:
                self._free.setdefault(size, []).append(buffer)
                self._free.move_to_end(size)

    def counts(self) -> dict[str, int]:
        """Bytes held and lent, buffers allocated and reused so far."""
        with self._lock:
            self._drain()
            return {"held": self.held, "lent": self.lent, "allocations": self.allocations, "reuses": self.reuses}

    def is_pinned(self, array: np.ndarray) -> bool:
        """Whether `array`'s bytes lie in one of the pool's buffers."""
        start = array.ctypes.data
        with self._lock:
            for address, size in self._addresses.items():
                if address <= start and start + array.nbytes <= address + size:
                    return True
        return False

    def release(self) -> None:
        """Drops the free buffers (the lent ones go when their leases die)."""
        with self._lock:
            self._drain()
            for size, buffers in self._free.items():
                for buffer in buffers:
                    self._addresses.pop(buffer.ctypes.data, None)
                    self.held -= size
            self._free.clear()


def _lease(buffer: np.ndarray, nbytes: int) -> ctypes.Array:
    """The first `nbytes` of a pooled buffer, as the base of the NumPy arrays that view
    them: a ctypes array at the buffer's address (which NumPy views keep alive, and a
    weak reference can watch), holding the buffer itself too."""
    kind = _lease_types.get(nbytes)
    if kind is None:
        if len(_lease_types) >= 256:
            _lease_types.clear()
        kind = _lease_types[nbytes] = type("Lease", (ctypes.c_char * nbytes,), {})
    lease = kind.from_address(buffer.ctypes.data)
    lease.buffer = buffer  # (lent, the buffer lives whatever the pool drops)
    return lease


_lease_types: dict[int, type] = {}
