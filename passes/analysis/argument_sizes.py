"""What a level-1 entry point requires of its arguments' sizes, read from the ops that
always run (those of the function's own block): the arrays a combinator takes together
have one outer size, and a scalar parameter used as a count (iota, replicate) is not
negative. A caller checks these before anything runs, so that a mistake in the
arguments is said in terms of the parameters, not of the ops a lowering made (`mem.map
... different outer sizes`, `negative allocation size`). Never changes IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue

from soacc.dialects import soac
from soacc.dialects.shared.traits import is_parallel_kernel


@dataclass(frozen=True)
class SameOuterSize:
    """Parameters (by position) whose arrays `op` takes together, row by row."""

    params: tuple[int, ...]
    op: Operation


@dataclass(frozen=True)
class NotNegative:
    """A scalar parameter (by position) that `op` uses as a count."""

    param: int
    op: Operation


Requirement = SameOuterSize | NotNegative


def argument_requirements(function: func.FuncOp) -> list[Requirement]:
    """The requirements of `function`'s ops that always run, in program order."""
    if not function.body.blocks:
        return []
    block = function.body.blocks[0]
    found: list[Requirement] = []
    for op in block.ops:
        together = _taken_together(op)
        params = tuple(dict.fromkeys(p for p in (_param(v, block) for v in together) if p is not None))
        if len(params) > 1:
            found.append(SameOuterSize(params, op))
        count = _count(op)
        if count is not None and (p := _param(count, block)) is not None:
            found.append(NotNegative(p, op))
    return found


def _param(value: SSAValue, block) -> int | None:
    return value.index if isinstance(value, BlockArgument) and value.block is block else None


def _taken_together(op: Operation) -> list[SSAValue]:
    """The arrays `op` goes through row by row, which must have one outer size."""
    if not is_parallel_kernel(op):
        return []
    if isinstance(op, soac.ScatterOp | soac.HistOp):
        arrays = [op.indices, op.values]  # the destination may have another size
    else:
        arrays = list(getattr(op, "inputs", ()))  # a combinator's rows, fused or not
    return [a for a in arrays if isinstance(a.type, TensorType)]


def _count(op: Operation) -> SSAValue | None:
    if isinstance(op, soac.IotaOp | soac.ReplicateOp):
        return op.count
    return None
