"""Large copies between pageable host memory and the device, through page-locked chunks
(issue 19, item 4's first step: arguments and results go through pinned memory).

A copy from pageable memory is the driver's: it stages through a buffer of its own, one
chunk after another, with the host's copy and the DMA taking turns (about 5 GB/s for an
80 MB argument on an H200 machine). Here the copy is split into chunks that several host
threads copy into page-locked buffers while the copy engine moves the chunks copied
before, so both run at once and the host side runs at several cores' memory bandwidth.

The bookkeeping is apart from the device (`Device` below), so the tests check the
pipeline's order without a GPU: a buffer is refilled only after its previous DMA is
done, and a chunk is copied out only after its DMA is done.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

CHUNK = 4 << 20
"""Bytes per chunk: big enough that a DMA's start-up (a few µs) is amortised."""

STAGED_FROM = 12 << 20
"""Copies smaller than this go the driver's way: below it the driver's own copy was
faster (benchmarks/staged_threshold.py on an H200 machine, 2026-11-27: 4 MB 0.59 ms
against 0.87 staged, 8 MB 0.93 against 1.00, 12 MB even, 16 MB 1.57 against 1.18)."""

THREADS = max(1, min(4, (os.cpu_count() or 1) // 2))
"""Host threads copying chunks at once (NumPy's copies release the GIL)."""


class Device(Protocol):
    """What the pipeline needs of the device: page-locked buffers, copies on one stream,
    and events on it."""

    def pinned(self, nbytes: int) -> np.ndarray: ...

    def begin(self) -> None:
        """The copies that follow run after everything issued before (on any stream)."""

    def upload(self, address: int, source: np.ndarray) -> None:
        """An asynchronous copy of the page-locked `source` to `address`."""

    def download(self, destination: np.ndarray, address: int) -> None:
        """An asynchronous copy from `address` into the page-locked `destination`."""

    def record(self) -> Any:
        """An event after the copies issued so far; `.synchronize()` waits for it."""

    def finish(self) -> None:
        """Waits for every copy issued."""


@dataclass
class StagedCopies:
    device: Device
    chunk: int = CHUNK
    threads: int = THREADS
    _buffers: list[np.ndarray] | None = None
    _pool: ThreadPoolExecutor | None = None

    @property
    def count(self) -> int:
        """Buffers: one per thread filling or draining, one per DMA in flight, one spare."""
        return self.threads + 2

    def _ready(self) -> tuple[list[np.ndarray], ThreadPoolExecutor]:
        if self._buffers is None:
            self._buffers = [self.device.pinned(self.chunk) for _ in range(self.count)]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="soacc-staging")
        return self._buffers, self._pool

    def _chunks(self, nbytes: int) -> list[tuple[int, int]]:
        return [(offset, min(self.chunk, nbytes - offset)) for offset in range(0, nbytes, self.chunk)]

    def write(self, address: int, source: np.ndarray) -> None:
        """`source` (C-contiguous) to device memory at `address`; returns when done."""
        data = source.reshape(-1).view(np.uint8)
        buffers, pool = self._ready()
        self.device.begin()
        done: list[Any] = [None] * len(buffers)
        """buffer -> the event after its last DMA"""
        filling: deque[tuple[int, int, int, Future]] = deque()

        def issue() -> None:
            offset, length, b, fill = filling.popleft()
            fill.result()
            self.device.upload(address + offset, buffers[b][:length])
            done[b] = self.device.record()

        for i, (offset, length) in enumerate(self._chunks(data.nbytes)):
            b = i % len(buffers)
            if done[b] is not None:
                done[b].synchronize()  # the buffer's previous chunk is on the device
                done[b] = None
            fill = pool.submit(np.copyto, buffers[b][:length], data[offset : offset + length])
            filling.append((offset, length, b, fill))
            if len(filling) >= self.threads:
                issue()
        while filling:
            issue()
        self.device.finish()

    def read(self, destination: np.ndarray, address: int) -> None:
        """Device memory at `address` into `destination` (C-contiguous, writeable)."""
        data = destination.reshape(-1).view(np.uint8)
        buffers, pool = self._ready()
        self.device.begin()
        draining: list[Future | None] = [None] * len(buffers)
        """buffer -> the copy out of it into `destination`"""
        in_flight: deque[tuple[int, int, int, Any]] = deque()

        def drain() -> None:
            offset, length, b, event = in_flight.popleft()
            event.synchronize()  # the chunk is in the buffer
            draining[b] = pool.submit(np.copyto, data[offset : offset + length], buffers[b][:length])

        for i, (offset, length) in enumerate(self._chunks(data.nbytes)):
            b = i % len(buffers)
            if draining[b] is not None:
                draining[b].result()  # the buffer's previous chunk is copied out
                draining[b] = None
            self.device.download(buffers[b][:length], address + offset)
            in_flight.append((offset, length, b, self.device.record()))
            if len(in_flight) >= self.threads + 1:
                drain()
        while in_flight:
            drain()
        for copy_out in draining:
            if copy_out is not None:
                copy_out.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def staged(nbytes: int) -> bool:
    """Whether a copy of `nbytes` goes through the staging chunks."""
    return nbytes >= STAGED_FROM


class CudaStaging:
    """The Device of the PyCUDA runtime: a stream of its own for the copies, which first
    waits for an event on the legacy default stream (after everything issued before on
    every blocking stream, fork streams included)."""

    def __init__(self, cuda: Any, stream: Any, pinned: Callable[[int], np.ndarray]):
        self._cuda = cuda
        self.stream = stream
        self.pinned = pinned
        self._marker = cuda.Event(cuda.event_flags.DISABLE_TIMING)

    def begin(self) -> None:
        self._marker.record()  # on the legacy default stream
        self.stream.wait_for_event(self._marker)

    def upload(self, address: int, source: np.ndarray) -> None:
        self._cuda.memcpy_htod_async(address, source, self.stream)

    def download(self, destination: np.ndarray, address: int) -> None:
        self._cuda.memcpy_dtoh_async(destination, address, self.stream)

    def record(self) -> Any:
        event = self._cuda.Event(self._cuda.event_flags.DISABLE_TIMING)
        event.record(self.stream)
        return event

    def finish(self) -> None:
        self.stream.synchronize()
