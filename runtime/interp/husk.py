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

Each run is recorded in the run's Statistics (`husks`): the partition table and, at
level 1, each device's reduced values, which the tests compare with the study's tables.
"""

from __future__ import annotations

import numpy as np
import weakref

from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import Interpreter, InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls

from soacc.dialects import husk
from soacc.dialects.shared.partitions import even_partitions
from soacc.runtime.errors import ExecutionError
from soacc.runtime.husk_cost import bytes_moved, check_rows, choose_split
from soacc.runtime.interp.lanes import lanes
from soacc.dialects.shared.utils import captured_values
from soacc.runtime.interp.mem import MemFunctions, running_on_device, statistics
from soacc.runtime.statistics import HuskRun, Statistics


def devices_of(interpreter: Interpreter) -> int:
    """The number of devices husks run on (1 unless the executor was given more)."""
    return interpreter.get_data(HuskFunctions, "devices", lambda: 1)


def set_devices(interpreter: Interpreter, devices: int) -> None:
    if devices < 1:
        raise ExecutionError(f"husks run on at least one device, not {devices}")
    interpreter.set_data(HuskFunctions, "devices", devices)  # type: ignore[arg-type]


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
        neutral = tuple(args[1 + k_sources :])
        if rows < 0:
            raise ExecutionError(f"husk.husk splits {rows} rows")
        for j, source in enumerate(sources):
            if source.shape[0] != rows:
                raise ExecutionError(
                    f"husk.husk source {j} has {source.shape[0]} rows, but the husk splits {rows}"
                )
        table = even_partitions(rows, devices_of(interpreter))
        k = len(op.neutral)
        partials: list[tuple] = []
        pieces: list[list[np.ndarray]] = [[] for _ in op.concatenated]
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
        # in device order (the operator need not commute), the devices that had rows
        # only: the reduction of rows never uses the neutral element, so neither does
        # this (a program whose "neutral" element is not gets what it got without husks)
        busy = [p for p, (_, size) in zip(partials, table) if size]
        reduced = busy[0] if busy else neutral
        for partial in busy[1:]:
            reduced = tuple(interpreter.run_ssacfg_region(op.reducer, (*reduced, *partial), "husk.reduce"))
        statistics: Statistics = interpreter.get_data(MemFunctions, "statistics", Statistics)  # type: ignore[assignment]
        statistics.husks.append(HuskRun(table, partials, len(busy), "every device (level 1: the study's even split)"))
        return (*reduced, *(np.concatenate(p, axis=0) for p in pieces))

    @impl(husk.DevicesOp)
    def run_devices(self, interpreter: Interpreter, op: husk.DevicesOp, args):
        return (np.int64(devices_of(interpreter)),)

    @impl(husk.RunOp)
    def run_run(self, interpreter: Interpreter, op: husk.RunOp, args):
        if lanes(interpreter).depth:
            raise ExecutionError("a husk runs as host code, never inside a kernel")
        s, o = len(op.sources), len(op.outs)
        rows = int(args[0])
        sources, outs, slots = args[1 : 1 + s], args[1 + s : 1 + s + o], args[1 + s + o :]
        devices = devices_of(interpreter)
        check_rows(rows, devices, *([np.shape(a)[0] for a in group] for group in (sources, outs, slots)))
        broadcast = [v for v in captured_values(op) if isinstance(v.type, MemRefType) and getattr(v.type.memory_space, "is_device", False)]
        sent = [np.asarray(interpreter.get_values((v,))[0]) for v in broadcast]
        split = choose_split(
            rows, devices, op.work_per_row,
            lambda t: bytes_moved(t, [_row_bytes(a) for a in sources], [_row_bytes(a) for a in outs], [a.nbytes for a in sent], [_row_bytes(a) for a in slots]),
        )
        table = split.partitions
        stats = statistics(interpreter)
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
            parts = [_copied(stats, a[offset : offset + size], space) for a in sources]
            # an out of a source's elements (an array updated in place): its rows are
            # the ones just sent
            out_rows = [
                parts[j] if (j := _same_elements(sources, a)) is not None else _fresh(stats, (size, *np.shape(a)[1:]), a.dtype, space)
                for a in outs
            ]
            slot_rows = [_fresh(stats, np.shape(a)[1:], a.dtype, space) for a in slots]
            copies = [(v, _copied(stats, array, space)) for v, array in zip(broadcast, sent)]
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
                out[offset : offset + size] = piece
                stats.copied(space, "device", piece.nbytes)
            for slot_array, value in zip(slots, slot_rows):
                slot_array[device] = value
                stats.copied(space, "device", value.nbytes)
        busy = sum(1 for _, size in table if size)
        stats.husks.append(HuskRun(table, [], busy, split.reason))
        return (np.int64(busy),)


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
