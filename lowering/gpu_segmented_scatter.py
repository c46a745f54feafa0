"""A scatter per row (a map of a scatter: issue 21, item 2, the segmented scatter) as
one kernel over every row's elements, instead of a thread per row.

The map's lambda writes each row by a scatter into an array it made whole first (a
copy of a row of one of the map's inputs, a copy of an array from outside the map, or
a replicate of one value), and yields that array:

    map (\\d is vs -> scatter (copy d) is vs) dests iss vss

where the positions and values are rows of the map's inputs, arrays from outside, or
a replicate of one value; or a scatteromap, whose map lambda (scalar code) computes
each element's position and value from such arrays. Each row's writes go to its own
output row, so all of them may run at once: a grid-stride loop over the rows' elements
together (element e of the product is element e mod k of row e div k: neighbouring
threads read neighbouring positions and values), each thread writing its value to its
row's position, out-of-bounds positions ignored. Where a position repeats in a row,
which of its values is written is unspecified (soac.scatter's meaning), as for the
host-level scatter's kernel.

The output rows are first made what the lambda copied or filled, by a kernel of their
own (a grid-stride loop over the output's elements), unless they already are: where
the memory passes put the output in the very elements of the input whose rows the
lambda copies (an in-place update), there is nothing to copy.

Both loops take their elements apart in 32-bit arithmetic where there are fewer than
2^31 of them (64-bit division is a long software sequence on the GPU)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, gpu, memref
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType
from xdsl.ir import SSAValue

from soacc.dialects import mem
from soacc.dialects.shared.utils import captured_values
from soacc.lowering.gpu_flatten import NARROW_BELOW, _outside
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.gpu_segmented import may_overlap_outputs, same_elements
from soacc.lowering.row_elements import RowReader, element_count, element_inputs, filled_with, kernel_scalar_available, lone_update
from soacc.lowering.kernel_body import THREADS_PER_BLOCK, KernelBody, index_constant, kernel_function
from soacc.lowering.kernel_scratch import _HostEvaluator, _NotOnHost, grid_blocks
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.symbolic import Symbolic

i32 = IntegerType(32)


@dataclass(frozen=True)
class ScatterPerRow:
    """A map of a scatter the kernels above compute (segmented_scatter)."""

    op: mem.MapOp
    scatter: mem.ScatterOp | mem.ScatteromapOp
    init: SSAValue
    """What a row is before the scatter: one value (from outside, a constant, or the
    row's element of one of the map's inputs), an array from outside the map, or a row
    parameter of the map's lambda (a row of one of its inputs)."""
    in_place: bool
    """The output holds what `init` says already (its rows are the copied input's)."""
    inputs: tuple[SSAValue, ...]
    """The positions and values (a scatter), or the map lambda's inputs (a scatteromap):
    row parameters, arrays from outside, or replicates (`filled`)."""
    filled: tuple[SSAValue | None, ...]


def segmented_scatter(op: mem.MapOp, aliases: MemoryAliases, symbolic: Symbolic) -> ScatterPerRow | None:
    """The map of a scatter (module docstring) `op` is, or None; also None where an
    array it reads may share memory with its output, but for the input whose rows it
    copies where that is the output's own elements. Reads level-2 code."""
    found = lone_update(op, mem.ScatterOp, mem.ScatteromapOp)
    if found is None:
        return None
    scatter, inputs = found
    lam, dest = op.body.block, scatter.dest
    init = filled_with(dest, lam, scatter, copies=True)
    if init is None:
        return None
    rows = list(lam.args[: len(op.inputs)])
    copied = op.inputs[rows.index(init)] if init in rows and isinstance(init.type, MemRefType) else None
    if init not in rows and not kernel_scalar_available(init, op):
        return None  # (a row's own element, as a replicate's value, is read in the kernel)
    filled = element_inputs(inputs, op, scatter)
    if filled is None:
        return None
    out = op.outputs[0]
    in_place = copied is not None and same_elements(symbolic, copied, out)
    read = [v for v in (*op.inputs, *captured_values(op)) if isinstance(v.type, MemRefType) and v is not out]
    if any(may_overlap_outputs(op, v, aliases, symbolic) for v in read if not (in_place and v is copied)):
        return None
    return ScatterPerRow(op, scatter, init, in_place, inputs, filled)


def lower_scatter_per_row(s: ScatterPerRow, name: str, b: Builder, add_kernel) -> bool:
    """The kernels and their launches; False (nothing done) where the rows' length
    cannot be computed on the host."""
    op = s.op
    evaluator = _HostEvaluator(b, set(op.walk()))
    try:
        width_made = evaluator.size(s.scatter.dest, 0)
        length = element_count(b, s.scatter, s.inputs, evaluator, "a scatter inside a map has positions and values of different lengths")
    except _NotOnHost:
        return False
    out = op.outputs[0]
    rows = b.insert(mem.SizeOp(op.rows_of, 0)).result
    width = b.insert(mem.SizeOp(out, 1)).result
    same_width = b.insert(arith.CmpiOp(width_made, width, "eq")).result
    b.insert(cf.AssertOp(same_width, "copies an array into one of another shape"))
    if isinstance(s.init.type, MemRefType):  # (the copy's check, as mem.copy makes it)
        source = s.init if _outside(s.init, op) else op.inputs[list(op.body.block.args).index(s.init)]
        copied = b.insert(mem.SizeOp(source, source.type.get_num_dims() - 1)).result
        same = b.insert(arith.CmpiOp(copied, width, "eq")).result
        b.insert(cf.AssertOp(same, "copies an array into one of another shape"))
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, out]
    index = IndexType()

    def blocks(total: SSAValue) -> SSAValue:
        return grid_blocks(b, b.insert(arith.CeilDivUIOp(total, index_constant(b, THREADS_PER_BLOCK))).results[0], None)

    if not s.in_place:
        made = add_kernel(
            kernel_function(
                f"{name}_scatter_rows_init", operands, [("rows", index), ("width", index)],
                lambda kb, params, extra: _Kernel(kb, s).init(*extra),
            )
        )
        elements = b.insert(arith.MuliOp(rows, width)).results[0]
        launch(b, made, blocks(elements), [*operands, rows, width])
    written = add_kernel(
        kernel_function(
            f"{name}_scatter_rows", operands, [("rows", index), ("length", index)],
            lambda kb, params, extra: _Kernel(kb, s).scatter(*extra),
        )
    )
    updates = b.insert(arith.MuliOp(rows, length)).results[0]
    launch(b, written, blocks(updates), [*operands, rows, length])
    return True


class _Kernel(RowReader):
    """Writes the kernels' bodies."""

    def __init__(self, kb: KernelBody, s: ScatterPerRow):
        super().__init__(kb, s.op)
        self.s = s
        self.out = kb.value(s.op.outputs[0])

    def init(self, rows: SSAValue, width: SSAValue) -> None:
        """Every output row made what the lambda made it before its scatter."""
        kb, init = self.kb, self.s.init

        def element(r: SSAValue, j: SSAValue) -> None:
            value = self.read(init, r, j) if isinstance(init.type, MemRefType) else self.scalar(init, r)
            kb.b.insert(memref.StoreOp.get(value, self.out, [r, j]))

        _each_element(kb, rows, width, element)

    def scatter(self, rows: SSAValue, length: SSAValue) -> None:
        """Every row's writes: element j of row r writes its value to out[r, position]."""
        kb, s = self.kb, self.s
        width = kb.op(memref.DimOp(self.out, kb.constant(1)))

        def element(r: SSAValue, j: SSAValue) -> None:
            elements = self.elements(s.inputs, s.filled, r, j)
            if isinstance(s.scatter, mem.ScatteromapOp):
                indexed = [j] if s.scatter.row_count is not None else []  # (its element's number)
                position, value = kb.apply_operator(s.scatter.map_body, [*elements, *indexed], [])
            else:
                position, value = elements
            if not isinstance(position.type, IndexType):
                position = kb.op(arith.IndexCastOp(position, IndexType()))  # sign-extends: negatives become huge
            inside = kb.op(arith.CmpiOp(position, width, "ult"))
            kb.when(inside, lambda: _store(kb, value, self.out, [r, position]))

        _each_element(kb, rows, length, element)


def _store(kb: KernelBody, value: SSAValue, ref: SSAValue, at: list[SSAValue]) -> None:
    kb.b.insert(memref.StoreOp.get(value, ref, at))


def _each_element(kb: KernelBody, rows: SSAValue, width: SSAValue, body) -> None:
    """body(r, j) for every element of a rows × width product, in a grid-stride loop;
    the element number taken apart in 32-bit arithmetic where there are fewer than
    NARROW_BELOW elements (a copy of the loop)."""
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    first = kb.op(gpu.GlobalIdOp(x))
    threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
    total = kb.op(arith.MuliOp(rows, width))
    narrow = kb.op(arith.CmpiOp(total, kb.constant(NARROW_BELOW), "ult"))

    def loop(in_32_bits: bool):
        def run() -> None:
            w = kb.op(arith.IndexCastOp(width, i32)) if in_32_bits else width

            def element(e: SSAValue) -> None:
                at = kb.op(arith.IndexCastOp(e, i32)) if in_32_bits else e
                r, j = kb.op(arith.DivUIOp(at, w)), kb.op(arith.RemUIOp(at, w))
                if in_32_bits:
                    r, j = kb.op(arith.IndexCastOp(r, IndexType())), kb.op(arith.IndexCastOp(j, IndexType()))
                body(r, j)

            kb.range_loop(first, total, threads, element)

        return run

    kb.when(narrow, loop(True), loop(False))


__all__ = ["ScatterPerRow", "lower_scatter_per_row", "segmented_scatter"]
