"""Task graphs: a call's device work captured once as a CUDA graph and replayed.

Host code pays Python and a driver call for every kernel it launches (about 5 µs on an
H100 machine), and in a loop of small kernels that is most of the time. A call whose
host code never needs a value from the device does the same device work every time its
arguments have the same shapes and scalar values: its control flow, sizes, launches and
copies depend on nothing else. Such a call is captured once (the host code runs with
every launch and device copy recorded on a capture stream, not run) and then replayed:
one graph launch for all its kernels, and no host code at all.

What a replay needs besides the graph:
- **Uploads.** An argument's upload before the first node is done before the graph is
  launched, into the same device block (nothing before it in the graph touches that
  block); one after it is staged through page-locked memory, refilled per call, and the
  graph copies it at its place. A value the host code computed (an array literal, a
  scalar written to the device) depends only on the key, so its staging is filled once.
- **Downloads.** Those after the last node are done after the graph, as an eager call
  does; one with nodes after it is captured into page-locked memory (a later node may
  overwrite its source) and copied out after the graph.
- **Results.** Host blocks made anew per call, filled by the downloads; a host block the
  host code itself filled, and every scalar result, are the key's and are copied. An
  array result left in device memory (device-results) is in the graph's arena, which
  the next replay overwrites: it is copied, on the device, into a block of its own.
- **Memory.** The graph's blocks live in its arena (memory_pool.GraphArena), reused
  only inside the graph, and given back when the graph is dropped from the cache.

**Forked copies.** Where the program has a forked copy of the function
(introduce-forks{beside}), its host code is captured too, each fork thread's stream a
branch of its graph, and the two graphs are measured against each other on the next
calls, in turn (the first replay of each is not timed: it uploads the graph); the
faster is kept and the other dropped with its memory. Eager calls never run the copy:
forks pay only as a graph's branches (benchmarks/forks.py), and only where measured to.

**Arguments in device memory** (a CuPy array, say) are keyed by their layout, not
their address: a replay copies each, on the device, into the block the graph reads
(no borrowing under a graph), before launching it; a call that uses one otherwise, or
copies it after a kernel, is not a graph.

A call that needs a device value on the host (a synchronous read), reads an argument's
data on the host, or writes into one, cannot be a graph: its capture stops with
GraphUnsupported, nothing ran, and the call runs eagerly (as does every later call with
its key). A key is captured on its second call, and only if its first launched at
least `min_nodes` kernels or copies, so a program called once, or with little device
work, runs as it always did.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import DeviceBlock, HostBlock, View, dense_strides, is_borrowed
from soacc.runtime.gpu.host_runtime import HostRuntime
from soacc.runtime.statistics import Statistics

MIN_NODES = 4
"""Kernels and device copies a call must launch to be worth a graph."""

CACHE_SIZE = 8
"""Graphs kept per program (the least recently used is dropped, with its memory)."""

CONTEST_ROUNDS = 3
"""Timed replays of each of a function's graph and its forked copy's before the faster
(by the median) is kept."""

GUARD_MISSES = 2
"""Times a key's graph may be dropped for other argument values (guards) before its
calls run eagerly for good."""

CONTEST_MARGIN = 0.02
"""How much faster (by median) the forked copy's graph must be to be kept (BFS's two
graphs, 2% apart with transfers of 10 ms, were once ordered by noise)."""

KEYS_REMEMBERED = 256
"""Keys whose first call, or refusal, a program remembers (a scalar argument that
changes every call makes a new key every call: the oldest are forgotten)."""


class GraphUnsupported(ExecutionError):
    """The call's host code needs something a graph cannot give (a device value on the
    host): it runs eagerly instead."""


def graph_key(function: str, args: Sequence) -> tuple:
    """What a call's device work depends on besides its arrays' contents: the function,
    every array's layout, every scalar's type and bits."""
    key: list = [function]
    for a in args:
        if isinstance(a, View):
            key.append((a.byte_offset, a.shape, a.strides, a.dtype.str))
        elif isinstance(a, HostBlock):
            key.append(a.nbytes)
        elif isinstance(a, DeviceBlock):
            if not is_borrowed(a):
                raise GraphUnsupported("an argument in device memory of the program's")
            key.append(("device", a.nbytes))  # (not its address: copied from it per call)
        else:
            value = np.asarray(a)
            key.append((value.dtype.str, value.tobytes()))
    return tuple(key)


@dataclass(frozen=True)
class _Geometry:
    """A view's place in its block, to remake it over another block."""

    byte_offset: int
    shape: tuple
    strides: tuple
    dtype: np.dtype

    @staticmethod
    def of(view: View) -> _Geometry:
        return _Geometry(view.byte_offset, view.shape, view.strides, view.dtype)

    def over(self, block) -> View:
        return View(block, self.byte_offset, self.shape, self.strides, self.dtype)

    @property
    def nbytes(self) -> int:
        """Its bytes, where it is dense."""
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


@dataclass(frozen=True)
class _Guard:
    """Element `index` (in row-major order) of argument `argument`'s view `source`,
    which held `value` when the graph was captured."""

    argument: int
    source: _Geometry
    index: int
    value: bytes

    def holds(self, args: Sequence) -> bool:
        array = self.source.over(args[self.argument]).array
        return np.ravel(array)[self.index].tobytes() == self.value


@dataclass
class _Upload:
    """Host data into device memory. `argument` is the index of the argument block
    its data comes from (None: a constant, already in `staging` or `values`)."""

    argument: int | None
    source: _Geometry | None
    destination: View
    staging: np.ndarray | None = None
    """Page-locked bytes the graph copies from (staged uploads); None when done before
    the graph."""
    values: np.ndarray | None = None
    """A constant done before the graph."""
    packing: tuple | None = None
    """(block, fills): the source is a host block the host code packed from arguments
    (fuse-transfers' staging arena), remade per call in `block` (page-locked bytes of
    the graph's, so the upload is one DMA): each fill (argument, its view, where in the
    block) copied in, then the source's view of it uploaded."""
    on_device: bool = False
    """The argument is the caller's device memory (a ForeignDeviceArray): copied on the
    device, before the graph, from wherever this call's argument is."""


@dataclass
class _Download:
    """Device data into a host block of the results (`block`: its index among the
    call's host blocks)."""

    block: int
    destination: _Geometry
    source: View | None = None
    """Downloaded after the graph (eagerly)."""
    staging: np.ndarray | None = None
    """Or captured into page-locked memory, copied out after the graph."""


class TaskGraph:
    """One key's captured graph and what its replay does around it."""

    def __init__(self) -> None:
        self.graph: Any = None
        self.uploads: list[_Upload] = []
        self.downloads: list[_Download] = []
        self.results: list = []
        """The call's results: ('block', i), ('view', i, geometry), ('argument', i),
        ('argument view', i, geometry), ('value', v), with i a host block's index;
        ('device view', view) for an array left in device memory (copied out of the
        graph's arena per replay), beside ('device block',)."""
        self.host_blocks: list[HostBlock] = []
        """The call's own host blocks, in the order first met (while capturing)."""
        self.result_blocks: dict[int, tuple[int, np.ndarray | None]] = {}
        """The host blocks the results are in: index -> (bytes, their contents, or None
        where downloads fill them)."""
        self.downloaded: set[int] = set()
        self.unpacked: list[tuple[int, _Geometry, int, _Geometry]] = []
        """Host-to-host copies out of downloaded blocks (fuse-transfers' download
        staging, unpacked into each member's block): (source block, where, destination
        block, where), done after the downloads of a replay."""
        self.statistics = Statistics()
        self.nodes = 0
        self.forked = False
        """Captured from the host code of a function's forked copy."""
        self.guards: list[_Guard] = []
        """Elements of arguments the host code read (through their device copies) while
        it was captured: a call whose arguments hold other values there is not this
        graph's."""

    def holds(self, args: Sequence) -> bool:
        """Whether `args` hold the values this graph's host code read."""
        return all(guard.holds(args) for guard in self.guards)

    def run(self, memory, args: Sequence, statistics: Statistics, runtime: HostRuntime) -> tuple:
        """The call on `args` (of this graph's key): uploads, the graph, downloads; its
        statistics are those of the captured call."""
        for upload in self.uploads:
            if upload.on_device:
                runtime._move(upload.source.over(args[upload.argument]), upload.destination)
                continue
            if upload.packing is not None:
                packed, fills = upload.packing
                for argument, source, place in fills:
                    np.copyto(place.over(packed).array, source.over(args[argument]).array)
                values = upload.source.over(packed).array
            elif upload.argument is not None:
                values = upload.source.over(args[upload.argument]).array
            else:
                values = upload.values
            if upload.staging is None:
                if values is not None:
                    runtime._from_host(values, upload.destination)
            elif upload.argument is not None or upload.packing is not None:
                np.copyto(_typed(upload.staging, upload.destination), values, casting="unsafe")
        self.graph.launch()
        memory.synchronize()
        blocks = {
            i: HostBlock(runtime.host_buffer(nbytes) if contents is None else contents.copy(), statistics)
            for i, (nbytes, contents) in self.result_blocks.items()
        }
        for download in self.downloads:
            destination = download.destination.over(blocks[download.block]).array
            if download.source is not None:
                runtime._to_host(download.source, destination)
            else:
                np.copyto(destination, _typed(download.staging, download.destination))
        for source, where, dest, there in self.unpacked:
            np.copyto(there.over(blocks[dest]).array, where.over(blocks[source]).array)
        statistics.take_counters(self.statistics)
        return tuple(_result(r, blocks, args, runtime) for r in self.results)


_UNCOUNTED = Statistics()
"""Where the blocks a graph keeps count themselves (its own, not the call's)."""


def _kept(view: View) -> View:
    """The same device array, held by the graph: the call's own block still counts
    itself freed when the host code drops it, as in an eager call, while the buffer
    stays the graph's (its arena never hands it out again)."""
    block = view.block
    return View(DeviceBlock(block.buffer, block.nbytes, _UNCOUNTED), view.byte_offset, view.shape, view.strides, view.dtype)


def _typed(staging: np.ndarray, like: View | _Geometry) -> np.ndarray:
    return staging.view(like.dtype).reshape(like.shape)


def _result(recipe: tuple, blocks: list, args: Sequence, runtime: HostRuntime):
    kind = recipe[0]
    if kind == "read":
        return runtime.load(recipe[1], recipe[2])
    if kind == "staged read":
        return recipe[1].view(recipe[2])[0].copy()
    if kind == "block":
        return blocks[recipe[1]]
    if kind == "view":
        return recipe[2].over(blocks[recipe[1]])
    if kind == "argument":
        return args[recipe[1]]
    if kind == "argument view":
        return recipe[2].over(args[recipe[1]])
    if kind == "device view":
        kept = recipe[1]
        copy = runtime.alloc_device(kept.nbytes).view(0, kept.shape, None, kept.dtype)
        runtime._move(kept, copy)
        return copy
    if kind == "device block":
        return None
    return recipe[1]


def _unsupported(self, *args, **kwargs):
    raise GraphUnsupported("uses a device value the host read (a graph reads it after it ran)")


class DeviceScalar:
    """A device value the host code read while its call was captured. The read is done
    after the graph has run, so the value may only be returned: any use of it on the
    host (arithmetic, a condition, a store) stops the capture. Where device work follows
    the read (which may overwrite the element), the graph copies the element into
    page-locked `staging` at the read's place, as it does a download a node follows."""

    __slots__ = ("view", "indices", "staging")

    def __init__(self, view: View, indices: tuple):
        self.view = view
        self.indices = indices
        self.staging: np.ndarray | None = None

    __array_ufunc__ = None  # NumPy gives up on it too


for _name in (
    "bool int float index complex array abs neg pos invert round trunc floor ceil "
    "add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow lshift rlshift rshift rrshift "
    "and rand or ror xor rxor lt le gt ge eq ne"
).split():
    setattr(DeviceScalar, f"__{_name}__", _unsupported)


class _CapturingMemory:
    """The device while a graph is captured: counts the nodes, and flushes downloads
    that nodes follow into page-locked memory before them."""

    def __init__(self, memory, runtime: CaptureRuntime):
        self._memory = memory
        self._runtime = runtime
        self.nodes = 0

    def allocate(self, nbytes: int):
        return self._memory.allocate(nbytes)

    def write(self, address: int, source: np.ndarray) -> None:
        raise GraphUnsupported("a synchronous write to the device")

    def read(self, destination: np.ndarray, address: int) -> None:
        raise GraphUnsupported("a synchronous read from the device")

    def _node(self) -> None:
        if self._runtime.pending or self._runtime.deferred:
            self._runtime.flush_downloads()
        self.nodes += 1

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        if nbytes:
            self._node()
            self._memory.copy(destination, source, nbytes)

    def copy_strided(self, *args) -> None:
        self._node()
        self._memory.copy_strided(*args)

    def launch(self, kernel, grid, block, args, shared) -> None:
        self._node()
        self._memory.launch(kernel, grid, block, args, shared)

    # a download waiting to be placed is placed before the thread changes, on the
    # stream of the thread that made it

    def fork(self) -> None:
        self._flush()
        self._memory.fork()

    def end_fork(self) -> None:
        self._flush()
        self._memory.end_fork()

    def resolve(self, signal) -> None:
        self._flush()
        self._memory.resolve(signal)

    def wait(self, signal) -> None:
        self._flush()
        self._memory.wait(signal)

    def _flush(self) -> None:
        if self._runtime.pending or self._runtime.deferred:
            self._runtime.flush_downloads()

    def begin_loop(self, condition: int):
        self._node()
        return self._memory.begin_loop(condition)

    def end_loop(self, loop, condition: int) -> None:
        self._flush()
        self._memory.end_loop(loop, condition)

    def write_async(self, address: int, source: np.ndarray) -> None:
        if source.nbytes:
            self._node()
            self._memory.write_async(address, source)

    def read_async(self, destination: np.ndarray, address: int) -> None:
        if destination.nbytes:
            self._node()
            self._memory.read_async(destination, address)


class CaptureRuntime(HostRuntime):
    """The host code's runtime while its device work is captured into `graph`: what a
    replay must do around the graph is recorded instead of done."""

    def __init__(self, memory, kernels, statistics: Statistics, args: Sequence, graph: TaskGraph):
        self.device = memory
        super().__init__(_CapturingMemory(memory, self), kernels)
        self.statistics = statistics
        self.graph = graph
        self.arguments = {id(a): i for i, a in enumerate(args) if isinstance(a, HostBlock)}
        self.device_arguments = {id(a): i for i, a in enumerate(args) if isinstance(a, DeviceBlock) and is_borrowed(a)}
        self.args = args
        self.packed: dict[int, tuple[HostBlock, list]] = {}
        """Host blocks of the call filled only by copies from arguments (fuse-transfers'
        staging arenas), by id -> the block (held: an id is only unique while its object
        lives) and the fills so far: (argument, its view, where in the block)."""
        """Arguments in the caller's device memory: a replay copies them, on the device,
        into the blocks the graph reads (so they may be used only so, before any node)."""
        self._host_block_index: dict[int, int] = {}
        self.host_written: set[int] = set()
        """Host blocks the host code wrote into (never downloaded into as well)."""
        self.pending: list[tuple[View, View]] = []
        """Downloads with no node after them yet."""
        self.deferred: list[DeviceScalar] = []
        """Reads of device values, to be done after the graph (no node may follow)."""
        self.argument_copies: dict[int, list[tuple[int, View, _Geometry]]] = {}
        """Device address of a block -> (argument, source view, where it landed) of each upload of an
        argument's data into it before the first node (what a read of it finds there
        until a node runs)."""

    # --- host blocks -----------------------------------------------------------------------

    def _host_index(self, block: HostBlock) -> int:
        index = self._host_block_index.get(id(block))
        if index is None:
            index = self._host_block_index[id(block)] = len(self.graph.host_blocks)
            self.graph.host_blocks.append(block)
        return index

    def _host_written(self, block: HostBlock) -> None:
        if id(block) in self.arguments:
            raise GraphUnsupported("writes into an argument")
        if id(block) in self.packed:
            raise GraphUnsupported("writes into a block packed from arguments otherwise")
        index = self._host_index(block)
        if index in self.graph.downloaded:
            raise GraphUnsupported("the host writes into a block that also receives device data")
        self.host_written.add(index)

    def _host_read(self, block: HostBlock) -> None:
        if id(block) in self.arguments or id(block) in self.packed:
            raise GraphUnsupported("reads an argument's data on the host")
        if self._host_index(block) in self.graph.downloaded:
            raise GraphUnsupported("reads device data on the host")

    # --- what the host code calls ----------------------------------------------------------

    def host_kernel(self, index: int, operands: tuple, captured: tuple) -> None:
        """A kernel on the host would be a host node between device nodes, whose
        inputs come from downloads inside the graph: not captured (yet)."""
        raise GraphUnsupported("runs a kernel on the host")

    def copy_or_borrow(self, source: View, dest: View) -> None:
        """Never a borrow: the graph reads its own blocks, which a replay fills from
        whichever memory that call's argument is in."""
        self.copy(source, dest)

    def _device_argument_used(self, view: View, how: str) -> None:
        if id(view.block) in self.device_arguments:
            raise GraphUnsupported(f"{how} an argument in device memory other than by copying it first")

    def load(self, view: View, indices: Sequence):
        self._device_argument_used(view, "reads")
        if not isinstance(view.block, HostBlock):
            value = self._argument_element(view, indices)
            if value is not None:
                return value
            # read after the graph: the host code may only return it (DeviceScalar)
            view.element_byte_offset(indices)  # (checked now, as the read would)
            value = DeviceScalar(_kept(view), tuple(indices))
            self.deferred.append(value)
            self.statistics.sync_reads += 1
            return value
        self._host_read(view.block)
        return super().load(view, indices)

    def _argument_element(self, view: View, indices: Sequence):
        """An element of an argument's device copy read before any node: no kernel can
        have changed it, so it is the argument's own element, read from the host (the
        convergence loop's bounds); the graph then holds only for calls whose argument
        has that value there (a guard). None where the element is not such."""
        if self.memory.nodes or self.pending:
            return None
        offset = view.element_byte_offset(indices)
        itemsize = view.dtype.itemsize
        for argument, source, landing in self.argument_copies.get(view.block.address, ()):
            relative = offset - landing.byte_offset
            if landing.dtype != view.dtype or relative % itemsize or not 0 <= relative < landing.nbytes:
                continue
            index = relative // itemsize
            value = np.ravel(source.array)[index]
            self.graph.guards.append(_Guard(argument, _Geometry.of(source), index, value.tobytes()))
            return value
        return None

    def store(self, value, view: View, indices: Sequence) -> None:
        self._device_argument_used(view, "writes into")
        if isinstance(view.block, HostBlock):
            self._host_written(view.block)
            super().store(value, view, indices)
            return
        offset = view.element_byte_offset(indices)
        element = View(view.block, offset, (), (), view.dtype)
        self._upload_constant(np.array(value, view.dtype), element)
        self.statistics.scalar_writes += 1

    def _move(self, source: View, dest: View) -> None:
        if not dest.count:
            return
        source_on_host = isinstance(source.block, HostBlock)
        dest_on_host = isinstance(dest.block, HostBlock)
        if source_on_host and dest_on_host:
            argument = self.arguments.get(id(source.block))
            if argument is not None and self._packable(dest.block):
                # packing arguments into a block of the call (fuse-transfers' staging):
                # remade per call from that call's arguments
                self.packed.setdefault(id(dest.block), (dest.block, []))[1].append((argument, _Geometry.of(source), _Geometry.of(dest)))
                HostRuntime._move(self, source, dest)
                return
            source_index = self._host_block_index.get(id(source.block))
            if source_index is not None and source_index in self.graph.downloaded and id(dest.block) not in self.arguments:
                # out of a block device data lands in (a download message's staging):
                # done after the replay's downloads, into a block that then holds device data
                index = self._host_index(dest.block)
                if index in self.host_written:
                    raise GraphUnsupported("the host writes into a block that also receives device data")
                self.graph.downloaded.add(index)
                self.graph.unpacked.append((source_index, _Geometry.of(source), index, _Geometry.of(dest)))
                return
            self._host_read(source.block)
            self._host_written(dest.block)
            super()._move(source, dest)
        elif source_on_host:
            argument = self.arguments.get(id(source.block))
            if argument is None and id(source.block) in self.packed:
                self._upload_packed(source, dest)
            elif argument is None:
                self._host_read(source.block)
                self._upload_constant(np.ascontiguousarray(source.array, dest.dtype), dest)
            else:
                self._upload_argument(argument, source, dest)
        elif dest_on_host:
            self._device_argument_used(source, "downloads")
            if id(dest.block) in self.arguments:
                raise GraphUnsupported("writes into an argument")
            index = self._host_index(dest.block)
            if index in self.host_written:
                raise GraphUnsupported("the host writes into a block that also receives device data")
            self.graph.downloaded.add(index)
            self.pending.append((source, dest))
        elif id(source.block) in self.device_arguments:
            self._device_argument_used(dest, "writes into")
            if self.memory.nodes or self.pending:
                raise GraphUnsupported("copies an argument in device memory after a kernel")
            self.graph.uploads.append(
                _Upload(self.device_arguments[id(source.block)], _Geometry.of(source), _kept(dest), on_device=True)
            )
        else:
            self._device_argument_used(dest, "writes into")
            super()._move(source, dest)

    def _from_host(self, values: np.ndarray, dest: View) -> None:
        """Array literals: values the host code computed."""
        if isinstance(dest.block, HostBlock):
            self._host_written(dest.block)
            super()._from_host(values, dest)
        else:
            self._upload_constant(np.ascontiguousarray(values, dest.dtype), dest)

    # --- device loops ----------------------------------------------------------------------

    def device_while(self, body, state: list, condition: int, indices: tuple, forwarded: tuple, varying: tuple) -> list:
        """The loop as a conditional node: its body's device work captured once (the host
        code of the body runs once), run by the device while the condition is true.

        Each iteration's body works on the same memory, so what changes lives in *slots*:
        a private copy, made before the loop, of each varying array (the initial value
        may still be used after the loop), which the body reads; at its end the body's
        new values are copied into the slots, the condition among them. A host value
        that changes from one iteration to the next cannot be a graph's."""
        slots = list(state)
        private: dict[int, DeviceBlock] = {}
        taken: dict[int, list[tuple[int, int]]] = {}
        """private block -> the byte ranges of the slots in it"""
        for i in varying:
            value = slots[i]
            if isinstance(value, View):
                if isinstance(value.block, HostBlock):
                    raise GraphUnsupported("a loop that carries host data")
                block = private.get(id(value.block))
                extent = value.byte_extent() if value.count else (0, 0)
                if block is not None and any(lo < extent[1] and extent[0] < hi for lo, hi in taken[id(block)]):
                    block = None  # two values that start alike (one constant): a block each
                if block is None:
                    block = self.alloc_device(value.block.nbytes)
                    private.setdefault(id(value.block), block)
                    taken[id(block)] = []
                taken[id(block)].append(extent)
                slots[i] = _Geometry.of(value).over(block)
                self._move(value, slots[i])
            elif not isinstance(value, DeviceBlock):
                raise GraphUnsupported("a loop whose host values change from one iteration to the next")
        for i in varying:  # a carried block: its private copy (what its views were copied into)
            if isinstance(slots[i], DeviceBlock):
                slots[i] = private.get(id(slots[i]), slots[i])
        flag = slots[condition]
        if not isinstance(flag, View) or isinstance(flag.block, HostBlock) or flag.dtype.itemsize != 1:
            raise GraphUnsupported("a loop whose condition is not a device flag")
        address = flag.block.address + flag.element_byte_offset(indices)
        loop = self.memory.begin_loop(address)
        new = body([slots[i] for i in forwarded])
        held = {id(slots[i].block) for i in varying if isinstance(slots[i], View)}
        for i in varying:
            old, value = slots[i], new[i]
            if not isinstance(old, View) or value is old:
                continue
            if not isinstance(value, View) or isinstance(value.block, HostBlock):
                raise GraphUnsupported("a loop that carries host data")
            if value.block is old.block and _Geometry.of(value) == _Geometry.of(old):
                continue  # updated in place
            if value.shape != old.shape or value.dtype != old.dtype:
                raise GraphUnsupported("a loop whose arrays change shape from one iteration to the next")
            if id(value.block) in held:
                raise GraphUnsupported("a loop whose next value is in memory the loop carries")
            self._move(value, old)
        for i, (old, value) in enumerate(zip(slots, new)):
            if i not in varying and value is not old:
                raise GraphUnsupported("a loop value the host code said would not change changed")
        del new
        self.memory.end_loop(loop, address)
        return [slots[i] for i in forwarded]

    # --- uploads and downloads -------------------------------------------------------------

    def _dense_destination(self, dest: View) -> tuple[View, View | None]:
        """Where an upload lands whole: `dest`, or a dense staging block on the device
        that a captured strided copy then scatters into `dest`."""
        if dest.is_dense():
            return dest, None
        block = DeviceBlock(self.memory.allocate(dest.nbytes), dest.nbytes, Statistics())
        return View(block, 0, dest.shape, dense_strides(dest.shape), dest.dtype), dest

    def _scatter(self, staged: View, dest: View | None) -> None:
        if dest is not None:
            self._device_to_device_from(staged.address, staged.strides, dest)

    def _upload_argument(self, argument: int, source: View, dest: View) -> None:
        landing, scatter = self._dense_destination(dest)
        upload = _Upload(argument, _Geometry.of(source), _kept(landing))
        if self.memory.nodes or self.pending:
            upload.staging = self.device.pinned(landing.nbytes)
            self.memory.write_async(landing.address, upload.staging)
        elif scatter is None:
            # (the landing's geometry, not the view: the call's block dies when its code
            # drops it; the key is the block's address, which a write into it forgets)
            self._arguments_landed(landing).append((argument, source, _Geometry.of(landing)))
        self.graph.uploads.append(upload)
        self._scatter(landing, scatter)

    def _packable(self, block: HostBlock) -> bool:
        """A block of the call's own that the host code neither wrote otherwise nor
        downloaded into: one copies from arguments may fill."""
        if id(block) in self.arguments:
            return False
        if id(block) in self.packed:
            return True
        index = self._host_block_index.get(id(block))
        return index is None or (index not in self.host_written and index not in self.graph.downloaded)

    def _upload_packed(self, source: View, dest: View) -> None:
        """An upload of a block packed from arguments: remade and uploaded per call."""
        landing, scatter = self._dense_destination(dest)
        fills = list(self.packed[id(source.block)][1])
        packed = HostBlock(self.device.pinned(source.block.nbytes), None)
        upload = _Upload(None, _Geometry.of(source), _kept(landing), packing=(packed, fills))
        entries = self._arguments_landed(landing)
        if self.memory.nodes or self.pending:
            upload.staging = self.device.pinned(landing.nbytes)
            self.memory.write_async(landing.address, upload.staging)
        elif scatter is None:
            # each argument's bytes now lie in the device block: what a read of them
            # there finds until a node runs (as for an argument's own upload)
            for argument, taken, place in fills:
                at = landing.byte_offset + place.byte_offset - source.byte_offset
                if source.byte_offset <= place.byte_offset and place.byte_offset + place.nbytes <= source.byte_offset + source.nbytes:
                    entries.append((argument, taken.over(self.args[argument]), _Geometry(at, place.shape, place.strides, place.dtype)))
        self.graph.uploads.append(upload)
        self._scatter(landing, scatter)

    def _arguments_landed(self, landing: View) -> list:
        """The argument copies in `landing`'s block, those `landing` overwrites dropped:
        the list an upload into it adds its own to."""
        entries = self.argument_copies.setdefault(landing.block.address, [])
        start, end = landing.byte_offset, landing.byte_offset + landing.nbytes
        entries[:] = [e for e in entries if not _overlaps(e[2], start, end)]
        return entries

    def _upload_constant(self, values: np.ndarray, dest: View) -> None:
        self.argument_copies.pop(dest.block.address, None)  # (its bytes are no longer an argument's)
        landing, scatter = self._dense_destination(dest)
        if self.memory.nodes or self.pending:
            staging = self.device.pinned(values.nbytes)
            staging[:] = values.reshape(-1).view(np.uint8)
            self.graph.uploads.append(_Upload(None, None, _kept(landing), staging=staging))
            self.memory.write_async(landing.address, staging)
        else:
            self.graph.uploads.append(_Upload(None, None, _kept(landing), values=values))
        self._scatter(landing, scatter)

    def flush_downloads(self) -> None:
        """Downloads and reads that a node is about to follow: captured into page-locked
        memory (the node may overwrite their source)."""
        deferred, self.deferred = self.deferred, []
        for scalar in deferred:
            view = scalar.view
            scalar.staging = self.device.pinned(view.dtype.itemsize)
            self.memory.read_async(scalar.staging, view.block.address + view.element_byte_offset(scalar.indices))
        pending, self.pending = self.pending, []
        for source, dest in pending:
            staging = self.device.pinned(source.nbytes)
            if source.is_dense():
                self.memory.read_async(staging, source.address)
            else:
                block = DeviceBlock(self.memory.allocate(source.nbytes), source.nbytes, Statistics())
                dense = View(block, 0, source.shape, dense_strides(source.shape), source.dtype)
                self._device_to_device(source, dense.address, dense.strides)
                self.memory.read_async(staging, dense.address)
            self.graph.downloads.append(_Download(self._host_index(dest.block), _Geometry.of(dest), staging=staging))

    def finish(self, results: Sequence) -> None:
        """After the host code returned: the downloads left for after the graph, and
        how to remake the results."""
        for source, dest in self.pending:
            self.graph.downloads.append(_Download(self._host_index(dest.block), _Geometry.of(dest), source=_kept(source)))
        self.pending = []
        recipe: list = []
        for r in results:
            if id(r) in self.packed or (isinstance(r, View) and id(r.block) in self.packed):
                raise GraphUnsupported("returns a block packed from arguments")
            if isinstance(r, HostBlock):
                argument = self.arguments.get(id(r))
                recipe.append(("block", self._host_index(r)) if argument is None else ("argument", argument))
            elif isinstance(r, View):
                if not isinstance(r.block, HostBlock):
                    # (in the graph's arena, which the next replay overwrites: copied
                    # out per replay into a block of the caller's)
                    recipe.append(("device view", _kept(r)))
                    continue
                argument = self.arguments.get(id(r.block))
                if argument is None:
                    recipe.append(("view", self._host_index(r.block), _Geometry.of(r)))
                else:
                    recipe.append(("argument view", argument, _Geometry.of(r)))
            elif isinstance(r, DeviceBlock):
                recipe.append(("device block",))  # (its view's copy brings its own)
            elif isinstance(r, DeviceScalar):
                if r.staging is not None:
                    recipe.append(("staged read", r.staging, r.view.dtype))
                else:
                    recipe.append(("read", r.view, r.indices))
            else:
                recipe.append(("value", r))
        graph = self.graph
        graph.results = recipe
        graph.nodes = self.memory.nodes
        needed = {r[1] for r in recipe if r[0] in ("block", "view")}
        graph.unpacked = [u for u in graph.unpacked if u[2] in needed]
        needed |= {u[0] for u in graph.unpacked}  # (a staging block, remade per replay)
        graph.result_blocks = {
            i: (graph.host_blocks[i].nbytes, None if i in graph.downloaded else graph.host_blocks[i].buffer.copy())
            for i in sorted(needed)
        }
        # a download into a block no result is in is never seen: not done
        graph.downloads = [d for d in graph.downloads if d.block in needed]
        graph.host_blocks = []


@dataclass
class TaskGraphs:
    """The graphs of one program's calls, by key, and which keys are not worth one or
    cannot be one."""

    memory: Any
    kernels: Any
    min_nodes: int = MIN_NODES
    capacity: int = CACHE_SIZE
    graphs: OrderedDict = field(default_factory=OrderedDict)
    first_calls: OrderedDict = field(default_factory=OrderedDict)
    """key -> kernels and device copies of the key's first (eager) call."""
    unsupported: OrderedDict = field(default_factory=OrderedDict)
    """key -> why its capture stopped."""
    captures: int = 0
    replays: int = 0
    chosen: OrderedDict = field(default_factory=OrderedDict)
    """key -> "function" or "forked": which graph a contest kept (the keys with both)."""
    _misses: OrderedDict = field(default_factory=OrderedDict)
    guard_misses: int = 0
    """Graphs dropped because a call's arguments held other values where the host code
    had read them while it was captured."""
    forked_unsupported: OrderedDict = field(default_factory=OrderedDict)
    """key -> why the forked copy's capture stopped (the function's graph runs alone)."""
    clock: Callable[[], float] = time.perf_counter
    """What contests time replays with (the tests give their own)."""

    def __post_init__(self) -> None:
        pool = getattr(self.memory, "pool", None)
        if pool is not None and hasattr(pool, "add_reliever"):
            # a device out of memory first drops the graphs (their arenas), then fails
            pool.add_reliever(self.release)

    def call(
        self, function: str, python: Callable, args: Sequence, statistics: Statistics, eager: Callable,
        forked: Callable | None = None,
    ) -> tuple:
        """Runs `python` (the host code of `function`) on `args`: replayed, captured,
        or eagerly by `eager()`, which returns the host code's results. `forked` is the
        host code of the function's forked copy, if it has one: captured beside it and
        measured against it (module docstring)."""
        try:
            key = graph_key(function, args)
        except GraphUnsupported:
            return eager()
        entry = self.graphs.get(key)
        if entry is not None and not _holds(entry, args):
            # the arguments hold other values where the host code read them: captured
            # anew, unless they keep changing (a capture costs more than an eager call)
            del self.graphs[key]
            _release(entry)
            self.guard_misses += 1
            entry = None
            misses = self._misses.get(key, 0) + 1
            _remember(self._misses, key, misses)
            if misses > GUARD_MISSES:
                _remember(self.unsupported, key, "the argument values its host code reads keep changing")
            self.first_calls.setdefault(key, self.min_nodes)
        if entry is not None:
            self.graphs.move_to_end(key)
            self.replays += 1
            if isinstance(entry, _Contest):
                return self._contest(key, entry, args, statistics)
            results = self._run(entry, args, statistics)
            statistics.task_graph = "replayed"
            return results
        if key in self.unsupported:
            return eager()
        nodes = self.first_calls.get(key)
        if nodes is None:
            results = eager()
            _remember(self.first_calls, key, statistics.kernel_launches + statistics.copies["device->device"].count)
            return results
        if nodes < self.min_nodes:
            return eager()
        graph = self._capture(key, python, args, statistics)
        if graph is None:
            return eager()
        rival = self._capture(key, forked, args, statistics, copy=True) if forked is not None else None
        self.graphs[key] = graph if rival is None else _Contest(graph, rival)
        while len(self.graphs) > self.capacity:
            _, dropped = self.graphs.popitem(last=False)
            _release(dropped)
        self.captures += 1
        results = self._run(graph, args, statistics)
        statistics.task_graph = "captured"
        return results

    def _run(self, graph: TaskGraph, args: Sequence, statistics: Statistics) -> tuple:
        results = graph.run(self.memory, args, statistics, HostRuntime(self.memory, self.kernels))
        statistics.task_graph_forked = graph.forked
        return results

    def _contest(self, key, contest: _Contest, args: Sequence, statistics: Statistics) -> tuple:
        """One replay of the contest's graph whose turn it is, timed; once a winner is
        known the key keeps only it."""
        which = contest.next()
        start = self.clock()
        results = self._run(contest.graphs[which], args, statistics)
        contest.record(which, self.clock() - start)
        statistics.task_graph = "replayed"
        winner = contest.winner()
        if winner is not None:
            self.graphs[key] = contest.graphs[winner]
            contest.graphs[1 - winner].graph.release()
            self.chosen[key] = "forked" if winner else "function"
        return results

    def _capture(self, key, python: Callable, args: Sequence, statistics: Statistics, copy: bool = False) -> TaskGraph | None:
        """The graph of `python`'s device work on `args`, or None (why is remembered:
        in `unsupported`, or for a forked copy (`copy`) in `forked_unsupported`)."""
        graph = TaskGraph()
        graph.forked = copy
        refusals = self.forked_unsupported if copy else self.unsupported
        # counted apart: the call's own statistics become those of the captured call
        # only once the graph ran, and the captured call's host blocks die uncounted
        counted = Statistics(gpu_compile_seconds=statistics.gpu_compile_seconds)
        runtime = CaptureRuntime(self.memory, self.kernels, counted, args, graph)
        self.memory.begin_capture()
        try:
            with np.errstate(all="ignore"):
                results = python(runtime, *args)
            runtime.finish(results)
        except Exception as error:  # nothing ran: the call runs eagerly, and fails there if it must
            self.memory.abort_capture()
            _remember(refusals, key, str(error))
            return None
        try:
            graph.graph = self.memory.end_capture()
        except ExecutionError as error:  # the driver would not end or instantiate it: eagerly
            _remember(refusals, key, str(error))
            return None
        graph.statistics.take_counters(counted)
        return graph

    def release(self) -> None:
        """Every graph and its memory."""
        for entry in self.graphs.values():
            _release(entry)
        self.graphs.clear()


class _Contest:
    """A key's graph of the function and of its forked copy, replayed in turn and timed
    until one is chosen."""

    def __init__(self, plain: TaskGraph, forked: TaskGraph):
        self.graphs = (plain, forked)
        self.times: tuple[list[float], list[float]] = ([], [])
        self.runs = [1, 0]  # the plain graph ran once, untimed, on the call that captured it

    def next(self) -> int:
        """Which graph runs now: each in turn, from the one that ran less."""
        return 1 if self.runs[1] < self.runs[0] else 0

    def record(self, which: int, seconds: float) -> None:
        if self.runs[which] > 0:  # the first run uploads the graph: not timed
            self.times[which].append(seconds)
        self.runs[which] += 1

    def winner(self) -> int | None:
        """The faster graph once both were timed CONTEST_ROUNDS times, else None; the
        forked copy only where its median is CONTEST_MARGIN below the function's (a
        near tie is the timer's noise, and the function's graph is the plainer one)."""
        if min(len(t) for t in self.times) < CONTEST_ROUNDS:
            return None
        medians = [float(np.median(t)) for t in self.times]
        return 1 if medians[1] < medians[0] * (1 - CONTEST_MARGIN) else 0

    def release(self) -> None:
        for graph in self.graphs:
            graph.graph.release()


def _overlaps(geometry: _Geometry, start: int, end: int) -> bool:
    """A dense geometry's bytes meet [start, end)."""
    return geometry.byte_offset < end and start < geometry.byte_offset + geometry.nbytes


def _holds(entry: TaskGraph | _Contest, args: Sequence) -> bool:
    graphs = entry.graphs if isinstance(entry, _Contest) else (entry,)
    return all(graph.holds(args) for graph in graphs)


def _release(entry: TaskGraph | _Contest) -> None:
    if isinstance(entry, _Contest):
        entry.release()
    else:
        entry.graph.release()


def _remember(keys: OrderedDict, key, value) -> None:
    keys[key] = value
    while len(keys) > KEYS_REMEMBERED:
        keys.popitem(last=False)
