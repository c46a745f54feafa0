"""Questions about IR that every layer asks, answered once."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Block, Operation, SSAValue


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """`value` is defined within `op`'s regions."""
    owner = value.owner
    owner_op = owner.parent_op() if isinstance(owner, Block) else owner
    return owner_op is not None and owner_op is not op and op.is_ancestor(owner_op)


def enclosing_function(op: Operation) -> func.FuncOp | None:
    """The function `op` is in (itself when it is one), or None."""
    where: Operation | None = op
    while where is not None and not isinstance(where, func.FuncOp):
        where = where.parent_op()
    return where
