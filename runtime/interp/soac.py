"""`soac` on NumPy lanes.

A combinator applies its lambda to all rows at once: the lambda runs one more lane
axis deep (see lanes.py). Reductions and scans with an arbitrary associative operator
use logarithmic-depth schemes that keep the order of operands (so non-commutative
operators are right): a pairwise tree for `reduce`, a work-efficient up-sweep/down-sweep
for `scan`, and a segmented scan for `hist`. Where the operator is one NumPy knows
(`arith.addf` of the two parameters, ...), its own ufunc does the work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, i1
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation, Region, SSAValue

from soacc.dialects import soac
from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.runtime.array_sizes import array_bytes
from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.lanes import (
    LaneState,
    active_values,
    broadcast_lanes,
    expand_lanes,
    fill_lane_axis,
    gathered_lanes,
    lane_grids,
    lanes,
    nested_lanes,
    uniform,
)

Arrays = list[np.ndarray]
Combine = Callable[[Arrays, Arrays], Arrays]

# ---------------------------------------------------------------------------------------
# Operators NumPy knows
# ---------------------------------------------------------------------------------------

class FloatExtremum:
    """maximumf or minimumf with the ufunc methods the executor uses (reduce,
    accumulate, at). NumPy's maximum/minimum return either operand when -0.0 meets
    +0.0; MLIR orders -0.0 below +0.0. Values are compared as integer keys of IEEE
    754's total order (for non-NaN values, exactly MLIR's order), and any NaN in a
    combination makes its result NaN."""

    def __init__(self, largest: bool):
        self.extremum = np.maximum if largest else np.minimum

    @staticmethod
    def _keys(x: np.ndarray) -> np.ndarray:
        bits = np.ascontiguousarray(x).view(np.dtype(f"i{x.dtype.itemsize}"))
        magnitude = np.iinfo(bits.dtype).max
        return np.where(bits < 0, bits ^ magnitude, bits)  # negatives: larger magnitude, smaller key

    @classmethod
    def _floats(cls, keys: np.ndarray, dtype: np.dtype) -> np.ndarray:
        magnitude = np.iinfo(keys.dtype).max
        return np.where(keys < 0, keys ^ magnitude, keys).view(dtype)  # the same involution

    def reduce(self, x: np.ndarray, axis: int, dtype) -> np.ndarray:
        result = self._floats(np.asarray(self.extremum.reduce(self._keys(x), axis=axis)), x.dtype)
        return np.where(np.isnan(x).any(axis=axis), x.dtype.type(np.nan), result)

    def accumulate(self, x: np.ndarray, axis: int, dtype) -> np.ndarray:
        result = self._floats(self.extremum.accumulate(self._keys(x), axis=axis), x.dtype)
        return np.where(np.logical_or.accumulate(np.isnan(x), axis=axis), x.dtype.type(np.nan), result)

    def at(self, out: np.ndarray, coords, vals: np.ndarray) -> None:
        keys = self._keys(out)
        self.extremum.at(keys, coords, self._keys(np.asarray(vals, out.dtype)))
        nan = np.isnan(out)
        np.logical_or.at(nan, coords, np.isnan(vals))
        out[...] = np.where(nan, out.dtype.type(np.nan), self._floats(keys, out.dtype))


_UFUNCS: dict[type[Operation], np.ufunc | FloatExtremum] = {
    arith.AddfOp: np.add,
    arith.AddiOp: np.add,
    arith.MulfOp: np.multiply,
    arith.MuliOp: np.multiply,
    arith.MaximumfOp: FloatExtremum(largest=True),
    arith.MinimumfOp: FloatExtremum(largest=False),
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
}


def recognised_ufunc(region: Region) -> np.ufunc | FloatExtremum | None:
    """The ufunc of an operator lambda `^(x, y): z = op x, y; yield z` (either operand
    order: every ufunc here is commutative), or None."""
    block = region.block
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2:
        return None
    op, term = ops
    ufunc = _UFUNCS.get(type(op))
    if ufunc is None or list(term.operands) != [op.results[0]]:
        return None
    if set(op.operands) != set(block.args) or len(op.operands) != 2:
        return None
    if block.args[0].type == i1 and ufunc not in (np.bitwise_and, np.bitwise_or, np.bitwise_xor):
        # i1 add/mul are xor/and, not NumPy's bool add/mul; i1 read as signed makes
        # true (-1) the smaller, so maxsi/minsi are and/or, not NumPy's max/min
        return None
    return ufunc


# ---------------------------------------------------------------------------------------
# Axis helpers: `axis` is the combinator's axis, right after the current lane axes
# ---------------------------------------------------------------------------------------


def _take(x: np.ndarray, axis: int, index) -> np.ndarray:
    return x[(slice(None),) * axis + (index,)]


def _concat(parts: Sequence[np.ndarray], axis: int) -> np.ndarray:
    parts = [np.asarray(p) for p in parts]
    lead = np.broadcast_shapes(*(p.shape[:axis] for p in parts))
    return np.concatenate([np.broadcast_to(p, lead + p.shape[axis:]) for p in parts], axis=axis)


def outer_size(op: Operation, arrays: Sequence[np.ndarray], axis: int, no_lanes: bool = False) -> int:
    """The arrays' one outer size; sizes that differ are an error, except with no lanes
    (inside a map over zero rows nothing runs, so nothing fails)."""
    sizes = {np.shape(a)[axis] for a in arrays}
    if len(sizes) > 1 and no_lanes:
        return min(sizes)  # the callers run on the arrays cut to it (_cut)
    if len(sizes) != 1:
        raise ExecutionError(
            f"{op.name} inputs have different outer sizes {sorted(sizes)}; they must be equal"
        )
    return sizes.pop()


def _cut(arrays: Sequence, axis: int, n: int) -> list:
    """The arrays' first n rows along `axis`: with no lanes (a map over zero rows),
    inputs of different outer sizes run as if they agreed, since nothing runs."""
    return [a if np.shape(a)[axis] == n else _take(np.asarray(a), axis, slice(0, n)) for a in arrays]


def lambda_combine(interpreter: Interpreter, region: Region, axis: int, name: str) -> Combine:
    """The operator lambda as a function of two k-tuples of arrays whose axis `axis`
    holds the pairs to combine; it runs over those pairs as lanes."""

    def combine(left: Arrays, right: Arrays) -> Arrays:
        count = left[0].shape[axis]
        with nested_lanes(interpreter, count, region):
            results = interpreter.run_ssacfg_region(region, (*left, *right), name)
        return [fill_lane_axis(r, axis, count) for r in results]

    return combine


def tree_reduce(xs: Arrays, axis: int, combine: Combine) -> Arrays:
    """Reduces axis `axis` (of length >= 1) by a pairwise tree: log2(n) rounds, each one
    vectorised call of `combine`; operand order is kept."""
    n = xs[0].shape[axis]
    while n > 1:
        half = n // 2
        left = [_take(x, axis, slice(0, 2 * half, 2)) for x in xs]
        right = [_take(x, axis, slice(1, 2 * half, 2)) for x in xs]
        combined = combine(left, right)
        if n % 2:
            combined = [_concat([c, _take(x, axis, slice(n - 1, n))], axis) for c, x in zip(combined, xs)]
        xs, n = combined, half + n % 2
    return [_take(x, axis, 0) for x in xs]


def tree_scan(xs: Arrays, axis: int, combine: Combine) -> Arrays:
    """Inclusive scan along axis `axis`: combine neighbouring pairs, scan the pairs
    recursively, then fill in the even positions. O(n) work, 2 log2(n) calls of
    `combine`; operand order is kept."""
    n = xs[0].shape[axis]
    if n <= 1:
        return xs
    half = n // 2
    pairs = combine(
        [_take(x, axis, slice(0, 2 * half, 2)) for x in xs],
        [_take(x, axis, slice(1, 2 * half, 2)) for x in xs],
    )
    scanned_pairs = tree_scan(pairs, axis, combine)  # position j: rows 0 .. 2j+1
    evens_after_first = (n - 1) // 2
    if evens_after_first:
        evens = combine(
            [_take(s, axis, slice(0, evens_after_first)) for s in scanned_pairs],
            [_take(x, axis, slice(2, n, 2)) for x in xs],
        )
    out = []
    for i, x in enumerate(xs):
        pieces = [_take(x, axis, slice(0, 1)), scanned_pairs[i]]
        if evens_after_first:
            pieces.append(evens[i])
        lead = np.broadcast_shapes(*(np.shape(p)[:axis] for p in pieces))
        full = np.empty(lead + x.shape[axis:], dtype=x.dtype)
        _take(full, axis, slice(0, 1))[...] = pieces[0]
        _take(full, axis, slice(1, 2 * half, 2))[...] = scanned_pairs[i]
        if evens_after_first:
            _take(full, axis, slice(2, n, 2))[...] = evens[i]
        out.append(full)
    return out


def segmented_combine(combine: Combine) -> Combine:
    """Lifts an operator to (segment-start flag, values) pairs: a flagged right operand
    starts a new segment. Associative whenever the operator is."""

    def seg(left: Arrays, right: Arrays) -> Arrays:
        lflag, *lvals = left
        rflag, *rvals = right
        combined = combine(lvals, rvals)
        flag = lflag | rflag
        out = [flag]
        for c, r in zip(combined, rvals):
            f = rflag.reshape(rflag.shape + (1,) * (np.ndim(r) - rflag.ndim))
            out.append(np.where(f, r, c))
        return out

    return seg


# ---------------------------------------------------------------------------------------
# Indexing with per-lane indices
# ---------------------------------------------------------------------------------------


def _indexed_array_name(op: Operation) -> str:
    """` of %a`: the array or view an op indexes, by its name in the source."""
    array = getattr(op, "view", None) or op.operands[0]
    return f" of %{array.name_hint}" if array.name_hint else ""


def _check_in_bounds(state: LaneState, op: Operation, index, size: int, dim: int, *, allow_end=False):
    vals = active_values(state, index)
    limit = size + 1 if allow_end else size
    bad = (vals < 0) | (vals >= limit)
    if np.any(bad):
        raise ExecutionError(
            f"{op.name}: index {vals[bad][0].item()} is out of bounds for dimension {dim} "
            f"of size {size}{_indexed_array_name(op)}"
        )


def _clamped(index, size: int):
    """Indices of inactive lanes may be anything: keep them inside the array."""
    return np.clip(index, 0, max(size - 1, 0))


def _range_indices(state: LaneState, op: Operation, offset, count: int, stride, size: int, dim: int):
    """Per-lane index arrays of a strided range, checked at the active lanes."""
    if count == 0:
        return np.zeros(np.broadcast_shapes(np.shape(offset), np.shape(stride)) + (0,), np.int64)
    if np.any(active_values(state, stride) == 0) and count > 1:
        raise ExecutionError(f"{op.name}: slice stride is 0 in dimension {dim}")
    first = np.asarray(offset)
    last = first + (count - 1) * np.asarray(stride)
    _check_in_bounds(state, op, first, size, dim)
    _check_in_bounds(state, op, last, size, dim)
    steps = np.arange(count, dtype=np.int64)
    return _clamped(first[..., None] + np.asarray(stride)[..., None] * steps, size)


def _slice_index(state: LaneState, op: Operation, array: np.ndarray, kinds, spec) -> tuple:
    """A NumPy index for `array[spec]` over all lanes: basic slicing when every index is
    the same for all lanes (a view), advanced indexing with lane grids otherwise."""
    depth = state.depth
    shape = array.shape[depth:]
    entries = list(soac.SliceSpec.entries(kinds, spec))
    if all(np.size(v) == 1 for _, vals in entries for v in vals):
        index: list = []
        for dim, (kind, vals) in enumerate(entries):
            nums = [int(np.asarray(v).reshape(-1)[0]) for v in vals]
            if kind == soac.SliceSpec.FIXED:
                _check_in_bounds(state, op, np.asarray(nums[0]), shape[dim], dim)
                index.append(min(max(nums[0], 0), max(shape[dim] - 1, 0)))
                continue
            offset, count = nums[0], nums[1]
            stride = nums[2] if kind == soac.SliceSpec.STRIDED else 1
            if count < 0:
                raise ExecutionError(f"{op.name}: negative slice count {count} in dimension {dim}")
            if count:
                if stride == 0 and count > 1:
                    raise ExecutionError(f"{op.name}: slice stride is 0 in dimension {dim}")
                last = offset + (count - 1) * stride
                for bound in (offset, last):  # one at a time: each broadcasts with the mask
                    _check_in_bounds(state, op, np.asarray(bound), shape[dim], dim)
                stop = offset + count * (stride or 1)
                index.append(slice(offset, None if stop < 0 else stop, stride or 1))
            else:
                index.append(slice(0, 0))
        return (slice(None),) * depth + tuple(index)
    # Lane-dependent indices: one advanced index per entry, ranges on their own axes.
    ranges = sum(1 for k, _ in entries if k != soac.SliceSpec.FIXED)
    per_entry = []
    range_no = 0
    for dim, (kind, vals) in enumerate(entries):
        if kind == soac.SliceSpec.FIXED:
            _check_in_bounds(state, op, vals[0], shape[dim], dim)
            idx = _clamped(np.asarray(vals[0]), shape[dim])
            per_entry.append(idx.reshape(idx.shape + (1,) * ranges))
            continue
        count = int(uniform(state, vals[1], f"{op.name} slice count"))
        if count < 0:
            raise ExecutionError(f"{op.name}: negative slice count {count} in dimension {dim}")
        stride = vals[2] if kind == soac.SliceSpec.STRIDED else np.int64(1)
        idx = _range_indices(state, op, vals[0], count, stride, shape[dim], dim)
        per_entry.append(
            idx.reshape(idx.shape[:-1] + (1,) * range_no + (count,) + (1,) * (ranges - range_no - 1))
        )
        range_no += 1
    # Lane grids for the array's lane axes, shaped to broadcast with the entries.
    grids = [g.reshape(g.shape + (1,) * ranges) for g in lane_grids(array.shape, depth)]
    grids = [np.zeros_like(g) if array.shape[a] == 1 else g for a, g in enumerate(grids)]
    return tuple(grids) + tuple(per_entry)


def _device_indices(operands: Sequence[SSAValue], values: Sequence) -> list:
    """The slice spec of a device-indexed op as numbers: a `tensor<1xindex>` entry is
    its row 0 (per lane, inside a lambda)."""
    return [np.asarray(v)[..., 0] if soac.is_device_index(o.type) else v for o, v in zip(operands, values)]


def _updated(state: LaneState, op: Operation, array, kinds, spec, value) -> np.ndarray:
    """`array` with the part `spec` addresses replaced by `value` (soac.update and
    soac.device_update)."""
    # Value semantics: the result is a fresh array (the source is consumed, so a
    # compiled program writes in place; here a copy keeps the executor simple and safe).
    value = np.asarray(value)
    if state.empty:
        # a map over zero rows: no lane runs, so nothing is written and nothing can
        # fail (a size computed from the rows' values is unknown: there are none)
        return np.zeros(state.shape + np.shape(array)[state.depth :], np.asarray(array).dtype)
    lead = np.broadcast_shapes(  # per-lane indices give per-lane results too
        np.shape(array)[: state.depth], value.shape[: state.depth], *(np.shape(s)[: state.depth] for s in spec)
    )
    out = np.array(np.broadcast_to(array, lead + np.shape(array)[state.depth :]))
    index = _slice_index(state, op, out, kinds, spec)
    part = out[index].shape[state.depth :]
    if value.shape[state.depth :] != part:  # NumPy would broadcast a narrower value
        raise ExecutionError(
            f"{op.name}: value of shape {list(value.shape[state.depth:])} does not fit the "
            f"updated part of shape {list(part)}"
        )
    out[index] = value
    return out


def reduce_or_scan(
    interpreter: Interpreter, op: Operation, inputs, neutral, *, scan: bool, region: Region | None = None
) -> Arrays:
    """A reduce or inclusive scan of `inputs` along the combinator's axis by op's
    operator (`region`, by default its first region): NumPy's ufunc when the operator is
    one it knows, else the log-depth tree. Shared by soac (level 1) and mem (level 2)."""
    region = region or op.regions[0]
    axis = lanes(interpreter).depth
    inputs = [np.asarray(x) for x in inputs]
    n = outer_size(op, inputs, axis, lanes(interpreter).empty)
    inputs = _cut(inputs, axis, n)
    for i, (x, ne) in enumerate(zip(inputs, neutral)):
        check_neutral(op, i, np.shape(ne)[axis:], x.shape[axis + 1 :])
    ufunc = recognised_ufunc(region) if len(inputs) == 1 else None
    if scan:
        if ufunc is not None:
            return [ufunc.accumulate(inputs[0], axis=axis, dtype=inputs[0].dtype)]
        return tree_scan(inputs, axis, lambda_combine(interpreter, region, axis, op.name))
    if n == 0:
        return list(neutral)
    if ufunc is not None:
        return [_interruptible_reduce(ufunc, inputs[0], axis)]
    return tree_reduce(inputs, axis, lambda_combine(interpreter, region, axis, op.name))


def destination_writes(state: LaneState, dest, indices, values, *, fresh: bool):
    """The array scatter/hist write (a fresh copy of `dest`, or `dest` itself to write
    in place), and the coordinates and values of the in-bounds writes at the active
    lanes (out-of-bounds indices are ignored)."""
    depth = state.depth
    full = state.shape + np.shape(dest)[depth:]
    if fresh:
        out = np.array(np.broadcast_to(dest, full))
    else:
        out = dest
        if out.shape != full:
            raise ExecutionError("writing in place into an array shared by all lanes")
    indices = np.asarray(indices).astype(np.int64)
    values = np.asarray(values)
    m = indices.shape[depth]
    lead = np.broadcast_shapes(state.shape, indices.shape[:depth], values.shape[:depth])
    indices = np.broadcast_to(indices, lead + (m,))
    values = np.broadcast_to(values, lead + values.shape[depth:])
    keep = (indices >= 0) & (indices < out.shape[depth])
    if state.mask is not None:
        keep = keep & np.broadcast_to(state.mask[..., None], keep.shape)
    coords = tuple(np.broadcast_to(g[..., None], keep.shape)[keep] for g in lane_grids(lead, depth))
    return out, coords + (indices[keep],), values[keep]


def hist_into(
    interpreter: Interpreter, op: Operation, state: LaneState, out, coords, vals, region: Region | None = None
) -> None:
    """Combines `vals` into `out` at `coords` with op's operator (`region`, by default
    its first region), in place."""
    region = region or op.regions[0]
    ufunc = recognised_ufunc(region)
    if ufunc is not None:
        ufunc.at(out, coords, vals)
        return
    if coords[-1].size == 0:
        return
    # General operator: sort the writes by destination (stably, keeping the order of
    # operands), reduce each run of equal destinations by a segmented scan, then
    # combine each run's total into the destination. Each write carries the number of
    # its lane, so that an operator capturing per-lane values sees its lane's.
    lead_shape = out.shape[: state.depth + 1]
    keys = np.ravel_multi_index(coords, lead_shape)
    order = np.argsort(keys, kind="stable")
    keys, vals = keys[order], vals[order]
    lane_of = keys // lead_shape[-1]
    starts = np.ones(keys.size, dtype=bool)
    starts[1:] = keys[1:] != keys[:-1]
    combine = _flat_combine(interpreter, region, state)
    _, _, scanned = tree_scan([starts, lane_of, vals], 0, segmented_combine(combine))
    ends = np.ones(keys.size, dtype=bool)
    ends[:-1] = starts[1:]
    targets = np.unravel_index(keys[ends], lead_shape)
    _, totals = combine([lane_of[ends], np.asarray(out[targets])], [lane_of[ends], scanned[ends]])
    out[targets] = totals


def _flat_combine(interpreter: Interpreter, region: Region, state: LaneState) -> Combine:
    """The operator over flat arrays of writes (axis 0) from every lane at once, each
    operand pair led by the number of its lane: the pairs are lanes of their own, one
    axis below the host, and a value the operator captures is taken, for each pair,
    from that pair's lane (a write only ever combines with writes of its own lane).
    Returns the lane numbers, then the combined values."""

    def combine(left: Arrays, right: Arrays) -> Arrays:
        lane_of, *lvals = left
        _, *rvals = right
        count = lane_of.shape[0]
        with gathered_lanes(interpreter, region, count, lambda x: _per_write(x, state, lane_of)):
            results = interpreter.run_ssacfg_region(region, (*lvals, *rvals), "hist operator")
        return [lane_of, *(fill_lane_axis(r, 0, count) for r in results)]

    return combine


def _per_write(value, state: LaneState, lane_of: np.ndarray):
    """A value captured at the hist's lanes, as one row per write (of lane `lane_of`);
    at host level the one value for every write, as a lambda sees what it captures."""
    if state.depth == 0:
        return expand_lanes(value, 0)
    value = np.asarray(value)
    full = np.broadcast_to(value, state.shape + value.shape[state.depth :])
    return full.reshape((-1,) + value.shape[state.depth :])[lane_of]


def _sliced(state: LaneState, op: Operation, array: np.ndarray, kinds, spec) -> np.ndarray:
    """`array[spec]` over all lanes. With no lanes at all (a map over zero rows) the
    result is empty; its shape comes from a stand-in array with no empty axis, since
    NumPy cannot index an axis of length 0."""
    if 0 not in state.shape:
        return array[_slice_index(state, op, array, kinds, spec)]
    stand_in = np.zeros(tuple(max(d, 1) for d in array.shape), array.dtype)
    value_shape = stand_in[_slice_index(state, op, stand_in, kinds, spec)].shape[state.depth :]
    return np.zeros(state.shape + value_shape, array.dtype)


# ---------------------------------------------------------------------------------------
# Fused combinators: their map lambda, then the combinator part, run as the unfused ops
# would run them (so that fusion changes no result, not even a float's last bit)
# ---------------------------------------------------------------------------------------


def map_rows(interpreter: Interpreter, op: Operation, region: Region, arrays: Sequence, extra: Sequence = ()) -> Arrays:
    """`region` applied to every row of `arrays` (then `extra` arguments, rows of
    outputs at level 2), as soac.map runs its lambda: one array per yielded value."""
    axis = lanes(interpreter).depth
    n = outer_size(op, arrays, axis, lanes(interpreter).empty)
    arrays = _cut(arrays, axis, n)
    with nested_lanes(interpreter, n, region):
        results = interpreter.run_ssacfg_region(region, (*arrays, *extra), op.name)
    return [fill_lane_axis(r, axis, n) for r in results]


_REDUCE_CHUNK = 1 << 24
"""Rows a NumPy reduction takes at once: between chunks Python sees Ctrl-C (a reduction
over a huge broadcast replicate runs for minutes inside NumPy otherwise)."""


def _interruptible_reduce(ufunc, x: np.ndarray, axis: int) -> np.ndarray:
    n = x.shape[axis]
    if n <= _REDUCE_CHUNK:
        return ufunc.reduce(x, axis=axis, dtype=x.dtype)
    total = None
    for start in range(0, n, _REDUCE_CHUNK):
        part = ufunc.reduce(x[(slice(None),) * axis + (slice(start, start + _REDUCE_CHUNK),)], axis=axis, dtype=x.dtype)
        total = part if total is None else ufunc(total, part, dtype=x.dtype)
    return total


def check_neutral(op: Operation, i: int, neutral_shape: tuple, row_shape: tuple) -> None:
    """A neutral element has the shape of the rows it combines (NumPy would broadcast a
    narrower one; a compiled program fails or differs)."""
    if tuple(neutral_shape) != tuple(row_shape):
        raise ExecutionError(
            f"{op.name}: neutral element {i} has shape {list(neutral_shape)}, but the rows it combines have shape {list(row_shape)}"
        )


def check_static_shape(op: Operation, t, shape: tuple) -> None:
    """An array made at run time has the static sizes its type states."""
    for d, (want, got) in enumerate(zip(t.get_shape(), shape)):
        if want != DYNAMIC_INDEX and want != got:
            raise ExecutionError(f"{op.name}: the result has {got} elements in dimension {d}, but its type {t} says {want}")


def combine_operands(
    interpreter: Interpreter, op: Operation, operators: Sequence[Region], operands: Sequence, neutral: Sequence, *, scan: bool
) -> Arrays:
    """Each operator reduces (or scans) its own operands, independently, exactly as a
    soac.reduce (soac.scan) of those arrays would."""
    out: Arrays = []
    for region, xs, ne in zip(
        operators, soac.split_by_operators(operands, operators), soac.split_by_operators(neutral, operators)
    ):
        out += reduce_or_scan(interpreter, op, xs, ne, scan=scan, region=region)
    return out


# ---------------------------------------------------------------------------------------
# The implementations
# ---------------------------------------------------------------------------------------


@register_impls
class SoacFunctions(InterpreterFunctions):
    @impl_terminator(soac.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: soac.YieldOp, args):
        return ReturnedValues(args), ()

    @impl(soac.MapOp)
    def run_map(self, interpreter: Interpreter, op: soac.MapOp, args):
        axis = lanes(interpreter).depth
        n = outer_size(op, args, axis, lanes(interpreter).empty)
        args = _cut(args, axis, n)
        with nested_lanes(interpreter, n, op.body):
            results = interpreter.run_ssacfg_region(op.body, args, "soac.map")
        return tuple(fill_lane_axis(r, axis, n) for r in results)

    @impl(soac.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: soac.ReduceOp, args):
        k = len(op.inputs)
        return tuple(reduce_or_scan(interpreter, op, args[:k], args[k:], scan=False))

    @impl(soac.ScanOp)
    def run_scan(self, interpreter: Interpreter, op: soac.ScanOp, args):
        k = len(op.inputs)
        return tuple(reduce_or_scan(interpreter, op, args[:k], args[k:], scan=True))

    @impl(soac.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: soac.ScatterOp, args):
        dest, indices, values = args
        state = lanes(interpreter)
        if state.empty:  # a map over zero rows: no lane scatters (or fails)
            return (np.zeros(state.shape + np.shape(dest)[state.depth :], np.asarray(dest).dtype),)
        outer_size(op, [indices, values], state.depth)
        out, coords, vals = destination_writes(state, dest, indices, values, fresh=True)
        out[coords] = vals
        return (out,)

    @impl(soac.HistOp)
    def run_hist(self, interpreter: Interpreter, op: soac.HistOp, args):
        dest, indices, values, neutral = args
        state = lanes(interpreter)
        if state.empty:  # a map over zero rows: no lane hists (or fails)
            return (np.zeros(state.shape + np.shape(dest)[state.depth :], np.asarray(dest).dtype),)
        outer_size(op, [indices, values], state.depth)
        check_neutral(op, 0, np.shape(neutral)[state.depth :], np.shape(dest)[state.depth + 1 :])
        out, coords, vals = destination_writes(state, dest, indices, values, fresh=True)
        hist_into(interpreter, op, state, out, coords, vals)
        return (out,)

    @impl(soac.RedomapOp)
    def run_redomap(self, interpreter: Interpreter, op: soac.RedomapOp, args):
        n = len(op.inputs)
        values = map_rows(interpreter, op, op.map_body, args[:n])
        k = op.num_operands_reduced
        reduced = combine_operands(interpreter, op, op.operators, values[:k], args[n:], scan=False)
        return (*reduced, *values[k:])

    @impl(soac.ScanomapOp)
    def run_scanomap(self, interpreter: Interpreter, op: soac.ScanomapOp, args):
        n = len(op.inputs)
        values = map_rows(interpreter, op, op.map_body, args[:n])
        k = op.num_operands_scanned
        scanned = combine_operands(interpreter, op, op.operators, values[:k], args[n:], scan=True)
        if op.post is None:
            return (*scanned, *values[k:])
        return tuple(map_rows(interpreter, op, op.post, [*scanned, *values[k:]]))

    @impl(soac.ScatteromapOp)
    def run_scatteromap(self, interpreter: Interpreter, op: soac.ScatteromapOp, args):
        dest, *inputs = args
        indices, values, *mapped = map_rows(interpreter, op, op.map_body, inputs)
        out, coords, vals = destination_writes(lanes(interpreter), dest, indices, values, fresh=True)
        out[coords] = vals
        return (out, *mapped)

    @impl(soac.HistomapOp)
    def run_histomap(self, interpreter: Interpreter, op: soac.HistomapOp, args):
        dest, *inputs, _neutral = args
        state = lanes(interpreter)
        indices, values, *mapped = map_rows(interpreter, op, op.map_body, inputs)
        out, coords, vals = destination_writes(state, dest, indices, values, fresh=True)
        hist_into(interpreter, op, state, out, coords, vals, op.operator)
        return (out, *mapped)

    @impl(soac.GpuBodyOp)
    def run_gpu_body(self, interpreter: Interpreter, op: soac.GpuBodyOp, args):
        axis = lanes(interpreter).depth
        results = interpreter.run_ssacfg_region(op.body, (), "soac.gpu_body")
        return tuple(np.expand_dims(r, axis) for r in results)

    @impl(soac.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: soac.IotaOp, args):
        state = lanes(interpreter)
        n = int(uniform(state, args[0], "soac.iota count"))
        if n < 0:
            raise ExecutionError(f"soac.iota: negative count {n}")
        array_bytes((n,), numpy_dtype(op.result.type).itemsize)
        values = np.arange(n, dtype=numpy_dtype(op.result.type))
        return (values.reshape((1,) * state.depth + (n,)),)

    @impl(soac.ReplicateOp)
    def run_replicate(self, interpreter: Interpreter, op: soac.ReplicateOp, args):
        count, value = args
        state = lanes(interpreter)
        n = int(uniform(state, count, "soac.replicate count"))
        if n < 0:
            raise ExecutionError(f"soac.replicate: negative count {n}")
        value = np.expand_dims(np.asarray(value), state.depth)
        array_bytes((n, *value.shape[state.depth + 1 :]), value.dtype.itemsize)
        return (np.broadcast_to(value, value.shape[: state.depth] + (n,) + value.shape[state.depth + 1 :]),)

    @impl(soac.ArrayOp)
    def run_array(self, interpreter: Interpreter, op: soac.ArrayOp, args):
        state = lanes(interpreter)
        dtype = numpy_dtype(op.result.type)
        if not args:
            row_shape = tuple(op.result.type.get_shape()[1:])
            if any(d < 0 for d in row_shape):
                raise ExecutionError("soac.array: an empty literal needs a static row shape")
            return (np.zeros((1,) * state.depth + (0,) + row_shape, dtype=dtype),)
        rows = broadcast_lanes(args, state.depth)
        shapes = {r.shape[state.depth :] for r in rows}
        if len(shapes) != 1:
            raise ExecutionError(f"soac.array: rows of different shapes {sorted(shapes)}")
        return (np.stack(rows, axis=state.depth).astype(dtype, copy=False),)

    @impl(soac.IndexOp)
    def run_index(self, interpreter: Interpreter, op: soac.IndexOp, args):
        array, *indices = args
        kinds = [soac.SliceSpec.FIXED] * len(indices)
        return (_sliced(lanes(interpreter), op, np.asarray(array), kinds, indices),)

    @impl(soac.SliceOp)
    def run_slice(self, interpreter: Interpreter, op: soac.SliceOp, args):
        array, *spec = args
        state = lanes(interpreter)
        result = _sliced(state, op, np.asarray(array), op.kinds.get_values(), spec)
        check_static_shape(op, op.result.type, np.shape(result)[state.depth :])
        return (result,)

    @impl(soac.UpdateOp)
    def run_update(self, interpreter: Interpreter, op: soac.UpdateOp, args):
        array, *spec, value = args
        return (_updated(lanes(interpreter), op, array, op.kinds.get_values(), spec, value),)

    @impl(soac.DeviceIndexOp)
    def run_device_index(self, interpreter: Interpreter, op: soac.DeviceIndexOp, args):
        array, *indices = args
        spec = _device_indices(op.indices, indices)
        state = lanes(interpreter)
        result = np.array(_sliced(state, op, np.asarray(array), op.slice_kinds(), spec), copy=True)
        check_static_shape(op, op.result.type, np.shape(result)[state.depth :])
        return (result,)

    @impl(soac.DeviceUpdateOp)
    def run_device_update(self, interpreter: Interpreter, op: soac.DeviceUpdateOp, args):
        array, *indices, value = args
        spec = _device_indices(op.indices, indices)
        return (_updated(lanes(interpreter), op, array, op.slice_kinds(), spec, value),)

    @impl(soac.ConcatOp)
    def run_concat(self, interpreter: Interpreter, op: soac.ConcatOp, args):
        depth = lanes(interpreter).depth
        inner = {np.shape(a)[depth + 1 :] for a in args}
        if len(inner) != 1:
            raise ExecutionError(f"soac.concat: rows of different shapes {sorted(inner)}")
        array_bytes((sum(np.shape(a)[depth] for a in args), *next(iter(inner))), np.result_type(*args).itemsize)
        return (_concat(args, depth),)

    @impl(soac.TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: soac.TransposeOp, args):
        depth = lanes(interpreter).depth
        perm = tuple(range(depth)) + tuple(depth + p for p in op.permutation.get_values())
        return (np.transpose(args[0], perm),)

    @impl(soac.CopyOp)
    def run_copy(self, interpreter: Interpreter, op: soac.CopyOp, args):
        return (np.array(args[0], copy=True),)

    @impl(soac.SizeOp)
    def run_size(self, interpreter: Interpreter, op: soac.SizeOp, args):
        state = lanes(interpreter)
        n = np.shape(args[0])[state.depth + op.dim.value.data]
        if state.depth == 0:
            return (np.int64(n),)
        return (np.full((1,) * state.depth, n, dtype=np.int64),)
