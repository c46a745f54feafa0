"""Kernels for a host-level `mem.reduce` or `mem.redomap` (the fused map-reduce of
soac-fusion: each element is what the map lambda yields on a row, and its mapped values
are written on the way; kernel_elements.py): one pass over the data, then a tiny pass
over one partial result per block.

Pass 1 (`reduce<k>_partials`), on at most REDUCE_BLOCKS blocks:
- a commutative operator (the `commutative` flag): every thread folds the elements of
  a grid-stride loop (coalesced: consecutive threads read consecutive elements), four
  independent loads per iteration so that a thread keeps several reads in flight;
  where every input is contiguous and 16-byte aligned (checked in the kernel), each
  load is a 16-byte vector of 4 (or 2) elements, VECTOR_UNROLL vectors per iteration;
- any other operator: block b takes a contiguous chunk of the input and thread t a
  contiguous part of that chunk, so every fold keeps the input's order.
Then the block combines its threads' values in thread order (warp shuffles, then one
value per warp through shared memory) and thread 0 writes the block's partial.

Pass 2 (`reduce<k>_final`), one block: the partials in order, as a non-commutative
operator, into the 0-d output views. An empty input gives the neutral elements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, SymbolRefAttr
from xdsl.ir import SSAValue

from soacc.dialects.shared.utils import captured_values
from soacc.dialects import mem, soacc_gpu
from soacc.lowering.gpu_epilogue import Epilogue
from soacc.lowering.kernel_elements import Elements, combiner, is_commutative
from soacc.lowering.kernel_scratch import bind_scratch_per_thread, plan_scratch, scratch_operands, scratch_parameters
from soacc.lowering.gpu_cooperation import block_id, block_reduce, thread_ids
from soacc.lowering.kernel_body import (
    THREADS_PER_BLOCK,
    CannotLower,
    KernelBody,
    gpu_body_outputs,
    index_constant,
    index_value,
    kernel_function,
)

REDUCE_BLOCKS = 1024
"""Blocks of pass 1: enough to fill an H100 (132 SMs x 8 blocks of 256 threads); more
would only lengthen pass 2."""

UNROLL = 4
VECTOR_UNROLL = 4


def host_temporary(b: Builder, element_type, count: SSAValue, space: mem.MemorySpaceAttr) -> SSAValue:
    """A new rank-1 device view of `count` elements (its block dies with it)."""
    size = index_constant(b, element_type.compile_time_size)
    nbytes = b.insert(arith.MuliOp(size, count)).results[0]
    block = b.insert(mem.AllocOp(nbytes, space)).results[0]
    block.name_hint = "partials_mem"
    view = b.insert(mem.ViewOp(block, index_constant(b, 0), [count], mem.view_type(element_type, [DYNAMIC_INDEX], space))).results[0]
    view.name_hint = "partials"
    return view


def launch(
    b: Builder, kernel: str, blocks: SSAValue, operands: Sequence[SSAValue], threads_per_block: int | SSAValue = THREADS_PER_BLOCK
) -> None:
    """A one-dimensional launch of `blocks` blocks of `threads_per_block` threads."""
    one = index_constant(b, 1)
    b.insert(
        gpu.LaunchFuncOp(
            SymbolRefAttr("kernels", [kernel]),
            [blocks, one, one],
            [index_value(b, threads_per_block), one, one],
            kernelOperands=list(operands),
        )
    )


Operands = Callable[[SSAValue], list[SSAValue]]
"""operands(i): the values a thread folds for element i."""
Group = Callable[[SSAValue], list[list[SSAValue]]]
"""group(at): the values of elements at .. at + width - 1, by vector loads."""


def fold_contiguous(kb: KernelBody, combine, operands: Operands, start: SSAValue, end: SSAValue, neutral: Sequence[SSAValue]) -> list[SSAValue]:
    """This thread's ordered fold of elements [start, end) split evenly over the block:
    thread t folds a contiguous part of it."""
    tid, _, _ = thread_ids(kb)
    threads = kb.constant(THREADS_PER_BLOCK)
    length = kb.op(arith.SubiOp(end, start))
    per_thread = kb.op(arith.CeilDivUIOp(length, threads))
    mine = kb.op(arith.AddiOp(start, kb.op(arith.MuliOp(tid, per_thread))))
    first = kb.op(arith.MinUIOp(mine, end))
    last = kb.op(arith.MinUIOp(kb.op(arith.AddiOp(first, per_thread)), end))
    return kb.range_loop(first, last, kb.constant(1), lambda i, *acc: combine(list(acc), operands(i)), neutral)


def _fold_grid_stride(kb: KernelBody, combine, operands: Operands, n: SSAValue, neutral: Sequence[SSAValue]) -> list[SSAValue]:
    """This thread's fold of elements gid, gid + T, ... (any order: the operator is
    commutative), UNROLL independent loads at a time."""
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    gid = kb.op(gpu.GlobalIdOp(x))
    threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
    stride = kb.op(arith.MuliOp(threads, kb.constant(UNROLL)))
    # whole groups: gid + j*T for j < UNROLL all inside n while base + (UNROLL-1)*T < n
    span = kb.op(arith.MuliOp(threads, kb.constant(UNROLL - 1)))
    limit = kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(n, span)), span))

    def group(i, *acc):
        loaded = []
        for j in range(UNROLL):
            at = i if j == 0 else kb.op(arith.AddiOp(i, kb.op(arith.MuliOp(threads, kb.constant(j)))))
            loaded.append(operands(at))
        # a balanced tree keeps the four loads independent of the running value
        pair0 = combine(loaded[0], loaded[1])
        pair1 = combine(loaded[2], loaded[3])
        return combine(list(acc), combine(pair0, pair1))

    acc = kb.range_loop(gid, limit, stride, group, neutral)
    # the rest: from the first index the groups did not take
    groups_done = kb.op(arith.CeilDivUIOp(kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(limit, gid)), gid)), stride))
    rest = kb.op(arith.AddiOp(gid, kb.op(arith.MuliOp(groups_done, stride))))
    return kb.range_loop(rest, n, threads, lambda i, *acc: combine(list(acc), operands(i)), acc)


def fold_vectors(kb: KernelBody, combine, group: Group, operands: Operands, n: SSAValue, neutral: Sequence[SSAValue], width: int, first: SSAValue, step: SSAValue) -> list[SSAValue]:
    """A fold in any order (a commutative operator) of elements 0..n-1 by vector groups:
    group g is elements width*g .. width*g + width - 1; this thread folds groups first,
    first + step, ..., VECTOR_UNROLL at a time (VECTOR_UNROLL a power of 2), then the
    elements after the last whole group (first, first + step, ... of them) one at a
    time."""
    w = kb.constant(width)
    groups = kb.op(arith.DivUIOp(n, w))

    def group_values(g: SSAValue) -> list[SSAValue]:
        """The combination of group g's elements (a balanced tree)."""
        elements = group(kb.op(arith.MuliOp(g, w)))
        while len(elements) > 1:
            elements = [combine(elements[j], elements[j + 1]) for j in range(0, len(elements), 2)]
        return elements[0]

    stride = kb.op(arith.MuliOp(step, kb.constant(VECTOR_UNROLL)))
    span = kb.op(arith.MuliOp(step, kb.constant(VECTOR_UNROLL - 1)))
    limit = kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(groups, span)), span))

    def unrolled(g, *acc):
        groups_here = [group_values(g if j == 0 else kb.op(arith.AddiOp(g, kb.op(arith.MuliOp(step, kb.constant(j)))))) for j in range(VECTOR_UNROLL)]
        while len(groups_here) > 1:  # a balanced tree keeps the loads independent
            groups_here = [combine(groups_here[j], groups_here[j + 1]) for j in range(0, len(groups_here), 2)]
        return combine(list(acc), groups_here[0])

    acc = kb.range_loop(first, limit, stride, unrolled, neutral)
    done = kb.op(arith.CeilDivUIOp(kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(limit, first)), first)), stride))
    rest = kb.op(arith.AddiOp(first, kb.op(arith.MuliOp(done, stride))))
    acc = kb.range_loop(rest, groups, step, lambda g, *acc: combine(list(acc), group_values(g)), acc)
    tail = kb.op(arith.AddiOp(kb.op(arith.MuliOp(groups, w)), first))
    return kb.range_loop(tail, n, step, lambda i, *acc: combine(list(acc), operands(i)), acc)


def all_vectorizable(kb: KernelBody, views: Sequence[SSAValue]) -> SSAValue:
    aligned = kb.op(soacc_gpu.VectorizableOp(views[0]))
    for v in views[1:]:
        aligned = kb.op(arith.AndIOp(aligned, kb.op(soacc_gpu.VectorizableOp(v))))
    return aligned


def _fold_commutative(kb: KernelBody, elements: Elements, combine, ins, mapped, n: SSAValue, neutral: Sequence[SSAValue]) -> list[SSAValue]:
    """This thread's fold in any order: by vectors where every view allows them."""
    operands = lambda i: elements.at(kb, ins, mapped, i)  # noqa: E731
    width = elements.vector_width()
    if width is None:
        return _fold_grid_stride(kb, combine, operands, n, neutral)
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)

    def by_vectors() -> list[SSAValue]:
        gid = kb.op(gpu.GlobalIdOp(x))
        threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
        group = lambda at: elements.group_at(kb, ins, mapped, at, width)  # noqa: E731
        return fold_vectors(kb, combine, group, operands, n, neutral, width, gid, threads)

    types = [v.type for v in neutral]
    aligned = all_vectorizable(kb, elements.vector_views(ins, mapped))
    return kb.when(aligned, by_vectors, lambda: _fold_grid_stride(kb, combine, operands, n, neutral), types)


def lower_reduce(op: mem.ReduceOp | mem.RedomapOp, name: str, b: Builder, add_kernel, epilogue: Epilogue | None = None) -> None:
    """Replaces a host-level mem.reduce or mem.redomap (b is before it) by two launches;
    an `epilogue` gpu_body runs on the final pass's storing thread after the reduced
    values are stored (the caller then erases it)."""
    if isinstance(op, mem.ReduceOp) and any(v.type.get_num_dims() != 1 for v in op.inputs):
        raise CannotLower(op, "reduces arrays of rows at host level; only arrays of scalars are supported so far")
    if isinstance(op, mem.RedomapOp) and op.results_:
        raise CannotLower(op, "at host level must write its reduced values to outputs")
    elements = Elements.of(op)
    outputs = list(op.reduce_outputs) if isinstance(op, mem.RedomapOp) else list(op.outputs)
    # every value the lambdas read, inputs and outputs too: the final pass has no other
    # parameter for an input its operator reads (a value read at a device position)
    captured = list(captured_values(op))
    element_types = [v.type for v in op.neutral]
    space = mem.space_of(outputs[0].type)
    n = elements.host_rows(b)
    wanted = b.insert(arith.CeilDivUIOp(n, index_constant(b, THREADS_PER_BLOCK))).results[0]
    capped = b.insert(arith.MinUIOp(wanted, index_constant(b, REDUCE_BLOCKS))).results[0]
    blocks = b.insert(arith.MaxUIOp(capped, index_constant(b, 1))).results[0]
    partials = [host_temporary(b, t, blocks, space) for t in element_types]
    commutative = is_commutative(op)
    plan = plan_scratch(op, b)  # what a redomap's map lambda allocates, per thread
    c, k, i, m = len(captured), len(op.neutral), len(elements.inputs), len(elements.mapped)

    def partial_pass(kb: KernelBody, params, extra) -> None:
        neutral = params[c : c + k]
        ins = params[c + k : c + k + i]
        mapped = params[c + k + i : c + k + i + m]
        outs = params[c + k + i + m :]
        count, *scratch = extra
        bind_scratch_per_thread(kb, plan, scratch)
        combine = combiner(kb, op)
        if commutative:
            acc = _fold_commutative(kb, elements, combine, ins, mapped, count, neutral)
        else:
            x = gpu.DimensionAttr(gpu.DimensionEnum.X)
            chunk = kb.op(arith.CeilDivUIOp(count, kb.op(gpu.GridDimOp(x))))
            start = kb.op(arith.MinUIOp(kb.op(arith.MuliOp(block_id(kb), chunk)), count))
            end = kb.op(arith.MinUIOp(kb.op(arith.AddiOp(start, chunk)), count))
            acc = fold_contiguous(kb, combine, lambda j: elements.at(kb, ins, mapped, j), start, end, neutral)
        total = block_reduce(kb, acc, combine, neutral)
        tid, _, _ = thread_ids(kb)
        first = kb.op(arith.CmpiOp(tid, kb.constant(0), "eq"))
        bid = block_id(kb)
        kb.when(first, lambda: _store_each(kb, total, outs, [bid]))

    def final_pass(kb: KernelBody, params, extra) -> None:
        neutral = params[c : c + k]
        parts = params[c + k : c + 2 * k]
        outs = params[c + 2 * k :]
        (count,) = extra
        combine = combiner(kb, op)
        loads = lambda j: [kb.op(memref.LoadOp.get(p, [j])) for p in parts]  # noqa: E731
        acc = fold_contiguous(kb, combine, loads, kb.constant(0), count, neutral)
        total = block_reduce(kb, acc, combine, neutral)
        tid, _, _ = thread_ids(kb)
        first = kb.op(arith.CmpiOp(tid, kb.constant(0), "eq"))

        def store() -> None:
            _store_each(kb, total, outs, [])
            if epilogue is not None:
                run_epilogue(kb, epilogue, total)

        kb.when(first, store)

    operands1 = [*captured, *op.neutral, *elements.inputs, *elements.mapped, *partials]
    extra = [("count", IndexType()), *scratch_parameters(op, plan)]
    first_name = add_kernel(kernel_function(f"{name}_partials", operands1, extra, partial_pass))
    launch(b, first_name, blocks, [*operands1, n, *scratch_operands(b, plan, blocks, op)])
    operands2 = [*captured, *op.neutral, *partials, *outputs]
    if epilogue is not None:
        for hoisted in epilogue.hoisted:  # the body's outputs must exist at the launch
            hoisted.detach()
            b.insert(hoisted)
        operands2 += [v for v in [*epilogue.params, *gpu_body_outputs(epilogue.body)] if v not in operands2]
    second_name = add_kernel(kernel_function(f"{name}_final", operands2, [("count", IndexType())], final_pass))
    launch(b, second_name, index_constant(b, 1), [*operands2, blocks])


def run_epilogue(kb: KernelBody, epilogue: Epilogue, total: Sequence[SSAValue]) -> None:
    """The gpu_body's statements on this thread: its reads of the reduced values are the
    values this thread just stored, the scalar code between the two is redone, and its
    results go to element 0 of its outputs (as in its own kernel)."""
    for load, j in epilogue.reduced.items():
        kb.values[load] = total[j]
    for op in epilogue.replayed:
        kb.translate(op)
    kb.run_gpu_body(epilogue.body)


def _store_each(kb: KernelBody, values: Sequence[SSAValue], views: Sequence[SSAValue], indices: Sequence[SSAValue]) -> None:
    for v, view in zip(values, views):
        kb.b.insert(memref.StoreOp.get(v, view, list(indices)))
