"""The size of a view's dimension as the ops that make it state it (hoist-allocations
folds `mem.size` with it; fuse-iota asks it for a map's outer size)."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.ir import BlockArgument, OpResult, SSAValue

from soacc.dialects import mem
from soacc.dialects.soac import SliceSpec
from soacc.passes.analysis.memory_aliases import lambda_row_sources


def stated_size(view: SSAValue, axis: int, _pending: frozenset[SSAValue] = frozenset()) -> SSAValue | int | None:
    """The size of a view's dimension as the ops that make it state it: a constant,
    a value, or None when only running the program tells. A lambda's row has its
    input's size; a loop-carried array has the size it starts with when every
    iteration yields an array of the size it was given (by induction)."""
    t = view.type
    assert isinstance(t, MemRefType)
    static = t.get_shape()[axis]
    if static != DYNAMIC_INDEX:
        return static
    if view in _pending:
        return None
    op = view.owner
    if isinstance(view, OpResult) and isinstance(view.op, scf.ForOp):
        # a loop's result: what its carried array is
        return stated_size(view.op.body.block.args[view.index + 1], axis, _pending | {view})
    if isinstance(view, BlockArgument):
        parent = view.owner.parent_op()
        if isinstance(parent, mem.MapOp):
            sources = lambda_row_sources(parent, view)
            if len(sources) == 1 and isinstance(sources[0].type, MemRefType) and sources[0].type.get_num_dims() == t.get_num_dims() + 1:
                return stated_size(sources[0], axis + 1, _pending | {view})
        if isinstance(parent, scf.ForOp) and view.index >= 1:
            k = view.index - 1
            start = stated_size(parent.iter_args[k], axis, _pending | {view})
            terminator = parent.body.block.last_op
            assert terminator is not None
            step = stated_size(terminator.operands[k], axis, _pending | {view})
            itself = isinstance(step, OpResult) and isinstance(step.op, mem.SizeOp) and step.op.view is view and step.op.dim.value.data == axis
            if start is not None and (step == start or itself):
                return start
        return None
    if isinstance(op, mem.ViewOp):
        dynamic = [d for d, s in enumerate(t.get_shape()) if s == DYNAMIC_INDEX]
        return op.sizes[dynamic.index(axis)]
    if isinstance(op, mem.SliceOp):
        entries = list(SliceSpec.entries(op.kinds.get_values(), op.spec))
        ranges = [values for kind, values in entries if kind != SliceSpec.FIXED]
        if axis < len(ranges):
            return ranges[axis][1]
        return stated_size(op.source, len(entries) + axis - len(ranges), _pending)
    if isinstance(op, mem.TransposeOp):
        return stated_size(op.input, op.permutation.get_values()[axis], _pending)
    return None
