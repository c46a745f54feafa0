"""Reading compile-time constants off SSA values (for verifiers and passes)."""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` gives, or None when `value` is not one."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None
