"""Sinking reads into the branch that uses them (level 1), before the migration
analysis: Futhark's `sinkGPU` ("sink reads before migrating them"), which it runs
before and after its migration, so that an element read only in one branch of an
`if` is read in that branch, not every time the code before the `if` runs.

A host-level `soac.index` of one element (its result a scalar) moves to the start of
a branch when every use of its value is in that branch of one `scf.if` that comes
after it in its block. Its indices must be values the host has without a read
(constants, block arguments, and arithmetic of them), because the bounds check stays
where the read was: `cf.assert` of each index against its dimension's size, so that
a program fails where it failed before, whether or not the branch runs. Repeats until
nothing moves (a read sunk into a branch may sink further, into an `if` inside it).
"""

from __future__ import annotations

from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from soacc.dialects import soac


def _host_value(value: SSAValue, depth: int = 0) -> bool:
    """The host has it without a read: a constant, a block argument, or arithmetic of
    such values."""
    if isinstance(value, BlockArgument):
        return True
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        return True
    if depth < 8 and owner.dialect_name() == "arith" and not owner.regions:
        return all(_host_value(v, depth + 1) for v in owner.operands)
    return False


def _statement_in(op: Operation, block: Block) -> Operation | None:
    """The op of `block` that holds `op` (itself, or an ancestor)."""
    while op is not None and op.parent_block() is not block:
        op = op.parent_op()
    return op


def _target_branch(read: soac.IndexOp) -> Block | None:
    """The one branch of one later `scf.if` of the read's block that holds every use."""
    block = read.parent_block()
    if block is None or not read.result.uses:
        return None
    branch: Block | None = None
    for use in read.result.uses:
        holder = _statement_in(use.operation, block)
        if not isinstance(holder, scf.IfOp) or use.operation is holder:
            return None  # used outside an if, or as its condition
        inner = use.operation
        while inner.parent_op() is not holder:
            inner = inner.parent_op()
        b = inner.parent_block()
        if branch is None:
            branch = b
        elif b is not branch:
            return None
    if branch is None or block.get_operation_index(read) > block.get_operation_index(branch.parent_op()):
        return None
    return branch


def _at_host_level(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if not isinstance(parent, scf.IfOp | scf.ForOp | scf.WhileOp):
            return False
        parent = parent.parent_op()
    return parent is not None


def _sink(read: soac.IndexOp, branch: Block) -> None:
    where = InsertPoint.before(read)
    name = read.array.name_hint or "?"
    shape = read.array.type.get_shape()
    for axis, index in enumerate(read.indices):
        known = index.owner.value.value.data if isinstance(index.owner, arith.ConstantOp) else None
        if known is not None and 0 <= known < shape[axis]:
            continue  # in bounds whatever runs
        if shape[axis] >= 0:  # (a static size: a constant)
            size: Operation = arith.ConstantOp(IntegerAttr(shape[axis], IndexType()))
        else:
            size = soac.SizeOp(read.array, axis)
        inside = arith.CmpiOp(index, size.results[0], "ult")
        check = cf.AssertOp(inside.result, f"soac.index: a position is out of bounds for dimension {axis} of %{name}")
        Rewriter.insert_op([size, inside, check], where)
    read.detach()
    first = branch.first_op
    if first is None:
        branch.add_op(read)
    else:
        branch.insert_op_before(read, first)


def sink_reads(function: func.FuncOp) -> int:
    """Sinks the function's reads (see the module's docstring); how many moved."""
    moved = 0
    changed = True
    while changed:
        changed = False
        for read in [op for op in function.walk() if isinstance(op, soac.IndexOp)]:
            if isinstance(read.result.type, TensorType) or not _at_host_level(read):
                continue
            if not all(_host_value(i) for i in read.indices):
                continue
            branch = _target_branch(read)
            if branch is None:
                continue
            _sink(read, branch)
            moved += 1
            changed = True
    return moved
