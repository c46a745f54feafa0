"""A device simulated in host memory, for running emitted host code where there is no
GPU (tests only): it implements runtime/gpu/host_runtime.DeviceMemory with NumPy byte
buffers at made-up addresses, so the host code's views, copies (dense, strided,
staged, overlapping), reads, writes and statistics are checked against the reference
executor. It cannot run kernels: a launch is an error, so only programs without
kernels run on it; the GPU tests (tests/runtime/gpu) run the rest on a real device.
Tests may give kernels as Python functions, for host code written by hand; it profiles
their launches as CudaMemory does, with made-up device times.

Tests import it as `tests.support.simulated_device`."""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from soacc.runtime.errors import ExecutionError

_SPACING = 1 << 40  # addresses of different buffers never come near each other


class SimulatedBuffer:
    """Device memory: bytes at an address (0xFF when fresh, as the reference executor's)."""

    def __init__(self, ptr: int, nbytes: int):
        self.ptr = ptr
        self.data = np.full(nbytes, 0xFF, np.uint8)


class _Lease:
    """A buffer of a reusing device, lent until this dies; then the device holds the
    buffer for the next allocation of its size, as the memory pool does."""

    __slots__ = ("ptr", "__weakref__")

    def __init__(self, ptr: int):
        self.ptr = ptr


class _Exact:
    """A launch's arguments as a segment record compares them: by type and bits (so
    -0.0 is not 0.0 and NaN is NaN), as CudaMemory compares packed parameter bytes."""

    __slots__ = ("args", "_key", "_keep")

    def __init__(self, args: tuple, keep: list):
        self.args = args
        self._keep = keep
        """The live buffers the arguments point into: a record issued after the host
        code freed one still finds it (the pool holds freed memory too)."""
        self._key = tuple(_bits(a) for a in args)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Exact) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)


def _bits(value):
    """A value as a record compares it: ints and tuples of them as they are (addresses
    may pass 64 bits here), NumPy scalars and floats by type and bytes."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, tuple):
        return tuple(_bits(v) for v in value)
    return type(value).__name__, np.asarray(value).tobytes()


class SimulatedGraph:
    """A captured graph: the recorded operations, run in order on launch; it keeps the
    buffers allocated while it was captured (its arena)."""

    def __init__(self, operations: list, buffers: list):
        self.operations = operations
        self.arena = buffers
        self.launches = 0
        self.released = False

    def launch(self) -> None:
        assert not self.released, "a released graph was launched"
        self.launches += 1
        for operation in self.operations:
            operation()

    def release(self) -> None:
        self.released = True
        self.arena = []


class SimulatedDevice:
    """`kernels`: name -> a Python function (device, grid, block, args) that does what
    the kernel would, for host code written by hand in tests. Profiled, a launch is
    named by the function's `name` attribute, else its `__name__`, and takes its
    `seconds` attribute on the device, else LAUNCH_SECONDS (nothing is timed)."""

    LAUNCH_SECONDS = 1e-6

    _instances = 0

    def __init__(self, reuse: bool = False) -> None:
        self.reuse = reuse
        """Freed buffers are held and lent again to allocations of their size (as the
        memory pool does), so the same host code gets the same addresses again; every
        buffer then lives as long as the device."""
        self._held: dict[int, list[SimulatedBuffer]] = {}
        self._kept: dict[int, SimulatedBuffer] = {}
        self.segment_captures = 0
        self.segment_replays = 0
        self.issued_records = 0
        self._buffers: weakref.WeakValueDictionary[int, SimulatedBuffer] = weakref.WeakValueDictionary()
        # each device's addresses its own: a husk's device that used another's address
        # would find no buffer there
        SimulatedDevice._instances += 1
        self._next = _SPACING * (1 + SimulatedDevice._instances * 2**20)
        self.events = 0
        """Events recorded (husks order devices by them; this device runs in order)."""
        self.peer_copies = 0
        self.allocations = 0
        self.synchronizations = 0
        self.executed = 0
        """Operations run on the device (copies and launches, captured ones when replayed)."""
        self._capture: list | None = None
        self._captured_buffers: list = []
        self._loops: list[list] = []
        """The captures that device loops' bodies interrupted, innermost last."""
        self.loops = 0
        """Device loops captured."""
        self.captures = 0
        self.fork_depth = 0
        self.resolves = 0
        self._profile: list[tuple[str, float]] | None = None
        self.profiles_discarded = 0

    # --- DeviceMemory ----------------------------------------------------------------

    def allocate(self, nbytes: int) -> SimulatedBuffer | _Lease:
        if self.reuse and self._capture is None:
            self.allocations += 1
            held = self._held.setdefault(nbytes, [])
            if held:
                buffer = held.pop()
            else:
                buffer = self._kept[self._next] = self._buffers[self._next] = SimulatedBuffer(self._next, nbytes)
                self._next += _SPACING
            lease = _Lease(buffer.ptr)
            weakref.finalize(lease, held.append, buffer)
            return lease
        buffer = SimulatedBuffer(self._next, nbytes)
        self._buffers[self._next] = buffer
        self._next += _SPACING
        self.allocations += 1
        if self._capture is not None:
            self._captured_buffers.append(buffer)
        return buffer

    def write(self, address: int, source: np.ndarray) -> None:
        assert self._capture is None, "a synchronous write while capturing"
        assert source.flags.c_contiguous
        self._bytes(address, source.nbytes)[:] = source.reshape(-1).view(np.uint8)

    def read(self, destination: np.ndarray, address: int) -> None:
        assert self._capture is None, "a synchronous read while capturing"
        assert destination.flags.c_contiguous and destination.flags.writeable
        destination.reshape(-1).view(np.uint8)[:] = self._bytes(address, destination.nbytes)

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        def run():
            self._bytes(destination, nbytes)[:] = self._bytes(source, nbytes)

        self._do(run)

    def copy_strided(self, itemsize, destination, destination_strides, source, source_strides, shape) -> None:
        dtype = np.dtype(f"u{itemsize}")

        def run():
            np.copyto(
                self._elements(destination, destination_strides, shape, dtype),
                self._elements(source, source_strides, shape, dtype),
            )

        self._do(run)

    def launch(self, kernel, grid, block, args, shared) -> None:
        if not callable(kernel):
            raise ExecutionError("the simulated device cannot run kernels")
        args = tuple(args)
        if self._profile is not None:
            assert self._capture is None, "a launch profiled while capturing"
            name = getattr(kernel, "name", None) or kernel.__name__
            self._profile.append((name, getattr(kernel, "seconds", self.LAUNCH_SECONDS)))
        self._do(lambda: kernel(self, grid, block, args))

    def _do(self, operation) -> None:
        if self._capture is not None:
            self._capture.append(operation)
        else:
            self.executed += 1
            operation()

    # --- segment graphs, as CudaMemory's -------------------------------------------------

    def _exact(self, args: tuple) -> _Exact:
        keep = []
        for a in args:
            if isinstance(a, int | np.integer):
                buffer = self._buffers.get(int(a) - int(a) % _SPACING)
                if buffer is not None:
                    keep.append(buffer)
        return _Exact(args, keep)

    def launch_record(self, kernel, grid, block, args, shared) -> tuple:
        return ("launch", kernel, tuple(grid), tuple(block), shared, self._exact(tuple(args)))

    def copy_record(self, destination: int, source: int, nbytes: int) -> tuple:
        return ("copy", self._exact((destination, source, nbytes)))

    def copy_strided_record(self, itemsize, destination, destination_strides, source, source_strides, shape) -> tuple:
        return ("strided", self._exact((itemsize, destination, tuple(destination_strides), source, tuple(source_strides), tuple(shape))))

    def issue(self, records: list) -> None:
        self.issued_records += len(records)
        for record in records:
            kind = record[0]
            if kind == "launch":
                _, kernel, grid, block, shared, exact = record
                self.launch(kernel, grid, block, exact.args, shared)
            elif kind == "copy":
                self.copy(*record[1].args)
            else:
                self.copy_strided(*record[1].args)

    def graph_of(self, records: list) -> SimulatedGraph:
        """The records as a graph (not run): each operation run in order at launch."""
        assert self._capture is None, "a segment captured inside a capture"
        self._capture = []
        try:
            self.issue(records)
        finally:
            operations, self._capture = self._capture, None
        self.issued_records -= len(records)
        self.segment_captures += 1
        return self._graph(operations, [])

    def replay(self, graph: SimulatedGraph, records: list) -> None:
        self.segment_replays += 1
        graph.launch()

    # --- profiling, as CudaMemory's ---------------------------------------------------

    def start_profiling(self) -> None:
        self._profile = []

    def stop_profiling(self) -> list[tuple[str, float]]:
        """(kernel name, made-up device seconds) of every launch since start_profiling."""
        assert self._profile is not None, "stop_profiling without start_profiling"
        self.synchronize()
        launches, self._profile = self._profile, None
        return launches

    def discard_profile(self) -> None:
        self._profile = None
        self.profiles_discarded += 1

    # --- forks: one device that runs everything in the order the host issues it ----

    def fork(self) -> None:
        self.fork_depth += 1

    def end_fork(self) -> None:
        assert self.fork_depth > 0, "end_fork without fork"
        self.fork_depth -= 1

    def resolve(self, signal) -> None:
        self.resolves += 1

    def wait(self, signal) -> None:
        assert signal.resolved

    # --- task graphs -------------------------------------------------------------------

    def begin_capture(self) -> None:
        assert self._capture is None, "a capture inside a capture"
        self._capture, self._captured_buffers = [], []

    def end_capture(self) -> SimulatedGraph:
        operations, buffers = self._capture, self._captured_buffers
        self._capture, self._captured_buffers = None, []
        self.captures += 1
        return self._graph(operations, buffers)

    def _graph(self, operations: list, buffers: list) -> SimulatedGraph:
        """A graph of the captured operations, each counted as executed when it runs."""

        def counted(operation):
            def run():
                self.executed += 1
                operation()

            return run

        return SimulatedGraph([counted(o) for o in operations], buffers)

    def abort_capture(self) -> None:
        self._capture, self._captured_buffers, self._loops = None, [], []

    def begin_loop(self, condition: int):
        assert self._capture is not None, "a device loop outside a capture"
        self._loops.append(self._capture)
        self._capture = []
        return len(self._loops)

    def end_loop(self, loop, condition: int) -> None:
        assert loop == len(self._loops), "device loops ended out of order"
        body, self._capture = self._capture, self._loops.pop()
        self.loops += 1

        def run():  # a while-type conditional node: the condition before each iteration
            while self._bytes(condition, 1)[0]:
                for operation in body:
                    self.executed += 1
                    operation()

        self._capture.append(run)

    def pinned(self, nbytes: int) -> np.ndarray:
        return np.full(nbytes, 0xEE, np.uint8)

    def write_async(self, address: int, source: np.ndarray) -> None:
        assert self._capture is not None, "an asynchronous write outside a capture"
        self._do(lambda: self._bytes(address, source.nbytes).__setitem__(slice(None), source.reshape(-1).view(np.uint8)))

    def read_async(self, destination: np.ndarray, address: int) -> None:
        assert self._capture is not None, "an asynchronous read outside a capture"
        self._do(lambda: destination.reshape(-1).view(np.uint8).__setitem__(slice(None), self._bytes(address, destination.nbytes)))

    def element(self, address: int, dtype) -> np.ndarray:
        """The one-element array at `address` (for kernels written in tests)."""
        dtype = np.dtype(dtype)
        return self._bytes(address, dtype.itemsize).view(dtype)

    def elements(self, address: int, count: int, dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        return self._bytes(address, count * dtype.itemsize).view(dtype)

    def synchronize(self) -> None:
        self.synchronizations += 1

    # --- several devices (husks), as CudaMemory's --------------------------------------

    @contextmanager
    def current(self) -> Iterator[None]:
        yield

    def record(self) -> int:
        self.events += 1
        return self.events

    def wait_for(self, event) -> None:
        pass  # (every operation is done when issued)

    def peer_copy(self, destination_memory, destination: int, source_memory, source: int, nbytes: int) -> None:
        assert self is destination_memory or self is source_memory, "a copy issued on a third device"
        if nbytes:
            self.peer_copies += 1
            destination_memory._bytes(destination, nbytes)[:] = source_memory._bytes(source, nbytes)

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
