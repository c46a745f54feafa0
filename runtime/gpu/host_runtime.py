"""What the emitted host code calls (`rt` in lowering/emit_host.py's modules): allocation,
copies between any two spaces, scalar reads and writes, array literals and kernel
launches, each counted in the run's Statistics exactly as the reference executor counts
them (runtime/interp/mem.py is the definition).

The device itself is a `DeviceMemory` (runtime/gpu/cuda_memory.py on PyCUDA): this
module decides how to move data (one memcpy where both sides are dense, the strided
copy kernel or a staging buffer otherwise), the device does it. Launches and device
copies are asynchronous; a read into host memory waits for the device, so the host
sees every earlier kernel's writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import DeviceBlock, HostBlock, View, dense_strides, is_borrowed
from soacc.runtime.gpu.husks import run_husk, threads_wanted
from soacc.runtime.husk_residency import ResidentRows
from soacc.runtime.statistics import Statistics


class DeviceMemory(Protocol):
    """A device as the host code uses it; every operation is ordered after the earlier
    ones. Addresses are ints, strides are in elements."""

    def allocate(self, nbytes: int) -> Any:
        """A buffer with an int `ptr`; freed when the last reference to it dies."""

    def write(self, address: int, source: np.ndarray) -> None:
        """Host to device: the bytes of a C-contiguous array."""

    def read(self, destination: np.ndarray, address: int) -> None:
        """Device to host into a C-contiguous array; waits for the device."""

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        """Device to device, non-overlapping."""

    def copy_strided(
        self, itemsize: int, destination: int, destination_strides: Sequence[int],
        source: int, source_strides: Sequence[int], shape: Sequence[int],
    ) -> None:
        """Device to device, element by element, non-overlapping."""

    def launch(self, kernel: Any, grid: tuple, block: tuple, args: tuple, shared: int) -> None: ...

    def synchronize(self) -> None:
        """Waits for everything launched so far (and reports what failed)."""

    # Forks (fork dialect, lowered by convert-fork-to-gpu): the host runs each thread
    # where it is forked, in program order; the device orders their work by signals.

    def fork(self) -> None:
        """A thread starts: the device work until its end_fork is its own."""

    def end_fork(self) -> None:
        """The thread ends: the device work is its parent's again."""

    def resolve(self, signal: Signal) -> None:
        """The current thread's device work so far (and what it waited for) is what
        `signal` stands for."""

    def wait(self, signal: Signal) -> None:
        """The current thread's later device work runs after what `signal` stands for."""

    # Device loops (runtime/gpu/task_graphs.py): only under a task graph's capture.

    def begin_loop(self, condition: int) -> Any:
        """The device work from now on until end_loop is a loop's body, run while the
        byte at `condition` is not zero (checked before each iteration)."""

    def end_loop(self, loop: Any, condition: int) -> None:
        """The body ends; the byte at `condition` says whether it runs again."""


class Signal:
    """A fork.signal at run time: resolved once; `events` is the device's record of
    what a waiter must wait for."""

    __slots__ = ("resolved", "events")

    def __init__(self) -> None:
        self.resolved = False
        self.events: list = []


class HostRuntime:
    """The runtime of one program's host code. `statistics` is replaced per call by the
    executor; blocks count themselves freed in the Statistics they were allocated in."""

    def __init__(self, memory: DeviceMemory, kernels: Mapping[str, Any], host_kernels=None):
        self.memory = memory
        self.kernels = kernels
        self.host_kernels = host_kernels
        """The program's kernels placed on the host (runtime/host_kernels.HostKernels),
        which `host_kernel` runs on the CPU; None where it has none."""
        self.statistics = Statistics()
        self.sequential_inside: Mapping[str, str] = {}
        """Kernel name -> the nested combinators each of its threads runs sequentially
        (the emitted module's, lowering/kernel_parallelism.py): a launch of few threads
        of one is noted in the statistics."""
        self.tuning: Mapping[str, int] = {}
        """Threshold name -> the size the run uses for it (mem.threshold; `program.tuning`,
        soacc-run --tuning); a threshold it does not name keeps its default."""
        self.space = "device"
        """The name of this runtime's device memory in the statistics (`device i` for a
        husk's device i)."""
        self.peers: list[HostRuntime] = [self]
        """The runtime of each device husks run on, device 0 (this one) first."""
        self.device_model = None
        """What the husks' cost model assumes of these devices (runtime/husk_cost.py;
        None: its defaults)."""
        self.threads_per_device = threads_wanted()
        """Husk runs issue each other device's share from a host thread of its own
        (SOACC_HUSK_THREADS=1, for measuring; runtime/gpu/husks.py)."""
        self.sent_back: list = []
        """The events after the copies that sent devices' rows back during a husk run
        (runtime/gpu/husks.py)."""
        self.resident: ResidentRows | None = None
        """What the devices past the first hold of this device's arrays from earlier
        husk runs (runtime/husk_residency.py); None with one device. Host code that
        reads an array (copy, load, a launch's `reads`) gets back what devices computed
        of it; host code that writes it (copy, store, array, a launch's `touch`) also
        ends what they hold of it."""

    # --- several devices (runtime/gpu/husks.py) ------------------------------------------

    def devices(self) -> np.int64:
        """husk.devices: the number of devices husks run on."""
        return np.int64(len(self.peers))

    def husk_run(
        self, body, rows, sources: tuple, outs: tuple, slots: tuple, broadcast: tuple, work_per_row: int = 1, used=None,
    ) -> np.int64:
        """husk.run: `body` once per device that gets rows (runtime/gpu/husks.py; the
        first `used` where the run continues another); returns how many did."""
        if self.resident is None:
            return run_husk(self, body, rows, sources, outs, slots, broadcast, work_per_row, used)
        with self.resident.in_husk():
            return run_husk(self, body, rows, sources, outs, slots, broadcast, work_per_row, used)

    def touch(self, *views) -> None:
        """Host code gives these arrays to a kernel that may write them (emitted before
        each launch of a program with husks): what devices computed of them comes back
        first, then no device holds them. (Copies, stores and array literals do the same
        for what they write.)"""
        resident = self.resident
        if resident:
            resident.touched(*(v.block for v in views))

    def reads(self, *views) -> None:
        """Host code gives these arrays to a kernel that only reads them (emitted before
        each launch of a program with husks): what devices computed of them comes back
        first. (Copies and loads do the same for what they read.)"""
        resident = self.resident
        if resident:
            resident.reading(*(v.block for v in views))

    # --- blocks --------------------------------------------------------------------------

    def alloc_host(self, nbytes) -> HostBlock:
        """mem.alloc in host memory."""
        nbytes = _allocation_size(nbytes)
        block = HostBlock(self.host_buffer(nbytes), self.statistics)
        self.statistics.allocated("host", nbytes)
        return block

    def host_buffer(self, nbytes: int) -> np.ndarray:
        """Host bytes for a block: page-locked ones where the memory lends them (the
        results' pool, pinned_results.py: a download into them is one DMA), else
        pageable."""
        lend = getattr(self.memory, "host_buffer", None)
        buffer = lend(nbytes) if lend is not None else None
        return buffer if buffer is not None else np.empty(nbytes, np.uint8)

    def alloc_device(self, nbytes) -> DeviceBlock:
        """mem.alloc in device memory (from the pool)."""
        nbytes = _allocation_size(nbytes)
        block = DeviceBlock(self.memory.allocate(nbytes), nbytes, self.statistics, self.space)
        self.statistics.allocated(self.space, nbytes)
        return block

    # --- checks ----------------------------------------------------------------------------

    def threshold(self, name: str, default: int) -> int:
        """mem.threshold: the size at which the host switches between versions of a
        kernel, the tuning's where it names it."""
        return self.tuning.get(name, default)

    def check(self, condition, message: str) -> None:
        """cf.assert: a run-time check a pass left where it removed an op that checked
        the same when it ran (a copy's sizes, say)."""
        if not condition:
            raise ExecutionError(message)

    # --- data movement -------------------------------------------------------------------

    def copy(self, source: View, dest: View) -> None:
        """mem.copy, counted as one copy of the destination's bytes."""
        if source.shape != dest.shape:
            raise ExecutionError(
                f"copies an array of shape {list(source.shape)} into one of shape {list(dest.shape)}"
            )
        if self.resident:
            self.resident.reading(source.block)
            self.resident.touched(dest.block)
        self.statistics.copied(source.block.space, dest.block.space, dest.nbytes)
        self._move(source, dest)

    def copy_or_borrow(self, source: View, dest: View) -> None:
        """mem.copy {borrowable}: an argument's upload into a block nothing else writes.
        Where the argument is already the caller's device memory, dense, and `dest` is
        the whole of its block with the same layout, the block becomes the caller's
        memory (every view of it follows: they find its address through it) and
        nothing is copied or counted; otherwise it is `copy`."""
        block = dest.block
        if (
            is_borrowed(source.block)
            and isinstance(block, DeviceBlock)
            and dest.byte_offset == 0
            and source.shape == dest.shape
            and source.dtype == dest.dtype
            and block.nbytes == dest.nbytes
            and source.is_dense()
            and dest.is_dense()
            and dest._kernel_args is None
        ):
            if self.resident:  # (`copy` does this for the other path)
                self.resident.touched(block)
            block.buffer = source.block.buffer  # (the pool's buffer goes back to the pool)
            block.address = source.address
            return
        self.copy(source, dest)

    def load(self, view: View, indices: Sequence):
        """mem.load: from device memory, a synchronous read."""
        offset = view.element_byte_offset(indices)
        block = view.block
        if isinstance(block, HostBlock):
            return np.ndarray((), view.dtype, buffer=block.buffer, offset=offset)[()]
        if self.resident:
            self.resident.reading(block)
        value = np.empty(1, view.dtype)
        self.memory.read(value, block.address + offset)
        self.statistics.sync_reads += 1
        return value[0]

    def store(self, value, view: View, indices: Sequence) -> None:
        """mem.store: into device memory, a host-to-device write of one element."""
        offset = view.element_byte_offset(indices)
        block = view.block
        if isinstance(block, HostBlock):
            np.ndarray((), view.dtype, buffer=block.buffer, offset=offset)[()] = value
            return
        if self.resident:
            self.resident.touched(block)
        self.memory.write(block.address + offset, np.array([value], view.dtype))
        self.statistics.scalar_writes += 1

    def array(self, elements: Sequence, dest: View) -> None:
        """mem.array: rows (scalars, or views of one row each) written to `dest`; into
        device memory it counts as one host-to-device copy of the whole array, as the
        reference executor counts it (the literal is built on the host)."""
        rows = dest.shape[0] if dest.shape else 0
        if len(elements) != rows:
            raise ExecutionError(f"writes {len(elements)} rows into an array of {rows} rows")
        if self.resident:
            self.resident.reading(*(row.block for row in elements if isinstance(row, View)))
            self.resident.touched(dest.block)
        if elements and isinstance(elements[0], View):
            for i, row in enumerate(elements):
                destination_row = dest.slice([i])
                if row.shape != destination_row.shape:
                    raise ExecutionError(
                        f"row {i} has shape {list(row.shape)}; the array's rows have shape "
                        f"{list(destination_row.shape)}"
                    )
                self._move(row, destination_row)
        elif elements:
            self._from_host(np.array(elements, dest.dtype).reshape(dest.shape), dest)
        if dest.on_device:
            self.statistics.copied("host", dest.block.space, dest.nbytes)

    # --- forks ---------------------------------------------------------------------------

    def signal(self) -> Signal:
        """fork.signal"""
        return Signal()

    def fork(self) -> None:
        """fork.fork: the thread's body follows, run here, in program order."""
        self.memory.fork()

    def end_fork(self) -> None:
        """fork.end"""
        self.memory.end_fork()

    def resolve(self, *signals: Signal) -> None:
        """fork.resolve"""
        for signal in signals:
            if signal.resolved:
                raise ExecutionError("resolves a signal a second time")
            self.memory.resolve(signal)
            signal.resolved = True

    def wait(self, *signals: Signal) -> None:
        """fork.wait: every signal must have been resolved earlier in program order (the
        host runs threads in that order; convert-fork-to-gpu checked it is a schedule)."""
        for signal in signals:
            if not signal.resolved:
                raise ExecutionError(
                    "waits for a signal that no thread has resolved earlier in program order, "
                    "so the threads cannot run in that order (convert-fork-to-gpu checks that they can)"
                )
            self.memory.wait(signal)

    # --- device loops ----------------------------------------------------------------------

    def device_while(self, body, state: list, condition: int, indices: tuple, forwarded: tuple, varying: tuple) -> list:
        """scf.while whose condition is a device value (lowering/emit_host.py emits this
        for a loop whose before region only reads it): while `state[condition]` at
        `indices` is true, `state = body(args)` with `args` the `forwarded` positions of
        the state (each state lives until the next is made, as the loop's values do in
        the reference executor, whose memory counts the host code's must equal). Returns
        the forwarded values of the last state. `varying` are the positions a body may
        change (the others it returns as they came), for task graphs' capture, where
        the loop becomes a conditional node (CaptureRuntime.device_while); here each
        iteration reads its condition, as the loop did."""
        while self.load(state[condition], indices):
            state = body([state[i] for i in forwarded])
        return [state[i] for i in forwarded]

    # --- kernels -------------------------------------------------------------------------

    def next_iteration(self) -> None:
        """A host loop's iteration begins (emitted at the start of each loop body that
        launches kernels): where an eager call's device work is recorded into segments
        (runtime/gpu/segment_graphs.py), a segment may end here, so that segments are
        whole iterations and repeat as the iterations do."""
        next_iteration = getattr(self.memory, "next_iteration", None)
        if next_iteration is not None:
            next_iteration()

    def launch(self, name: str, grid: tuple[int, int, int], block: tuple[int, int, int], *args, shared: int = 0) -> None:
        """gpu.launch_func: asynchronous. The grid, block and shared sizes are Python
        ints (emitted so: converting them here cost about a microsecond a launch)."""
        self.statistics.kernel_launches += 1
        if name in self.sequential_inside:
            self.statistics.ran_sequential_inside(name, self.sequential_inside[name], grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2])
        self.memory.launch(self.kernels[name], grid, block, args, shared)

    def host_kernel(self, index: int, operands: tuple, captured: tuple) -> None:
        """A kernel place-kernels put in host memory, run on the CPU. Its arrays are
        host blocks that only synchronous copies fill and read, so nothing on the
        device is in flight for them."""
        if self.host_kernels is None:
            raise ExecutionError("the host code runs a kernel on the host, but its runtime was given none")
        self.host_kernels.run(index, operands, captured, self.statistics)

    # --- how data moves ------------------------------------------------------------------

    def _move(self, source: View, dest: View) -> None:
        """Copies the elements of `source` to `dest` (same shape), uncounted."""
        if not dest.count:
            return
        source_block = source.block
        if isinstance(source_block, HostBlock):
            dest_block = dest.block
            if source.dtype == dest.dtype and source.is_dense() and dest.is_dense():
                # (dense host data, the commonest copy (an upload, or packing one): its
                # bytes as they are)
                start, nbytes = source.byte_offset, dest.nbytes
                data = source_block.buffer[start : start + nbytes]
                if isinstance(dest_block, DeviceBlock):
                    self.memory.write(dest_block.address + dest.byte_offset, data)
                else:
                    dest_block.buffer[dest.byte_offset : dest.byte_offset + nbytes] = data
                return
            self._from_host(source.array, dest)
        elif isinstance(dest.block, HostBlock):
            self._to_host(source, dest.array)
        elif overlap(source, dest):
            staging = self.memory.allocate(source.nbytes)
            self._device_to_device(source, staging.ptr, dense_strides(source.shape))
            self._device_to_device_from(staging.ptr, dense_strides(source.shape), dest)
        else:
            self._device_to_device(source, dest.address, dest.strides)

    def _from_host(self, values: np.ndarray, dest: View) -> None:
        if isinstance(dest.block, HostBlock):
            np.copyto(dest.array, values)
            return
        values = np.ascontiguousarray(values, dest.dtype)
        if dest.is_dense():
            self.memory.write(dest.address, values)
            return
        staging = self.memory.allocate(values.nbytes)
        self.memory.write(staging.ptr, values)
        self._device_to_device_from(staging.ptr, dense_strides(dest.shape), dest)

    def _to_host(self, source: View, dest: np.ndarray) -> None:
        target = dest if dest.flags.c_contiguous and dest.flags.writeable else np.empty(dest.shape, dest.dtype)
        if source.is_dense():
            self.memory.read(target, source.address)
        else:
            staging = self.memory.allocate(source.nbytes)
            self._device_to_device(source, staging.ptr, dense_strides(source.shape))
            self.memory.read(target, staging.ptr)
        if target is not dest:
            np.copyto(dest, target)

    def _device_to_device(self, source: View, destination: int, destination_strides: Sequence[int]) -> None:
        self._strided(source.dtype.itemsize, destination, destination_strides, source.address, source.strides, source.shape)

    def _device_to_device_from(self, source: int, source_strides: Sequence[int], dest: View) -> None:
        self._strided(dest.dtype.itemsize, dest.address, dest.strides, source, source_strides, dest.shape)

    def _strided(self, itemsize: int, destination: int, destination_strides, source: int, source_strides, shape) -> None:
        """One memcpy when both sides are dense once merged, else the strided kernel over
        the fewest dimensions."""
        shape, destination_strides, source_strides = merge_dimensions(shape, destination_strides, source_strides)
        if len(shape) == 1 and destination_strides[0] == source_strides[0] == 1:
            self.memory.copy(destination, source, shape[0] * itemsize)
        elif shape:
            self.memory.copy_strided(itemsize, destination, destination_strides, source, source_strides, shape)
        else:  # one element
            self.memory.copy(destination, source, itemsize)


def merge_dimensions(shape, *strides_of_each) -> tuple:
    """The same elements in as few dimensions as possible: dimensions of size 1 dropped,
    and a dimension merged into the next where every side steps over it as over one
    longer dimension. Returns (shape, strides...) as lists."""
    keep = [d for d, n in enumerate(shape) if n != 1]
    out_shape = [shape[d] for d in keep]
    out_strides = [[s[d] for d in keep] for s in strides_of_each]
    d = len(out_shape) - 2
    while d >= 0:
        if all(s[d] == s[d + 1] * out_shape[d + 1] for s in out_strides):
            for s in out_strides:
                del s[d]
            out_shape[d + 1] *= out_shape[d]
            del out_shape[d]
        d -= 1
    return (out_shape, *out_strides)


def overlap(a: View, b: View) -> bool:
    """Whether two views share bytes of one block (as a range: a conservative answer)."""
    if a.block is not b.block:
        return False
    a_lo, a_hi = a.byte_extent()
    b_lo, b_hi = b.byte_extent()
    return a_lo < b_hi and b_lo < a_hi


def _allocation_size(nbytes) -> int:
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ExecutionError(f"negative allocation size {nbytes}")
    return nbytes
