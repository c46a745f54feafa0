"""Run-time size checks that passes leave behind: where a pass removes or rewrites an
op that checked sizes when it ran (a copy between arrays of one shape, a combinator
over arrays of one outer size), the check stays, as Futhark's size coercions assert.

A check is MLIR's `cf.assert` of an `arith.cmpi eq` of two `index` values. `cf.assert`
has no memory-effect trait, so xDSL's dead code elimination and canonicalisation keep
it (its effects are unknown), and it touches no block or view, so the memory analyses
do not see it as a use of any array. passes/analysis/sizes.py reads it back as a fact
(`asserted_equal_sizes`). Checks are made only where sizes are not provably equal."""

from __future__ import annotations

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint, Rewriter


def insert_size_check(where: InsertPoint, made: SSAValue | int, needed: SSAValue | int, message: str) -> cf.AssertOp:
    """A check, inserted at `where`, that `made` equals `needed` (index values or
    constants); a failure says `message`."""
    operands = []
    for size in (made, needed):
        if isinstance(size, int):
            constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
            Rewriter.insert_op(constant, where)
            size = constant.result
        operands.append(size)
    compare = arith.CmpiOp(operands[0], operands[1], "eq")
    check = cf.AssertOp(compare.result, message)
    Rewriter.insert_op([compare, check], where)
    return check
