"""Moving, cloning and removing ops inside one block: what the memory passes
(hoist-allocations, short-circuit, memory-reuse) share. Not a pass itself.

Level 2 is structured SSA with single-block regions, so dominance is simple: a value
is available at an op when it is an argument of a block around the op, or the result
of an op that comes earlier in a block around it. Nothing here moves an op out of its
block: a nested body treats what its parents define as given (the study's rule).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from soacc.dialects import mem
from soacc.dialects.shared.utils import used_values


def dominates(value: SSAValue, point: Operation) -> bool:
    """`value` can be used by an op inserted just before `point`."""
    if isinstance(value, BlockArgument):
        block = value.block
        return block.find_ancestor_op_in_block(point) is not None
    assert isinstance(value, OpResult)
    definer = value.op
    block = definer.parent_block()
    if block is None:
        return False
    ancestor = block.find_ancestor_op_in_block(point)
    if ancestor is None or ancestor is definer:
        return False
    return definer.is_before_in_block(ancestor)


def is_pure(op: Operation) -> bool:
    """No memory effects and no regions: free to move or clone within a block. (A
    region op may be effect-free too, but cloning one would take only its operands
    along, not the values its regions capture.)"""
    return not op.regions and is_side_effect_free(op)


def is_movable(op: Operation) -> bool:
    """Ops that can move up or down within a block when their operands allow: pure
    ops and allocations (an allocation touches no content)."""
    return is_pure(op) or isinstance(op, mem.AllocOp)


def statement_of(op: Operation, block: Block) -> Operation | None:
    return block.find_ancestor_op_in_block(op)


def definer_in(value: SSAValue, block: Block) -> Operation | None:
    """The statement of `block` that defines `value` (None when defined outside it
    or by a block argument)."""
    if isinstance(value, OpResult):
        return block.find_ancestor_op_in_block(value.op) if value.op.parent_block() is block else None
    return None


def dependencies_after(op: Operation, anchor: Operation, movable=None) -> list[Operation] | None:
    """The ops of `op`'s block, between `anchor` (included) and `op`, that `op`
    depends on (transitively), in block order; None when a dependency there cannot
    move (by default: anything but pure ops and allocations)."""
    movable = movable or is_movable
    block = op.parent_block()
    assert block is not None
    needed: dict[Operation, None] = {}
    pending = [op]
    while pending:
        current = pending.pop()
        for v in used_values(current):
            definer = definer_in(v, block)
            if definer is None or definer in needed:
                continue
            if not (anchor is definer or anchor.is_before_in_block(definer)):
                continue
            if not movable(definer):
                return None
            needed[definer] = None
            pending.append(definer)
    return sorted(needed, key=lambda o: block.get_operation_index(o))


def move(op: Operation, point: InsertPoint) -> None:
    """Moves `op` to `point` (xDSL's Rewriter inserts and erases, but does not move)."""
    op.detach()
    Rewriter.insert_op(op, point)


def move_before(ops: Iterable[Operation], anchor: Operation) -> None:
    """Moves `ops` (in the given order) to just before `anchor`."""
    for op in ops:
        if op is not anchor:
            move(op, InsertPoint.before(anchor))


def hoist_as_high_as_possible(op: Operation, done: set[Operation] | None = None) -> None:
    """Moves a movable op up to just after the last op it depends on, first moving
    the movable ops it depends on as high as they go (the study's hoisting)."""
    block = op.parent_block()
    assert block is not None
    done = set() if done is None else done
    if op in done:
        return
    done.add(op)
    for v in used_values(op):
        definer = definer_in(v, block)
        if definer is not None and is_movable(definer):
            hoist_as_high_as_possible(definer, done)
    _hoist_one(op, block)


def _hoist_one(op: Operation, block: Block) -> None:
    """Moves `op` up to just after the latest op of the block defining a value it uses."""
    latest: Operation | None = None
    for v in used_values(op):
        definer = definer_in(v, block)
        if definer is not None and definer is not op:
            if latest is None or latest.is_before_in_block(definer):
                latest = definer
    target = block.first_op if latest is None else latest.next_op
    if target is None or target is op:
        return
    if latest is not None and not latest.is_before_in_block(op):
        return
    if latest is None or target.is_before_in_block(op):
        move(op, InsertPoint.before(target))


def sink_allocation(alloc: mem.AllocOp) -> None:
    """Moves an allocation, with the views made directly of it, down to just before
    the first other op of its block that uses them: a block lives no longer than it
    must."""
    block = alloc.parent_block()
    assert block is not None
    roots = [use.operation for use in alloc.block.uses if isinstance(use.operation, mem.ViewOp) and use.operation.parent_block() is block]
    moving = {alloc, *roots}
    first_user: Operation | None = None
    for value in [alloc.block, *(r.result for r in roots)]:
        for use in value.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None or user in moving:
                continue
            if first_user is None or user.is_before_in_block(first_user):
                first_user = user
    if first_user is None or first_user.is_before_in_block(alloc):
        return
    # the views' other operands (offsets, sizes) must stay available
    for root in roots:
        for v in root.operands:
            definer = definer_in(v, block)
            if definer is not None and definer not in moving and not definer.is_before_in_block(first_user):
                return
    ordered = sorted(moving, key=lambda o: block.get_operation_index(o))
    move_before(ordered, first_user)


def erase(op: Operation) -> None:
    """Removes an op whose results nothing uses any more."""
    Rewriter.erase_op(op)


class CannotMaterialise(Exception):
    pass


class Materialiser:
    """Makes a value available before an op of its block by cloning the pure ops that
    compute it (views, slices, sizes, arithmetic) and moving root views (a `mem.view`
    is moved, never cloned, so that a later move of its block moves every view of
    it)."""

    def __init__(self, point: Operation):
        self.point = point
        self.block = point.parent_block()
        assert self.block is not None
        # what each value was found or made as: a size computed from shared operands
        # (`s + s`, then that plus itself, ...) is a DAG, which an unremembered walk
        # visits, and clones, once per path, 2^depth times
        self._possible: dict[SSAValue, bool] = {}
        self._made: dict[SSAValue, SSAValue] = {}

    def possible(self, value: SSAValue, seen: frozenset[SSAValue] = frozenset()) -> bool:
        if value not in self._possible:
            self._possible[value] = self._find(value, seen)
        return self._possible[value]

    def _find(self, value: SSAValue, seen: frozenset[SSAValue]) -> bool:
        if dominates(value, self.point):
            return True
        if not isinstance(value, OpResult) or value in seen:
            return False
        op = value.op
        if not is_pure(op):
            return False
        if isinstance(op, mem.ViewOp) and op.parent_block() is not self.block:
            return False
        return all(self.possible(v, seen | {value}) for v in op.operands)

    def value(self, value: SSAValue) -> SSAValue:
        if value not in self._made:
            self._made[value] = self._make(value)
        return self._made[value]

    def _make(self, value: SSAValue) -> SSAValue:
        if dominates(value, self.point):
            return value
        if not isinstance(value, OpResult) or not is_pure(value.op):
            raise CannotMaterialise(str(value))
        op = value.op
        operands = [self.value(v) for v in op.operands]
        if isinstance(op, mem.ViewOp):
            if any(a is not b for a, b in zip(op.operands, operands)):
                op.operands = operands
            move(op, InsertPoint.before(self.point))
            return value
        clone = op.clone(value_mapper=dict(zip(op.operands, operands)))
        Rewriter.insert_op(clone, InsertPoint.before(self.point))
        return clone.results[value.index]


def index_constant_before(point: Operation, n: int) -> SSAValue:
    from xdsl.dialects.builtin import IndexType, IntegerAttr

    op = arith.ConstantOp(IntegerAttr(n, IndexType()))
    Rewriter.insert_op(op, InsertPoint.before(point))
    return op.result


def stop_carrying(loop: scf.ForOp, positions: list[int]) -> scf.ForOp:
    """The loop without the carried values at `positions`, each the value it starts
    with in every iteration and after the loop; returns the new loop."""
    rewriter = PatternRewriter(loop)
    body = loop.body.block
    terminator = body.last_op
    assert terminator is not None
    inits = list(loop.iter_args)
    for k in positions:
        rewriter.replace_all_uses_with(body.args[k + 1], inits[k])
        rewriter.replace_all_uses_with(loop.results[k], inits[k])
    keep = [k for k in range(len(inits)) if k not in positions]
    dropped = [terminator.operands[k] for k in positions]
    terminator.operands = [terminator.operands[k] for k in keep]
    for k in sorted(positions, reverse=True):
        rewriter.erase_block_argument(body.args[k + 1])
    for value in dropped:
        if isinstance(value, OpResult) and not value.uses and is_pure(value.op):
            rewriter.erase(value.op)
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [inits[k] for k in keep], rewriter.move_region_contents_to_new_regions(loop.body))
    kept = {k: i for i, k in enumerate(keep)}
    rewriter.replace(loop, new, [new.results[kept[k]] if k in kept else None for k in range(len(inits))])
    return new


def drop_if_results(branch_op: scf.IfOp, positions: list[int]) -> scf.IfOp:
    """The `if` without its results at `positions`, which nothing uses, nor its
    branches' yields; returns the new `if`."""
    assert not any(branch_op.results[k].uses for k in positions)
    rewriter = PatternRewriter(branch_op)
    keep = [i for i in range(len(branch_op.results)) if i not in positions]
    regions = [rewriter.move_region_contents_to_new_regions(r) for r in list(branch_op.regions)]
    for region in regions:
        if region.blocks:
            terminator = region.block.last_op
            terminator.operands = [terminator.operands[i] for i in keep]
    new = scf.IfOp(branch_op.cond, [branch_op.results[i].type for i in keep], *regions)
    results = iter(new.results)
    rewriter.replace(branch_op, new, [None if i in positions else next(results) for i in range(len(branch_op.results))])
    return new
