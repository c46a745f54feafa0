"""Ownership: may an in-place write (an `update`, a `scatter`, a `hist`) take its source's
memory? Level 1, for convert-soac-to-mem: an array owns its memory when no other array
shares it, and a write may consume it when every other use is an element read done
before (as level 1's `update` consumes its source, as in Futhark). Never changes IR.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from soacc.dialects.shared.traits import is_parallel_kernel
from soacc.dialects import soac

_FRESH_ARRAYS = (
    soac.MapOp,
    soac.ReduceOp,
    soac.ScanOp,
    soac.ScatterOp,
    soac.HistOp,
    soac.UpdateOp,
    soac.DeviceIndexOp,
    soac.DeviceUpdateOp,
    soac.CopyOp,
    soac.IotaOp,
    soac.ReplicateOp,
    soac.ArrayOp,
    soac.ConcatOp,
    soac.GpuBodyOp,
    *soac.FUSED_OPS,
    arith.ConstantOp,
)


def _repeats(op: Operation) -> bool:
    """Ops whose regions run many times (loop iterations, or the lanes of a combinator's
    lambda): memory from outside them is the same memory every time."""
    return isinstance(op, scf.ForOp | scf.WhileOp) or (is_parallel_kernel(op) and bool(op.regions))


def repeating_ancestor(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp) and not _repeats(parent):
        parent = parent.parent_op()
    return parent if parent is not None and _repeats(parent) else None


def _defined_within(value: SSAValue, region_op: Operation | None) -> bool:
    """`value` is made inside `region_op`'s regions (anywhere, when it is None)."""
    if region_op is None:
        return True
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op()
        return owner is not None and region_op.is_ancestor(owner)
    return value.op is not region_op and region_op.is_ancestor(value.op)


def owns_memory(
    value: SSAValue, entry: bool, within: Operation | None = None, seen: frozenset = frozenset()
) -> bool:
    """Whether no other array shares this array's memory (so that, if this is its last
    use, it may be overwritten). Views, lambda rows, call results and parameters of
    non-entry functions may share; an entry point's arrays are our own device copies.
    Memory that flows through control flow is owned only if every array it may come from
    is owned, used nowhere else, and made inside `within` (the innermost loop or lambda
    around the write): memory from outside it would be written again every iteration or
    lane. A loop's initial value is checked against the loop's own surroundings, and what
    an iteration feeds back must be made inside the loop."""
    if value in seen:
        return True  # a loop-carried array owns its memory if every other path does
    seen = seen | {value}
    if not _defined_within(value, within):
        return False
    if isinstance(value, OpResult):
        op = value.op
        if isinstance(op, _FRESH_ARRAYS):
            return True
        if isinstance(op, scf.IfOp):
            return all(
                exclusive(r.block.last_op.operands[value.index], entry, within, seen) for r in op.regions
            )
        if isinstance(op, scf.ForOp):
            i = value.index
            return exclusive(op.iter_args[i], entry, repeating_ancestor(op), seen) and exclusive(
                op.body.block.last_op.operands[i], entry, op, seen
            )
        if isinstance(op, scf.WhileOp):
            forwarded = op.before_region.block.last_op.args[value.index]
            return exclusive(forwarded, entry, op, seen)
        return False  # calls and views
    assert isinstance(value, BlockArgument)
    parent = value.block.parent_op()
    if isinstance(parent, func.FuncOp):
        return entry
    if isinstance(parent, scf.ForOp) and value.index > 0:
        i = value.index - 1
        return exclusive(parent.iter_args[i], entry, repeating_ancestor(parent), seen) and exclusive(
            parent.body.block.last_op.operands[i], entry, parent, seen
        )
    if isinstance(parent, scf.WhileOp):
        i = value.index
        if value.block is parent.before_region.block:
            # fed by the initial value, then by what the after region yields
            return exclusive(parent.arguments[i], entry, repeating_ancestor(parent), seen) and exclusive(
                parent.after_region.block.last_op.operands[i], entry, parent, seen
            )
        # the after region gets what the condition forwards
        return exclusive(parent.before_region.block.last_op.args[i], entry, parent, seen)
    return False


def exclusive(value: SSAValue, entry: bool, within: Operation | None, seen: frozenset) -> bool:
    return _consumed_by_one_use(value) and owns_memory(value, entry, within, seen)


def loop_starts_to_copy(loop: scf.ForOp, entry: bool) -> list[int]:
    """The carried arrays (by position) that `loop` updates in place in every iteration
    but starts from an array it may not overwrite (a lambda's row, an array used again
    later): with a copy of that start the loop owns its array and updates it in place,
    where otherwise every iteration would copy it whole."""
    return [
        k
        for k, start in enumerate(loop.iter_args)
        if isinstance(start.type, TensorType)
        and not exclusive(start, entry, repeating_ancestor(loop), frozenset())
        and _updated_in_place_each_iteration(loop, k)
    ]


def _updated_in_place_each_iteration(loop: scf.ForOp, k: int) -> bool:
    """The loop's k-th carried array is yielded as a chain of updates of itself, each of
    which could write in place (its other uses are reads before it)."""
    carried = loop.body.block.args[k + 1]
    value = loop.body.block.last_op.operands[k]
    updates = 0
    while (
        isinstance(value, OpResult)
        and isinstance(value.op, soac.UpdateOp | soac.DeviceUpdateOp)
        and value.op.parent_block() is loop.body.block
        and _consumed_by_one_use(value.op.source, value.op)
    ):
        value = value.op.source
        updates += 1
    return updates > 0 and value is carried


def _reads_scalars_only(use_op: Operation) -> bool:
    """A use that takes nothing of the array's memory with it: an element read or a size."""
    if isinstance(use_op, soac.SizeOp):
        return True
    return isinstance(use_op, soac.IndexOp) and not isinstance(use_op.result.type, TensorType)


def _consumed_by_one_use(value: SSAValue, consumer: Operation | None = None) -> bool:
    """`value` has one use that may take its memory (`consumer`, when given), and every
    other use is an element read or a size that is done before that use: in the same
    block, earlier, or inside an op that is (a tridiagonal solve's loop reads b[i - 1]
    and b[i], then updates b[i]). As level 1's `update` consumes its source, this is
    what makes that update in place without the memory passes, as in Futhark."""
    takers = [use.operation for use in value.uses if not _reads_scalars_only(use.operation)]
    if len(takers) != 1 or (consumer is not None and takers[0] is not consumer):
        return False
    taker = takers[0]
    block = taker.parent_block()
    for use in value.uses:
        reader = use.operation
        if reader is taker:
            continue
        while reader is not None and reader.parent_block() is not block:
            reader = reader.parent_op()
        if reader is None or reader is taker or not reader.is_before_in_block(taker):
            return False
    return True


def can_consume(source: SSAValue, op: Operation, entry: bool) -> bool:
    """An in-place write into `source` is safe: this op is its only use apart from
    element reads done before it, it is defined in this block (a loop would otherwise
    overwrite it every iteration), or in a block around the branches of `if`s the op
    is in (below), and it owns its memory."""
    home = _defining_block(source)
    if home is op.parent_block():
        taken = _consumed_by_one_use(source, op)
    else:
        taken = _consumed_in_branch(source, op, home)
    return taken and owns_memory(source, entry, repeating_ancestor(op))


def _defining_block(value: SSAValue) -> Block | None:
    return value.owner.parent_block() if isinstance(value, OpResult) else value.owner  # type: ignore[return-value]


def _consumed_in_branch(source: SSAValue, op: Operation, home: Block | None) -> bool:
    """`op`, in a branch of an `if` (of `if`s) of the block that defines `source`, may
    take its memory: a run takes one branch, so a use in another branch of those `if`s
    is no other use (each branch of `if c then z with [0] = x else z with [1] = x`
    updates z in place, as Futhark's coalescing/if/if-nonexist does); every other use
    is an element read or a size done before the statement that holds `op`, at its
    level of the nesting. Uses after the outermost `if` are other uses."""
    if home is None:
        return False
    levels: list[Operation] = [op]  # the statement holding op in each block, innermost first
    while levels[-1].parent_block() is not home:
        parent = levels[-1].parent_op()
        if not isinstance(parent, scf.IfOp):
            return False  # a loop or a lambda between: it would write every run
        levels.append(parent)
    holders = {statement.parent_block(): statement for statement in levels}
    for use in source.uses:
        user = use.operation
        if user is op:
            continue
        # the innermost block of the nesting that holds the use
        statement: Operation | None = user
        while statement is not None and statement.parent_block() not in holders:
            statement = statement.parent_op()
        if statement is None:
            return False
        holder = holders[statement.parent_block()]
        if statement is holder:
            if holder is op:
                return False
            continue  # in another branch of an `if` op is in (a run takes one)
        if not (_reads_scalars_only(user) and statement.is_before_in_block(holder)):
            return False
    return True
