"""interchange-reductions: a reduction (or scan) of rows whose operator combines them
element by element is a map, over the columns, of reductions (scans) of scalars
(level 1); a scan's result, a column of prefixes per column, is transposed back.

`reduce (map2 op) ne xss`, the sum of the rows of a matrix for example, combines whole
rows: at host level no kernel takes rows as its elements (a thread would hold a row).
Its columns are independent: column j of the result is `reduce op ne[j]` of column j,
so the reduction is

    map (\\col n -> reduce op n col) (transpose xss) ne

— Futhark's interchange of a reduction with the map inside its operator, which its
flattening does the same way. The transpose is a view at level 2 (no copy), the map is
a kernel over the columns and each column's reduction runs in its thread (or, where
convert-mem-to-gpu shares a row among a group of threads, in the group), reading a row
of the matrix at a time across the threads: coalesced.

The rewrite applies to a `soac.reduce` or `soac.scan` at host level (not inside another combinator,
whose thread already runs it) whose k inputs are arrays of rank 2, whose operator is
one `soac.map` over its row parameters (each input of the map one of them) yielding
the map's k rows in order, and whose map lambda is scalar code that reads nothing
made in the operator. The inner reductions keep `commutative`. The map takes the
neutral rows beside the columns, so its check that they agree in size is the
reduction's check that the rows have the neutral rows' size (made even where there
are no rows): a program fails where it failed before, and an array of no rows gives
the neutral rows (each column's reduction of nothing).

`report=true` prints each reduction and scan interchanged to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from soacc.dialects import soac


def _element_wise(op: soac.ReduceOp | soac.ScanOp) -> tuple[soac.MapOp, list[int]] | None:
    """The operator's map, and for each of its inputs which operator parameter it is,
    where the operator is one map over its row parameters yielding its rows."""
    body = op.body.block
    ops = list(body.ops)
    if len(ops) != 2 or not isinstance(ops[0], soac.MapOp) or not isinstance(ops[1], soac.YieldOp):
        return None
    inner, terminator = ops
    if list(terminator.operands) != list(inner.outputs) or len(inner.outputs) != len(op.inputs):
        return None
    which = []
    for value in inner.inputs:
        if not isinstance(value, BlockArgument) or value.block is not body:
            return None
        which.append(value.index)
    lam = inner.body.block
    for nested in lam.walk():
        if nested.regions or nested.dialect_name() == "soac" and not isinstance(nested, soac.YieldOp):
            return None  # scalar code only
        for operand in nested.operands:
            owner = operand.owner
            inside_lambda = isinstance(owner, Block) and owner is lam or isinstance(owner, Operation) and lam.is_ancestor(owner)
            if not inside_lambda and (owner is body or isinstance(owner, Operation) and body.is_ancestor(owner)):
                return None  # reads a value the operator makes
    if any(not isinstance(a.type, TensorType) or a.type.get_num_dims() != 1 for a in body.args):
        return None
    if any(not isinstance(t, TensorType) or t.get_num_dims() != 1 for t in inner.outputs.types):
        return None
    return inner, which


def _at_host_level(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent.dialect_name() == "soac":
            return False
        parent = parent.parent_op()
    return True


def _interchange(op: soac.ReduceOp | soac.ScanOp, rewriter: PatternRewriter, done: list[str]) -> None:
    if not _at_host_level(op) or any(v.type.get_num_dims() != 2 for v in op.inputs):
        return
    found = _element_wise(op)
    if found is None:
        return
    inner, which = found
    k = len(op.inputs)
    scalars = [v.type.element_type for v in op.inputs]

    # the scalar operator: the map's lambda, its parameters the operator's
    operator = Block(arg_types=[*scalars, *scalars])
    lam = inner.body.block
    mapping = {param: operator.args[which[j]] for j, param in enumerate(lam.args)}
    for statement in lam.ops:
        operator.add_op(statement.clone(value_mapper=mapping))

    transposed = [soac.TransposeOp(v, [1, 0]) for v in op.inputs]
    column = Block(arg_types=[*[soac.row_type(t.result.type) for t in transposed], *scalars])
    combinator = type(op)(list(column.args[:k]), list(column.args[k:]), Region(operator), commutative=op.commutative is not None)
    column.add_ops([combinator, soac.YieldOp(*combinator.outputs)])
    scan = isinstance(op, soac.ScanOp)
    # a reduction gives a value per column; a scan a column of prefixes, per column
    result_types = [t.result.type for t in transposed] if scan else [o.type for o in op.outputs]
    columns = soac.MapOp([*(t.result for t in transposed), *op.neutral], result_types, Region(column))
    back = [soac.TransposeOp(c, [1, 0]) for c in columns.outputs] if scan else []
    results = [b.result for b in back] if scan else list(columns.outputs)
    # names for the new values (else the rewriter gives every one the reduction's)
    for t, source in zip(transposed, op.inputs):
        t.result.name_hint = f"{source.name_hint}_columns" if source.name_hint else "columns"
    for arg in column.args[:k]:
        arg.name_hint = "column"
    for arg in column.args[k:]:
        arg.name_hint = "neutral"
    for new, old in zip([*results, *combinator.outputs], [*op.outputs] * 2):
        new.name_hint = old.name_hint
    for c, old in zip(columns.outputs if scan else [], op.outputs):
        c.name_hint = f"{old.name_hint}_by_columns" if old.name_hint else None
    rewriter.replace(op, [*transposed, columns, *back], results)
    done.append(op.outputs[0].name_hint or "?")


@dataclass
class InterchangeReduction(RewritePattern):
    """One reduction of rows by an element-wise operator, as a map of reductions."""

    done: list[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: soac.ReduceOp, rewriter: PatternRewriter) -> None:
        _interchange(op, rewriter, self.done)


@dataclass
class InterchangeScan(RewritePattern):
    """One scan of rows by an element-wise operator, as the transpose of a map of
    scans of the columns."""

    done: list[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: soac.ScanOp, rewriter: PatternRewriter) -> None:
        _interchange(op, rewriter, self.done)


@dataclass(frozen=True)
class InterchangeReductionsPass(ModulePass):
    """Reductions of rows by element-wise operators as maps of reductions (see the
    module's docstring)."""

    name = "interchange-reductions"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        done: list[str] = []
        patterns = GreedyRewritePatternApplier([InterchangeReduction(done), InterchangeScan(done)])
        PatternRewriteWalker(patterns, apply_recursively=False).rewrite_module(op)
        if self.report:
            for name in done:
                print(f"interchange-reductions: %{name}: a map over the columns", file=sys.stderr)
