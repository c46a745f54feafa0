"""`mem` (level 2) on NumPy: blocks are byte buffers and views are NumPy views of them
with the view's offset and strides, so aliasing, in-place updates and reuse behave as
they would on the GPU (a wrong merge of two blocks shows as a wrong result).

Inside a lambda a block allocated there has one buffer per lane (leading lane axes),
as the lanes of lanes.py. Every allocation, copy, synchronous read and kernel launch is
counted in the run's Statistics; a block is freed when its last reference dies (the
executor drops each value after its last use), which gives a truthful peak.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation

from soacc.dialects import mem
from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.dialects.shared.traits import kernel_space
from soacc.runtime.array_sizes import MAX_SIZE
from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.lanes import fill_lane_axis, lanes, nested_lanes, scalar, select_lanes, uniform
from soacc.runtime.interp.soac import (
    outer_size,
    _sliced,
    _slice_index,
    check_neutral,
    check_static_shape,
    combine_operands,
    destination_writes,
    hist_into,
    reduce_or_scan,
)
from soacc.runtime.statistics import Statistics


class GatheredSlice(np.ndarray):
    """A slice whose position differs between lanes: NumPy gathers it (a copy), so it
    remembers where it came from, and a write to it goes there."""

    source: np.ndarray | None = None
    index: tuple | None = None

    def __array_finalize__(self, obj) -> None:
        # arrays computed from a gathered slice are plain values, not slices
        self.source = None
        self.index = None


class Block:
    """A memory block: a byte buffer (with leading lane axes inside lambdas)."""

    __slots__ = ("buffer", "space")

    def __init__(self, buffer: np.ndarray, space: str):
        self.buffer = buffer
        self.space = space

    def expand_lanes(self, axis: int) -> Block:
        """The block as seen one lambda deeper: the same memory for every new lane."""
        return Block(np.expand_dims(self.buffer, axis), self.space)

    @property
    def nbytes(self) -> int:
        return self.buffer.shape[-1]


_STATS = "statistics"
_KERNEL = "inside-kernel"


def statistics(interpreter: Interpreter) -> Statistics:
    return interpreter.get_data(MemFunctions, _STATS, Statistics)


def _at_host_level(interpreter: Interpreter) -> bool:
    return lanes(interpreter).depth == 0 and not interpreter.get_data(MemFunctions, _KERNEL, lambda: 0)


@contextmanager
def _kernel(interpreter: Interpreter, op: Operation) -> Iterator[None]:
    """Runs a kernel: counts a launch (or, placed on the host, a host kernel) when
    started from host code."""
    depth = interpreter.get_data(MemFunctions, _KERNEL, lambda: 0)
    if depth == 0 and lanes(interpreter).depth == 0:
        space = kernel_space(op)  # (a kernel run from host code: no enclosing kernel)
        if space is not None and not space.is_device:
            statistics(interpreter).host_kernels += 1
        else:
            statistics(interpreter).kernel_launches += 1
    interpreter.set_data(MemFunctions, _KERNEL, depth + 1)
    try:
        yield
    finally:
        interpreter.set_data(MemFunctions, _KERNEL, depth)


def _space(t, interpreter: Interpreter | None = None) -> str:
    name = mem.space_of(t).describe()
    return running_device_space(interpreter, name) if interpreter is not None else name


_HUSK_DEVICE = "husk-device"


def running_device_space(interpreter: Interpreter, space: str) -> str:
    """The space a program's `device` memory is while a husk's body runs on device i
    (its device: `device i`); elsewhere `space` itself."""
    if space != "device":
        return space
    device = interpreter.get_data(MemFunctions, _HUSK_DEVICE, lambda: 0)
    return f"device {device}" if device else space


@contextmanager
def running_on_device(interpreter: Interpreter, device: int) -> Iterator[None]:
    """Device memory is device `device`'s while the block runs (a husk's body)."""
    outer = interpreter.get_data(MemFunctions, _HUSK_DEVICE, lambda: 0)
    interpreter.set_data(MemFunctions, _HUSK_DEVICE, device)  # type: ignore[arg-type]
    try:
        yield
    finally:
        interpreter.set_data(MemFunctions, _HUSK_DEVICE, outer)  # type: ignore[arg-type]


def _view_name(op: Operation, value=None) -> str:
    v = value if value is not None else (op.results[0] if op.results else None)
    return f"%{v.name_hint}" if v is not None and v.name_hint else "the view"


def _write(
    interpreter: Interpreter, op: Operation, dest: np.ndarray, value, what: str, exact_from: int | None = None
) -> None:
    """dest[...] = value, with the shapes checked: from axis `exact_from` on (the value's
    own axes, past the lanes) they must be equal, not merely broadcastable, so that a row
    of the wrong size is an error rather than silently stretched. Only the active lanes
    write (in a branch some lanes do not take, the others keep what is there)."""
    if lanes(interpreter).empty:
        return  # a map over zero rows: no lane writes (or fails)
    mask = lanes(interpreter).mask
    value = np.asarray(value)
    if exact_from is not None and value.shape[exact_from:] != np.shape(dest)[exact_from:]:
        raise ExecutionError(
            f"{what}: a value of shape {list(value.shape[exact_from:])} does not fit a "
            f"destination of shape {list(np.shape(dest)[exact_from:])} (arrays must be regular)"
        )
    where = True
    if mask is not None and not np.all(mask):
        where = np.reshape(mask, np.shape(mask) + (1,) * (np.ndim(dest) - np.ndim(mask)))
        if np.broadcast_shapes(where.shape, np.shape(dest)) != np.shape(dest):
            raise ExecutionError(
                f"{what}: some lanes write memory all lanes share, in a branch the others do "
                "not take, which the reference executor does not support"
            )
    if isinstance(dest, GatheredSlice) and dest.source is not None:
        if np.broadcast_shapes(value.shape, dest.shape) != dest.shape:
            raise ExecutionError(
                f"{what}: a value of shape {value.shape} does not fit a destination of shape {dest.shape}"
            )
        dest.source[dest.index] = value if where is True else np.where(where, value, dest.source[dest.index])
        return
    try:
        np.copyto(dest, value, where=where)
    except ValueError as error:
        if not dest.flags.writeable:
            raise ExecutionError(
                f"{what}: writes through a slice whose position differs between lanes, "
                "which the reference executor does not support"
            ) from None
        raise ExecutionError(
            f"{what}: a value of shape {value.shape} does not fit a destination of shape "
            f"{dest.shape} ({error})"
        ) from None


@register_impls
class MemFunctions(InterpreterFunctions):
    @impl_terminator(mem.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: mem.YieldOp, args):
        return ReturnedValues(args), ()

    # --- blocks and views ------------------------------------------------------------

    @impl(mem.AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: mem.AllocOp, args):
        state = lanes(interpreter)
        nbytes = int(uniform(state, args[0], "mem.alloc size"))
        if nbytes < 0:
            raise ExecutionError(f"negative allocation size {nbytes}")
        space = running_device_space(interpreter, _space_of_block(op.block.type))
        # Fresh memory holds 0xFF bytes (NaN, -1): reading it before writing shows.
        buffer = np.full(state.shape + (nbytes,), 0xFF, dtype=np.uint8)
        stats = statistics(interpreter)
        stats.allocated(space, buffer.nbytes)
        weakref.finalize(buffer, stats.freed, space, buffer.nbytes)
        return (Block(buffer, space),)

    @impl(mem.ViewOp)
    def run_view(self, interpreter: Interpreter, op: mem.ViewOp, args):
        block, offset, *rest = args
        state = lanes(interpreter)
        t = op.result.type
        dynamic = iter(rest[: len(op.sizes)])
        shape = tuple(
            int(uniform(state, next(dynamic), "mem.view size")) if d < 0 else d for d in t.get_shape()
        )
        dtype = numpy_dtype(t.element_type)
        if op.strides:
            strides = [int(uniform(state, s, "mem.view stride")) for s in rest[len(op.sizes) :]]
        else:
            strides = [1] * len(shape)
            for axis in range(len(shape) - 2, -1, -1):
                strides[axis] = strides[axis + 1] * shape[axis + 1]
        offset = int(uniform(state, offset, "mem.view offset"))
        return (make_view(block, offset, shape, strides, dtype, _view_name(op)),)

    @impl(mem.SliceOp)
    def run_slice(self, interpreter: Interpreter, op: mem.SliceOp, args):
        view, *spec = args
        state = lanes(interpreter)
        kinds = op.kinds.get_values()
        result = _sliced(state, op, view, kinds, spec)
        if not isinstance(result, np.ndarray):
            # every dimension fixed, outside lanes: NumPy gives the element; a view is
            # a 0-d array of it (what a copy into or out of it needs)
            result = view[_slice_index(state, op, view, kinds, spec) + (Ellipsis,)]
        check_static_shape(op, op.result.type, np.shape(result)[state.depth :])
        if result.size and not np.shares_memory(result, view):
            # a lane-dependent slice is gathered: keep where it came from for writes
            gathered = result.view(GatheredSlice)
            gathered.source = view
            gathered.index = _slice_index(state, op, view, kinds, spec)
            return (gathered,)
        return (result,)

    @impl(mem.TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: mem.TransposeOp, args):
        depth = lanes(interpreter).depth
        perm = tuple(range(depth)) + tuple(depth + p for p in op.permutation.get_values())
        return (np.transpose(args[0], perm),)

    @impl(mem.SizeOp)
    def run_size(self, interpreter: Interpreter, op: mem.SizeOp, args):
        state = lanes(interpreter)
        n = np.shape(args[0])[state.depth + op.dim.value.data]
        return (scalar(state, n, np.dtype(np.int64)),)

    @impl(mem.ThresholdOp)
    def run_threshold(self, interpreter: Interpreter, op: mem.ThresholdOp, args):
        # (the reference executor runs one version whatever the size: its default)
        return (scalar(lanes(interpreter), op.default.value.data, np.dtype(np.int64)),)

    # --- data movement ---------------------------------------------------------------

    @impl(mem.CopyOp)
    def run_copy(self, interpreter: Interpreter, op: mem.CopyOp, args):
        source, dest = args
        state = lanes(interpreter)
        depth = state.depth
        if state.empty:
            # a map over zero rows: no lane copies, and sizes computed from the rows'
            # values are unknown (there are none), so nothing is checked either
            return ()
        if np.shape(source)[depth:] != np.shape(dest)[depth:]:
            raise ExecutionError(
                f"copies an array of shape {list(np.shape(source)[depth:])} into one of shape "
                f"{list(np.shape(dest)[depth:])}"
            )
        _write(interpreter, op, dest, source, "mem.copy")
        if _at_host_level(interpreter):
            statistics(interpreter).copied(_space(op.source.type, interpreter), _space(op.dest.type, interpreter), np.asarray(dest).nbytes)
        return ()

    @impl(mem.LoadOp)
    def run_load(self, interpreter: Interpreter, op: mem.LoadOp, args):
        view, *indices = args
        state = lanes(interpreter)
        # a copy: a load gives a value, and a NumPy view of the element would change
        # with a later store to it (inside a lambda, where the element has lane axes)
        value = np.array(_sliced(state, op, np.asarray(view), [0] * len(indices), indices), copy=True)
        if _at_host_level(interpreter) and mem.space_of(op.view.type).is_device:
            statistics(interpreter).sync_reads += 1
        return (value[()] if value.ndim == 0 else value,)

    @impl(mem.StoreOp)
    def run_store(self, interpreter: Interpreter, op: mem.StoreOp, args):
        value, view, *indices = args
        state = lanes(interpreter)
        if state.empty:
            return ()  # a map over zero rows: no lane stores
        index = _slice_index(state, op, view, [0] * len(indices), indices)
        try:
            if state.mask is not None and not np.all(state.mask):
                value = select_lanes(state.mask, value, view[index], state.depth)  # inactive lanes keep theirs
            view[index] = value
        except ValueError:
            raise ExecutionError(
                "mem.store writes through a slice whose position differs between lanes, which "
                "the reference executor does not support"
            ) from None
        if _at_host_level(interpreter) and mem.space_of(op.view.type).is_device:
            statistics(interpreter).scalar_writes += 1
        return ()

    # --- kernels ----------------------------------------------------------------------

    @impl(mem.MapOp)
    def run_map(self, interpreter: Interpreter, op: mem.MapOp, args):
        k = len(op.inputs)
        inputs, outputs = args[:k], args[k:]
        axis = lanes(interpreter).depth
        sizes = {np.shape(a)[axis] for a in (*inputs, *outputs)}
        if len(sizes) != 1:
            raise ExecutionError(f"inputs and outputs have different outer sizes {sorted(sizes)}")
        n = sizes.pop()
        row_outputs = [o for o, v in zip(outputs, op.outputs) if v.type.get_num_dims() > 1]
        index = [_row_numbers(n, axis)] if op.indexed is not None else []
        with _kernel(interpreter, op):
            if n == 0 or lanes(interpreter).empty:
                # no row: the outputs exist already and nothing writes them. (Run over
                # no lanes, the lambda would size its arrays by values that have none,
                # which hoisted sizes mix with sizes that do not depend on the row.)
                return ()
            with nested_lanes(interpreter, n, op.body):
                results = interpreter.run_ssacfg_region(op.body, (*inputs, *row_outputs, *index), "mem.map")
        for out, value in zip(outputs, results):
            if value is out:
                continue  # the row was built in place
            _write(interpreter, op, out, fill_lane_axis(value, axis, n), "mem.map output", exact_from=axis)
        return ()

    @impl(mem.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: mem.ReduceOp, args):
        k = len(op.inputs)
        inputs, neutral, outputs = args[:k], args[k : 2 * k], args[2 * k :]
        with _kernel(interpreter, op):
            results = reduce_or_scan(interpreter, op, inputs, neutral, scan=False)
        if not outputs:
            return tuple(results)
        for out, value in zip(outputs, results):
            _write(interpreter, op, out, value, "mem.reduce output", exact_from=lanes(interpreter).depth)
        return ()

    @impl(mem.ScanOp)
    def run_scan(self, interpreter: Interpreter, op: mem.ScanOp, args):
        k = len(op.inputs)
        inputs, neutral, outputs = args[:k], args[k : 2 * k], args[2 * k :]
        with _kernel(interpreter, op):
            results = reduce_or_scan(interpreter, op, inputs, neutral, scan=True)
        for out, value in zip(outputs, results):
            _write(interpreter, op, out, value, "mem.scan output", exact_from=lanes(interpreter).depth)
        return ()

    @impl(mem.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: mem.ScatterOp, args):
        dest, indices, values = args
        outer_size(op, [indices, values], lanes(interpreter).depth)  # one value per index, as at level 1
        with _kernel(interpreter, op):
            out, coords, vals = destination_writes(lanes(interpreter), dest, indices, values, fresh=False)
            out[coords] = vals
        return ()

    @impl(mem.HistOp)
    def run_hist(self, interpreter: Interpreter, op: mem.HistOp, args):
        dest, indices, values, neutral = args
        state = lanes(interpreter)
        outer_size(op, [indices, values], state.depth)
        check_neutral(op, 0, np.shape(neutral)[state.depth :], np.shape(dest)[state.depth + 1 :])
        with _kernel(interpreter, op):
            out, coords, vals = destination_writes(state, dest, indices, values, fresh=False)
            hist_into(interpreter, op, state, out, coords, vals)
        return ()

    # --- fused kernels ------------------------------------------------------------------

    @impl(mem.RedomapOp)
    def run_redomap(self, interpreter: Interpreter, op: mem.RedomapOp, args):
        args, count = _row_count_operand(op, args)
        n, k = len(op.inputs), op.num_operands_reduced
        inputs, neutral, outputs = args[:n], args[n : n + k], args[n + k :]
        mapped_outputs = outputs if op.results_ else outputs[k:]
        with _kernel(interpreter, op):
            rows = _rows(interpreter, op, inputs, count)
            values = _fused_rows(interpreter, op, op.map_body, inputs, op.mapped_outputs, mapped_outputs, rows)
            reduced = combine_operands(interpreter, op, op.operators, _as_written(values[:k], rows, lanes(interpreter)), neutral, scan=False)
            _write_rows(interpreter, op, mapped_outputs, values[k:])
        if op.results_:
            return tuple(reduced)
        for out, value in zip(outputs[:k], reduced):
            _write(interpreter, op, out, value, "mem.redomap output", exact_from=lanes(interpreter).depth)
        return ()

    @impl(mem.ScanomapOp)
    def run_scanomap(self, interpreter: Interpreter, op: mem.ScanomapOp, args):
        args, count = _row_count_operand(op, args)
        n, k = len(op.inputs), op.num_operands_scanned
        inputs, neutral, outputs = args[:n], args[n : n + k], args[n + k :]
        state = lanes(interpreter)
        with _kernel(interpreter, op):
            rows = _rows(interpreter, op, inputs, count)
            if op.post is None:
                values = _fused_rows(interpreter, op, op.map_body, inputs, op.outputs[k:], outputs[k:], rows)
                scanned = combine_operands(interpreter, op, op.operators, _as_written(values[:k], rows, state), neutral, scan=True)
                _write_rows(interpreter, op, outputs, [*scanned, *values[k:]])
            else:
                values = _as_written(_fused_rows(interpreter, op, op.map_body, inputs, [], [], rows), rows, state)
                scanned = combine_operands(interpreter, op, op.operators, values[:k], neutral, scan=True)
                post = _fused_rows(interpreter, op, op.post, [*scanned, *values[k:]], op.outputs, outputs, rows)
                _write_rows(interpreter, op, outputs, post)
        return ()

    @impl(mem.ScatteromapOp)
    def run_scatteromap(self, interpreter: Interpreter, op: mem.ScatteromapOp, args):
        (dest, *rest), count = _row_count_operand(op, args)
        inputs, outputs = rest[: len(op.inputs)], rest[len(op.inputs) :]
        state = lanes(interpreter)
        with _kernel(interpreter, op):
            rows = _rows(interpreter, op, inputs, count)
            indices, values, *mapped = _fused_rows(interpreter, op, op.map_body, inputs, op.outputs, outputs, rows)
            out, coords, vals = destination_writes(state, dest, _filled(indices, rows, state), _filled(values, rows, state), fresh=False)
            out[coords] = vals
            _write_rows(interpreter, op, outputs, mapped)
        return ()

    @impl(mem.HistomapOp)
    def run_histomap(self, interpreter: Interpreter, op: mem.HistomapOp, args):
        (dest, *rest, _neutral), count = _row_count_operand(op, args)
        inputs, outputs = rest[: len(op.inputs)], rest[len(op.inputs) :]
        state = lanes(interpreter)
        with _kernel(interpreter, op):
            rows = _rows(interpreter, op, inputs, count)
            indices, values, *mapped = _fused_rows(interpreter, op, op.map_body, inputs, op.outputs, outputs, rows)
            out, coords, vals = destination_writes(state, dest, _filled(indices, rows, state), _filled(values, rows, state), fresh=False)
            hist_into(interpreter, op, state, out, coords, vals, op.operator)
            _write_rows(interpreter, op, outputs, mapped)
        return ()

    @impl(mem.GpuBodyOp)
    def run_gpu_body(self, interpreter: Interpreter, op: mem.GpuBodyOp, args):
        axis = lanes(interpreter).depth
        with _kernel(interpreter, op):
            results = interpreter.run_ssacfg_region(op.body, (), "mem.gpu_body")
        for out, value in zip(args, results):
            row = (slice(None),) * axis + (0,)
            if np.ndim(out) == axis + 1:  # a scalar per lane
                out[row] = value
            else:
                _write(interpreter, op, out[row], value, "mem.gpu_body output", exact_from=axis)
        return ()

    # --- constructors -----------------------------------------------------------------

    @impl(mem.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: mem.IotaOp, args):
        (out,) = args
        axis = lanes(interpreter).depth
        with _kernel(interpreter, op):
            _write(interpreter, op, out, np.arange(out.shape[axis], dtype=out.dtype), "mem.iota")
        return ()

    @impl(mem.FillOp)
    def run_fill(self, interpreter: Interpreter, op: mem.FillOp, args):
        value, out = args
        axis = lanes(interpreter).depth
        with _kernel(interpreter, op):
            _write(interpreter, op, out, np.expand_dims(np.asarray(value), axis), "mem.fill")
        return ()

    @impl(mem.ArrayOp)
    def run_array(self, interpreter: Interpreter, op: mem.ArrayOp, args):
        *elements, out = args
        axis = lanes(interpreter).depth
        shapes = {np.shape(e)[axis:] for e in elements}
        if len(shapes) > 1:  # (as soac.array says it at level 1)
            raise ExecutionError(f"rows of different shapes {sorted(shapes)}")
        if elements:
            rows = [np.expand_dims(np.asarray(e), axis) for e in elements]
            lead = np.broadcast_shapes(*(r.shape[:axis] for r in rows))
            stacked = np.concatenate([np.broadcast_to(r, lead + r.shape[axis:]) for r in rows], axis=axis)
            _write(interpreter, op, out, stacked, "mem.array")
        if _at_host_level(interpreter) and mem.space_of(op.output.type).is_device:
            # the literal is built on the host and sent in one transfer
            statistics(interpreter).copied("host", _space(op.output.type, interpreter), np.asarray(out).nbytes)
        return ()


def _row_numbers(n: int, axis: int) -> np.ndarray:
    """An indexed op's row numbers: lane i of its lane axis (`axis`) is i."""
    return np.arange(n, dtype=np.int64).reshape((1,) * axis + (n,))


def _row_count_operand(op: Operation, args) -> tuple[tuple, object | None]:
    """A fused op's arguments without its row count (the last operand, where indexed),
    and that count."""
    if op.row_count is None:  # type: ignore[attr-defined]
        return tuple(args), None
    return tuple(args[:-1]), args[-1]


def _rows(interpreter: Interpreter, op: Operation, inputs, count) -> int:
    """A fused op's row count: its inputs' outer size, or its `indexed(%n)` (which its
    inputs must then have)."""
    state = lanes(interpreter)
    axis = state.depth
    sizes = {np.shape(a)[axis] for a in inputs}
    if count is not None:
        sizes.add(uniform(state, count, f"{op.name} row count"))
    if len(sizes) != 1:
        what = "its inputs and row count" if count is not None else "its inputs"
        raise ExecutionError(f"{op.name}: {what} disagree on the number of rows {sorted(sizes)}")
    return int(sizes.pop())


def _fused_rows(interpreter: Interpreter, op: Operation, region, arrays, output_values, outputs, n: int) -> list:
    """A fused kernel's lambda over the n rows of `arrays`, given the rows of its
    array-valued outputs too (to build them in place, as mem.map's lambda does), and the
    row number where the op is indexed and `region` is its map lambda. Values as the
    lambda gives them: a yielded output row is that output itself."""
    rows_out = [o for o, v in zip(outputs, output_values) if v.type.get_num_dims() > 1]
    axis = lanes(interpreter).depth
    for o in outputs:  # every mapped output has a row per input row, as mem.map's do
        if np.shape(o)[axis] != n:
            raise ExecutionError(f"inputs and outputs have different outer sizes {sorted({n, np.shape(o)[axis]})}")
    index = [_row_numbers(n, axis)] if region is op.map_body and op.row_index is not None else []  # type: ignore[attr-defined]
    with nested_lanes(interpreter, n, region):
        return list(interpreter.run_ssacfg_region(region, (*arrays, *rows_out, *index), op.name))


def _filled(value, n: int, state) -> np.ndarray:
    """A per-row value with its lane axis at full length (the op's n rows)."""
    return fill_lane_axis(value, state.depth, n)


def _as_written(values, n: int, state) -> list[np.ndarray]:
    """Per-row operands as an unfused map would have written them to memory (dense,
    every lane), so that reducing them gives the unfused program's results bit for bit."""
    return [np.ascontiguousarray(_filled(v, n, state)) for v in values]


def _write_rows(interpreter: Interpreter, op: Operation, outputs, values) -> None:
    """Row i of each value to row i of its output (rows built in place are skipped)."""
    axis = lanes(interpreter).depth
    for out, value in zip(outputs, values):
        if value is out:
            continue
        _write(interpreter, op, out, fill_lane_axis(value, axis, np.shape(out)[axis]), f"{op.name} output", exact_from=axis)


def _space_of_block(t) -> str:
    assert isinstance(t, mem.BlockType)
    return t.space.describe()


def make_view(block: Block, offset: int, shape, strides, dtype: np.dtype, name: str) -> np.ndarray:
    """A NumPy view of `block` (over all its lanes) at byte `offset` with element
    `strides`, checked to lie inside the block."""
    itemsize = dtype.itemsize
    buffer = block.buffer
    lo, hi = offset, offset + itemsize
    if all(shape):
        for n, s in zip(shape, strides):
            extent = (n - 1) * s * itemsize
            lo, hi = (lo + extent, hi) if extent < 0 else (lo, hi + extent)
        if hi > MAX_SIZE or lo < -MAX_SIZE:
            # its block's size, computed the same way, wrapped (arithmetic without flags)
            raise ExecutionError(f"its shape {list(shape)} reaches byte {max(hi, -lo)}, past 64 bits (sizes are at most 2^63 - 1)")
        if lo < 0 or hi > block.nbytes:
            raise ExecutionError(
                f"mem.view {name} covers bytes [{lo}, {hi}) of a block of {block.nbytes} bytes"
            )
    elif offset < 0 or offset > block.nbytes:
        raise ExecutionError(f"mem.view {name} starts at byte {offset} of a block of {block.nbytes} bytes")
    lane_shape = buffer.shape[:-1]
    if not all(shape):
        return np.zeros(lane_shape + tuple(shape), dtype)
    if not buffer.flags.c_contiguous:
        raise ExecutionError(f"mem.view {name}: its block is not contiguous")
    return np.ndarray(
        lane_shape + tuple(shape),
        dtype,
        buffer=buffer,
        offset=offset,
        strides=buffer.strides[:-1] + tuple(s * itemsize for s in strides),
    )
