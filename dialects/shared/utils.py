"""Questions about IR that every layer asks, answered once."""

from __future__ import annotations

from collections.abc import KeysView
from itertools import chain

from xdsl.dialects import func
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.region_utils import iter_used_values_defined_above
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import PassFailedException


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """`value` is defined within `op`'s regions."""
    owner = value.owner
    owner_op = owner.parent_op() if isinstance(owner, Block) else owner
    return owner_op is not None and owner_op is not op and op.is_ancestor(owner_op)


def captured_values(where: Operation | Region) -> KeysView[SSAValue]:
    """The values used inside `where` (an op's regions, or one region) but defined
    above it: what a lambda captures. An insertion-ordered set (dict keys), first use
    first: emitted code follows this order, so it must not depend on object addresses
    as a set's would, and set operations (`&`, `|`, `-`) still work."""
    regions = where.regions if isinstance(where, Operation) else (where,)
    return dict.fromkeys(chain.from_iterable(iter_used_values_defined_above(r) for r in regions)).keys()


def used_values(op: Operation) -> KeysView[SSAValue]:
    """Everything `op` reads: its operands, then its captured values (ordered as
    `captured_values`)."""
    return dict.fromkeys(chain(op.operands, captured_values(op))).keys()


def enclosing_function(op: Operation) -> func.FuncOp | None:
    """The function `op` is in (itself when it is one), or None."""
    where: Operation | None = op
    while where is not None and not isinstance(where, func.FuncOp):
        where = where.parent_op()
    return where


def located_failure(op: Operation, message: str) -> PassFailedException:
    """A pass's failure at `op`: its message shows the IR with `op` marked, and it keeps
    the op (`.op`) for located diagnostics."""
    exception = PassFailedException(message)
    exception.op = op  # type: ignore[attr-defined]
    diagnostic = Diagnostic()
    diagnostic.add_message(op, message)
    try:
        diagnostic.raise_exception(op, exception)
    except PassFailedException as annotated:
        return annotated
    return exception
