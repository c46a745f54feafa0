"""Canonicalization patterns of the `mem` dialect, which xDSL's `canonicalize` runs
(mem.SizeOp names them through its HasCanonicalizationPatternsTrait)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from soacc.dialects import mem


class SizeOfView(RewritePattern):
    """`mem.size` of a `mem.view` is the view's size: its static size, or the size
    operand it was made with. Host code then computes a kernel's grid from values made
    once, which loop-invariant code motion can take out of a loop, instead of asking
    each iteration's view again."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.SizeOp, rewriter: PatternRewriter) -> None:
        view = op.view.owner
        if not isinstance(view, mem.ViewOp):
            return
        t = view.result.type
        assert isinstance(t, MemRefType)
        shape = t.get_shape()
        dim = op.dim.value.data
        if shape[dim] != DYNAMIC_INDEX:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(shape[dim], IndexType())))
            return
        dynamic = [d for d, n in enumerate(shape) if n == DYNAMIC_INDEX]
        rewriter.replace(op, [], [view.sizes[dynamic.index(dim)]])
