"""The scalar calling convention of emitted host code: host code computes an `arith` or
`math` op on scalars by calling a function of the runtime named after the op, so that the
emitter (lowering/emit_host.py) and the runtime that provides the functions
(runtime/host_scalars.py) agree without importing each other.

`arith.addi(a, b)`; comparisons carry their predicate, `arith.cmpi_slt(a, b)`,
`arith.cmpf_olt(a, b)`; a cast takes the result's NumPy dtype as a last argument,
`arith.extsi(x, np.int64)`; an integer op with overflow flags carries them and checks
that its result fits, `arith.muli_nsw(a, b)`; `math.sqrt(x)`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation


def op_function_name(op_type: type[Operation]) -> str:
    """The name of an op's function: its name without the dialect (`addi`)."""
    return op_type.name.split(".", 1)[1]


def scalar_function(op: Operation) -> str | None:
    """The qualified name of the function host code calls for an arith or math op
    (`arith.cmpi_slt`, `math.sqrt`); None for an op of another dialect."""
    dialect = op.name.split(".", 1)[0]
    if dialect not in ("arith", "math"):
        return None
    name = op_function_name(type(op))
    if isinstance(op, arith.CmpiOp):
        name = f"cmpi_{arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]}"
    elif isinstance(op, arith.CmpfOp):
        name = f"cmpf_{arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]}"
    elif isinstance(op, arith.SignlessIntegerBinaryOperationWithOverflow) and op.overflow_flags.data:
        name += "".join(f"_{flag.value}" for flag in sorted(op.overflow_flags.data))
    return f"{dialect}.{name}"


def is_cast(op: Operation) -> bool:
    """An arith op of one operand whose result has another type: its function takes the
    result's dtype too."""
    return (
        op.name.startswith("arith.")
        and len(op.operands) == 1
        and len(op.results) == 1
        and op.operands[0].type != op.results[0].type
    )
