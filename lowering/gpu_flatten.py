"""Perfectly nested maps as one kernel over the product of their rows (issue 21's
flattening, the first rule of incremental flattening: Henriksen et al., "Incremental
flattening for nested data parallelism", PPoPP 2019).

A map is *perfectly nested* in another where the outer lambda only computes scalars
(arith and math ops, array sizes) and then runs the inner map, which writes the lambda's
output rows in place, and yields them; the inner map's row count must be the same for
every outer row (it is computed on the host, before the launch: a row of an outer
input or output, or an array from outside the nest). Then the nest's work is the
product space of the levels' rows, and a thread per element of it runs each level's
scalar code with its own indices, down to the innermost lambda, which it runs whole.
The scalar code of the outer levels is run by every thread of the row (cheap beside
the sequential loop over the inner rows it replaces: a 3-D stencil as a map of maps of
maps was 512² threads each looping over 512 elements; it is now 512³ threads).

Flattened indices are taken apart innermost first (the innermost varies fastest
between neighbouring threads: their accesses coalesce as the sequential loop's did).

Where the outer lambda reads memory before the inner map (a read a thread of the
row could make after another thread of the same row wrote there), allocates, or does
more than one thing, the nest is not perfect and keeps the other strategies
(gpu_segmented.py, or a thread per row). So does a nest that reads memory its outputs
may share (memory-reuse may have a map write a row it reads, which a thread per row
does in order, but threads of one row would not), unless the thread that writes an
element only reads that element of it (`flattenable`)."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, scf
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerType, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem
from soacc.dialects.shared.utils import captured_values
from soacc.lowering.kernel_body import THREADS_PER_BLOCK, KernelBody, Row, index_constant
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.gpu_segmented import may_overlap_outputs
from soacc.lowering.kernel_scratch import _HostEvaluator, _NotOnHost, grid_blocks
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.symbolic import Symbolic

i32 = IntegerType(32)

NARROW_BELOW = 1 << 31
"""Products of fewer elements than this are taken apart in 32-bit arithmetic."""

FLAT_SUFFIX = "_flat"
"""The name suffix of a flattened nest's kernel (the report says how it shares out)."""


def perfect_nest(op: mem.MapOp) -> list[mem.MapOp] | None:
    """`op` and the maps perfectly nested in it, outermost first (module docstring);
    None where no map is."""
    if any(isinstance(inner, mem.AllocOp) for inner in op.walk()):
        return None  # (a thread's own arrays need scratch memory: the other strategies)
    levels = [op]
    while (inner := _inner_map(levels[-1])) is not None:
        levels.append(inner)
    return levels if len(levels) > 1 else None


def flattenable(levels: list[mem.MapOp], aliases: MemoryAliases, symbolic: Symbolic) -> bool:
    """Whether the perfect nest `levels` (perfect_nest) may be flattened: no array it
    reads (its inputs, the arrays its lambdas read from outside) may share bytes with
    its outputs, unless each thread reads just the element it writes. Reads level-2
    code: asked before anything is lowered."""
    op = levels[0]
    captured = [v for v in captured_values(op) if isinstance(v.type, MemRefType) and v not in op.outputs]
    if any(may_overlap_outputs(op, v, aliases, symbolic) for v in captured):
        return False
    lam = op.body.block
    return not any(
        not _element_by_element(param, levels[1:]) and may_overlap_outputs(op, v, aliases, symbolic)
        for param, v in zip(lam.args, op.inputs)
    )


def _element_by_element(param: SSAValue, inner_levels: list[mem.MapOp]) -> bool:
    """Whether a lambda's input row is only handed down the nest as an inner map's
    input, to the innermost lambda's element: the thread that writes an element reads
    only that element of it (where memory-reuse put the output in the input's memory,
    it made sure they are the same bytes, as for a thread per row)."""
    if not inner_levels:
        return not isinstance(param.type, MemRefType)
    inner = inner_levels[0]
    uses = list(param.uses)
    if not uses or not all(use.operation is inner and use.index < len(inner.inputs) for use in uses):
        return False
    return all(_element_by_element(inner.body.block.args[use.index], inner_levels[1:]) for use in uses)


def _inner_map(op: mem.MapOp) -> mem.MapOp | None:
    """The map perfectly nested in `op`'s lambda, if there is one."""
    block = op.body.block
    ops = list(block.ops)
    if len(ops) < 2 or not isinstance(ops[-2], mem.MapOp):
        return None
    inner, terminator = ops[-2], ops[-1]
    if not all(_scalar(o) for o in ops[:-2]):
        return None
    k = len(op.inputs)
    array_outs = [o for o in op.outputs if o.type.get_num_dims() > 1]
    if len(array_outs) != len(op.outputs):
        return None  # (a scalar output is the lambda's own value, not the inner map's)
    out_params = list(block.args[k : k + len(array_outs)])
    if list(inner.outputs) != out_params or list(terminator.operands) != out_params:
        return None
    # the inner map's rows: row parameters of the outer lambda, or arrays from outside
    for v in inner.inputs:
        if not (v in block.args[:k] or _outside(v, op)):
            return None
    return inner


def _scalar(op: Operation) -> bool:
    """Code an outer level may run in every thread of its row: pure scalar arithmetic
    and array sizes (no reads of memory, no regions)."""
    if op.regions or any(isinstance(r.type, MemRefType | mem.BlockType) for r in op.results):
        return False
    return op.dialect_name() in ("arith", "math") or isinstance(op, mem.SizeOp)


def _outside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    inner = owner if isinstance(owner, Operation) else owner.parent_op()
    while inner is not None:
        if inner is op:
            return False
        inner = inner.parent_op()
    return True


def lower_flattened(levels: list[mem.MapOp], name: str, b: Builder, add_kernel) -> bool:
    """Builds the nest's kernel and launches it over the product of the levels' rows
    (False, nothing done, where an inner row count cannot be computed on the host)."""
    op = levels[0]
    evaluator = _HostEvaluator(b, set(op.walk()))
    try:
        sizes = [evaluator.size(level.rows_of, 0) for level in levels[1:]]
    except _NotOnHost:
        return False
    total = b.insert(mem.SizeOp(op.rows_of, 0)).result
    for size in sizes:
        total = b.insert(arith.MuliOp(total, size)).results[0]
    kernel, operands = build_flat_kernel(levels, f"{name}{FLAT_SUFFIX}")
    add_kernel(kernel)
    needed = b.insert(arith.CeilDivUIOp(total, index_constant(b, THREADS_PER_BLOCK))).results[0]
    launch(b, kernel.sym_name.data, grid_blocks(b, needed, None), [*operands, total, *sizes])
    return True


def build_flat_kernel(levels: list[mem.MapOp], name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """The kernel of a perfect nest, and the host values to launch it with (the
    captured values, the outer map's inputs and outputs; then the product of the rows,
    then each inner level's row count)."""
    op = levels[0]
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, *op.outputs]
    block = Block(arg_types=[*[v.type for v in operands], IndexType(), *[IndexType() for _ in levels[1:]]])
    params = block.args[: len(operands)]
    total = block.args[len(operands)]
    sizes = list(block.args[len(operands) + 1 :])
    for param, v in zip(params, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    total.name_hint = "elements"
    for depth, size in enumerate(sizes, start=1):
        size.name_hint = f"rows{depth}"
    b = Builder(InsertPoint.at_end(block))
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    first = b.insert(gpu.GlobalIdOp(x)).result
    threads = b.insert(arith.MuliOp(b.insert(gpu.GridDimOp(x)).result, b.insert(gpu.BlockDimOp(x)).result)).results[0]
    values = dict(zip(operands, params))
    # (64-bit division is a long software sequence on the GPU: where every element's
    # number fits 31 bits, which is the common case, the indices are taken apart in
    # 32-bit arithmetic, in a copy of the loop)
    narrow = b.insert(arith.CmpiOp(total, index_constant(b, NARROW_BELOW), "ult")).result
    loops = []
    for in_32_bits in (True, False):
        loop_block = Block()
        inner = Builder(InsertPoint.at_end(loop_block))
        narrowed = [inner.insert(arith.IndexCastOp(size, i32)).result for size in sizes] if in_32_bits else sizes
        element_block = Block(arg_types=[IndexType()])
        element_block.args[0].name_hint = "element"
        kb = KernelBody(Builder(InsertPoint.at_end(element_block)), dict(values))
        _element(kb, levels, captured, params, element_block.args[0], narrowed, in_32_bits)
        kb.b.insert(scf.YieldOp())
        inner.insert(scf.ForOp(first, total, threads, [], Region(element_block)))
        inner.insert(scf.YieldOp())
        loops.append(Region(loop_block))
    b.insert(scf.IfOp(narrow, [], loops[0], loops[1]))
    b.insert(gpu.ReturnOp([]))
    return gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True), operands


def _element(
    kb: KernelBody, levels: list[mem.MapOp], captured: list, params, element: SSAValue, sizes: list[SSAValue], in_32_bits: bool
) -> None:
    """One element of the product space: its index at each level, innermost first (it
    varies fastest), then each level's lambda down the nest."""
    indices: list[SSAValue] = []
    rest = kb.op(arith.IndexCastOp(element, i32)) if in_32_bits else element
    for size in reversed(sizes):
        indices.insert(0, kb.op(arith.RemUIOp(rest, size)))
        rest = kb.op(arith.DivUIOp(rest, size))
    indices.insert(0, rest)
    if in_32_bits:
        indices = [kb.op(arith.IndexCastOp(i, IndexType())) for i in indices]
    op = levels[0]
    k = len(op.inputs)
    ins = [Row(p, ()) for p in params[len(captured) : len(captured) + k]]
    outs = [Row(p, ()) for p in params[len(captured) + k :]]
    for depth, level in enumerate(levels):
        lam = level.body.block
        i = indices[depth]
        _bind(kb, level, ins, outs, i)
        if depth + 1 < len(levels):
            inner = levels[depth + 1]
            for o in list(lam.ops)[:-2]:
                kb.translate(o)
            ins = [kb.row(v) for v in inner.inputs]
            outs = [kb.row(v) for v in inner.outputs]
            continue
        kb.translate_block(lam)
        for value, out in zip(lam.last_op.operands, outs):
            kb.store(kb.values[value], out, i, level)


def _bind(kb: KernelBody, level: mem.MapOp, ins: list[Row], outs: list[Row], i: SSAValue) -> None:
    """The lambda's parameters for row i: its input rows (or elements), its array
    outputs' rows, its row number."""
    lam = level.body.block
    k = len(level.inputs)
    for param, source in zip(lam.args[:k], ins):
        kb.values[param] = kb.element_or_row(source, i)
    for param, out in zip(lam.args[k:], [o for o in outs if o.rank > 1]):
        kb.values[param] = Row(out.view, (*out.prefix, i))
    if level.indexed is not None:
        kb.values[lam.args[-1]] = i


__all__ = ["FLAT_SUFFIX", "build_flat_kernel", "flattenable", "lower_flattened", "perfect_nest"]
