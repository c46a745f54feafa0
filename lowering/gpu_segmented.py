"""Segmented reductions: a host-level map whose lambda reduces rows (a map of reduce,
such as row sums) gets a kernel with one block per row, chosen on the host when the
rows are long; short rows keep the map's kernel with one thread per row.

With a thread per row, a warp reads 32 rows at once, 32 addresses a row apart: for long
rows that wastes most of each memory transaction, and there may be too few rows to
fill the GPU. With a block per row, the block's threads read consecutive elements of
their row (coalesced; by 16-byte vector loads where the operator commutes and the row is
contiguous and aligned), fold them, and combine their values in the block (shuffles and
shared memory); every thread gets the result and runs the rest of the lambda (its scalar
code is cheap and the same in every thread), and thread 0 writes the row's results.
Blocks take rows in a block-stride loop, so any row count works with a capped grid.

Eligible lambdas hold only scalar code (arith, math, mem.size) and reductions of rank-1
rows with scalar results, and yield scalars. (A warp per row for rows of 32 to 127
elements is the missing middle strategy.)
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, SymbolRefAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem, soacc_gpu
from soacc.lowering.gpu_cooperation import block_id, block_reduce, thread_ids
from soacc.lowering.gpu_reduce import all_vectorizable, common_vector_width, fold_vectors
from soacc.lowering.kernel_body import (
    MAX_BLOCKS,
    THREADS_PER_BLOCK,
    KernelBody,
    Row,
    captured_values,
    index_constant,
    kernel_function,
)

BLOCK_PER_ROW_FROM = 128
"""Rows at least this long get a block each (below it, most of a block's threads idle)."""


def nested_reductions(op: mem.MapOp) -> list[mem.ReduceOp] | None:
    """The lambda's reductions when the map is a segmented reduction this strategy
    handles, else None."""
    lam = op.body.block
    reductions: list[mem.ReduceOp] = []
    if any(isinstance(o.type, MemRefType) and o.type.get_num_dims() > 1 for o in op.outputs):
        return None
    for o in lam.ops:
        if isinstance(o, mem.ReduceOp) and not o.outputs and all(v.type.get_num_dims() == 1 for v in o.inputs):
            reductions.append(o)
        elif isinstance(o, mem.YieldOp):
            if any(isinstance(v.type, MemRefType) for v in o.operands):
                return None
        elif isinstance(o, mem.SizeOp) or (o.dialect_name() in ("arith", "math") and not o.regions):
            continue
        else:
            return None
    return reductions or None


def build_block_per_row_kernel(op: mem.MapOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, *op.outputs]
    k = len(op.inputs)
    lam = op.body.block

    def build(kb: KernelBody, params, extra) -> None:
        (rows,) = extra
        inputs = params[len(captured) : len(captured) + k]
        outputs = params[len(captured) + k :]
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        blocks = kb.op(gpu.GridDimOp(x))

        def row_body(row: SSAValue) -> None:
            for param, view in zip(lam.args[:k], inputs):
                kb.values[param] = kb.element_or_row(Row(view, ()), row)
            for o in lam.ops:
                if isinstance(o, mem.ReduceOp):
                    _cooperative_reduce(kb, o)
                elif isinstance(o, mem.YieldOp):
                    results = [kb.value(v) for v in o.operands]
                    tid, _, _ = thread_ids(kb)
                    first = kb.op(arith.CmpiOp(tid, kb.constant(0), "eq"))

                    def store() -> None:
                        for value, out in zip(results, outputs):
                            kb.b.insert(memref.StoreOp.get(value, out, [row]))

                    kb.when(first, store)
                else:
                    kb.translate(o)

        kb.range_loop(block_id(kb), rows, blocks, row_body)

    kernel = kernel_function(name, operands, [("rows", IndexType())], build)
    return kernel, operands


def _cooperative_reduce(kb: KernelBody, op: mem.ReduceOp) -> None:
    """The block's threads fold the row together; every thread gets the result."""
    rows = [kb.row(v) for v in op.inputs]
    n = kb.dim(rows[0], 0)
    neutral = [kb.value(v) for v in op.neutral]
    tid, _, _ = thread_ids(kb)
    threads = kb.constant(THREADS_PER_BLOCK)

    def combine(left, right):
        return kb.apply_operator(op.body, left, right)

    def step(j, *acc):
        return combine(list(acc), [kb.element_or_row(r, j) for r in rows])

    width = common_vector_width([r.view for r in rows])
    if op.commutative is not None and width is not None and all(r.rank == 1 for r in rows):
        views = [_row_view(kb, r) for r in rows]
        acc = kb.when(
            all_vectorizable(kb, views),
            lambda: fold_vectors(kb, combine, views, n, neutral, width, tid, threads),
            lambda: kb.range_loop(tid, n, threads, step, neutral),
            [v.type for v in neutral],
        )
    elif op.commutative is not None:
        acc = kb.range_loop(tid, n, threads, step, neutral)
    else:  # thread t folds a contiguous part, so the order is kept
        per_thread = kb.op(arith.CeilDivUIOp(n, threads))
        first = kb.op(arith.MinUIOp(kb.op(arith.MuliOp(tid, per_thread)), n))
        last = kb.op(arith.MinUIOp(kb.op(arith.AddiOp(first, per_thread)), n))
        acc = kb.range_loop(first, last, kb.constant(1), step, neutral)
    results = block_reduce(kb, acc, combine, neutral, broadcast=True)
    for old, new in zip(op.results_, results):
        kb.values[old] = new


def _row_view(kb: KernelBody, row: Row) -> SSAValue:
    """A rank-1 row as a rank-1 view value."""
    if not row.prefix:
        return row.view
    t = row.view.type
    view_type = mem.view_type(t.element_type, [t.get_shape()[-1]], mem.space_of(t))
    return kb.op(soacc_gpu.RowOp(row.view, list(row.prefix), view_type))


def lower_segmented_map(op: mem.MapOp, name: str, b: Builder, add_kernel, thread_per_row) -> bool:
    """Lowers a segmented-reduction map with both strategies and a host-side choice by
    row length; False (nothing done) when the map is not one."""
    from soacc.lowering.kernel_scratch import _HostEvaluator, _NotOnHost

    reductions = nested_reductions(op)
    if reductions is None:
        return False
    try:
        length = _HostEvaluator(b, set(op.walk())).size(reductions[0].inputs[0], 0)
    except _NotOnHost:
        return False
    kernel, operands = build_block_per_row_kernel(op, f"{name}_block_per_row")
    add_kernel(kernel)
    rows = b.insert(mem.SizeOp(op.inputs[0], 0)).result
    long_rows = b.insert(arith.CmpiOp(length, index_constant(b, BLOCK_PER_ROW_FROM), "uge")).result

    def block_per_row(inner: Builder) -> None:
        one = index_constant(inner, 1)
        blocks = inner.insert(arith.MaxUIOp(inner.insert(arith.MinUIOp(rows, index_constant(inner, MAX_BLOCKS))).results[0], one)).results[0]
        inner.insert(
            gpu.LaunchFuncOp(
                SymbolRefAttr("kernels", [kernel.sym_name.data]),
                [blocks, one, one],
                [index_constant(inner, THREADS_PER_BLOCK), one, one],
                kernelOperands=[*operands, rows],
            )
        )

    then_block, else_block = Block(), Block()
    block_per_row(Builder(InsertPoint.at_end(then_block)))
    then_block.add_op(scf.YieldOp())
    thread_per_row(Builder(InsertPoint.at_end(else_block)))
    else_block.add_op(scf.YieldOp())
    b.insert(scf.IfOp(long_rows, [], Region(then_block), Region(else_block)))
    return True

