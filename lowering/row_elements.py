"""What a map's lambda reads per element of its row, for the kernels that run a
combinator of every row at once (a hist or scatter per row: gpu_segmented_hist.py,
gpu_segmented_scatter.py): arrays the lambda made whole before the combinator (filled
with one value, or a copy), and the combinator's inputs, each a row parameter of the
lambda, an array from outside the map, or a replicate of one value; and, in a kernel,
reading them at a row's element."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, memref
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from soacc.dialects import mem
from soacc.lowering.gpu_flatten import _outside
from soacc.lowering.gpu_tile import scalar_lambda
from soacc.lowering.kernel_body import KernelBody
from soacc.lowering.kernel_scratch import _HostEvaluator


def filled_with(view: SSAValue, lam: Block, hist: Operation, copies: bool = False) -> SSAValue | None:
    """What an array of the lambda holds before `hist` (a hist or scatter, which
    updates it), where one op wrote it whole and nothing else writes it: the value a
    mem.fill filled it with, or (where `copies`) the rank-1 array a mem.copy copied
    into it, from outside the map or a row parameter of its lambda. The array is one
    the lambda allocates, or its output row (where the memory passes built it in
    place); None otherwise."""
    made = view.owner
    writes = (mem.FillOp, mem.CopyOp) if copies else (mem.FillOp,)
    writers = [use.operation for use in view.uses if isinstance(use.operation, writes) and use.operation.operands[-1] is view]
    others = [
        use.operation
        for use in view.uses
        if use.operation not in writers and use.operation is not hist and not isinstance(use.operation, mem.YieldOp | mem.SizeOp)
    ]
    if len(writers) != 1 or others or writers[0].parent_block() is not lam or not writers[0].is_before_in_block(hist):
        return None
    (writer,) = writers
    source_rows = list(lam.args[: len(lam.parent_op().inputs)])
    if isinstance(writer, mem.CopyOp) and not (
        writer.source.type.get_num_dims() == 1 and (_outside(writer.source, lam.parent_op()) or writer.source in source_rows)
    ):
        return None
    if isinstance(view, BlockArgument):
        if view.owner is not lam or view.index < len(lam.parent_op().inputs):
            return None
    elif not isinstance(made, mem.ViewOp) or made.parent_block() is not lam:
        return None
    elif not isinstance(made.block.owner, mem.AllocOp) or any(use.operation is not made for use in made.block.uses):
        return None
    return writer.value if isinstance(writer, mem.FillOp) else writer.source


def kernel_scalar_available(v: SSAValue, op: mem.MapOp) -> bool:
    """A scalar the kernels can have: from outside the map, or a constant inside it."""
    return _outside(v, op) or isinstance(v.owner, arith.ConstantOp)


def lone_update(op: mem.MapOp, plain: type, fused: type) -> tuple[Operation, tuple[SSAValue, ...]] | None:
    """The one combinator of kind `plain` (mem.hist, mem.scatter) or `fused` (its
    soac-fusion form, whose map lambda must be scalar code) in `op`'s lambda, and what
    it reads per element (bin numbers or positions, and values; or the map lambda's
    inputs), where it updates a rank-1 array the lambda yields as its one output row
    (of a rank-2 output), and the rest of the lambda only makes arrays (allocs, views,
    fills, copies), sizes and scalar code; None otherwise."""
    if len(op.outputs) != 1 or op.outputs[0].type.get_num_dims() != 2:
        return None
    lam = op.body.block
    found = [o for o in lam.ops if isinstance(o, plain | fused)]
    if len(found) != 1:
        return None
    (update,) = found
    if update.dest.type.get_num_dims() != 1 or list(lam.last_op.operands) != [update.dest]:
        return None
    allowed = (mem.AllocOp, mem.ViewOp, mem.FillOp, mem.CopyOp, mem.SizeOp, plain, fused, mem.YieldOp)
    if any(not isinstance(o, allowed) and (o.regions or o.dialect_name() not in ("arith", "math")) for o in lam.ops):
        return None
    if isinstance(update, fused):
        if update.outputs or not scalar_lambda(update.map_body.block, op):
            return None
        return update, tuple(update.inputs)
    return update, (update.indices, update.values)


def element_inputs(inputs: Sequence[SSAValue], op: mem.MapOp, combinator: Operation) -> tuple[SSAValue | None, ...] | None:
    """For each rank-1 input of `combinator` (in the lambda of `op`), None where it is
    a row parameter or an array from outside, else the value it is a replicate of; None
    where one is none of these."""
    lam = op.body.block
    rows = list(lam.args[: len(op.inputs)])
    filled: list[SSAValue | None] = []
    for v in inputs:
        if v.type.get_num_dims() != 1:
            return None
        if v in rows or _outside(v, op):
            filled.append(None)
            continue
        value = filled_with(v, lam, combinator)
        if value is None or not (value in rows or kernel_scalar_available(value, op)):
            return None
        filled.append(value)
    return tuple(filled)


def element_count(b: Builder, combinator: Operation, inputs: Sequence[SSAValue], evaluator: _HostEvaluator, message: str) -> SSAValue:
    """Host code: the elements a row's combinator runs over (its inputs' length, or an
    indexed fused op's row count), with checks that every input has that length
    (failing with `message`). Raises _NotOnHost where a length is not computable there."""
    count = getattr(combinator, "row_count", None)
    lengths = [evaluator.value(count)] if count is not None else []  # (an indexed fused op's)
    lengths += [evaluator.size(v, 0) for v in inputs]
    for other in lengths[1:]:
        same = b.insert(arith.CmpiOp(lengths[0], other, "eq")).result
        b.insert(cf.AssertOp(same, message))
    return lengths[0]


class RowReader:
    """Reads, in a kernel, what the lambda of `op` reads at element e of row r."""

    def __init__(self, kb: KernelBody, op: mem.MapOp):
        self.kb, self.op = kb, op
        self.params = list(op.body.block.args[: len(op.inputs)])

    def scalar(self, v: SSAValue, row: SSAValue | None = None) -> SSAValue:
        """A scalar of row `row`: its element of the map's input (a lambda's element
        parameter), a value from outside, or a constant of the lambda (these two need
        no row)."""
        kb = self.kb
        if v in self.params:
            assert row is not None, "a lambda's element parameter is read at a row"
            return kb.op(memref.LoadOp.get(kb.value(self.op.inputs[self.params.index(v)]), [row]))
        if v in kb.values:
            return kb.value(v)
        constant = v.owner.clone()  # (a constant inside the map: kernel_scalar_available)
        kb.b.insert(constant)
        return constant.results[0]

    def read(self, array: SSAValue, row: SSAValue, e: SSAValue) -> SSAValue:
        """Element e of row `row` of a lambda's row parameter, or of an array from outside."""
        kb = self.kb
        if array in self.params:
            return kb.op(memref.LoadOp.get(kb.value(self.op.inputs[self.params.index(array)]), [row, e]))
        return kb.op(memref.LoadOp.get(kb.value(array), [e]))

    def elements(self, inputs: Sequence[SSAValue], filled: Sequence[SSAValue | None], row: SSAValue, e: SSAValue) -> list[SSAValue]:
        """The inputs' values at element e of row `row` (element_inputs's `filled`)."""
        return [self.read(v, row, e) if c is None else self.scalar(c, row) for v, c in zip(inputs, filled)]


__all__ = ["RowReader", "element_count", "element_inputs", "filled_with", "kernel_scalar_available", "lone_update"]
