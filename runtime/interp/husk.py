"""`husk` on NumPy: the body runs once per device, in device order, over that device's
rows (dialects/shared/partitions.py). The number of devices is the executor's
(`devices`, 1 by default), as the GPU runtime's is.

- `husk.husk` (level 1): the reduced values are combined in device order with the
  husk's operator, starting from its neutral elements, and the concatenated arrays are
  joined in device order.
- `husk.run` (level 2): each device is a memory space of its own (`device i`; device 0
  is the program's `device`). Device 0 runs the body on views of the sources, outs and
  slots themselves; device i > 0 on copies of its rows (and of every device array the
  body uses from above) made in its memory, whose out rows and slot are copied back to
  device 0 after its body: every copy is a real one, counted as `peer` in the run's
  statistics, and the body's allocations are device i's.

What a device was sent or computed stays there for later runs while device 0's
copy is untouched (runtime/husk_residency.py): a run sends a device only the bytes it
lacks. Host code outside husks that may write an array ends that, by the GPU
runtime's rule (`_Touches`): a kernel that may write it, or an op that declares it
writes it.

Each run is recorded in the run's Statistics (`husks`): the partition table and, at
level 1, each device's reduced values, which the tests compare with the study's tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import weakref

from xdsl.dialects import gpu
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import Interpreter, InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable

from soacc.dialects import husk
from soacc.dialects.shared.traits import OperandEffects, is_kernel
from soacc.dialects.shared.partitions import even_partitions
from soacc.passes.analysis.kernel_writes import written_arrays, written_parameters
from soacc.runtime.errors import ExecutionError
from soacc.runtime.husk_cost import bytes_moved, check_rows, choose_split, continued_split
from soacc.runtime.husk_residency import ResidentRows
from soacc.runtime.interp.lanes import captured_values as region_captured_values, lanes
from soacc.dialects.shared.utils import captured_values
from soacc.runtime.interp.mem import MemFunctions, running_on_device, statistics
from soacc.runtime.statistics import HuskRun, Statistics


def devices_of(interpreter: Interpreter) -> int:
    """The number of devices husks run on (1 unless the executor was given more)."""
    return interpreter.get_data(HuskFunctions, "devices", lambda: 1)


def set_devices(interpreter: Interpreter, devices: int, resident: bool = True) -> None:
    """Husks run on `devices` devices; with more than one (and `resident`), what the
    devices hold is followed (a listener sees host code touch device 0's arrays)."""
    if devices < 1:
        raise ExecutionError(f"husks run on at least one device, not {devices}")
    interpreter.set_data(HuskFunctions, "devices", devices)  # type: ignore[arg-type]
    if devices > 1 and resident:
        resident = ResidentRows(lambda block, entry: _send_back(interpreter, block, entry))
        interpreter.set_data(HuskFunctions, "resident", resident)  # type: ignore[arg-type]
        interpreter.listeners = (*interpreter.listeners, _Touches(interpreter, resident))


def resident_rows(interpreter: Interpreter) -> ResidentRows | None:
    """What the devices past the first hold (None with one device)."""
    return interpreter.get_data(HuskFunctions, "resident", lambda: None)


def end_call(interpreter: Interpreter) -> None:
    """At a call's end, the devices give back what they held (the results are in host
    memory: what they computed of them came back as they were copied there)."""
    resident = resident_rows(interpreter)
    if resident is not None:
        resident.clear()


class _Touches(Interpreter.Listener):
    """Host code (not a kernel's lanes, not a husk) that reads device 0's arrays gets
    back first what other devices computed of them; host code that may write them
    also ends what the devices hold. By the GPU runtime's rule: a kernel reads every
    array it is given or captures and writes those it may write
    (passes/analysis/kernel_writes.py: those it declares it writes, and those its body
    stores to); any other op reads and writes what it declares (a copy, a load, a
    store, an array literal)."""

    def __init__(self, interpreter: Interpreter, resident: ResidentRows):
        self.interpreter = interpreter
        self.resident = resident
        self._accesses: dict[Operation, _Accesses] = {}

    def will_interpret_op(self, op: Operation, args) -> None:
        if not self.resident or lanes(self.interpreter).depth:
            return
        found = self._accesses.get(op)
        if found is None:
            found = self._accesses[op] = _accesses(op, self.interpreter)
        for positions, captured, act in (
            (found.read, found.read_captured, self.resident.reading),
            (found.written, found.written_captured, self.resident.touched),
        ):
            arrays = [args[i] for i in positions if isinstance(args[i], np.ndarray)]
            if captured:
                arrays += [a for a in self.interpreter.get_values(captured) if isinstance(a, np.ndarray)]
            if arrays:
                act(*(_root(a) for a in arrays))


@dataclass(frozen=True)
class _Accesses:
    """The operands (positions) and captured values an op run as host code may read
    and may write."""

    read: tuple[int, ...] = ()
    written: tuple[int, ...] = ()
    read_captured: tuple[SSAValue, ...] = ()
    written_captured: tuple[SSAValue, ...] = ()


def _accesses(op: Operation, interpreter: Interpreter) -> _Accesses:
    if isinstance(op, husk.RunOp):
        return _Accesses()
    arrays = [i for i, v in enumerate(op.operands) if isinstance(v.type, MemRefType)]
    if isinstance(op, gpu.LaunchFuncOp):
        kernel = SymbolTable.lookup_symbol(op, op.kernel)
        written = written_parameters(kernel) if kernel is not None else frozenset(range(len(op.kernelOperands)))
        changed = {v for i, v in enumerate(op.kernelOperands) if i in written}
        return _Accesses(tuple(arrays), tuple(i for i in arrays if op.operands[i] in changed))
    effects = op.get_trait(OperandEffects)
    if effects is None:
        return _Accesses()
    declared_reads = set(effects.views(op, effects.reads))
    declared_writes = set(effects.views(op, effects.writes + effects.creates))
    written = tuple(i for i in arrays if op.operands[i] in declared_writes)
    if not is_kernel(op):
        return _Accesses(tuple(i for i in arrays if op.operands[i] in declared_reads), written)
    captured = [v for region in op.regions for v in region_captured_values(interpreter, region) if isinstance(v.type, MemRefType)]
    captured = list(dict.fromkeys(captured))
    stored = written_arrays(captured, op.regions)
    return _Accesses(tuple(arrays), written, tuple(captured), tuple(v for v in captured if v in stored))


LEVEL_1_SPLIT = "every device (level 1: the study's even split)"
"""Why a level-1 husk used the devices it did (it has no cost model)."""


@register_impls
class HuskFunctions(InterpreterFunctions):
    @impl_terminator(husk.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: husk.YieldOp, args):
        return ReturnedValues(args), ()

    @impl(husk.HuskOp)
    def run_husk(self, interpreter: Interpreter, op: husk.HuskOp, args):
        if lanes(interpreter).depth:
            raise ExecutionError("a husk runs as host code, never inside a kernel")
        k_sources = len(op.sources)
        rows = int(args[0])
        sources = [np.asarray(a) for a in args[1 : 1 + k_sources]]
        neutral = tuple(args[1 + k_sources : 1 + k_sources + len(op.neutral)])
        if rows < 0:
            raise ExecutionError(f"husk.husk splits {rows} rows")
        for j, source in enumerate(sources):
            if source.shape[0] != rows:
                raise ExecutionError(
                    f"husk.husk source {j} has {source.shape[0]} rows, but the husk splits {rows}"
                )
        table = even_partitions(rows, devices_of(interpreter))
        k = len(op.reduced)
        partials: list[tuple] = []
        pieces: list[list[np.ndarray]] = [[] for _ in range(op.pairs + len(op.concatenated))]
        for offset, size in table:
            parts = [s[offset : offset + size] for s in sources]
            values = interpreter.run_ssacfg_region(
                op.body, (np.int64(offset), np.int64(size), *parts), "husk.husk"
            )
            partials.append(tuple(values[:k]))
            for j, array in enumerate(values[k:]):
                array = np.asarray(array)
                if array.shape[0] != size:
                    raise ExecutionError(
                        f"husk.husk: concatenated value {j} of the device at rows "
                        f"[{offset}, {offset + size}) has {array.shape[0]} rows; expected {size}"
                    )
                pieces[j].append(array)
        statistics: Statistics = interpreter.get_data(MemFunctions, "statistics", Statistics)  # type: ignore[assignment]
        if op.is_scatter:
            statistics.husks.append(HuskRun(table, [], sum(1 for _, size in table if size), LEVEL_1_SPLIT))
            dest = _scattered(np.array(args[-1]), *(np.concatenate(p, axis=0) for p in pieces[:2]))
            return (dest, *(np.concatenate(p, axis=0) for p in pieces[2:]))
        if op.is_scan:
            carries = _complete_scans(interpreter, op, pieces[: len(op.neutral)])
            statistics.husks.append(HuskRun(table, carries, sum(1 for _, size in table if size), LEVEL_1_SPLIT))
            return tuple(np.concatenate(p, axis=0) for p in pieces)
        # in device order (the operator need not commute), the devices that had rows
        # only: the reduction of rows never uses the neutral element, so neither does
        # this (a program whose "neutral" element is not gets what it got without husks)
        busy = [p for p, (_, size) in zip(partials, table) if size]
        reduced = busy[0] if busy else neutral
        for partial in busy[1:]:
            reduced = tuple(interpreter.run_ssacfg_region(op.reducer, (*reduced, *partial), "husk.reduce"))
        statistics.husks.append(HuskRun(table, partials, len(busy), LEVEL_1_SPLIT))
        return (*reduced, *(np.concatenate(p, axis=0) for p in pieces))

    @impl(husk.DevicesOp)
    def run_devices(self, interpreter: Interpreter, op: husk.DevicesOp, args):
        return (np.int64(devices_of(interpreter)),)

    @impl(husk.RunOp)
    def run_run(self, interpreter: Interpreter, op: husk.RunOp, args):
        if lanes(interpreter).depth:
            raise ExecutionError("a husk runs as host code, never inside a kernel")
        resident = resident_rows(interpreter)
        if resident is None:
            return self._run(interpreter, op, args, None)
        with resident.in_husk():
            return self._run(interpreter, op, args, resident)

    def _run(self, interpreter: Interpreter, op: husk.RunOp, args, resident: ResidentRows | None):
        s, o = len(op.sources), len(op.outs)
        rows = int(args[0])
        used = None if op.used is None else int(args[1])
        args = args[1:] if op.used is None else args[2:]
        sources, outs, slots = args[:s], args[s : s + o], args[s + o :]
        devices = devices_of(interpreter)
        check_rows(rows, devices, *([np.shape(a)[0] for a in group] for group in (sources, outs, slots)))
        broadcast = [v for v in captured_values(op) if isinstance(v.type, MemRefType) and getattr(v.type.memory_space, "is_device", False)]
        sent = [np.asarray(interpreter.get_values((v,))[0]) for v in broadcast]

        def held(device: int, offset: int, size: int) -> tuple[int, int]:
            if resident is None:
                return 0, 0
            wanted = [a[offset : offset + size] for a in sources] + sent
            return resident.held_bytes(device, [(*_block_of(np.asarray(a)), np.asarray(a).nbytes) for a in wanted])

        if used is not None:
            split = continued_split(rows, devices, used)
        else:
            split = choose_split(
                rows, devices, op.work_per_row,
                lambda t: bytes_moved(t, [_row_bytes(a) for a in sources], [_row_bytes(a) for a in outs], [a.nbytes for a in sent], [_row_bytes(a) for a in slots], held),
            )
        table = split.partitions
        stats = statistics(interpreter)
        if resident is not None:
            _make_current(resident, table[0], sources, outs, sent)
        kept_before = resident.kept_bytes if resident is not None else 0
        computed: list[tuple[int, np.ndarray, np.ndarray]] = []  # (device, out rows there, the out's rows)
        for device, (offset, size) in enumerate(table):
            if device and not size:
                continue  # a device past those used, or with no rows: nothing to do
            if device == 0:
                parts = [a[offset : offset + size] for a in (*sources, *outs)]
                slot_rows = [a[0:1].reshape(np.shape(a)[1:]) for a in slots]
                interpreter.run_ssacfg_region(
                    op.body, (np.int64(device), np.int64(offset), np.int64(size), *parts, *slot_rows), "husk.run"
                )
                continue
            space = f"device {device}"
            parts = [_obtain(stats, resident, device, a[offset : offset + size], space) for a in sources]
            # an out of a source's elements (an array updated in place): its rows are
            # the ones just sent
            out_rows = [
                parts[j] if (j := _same_elements(sources, a)) is not None else _fresh(stats, (size, *np.shape(a)[1:]), a.dtype, space)
                for a in outs
            ]
            slot_rows = [_fresh(stats, np.shape(a)[1:], a.dtype, space) for a in slots]
            copies = [(v, _obtain(stats, resident, device, array, space)) for v, array in zip(broadcast, sent)]
            interpreter.push_scope(f"husk.run on {space}")
            try:
                interpreter.set_values(copies)
                with running_on_device(interpreter, device):
                    interpreter.run_ssacfg_region(
                        op.body,
                        (np.int64(device), np.int64(offset), np.int64(size), *parts, *out_rows, *slot_rows),
                        "husk.run",
                    )
            finally:
                interpreter.pop_scope()
            for out, piece in zip(outs, out_rows):
                rows_there = out[offset : offset + size]
                if resident is not None and _block_of(rows_there)[0] is not None:
                    computed.append((device, piece, rows_there))  # sent back when needed
                    continue
                rows_there[...] = piece
                stats.copied(space, "device", piece.nbytes)
            for slot_array, value in zip(slots, slot_rows):
                slot_array[device] = value
                stats.copied(space, "device", value.nbytes)
        if resident is not None:
            # the run wrote its outs and slots on every device: what the devices held of
            # them is gone, but for the rows each computed, which it now holds, and
            # only it (device 0 gets them where host code or another run needs them)
            for array in (*outs, *slots):
                block, start = _block_of(array)
                if not array.nbytes:
                    continue
                if block is None:
                    resident.written(_root(array))
                else:
                    resident.written(block, start, array.nbytes)
            for device, piece, rows_there in computed:
                block, start = _block_of(rows_there)
                resident.keep(device, block, start, rows_there.nbytes, piece, dirty=True)
        busy = sum(1 for _, size in table if size)
        kept = resident.kept_bytes - kept_before if resident is not None else 0
        stats.husks.append(HuskRun(table, [], busy, split.reason, kept))
        return (np.int64(busy),)


def _scattered(dest: np.ndarray, indices: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`dest` with each value written to the row its index names (those outside
    ignored), as soac.scatter: the devices' pairs in device order."""
    inside = (indices >= 0) & (indices < dest.shape[0])
    dest[indices[inside].astype(np.int64)] = values[inside]
    return dest


def _complete_scans(interpreter: Interpreter, op: husk.HuskOp, scans: list[list[np.ndarray]]) -> list[tuple]:
    """A scan husk's devices' local scans (`scans[j][i]`: device i's scan of array j)
    completed in place: each row of a device after the first combined, on the left,
    with the carry of the devices before it (the operator's fold of their last rows, in
    device order). Returns each device's carry (None for the first with rows)."""
    carries: list[tuple] = []
    carry: tuple | None = None
    for device in range(len(scans[0])):
        local = [np.array(scans[j][device]) for j in range(len(scans))]
        for j, a in enumerate(local):
            scans[j][device] = a
        carries.append(carry)
        if not local[0].shape[0]:
            continue
        if carry is not None:
            for r in range(local[0].shape[0]):
                row = tuple(a[r] for a in local)
                for a, v in zip(local, interpreter.run_ssacfg_region(op.reducer, (*carry, *row), "husk.reduce")):
                    a[r] = v
        carry = tuple(a[-1] for a in local)
    return carries


def _root(array: np.ndarray) -> np.ndarray:
    """The buffer (a block's memory) that `array` is a view of."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _block_of(array: np.ndarray) -> tuple[np.ndarray | None, int]:
    """The buffer a dense, non-empty `array` is a view of and its first byte there;
    (None, 0) for any other array (which no device holds a copy of)."""
    if not array.nbytes or not array.flags.c_contiguous:
        return None, 0
    root = _root(array)
    return root, array.__array_interface__["data"][0] - root.__array_interface__["data"][0]


def _make_current(resident: ResidentRows, rows_of_0: tuple[int, int], sources, outs, sent) -> None:
    """Before a run: device 0's bytes that its own body reads (its rows of the sources,
    the broadcasts) are made current, and so are those of dirty pieces an out only
    partly covers (the run overwrites the rest)."""
    offset, size = rows_of_0
    for array in outs:
        if array.nbytes:
            block, start = _block_of(array)
            if block is None:
                resident.send_back(_root(array))
            else:
                resident.send_back(block, start, array.nbytes, outside=True)
    for array in [a[offset : offset + size] for a in sources] + list(sent):
        if array.nbytes:
            block, start = _block_of(array)
            if block is None:
                resident.send_back(_root(array))
            else:
                resident.send_back(block, start, array.nbytes)


def _send_back(interpreter: Interpreter, block: np.ndarray, entry) -> None:
    """A device's dirty piece copied into device 0's block (a peer copy)."""
    _bytes_of(block)[entry.start : entry.end] = _bytes_of(entry.piece)
    statistics(interpreter).copied(f"device {entry.device}", "device", entry.nbytes)


def _obtain(stats: Statistics, resident: ResidentRows | None, device: int, array: np.ndarray, space: str) -> np.ndarray:
    """Device `device`'s copy of `array` (device 0's): the piece it holds of it, else
    new memory of `space` with what it holds of it copied there and the rest sent
    (made current on device 0 first)."""
    block, start = _block_of(array) if resident is not None else (None, 0)
    if block is None:
        if resident is not None and array.nbytes:
            resident.send_back(_root(array))
        return _copied(stats, array, space)
    held = resident.held(device, block, start, array.nbytes)
    if held is not None:
        resident.count_kept(array.nbytes)
        return _bytes_of(held.piece)[held.piece_offset : held.piece_offset + array.nbytes].view(array.dtype).reshape(array.shape)
    copy = _fresh(stats, array.shape, array.dtype, space)
    target, source = _bytes_of(copy), _bytes_of(array)
    for segment in resident.segments(device, block, start, array.nbytes):
        into = target[segment.offset : segment.offset + segment.nbytes]
        if segment.piece is None:
            resident.send_back(block, start + segment.offset, segment.nbytes, but=device)
            into[...] = source[segment.offset : segment.offset + segment.nbytes]
            stats.copied("device", space, segment.nbytes)
        else:  # (within the device)
            into[...] = _bytes_of(segment.piece)[segment.piece_offset : segment.piece_offset + segment.nbytes]
            stats.copied(space, space, segment.nbytes)
            resident.count_kept(segment.nbytes)
    resident.keep(device, block, start, array.nbytes, copy)
    return copy


def _bytes_of(array: np.ndarray) -> np.ndarray:
    """The bytes of a dense array, as a flat view."""
    return array.reshape(-1).view(np.uint8)


def _same_elements(arrays, array: np.ndarray) -> int | None:
    """Where an array of the same elements of the same memory as `array` is among
    `arrays`."""
    key = (array.__array_interface__["data"][0], array.shape, array.strides, array.dtype)
    for i, a in enumerate(arrays):
        if (a.__array_interface__["data"][0], a.shape, a.strides, a.dtype) == key:
            return i
    return None


def _row_bytes(array: np.ndarray) -> int:
    return array.itemsize * int(np.prod(np.shape(array)[1:], dtype=np.int64))


def _fresh(stats: Statistics, shape, dtype, space: str) -> np.ndarray:
    """An array of `shape` in new memory of `space` (0xFF bytes, as any fresh block)."""
    dtype = np.dtype(dtype)
    buffer = np.full(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, 0xFF, dtype=np.uint8)
    stats.allocated(space, buffer.nbytes)
    weakref.finalize(buffer, stats.freed, space, buffer.nbytes)
    return buffer.view(dtype).reshape(shape)


def _copied(stats: Statistics, array: np.ndarray, space: str) -> np.ndarray:
    """A copy of `array` in new memory of `space`, from device 0 (a peer copy)."""
    copy = _fresh(stats, array.shape, array.dtype, space)
    copy[...] = array
    stats.copied("device", space, copy.nbytes)
    return copy
