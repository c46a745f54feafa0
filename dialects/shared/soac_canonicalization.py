"""Canonicalization patterns of the soac dialect (`canonicalize`, which soacc-pipeline
runs first): rules of Futhark's simplifier that the migration analysis
(reduce-device-syncs) depends on.

- **An index of a slice is an index of the array** (`A[j:n][k]` is `A[j + k]`; with a
  stride s, `A[j + s·k]`; a fixed entry stays an index; dimensions past the slice's
  entries keep their indices). The slice needs its count on the host (it sizes an
  array), so a slice whose offset the device computes costs a read every time; the
  element alone does not (issue 22, class 1: 5 reads to none in a loop). Where the
  index, or the slice itself, is out of bounds, the combined index is the array's
  size, out of bounds too: the program fails as it did, never reads another element.
- **An index of an index** (`A[i][j]`) is one index (`A[i, j]`): the same checks.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from soacc.dialects import soac
from soacc.dialects.soac import SliceSpec


class IndexOfIndex(RewritePattern):
    """`soac.index (soac.index %a[%i])[%j]` → `soac.index %a[%i, %j]`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: soac.IndexOp, rewriter: PatternRewriter) -> None:
        inner = op.array.owner
        if not isinstance(inner, soac.IndexOp):
            return
        rewriter.replace(op, soac.IndexOp(inner.array, [*inner.indices, *op.indices]))


class IndexOfSlice(RewritePattern):
    """`soac.index (soac.slice %a[spec])[indices]` → `soac.index %a[...]` where the
    indices address every ranged dimension of the slice (module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: soac.IndexOp, rewriter: PatternRewriter) -> None:
        sliced = op.array.owner
        if not isinstance(sliced, soac.SliceOp):
            return
        entries = list(SliceSpec.entries(sliced.kinds.get_values(), sliced.spec))
        ranged = sum(1 for kind, _ in entries if kind != SliceSpec.FIXED)
        indices = list(op.indices)
        if len(indices) < ranged:
            return  # (a sub-array of a ranged dimension: a slice, not an index)
        new_ops: list[Operation] = []

        def add(new: Operation) -> SSAValue:
            new_ops.append(new)
            return new.results[0]

        one = None
        combined: list[SSAValue] = []
        taken = iter(indices)
        for axis, (kind, values) in enumerate(entries):
            if kind == SliceSpec.FIXED:
                combined.append(values[0])
                continue
            k = next(taken)
            offset, count = values[0], values[1]
            stride = values[2] if kind == SliceSpec.STRIDED else None
            if one is None:
                one = add(arith.ConstantOp(IntegerAttr(1, IndexType())))
            size = add(soac.SizeOp(sliced.source, axis))
            step = add(arith.MuliOp(stride, k)) if stride is not None else k
            position = add(arith.AddiOp(offset, step))
            # in bounds as the two ops were: the index within the slice, and the
            # slice's first and last elements within the array
            last_step = add(arith.SubiOp(count, one))
            last = add(arith.AddiOp(offset, add(arith.MuliOp(stride, last_step)) if stride is not None else last_step))
            checks = [
                add(arith.CmpiOp(k, count, "ult")),
                add(arith.CmpiOp(offset, size, "ult")),
                add(arith.CmpiOp(last, size, "ult")),
            ]
            inside = checks[0]
            for check in checks[1:]:
                inside = add(arith.AndIOp(inside, check))
            combined.append(add(arith.SelectOp(inside, position, size)))
        combined += list(taken)
        for new in new_ops:
            rewriter.insert(new, InsertPoint.before(op))
        rewriter.replace(op, soac.IndexOp(sliced.source, combined))


PATTERNS = (IndexOfIndex(), IndexOfSlice())
