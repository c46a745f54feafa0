"""Lanes: how the reference executor evaluates a lambda once over whole arrays.

Inside a lambda every SSA value stands for one value *per lane* (per element the
combinator applies the lambda to). The executor keeps them as NumPy arrays whose
leading `depth` axes are the lane axes, one per enclosing lambda, followed by the
value's own shape:

    value.ndim == depth + rank(value's type)

A lane axis may have length 1 where the value is the same for every lane of that
axis (a constant, or a value captured from outside the lambda): NumPy broadcasting
then does the rest, so an `arith.addf` is one `np.add` whatever the depth.

Control flow whose condition differs between lanes (an `scf.if`, `scf.while` or
`scf.for` inside a lambda) runs under a *mask* of active lanes and merges its results
with `np.where`; operations that can fail (indexing) check only active lanes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.interpreter import Interpreter
from xdsl.ir import Region, SSAValue

from soacc.dialects.shared import utils as ir_utils
from soacc.runtime.errors import ExecutionError


@dataclass(frozen=True)
class LaneState:
    """The lanes the current op runs over."""

    shape: tuple[int, ...] = ()
    """The length of each lane axis (the full size, even where a value broadcasts)."""
    mask: np.ndarray | None = None
    """Active lanes (bool, broadcastable to `shape`); None when all are active."""

    @property
    def depth(self) -> int:
        return len(self.shape)

    @property
    def empty(self) -> bool:
        """No lane runs: the op is inside a map over zero rows, where nothing writes,
        and nothing fails, since no row exists (as at level 1)."""
        return 0 in self.shape


_KEY = "lane-state"


def lanes(interpreter: Interpreter) -> LaneState:
    return interpreter.get_data(LaneState, _KEY, LaneState)  # type: ignore[arg-type]


def _set_lanes(interpreter: Interpreter, state: LaneState) -> None:
    interpreter.set_data(LaneState, _KEY, state)  # type: ignore[arg-type]


def captured_values(interpreter: Interpreter, region: Region) -> tuple[SSAValue, ...]:
    """The values a region (with everything nested in it) uses but does not define.
    Computed once per region."""
    cache: dict[Region, tuple[SSAValue, ...]] = interpreter.get_data(
        LaneState,
        "captured",
        dict,  # type: ignore[arg-type]
    )
    if region not in cache:
        cache[region] = tuple(ir_utils.captured_values(region))
    return cache[region]


@contextmanager
def nested_lanes(interpreter: Interpreter, count: int, region: Region) -> Iterator[LaneState]:
    """Enters a lambda applied over `count` new lanes: a lane axis is appended, and every
    value the lambda captures from outside gets that axis (of length 1)."""
    outer = lanes(interpreter)
    depth = outer.depth
    inner = LaneState(
        outer.shape + (count,), None if outer.mask is None else outer.mask[..., None]
    )
    interpreter.push_scope("lambda")
    try:
        captured = captured_values(interpreter, region)
        outer_values = interpreter.get_values(captured)
        interpreter.set_values((v, expand_lanes(x, depth)) for v, x in zip(captured, outer_values))
        _set_lanes(interpreter, inner)
        yield inner
    finally:
        _set_lanes(interpreter, outer)
        interpreter.pop_scope()


def expand_lanes(value, axis: int):
    """A value as seen one lambda deeper: a new lane axis of length 1 at `axis`."""
    if hasattr(value, "expand_lanes"):  # a memory block
        return value.expand_lanes(axis)
    return np.expand_dims(value, axis)


@contextmanager
def gathered_lanes(interpreter: Interpreter, region: Region, count: int, gather) -> Iterator[LaneState]:
    """Enters `region` over `count` lanes of its own, one axis below the host (the
    enclosing lanes put aside), every value it captures given as `gather(value)` makes
    it: one row per new lane. A hist's operator runs so over the writes of all its
    lanes at once, each write seeing the captured values of the lane it came from."""
    outer = lanes(interpreter)
    interpreter.push_scope("lambda")
    try:
        captured = captured_values(interpreter, region)
        outer_values = interpreter.get_values(captured)
        interpreter.set_values((v, gather(x)) for v, x in zip(captured, outer_values))
        _set_lanes(interpreter, LaneState((count,)))
        yield lanes(interpreter)
    finally:
        _set_lanes(interpreter, outer)
        interpreter.pop_scope()


@contextmanager
def masked(interpreter: Interpreter, mask: np.ndarray) -> Iterator[LaneState]:
    """Runs with only the lanes in `mask` (and already active) active."""
    outer = lanes(interpreter)
    combined = mask if outer.mask is None else (outer.mask & mask)
    _set_lanes(interpreter, LaneState(outer.shape, combined))
    try:
        yield lanes(interpreter)
    finally:
        _set_lanes(interpreter, outer)


# ---------------------------------------------------------------------------------------
# Helpers over lane arrays
# ---------------------------------------------------------------------------------------


def scalar(state: LaneState, value, dtype: np.dtype):
    """A lane-invariant scalar at the current depth."""
    if state.depth == 0:
        return dtype.type(value)
    return np.full((1,) * state.depth, value, dtype=dtype)


def constant_array(state: LaneState, array: np.ndarray) -> np.ndarray:
    """A lane-invariant array at the current depth."""
    return array.reshape((1,) * state.depth + array.shape)


def fill_lane_axis(x, axis: int, count: int) -> np.ndarray:
    """Makes lane axis `axis` have its full length (it may be 1 from broadcasting)."""
    x = np.asarray(x)
    if x.shape[axis] == count:
        return x
    return np.broadcast_to(x, x.shape[:axis] + (count,) + x.shape[axis + 1 :])


def broadcast_lanes(arrays: Sequence[np.ndarray], depth: int) -> list[np.ndarray]:
    """Broadcasts the lane axes of several values (of any value shapes) to a common shape."""
    arrays = [np.asarray(a) for a in arrays]
    common = np.broadcast_shapes(*(a.shape[:depth] for a in arrays))
    return [np.broadcast_to(a, common + a.shape[depth:]) for a in arrays]


def select_lanes(cond, if_true, if_false, depth: int):
    """Per lane, `if_true` where `cond` holds, else `if_false` (values of any shape)."""
    if depth == 0:
        return if_true if cond else if_false
    a, b = np.asarray(if_true), np.asarray(if_false)
    if a.shape[depth:] != b.shape[depth:]:
        raise ExecutionError(
            f"lanes disagree on an array's shape ({a.shape[depth:]} and {b.shape[depth:]}): "
            "arrays must be regular"
        )
    c = np.asarray(cond)
    c = c.reshape(c.shape + (1,) * (a.ndim - depth))
    return np.where(c, a, b)


def active_values(state: LaneState, x: np.ndarray) -> np.ndarray:
    """The values of a per-lane scalar at the active lanes, flattened."""
    x = np.asarray(x)
    if state.empty:
        return x.reshape(-1)[:0]  # no lanes at all: nothing is active
    if state.mask is None:
        return x.reshape(-1)
    full = np.broadcast_shapes(x.shape, np.shape(state.mask))
    return np.broadcast_to(x, full)[np.broadcast_to(state.mask, full)]


def uniform(state: LaneState, x, what: str) -> int | float | bool:
    """The value every active lane agrees on; an error when lanes disagree (an array
    size that differs between lanes would make an irregular array)."""
    x = np.asarray(x)
    if x.size == 1:
        return x.reshape(-1)[0].item()
    vals = active_values(state, x)
    if vals.size == 0:
        return x.reshape(-1)[0].item() if x.size else 0
    first = vals[0]
    if not np.all(vals == first):
        raise ExecutionError(
            f"{what} differs between lanes ({first.item()} and "
            f"{vals[vals != first][0].item()}); arrays must be regular"
        )
    return first.item()


def is_uniform(x) -> bool:
    return np.size(x) == 1


def lane_grids(shape: Sequence[int], depth: int) -> tuple[np.ndarray, ...]:
    """Open index grids over the first `depth` axes of an array of `shape` (an axis of
    length 1 indexes 0), for NumPy advanced indexing per lane."""
    grids = []
    for axis in range(depth):
        g = np.arange(shape[axis]).reshape((1,) * axis + (-1,) + (1,) * (depth - axis - 1))
        grids.append(g)
    return tuple(grids)
