"""Memory a kernel's threads allocate: each `mem.alloc` inside a kernel's lambdas gets a
slot in one scratch buffer allocated on the host before the launch, one region of the
buffer per thread of the grid (Futhark calls this expansion).

A thread reuses its region for every row it handles (grid-stride) and a slot for every
iteration of the loops around its alloc: an array allocated in a lambda is dead when the
lambda's iteration ends (kernels cannot carry arrays through loops, and rows a lambda
returns are copied out), so one slot per alloc op per thread suffices. The grid of a
kernel with scratch is capped at SCRATCH_BLOCKS blocks, and further so that the buffer
stays within SCRATCH_BUDGET_BYTES (down to one block: a lambda that allocates large
arrays runs on fewer threads rather than failing for want of memory).

The size of each allocation is computed on the host, from values defined outside the
kernel: sizes of rows are sizes of the arrays they are rows of. An allocation whose size
depends on what a thread computes (a value loaded from memory, say) is reported.
The threads' regions are interleaved, as Futhark lays out expanded arrays: byte b of a
slot (a multiple of the element's size e) of thread t of T is at slot * T + b * T + t * e,
so a view of a slot has its strides times T and starts at its thread's element. The
threads of a warp that touch element i of their arrays together touch neighbouring
addresses (one transaction, not 32): a per-thread array is read as fast as an input.
Arrays that share a slot (memory-reuse) each map their bytes so, and, as their bytes are
apart in a thread's slot, their threads' elements stay apart too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from soacc.dialects import mem
from soacc.lowering.kernel_body import MAX_BLOCKS, THREADS_PER_BLOCK, CannotLower, index_constant, index_value

SCRATCH_BLOCKS = 1024
SCRATCH_BUDGET_BYTES = 1 << 31
ALIGNMENT = 16


@dataclass(frozen=True)
class ScratchBlock:
    """A thread's slot for one alloc, inside a kernel: the buffer parameter, where the
    slot starts in it (the slots of all threads interleaved: slot offset * threads), the
    thread and the number of threads."""

    buffer: SSAValue
    slot_start: SSAValue
    thread: SSAValue
    threads: SSAValue


@dataclass
class ScratchPlan:
    allocs: list[mem.AllocOp]
    slot_offsets: list[SSAValue]
    """Host values: each alloc's byte offset in a thread's region."""
    per_thread: SSAValue
    """Host value: the bytes of one thread's region (a multiple of ALIGNMENT)."""


def scratch_blocks(b: Builder, plan: ScratchPlan, needed: SSAValue, threads_per_block: int | SSAValue) -> SSAValue:
    """Host code: the blocks of a launch whose threads need `plan`'s scratch: the
    `needed` blocks, at most SCRATCH_BLOCKS, at most what SCRATCH_BUDGET_BYTES holds,
    at least one."""
    one = index_constant(b, 1)
    per_block = b.insert(arith.MuliOp(plan.per_thread, index_value(b, threads_per_block))).results[0]
    affordable = b.insert(
        arith.DivUIOp(index_constant(b, SCRATCH_BUDGET_BYTES), b.insert(arith.MaxUIOp(per_block, one)).results[0])
    ).results[0]
    capped = b.insert(arith.MinUIOp(needed, index_constant(b, SCRATCH_BLOCKS))).results[0]
    capped = b.insert(arith.MinUIOp(capped, affordable)).results[0]
    return b.insert(arith.MaxUIOp(capped, one)).results[0]


def scratch_allocs(op: Operation) -> list[mem.AllocOp]:
    return [o for o in op.walk() if isinstance(o, mem.AllocOp)]


def plan_scratch(op: Operation, b: Builder) -> ScratchPlan | None:
    """Host code (at b) computing every alloc's slot; None when the kernel allocates nothing."""
    allocs = scratch_allocs(op)
    if not allocs:
        return None
    inside = set(op.walk())
    evaluator = _HostEvaluator(b, inside)
    offsets: list[SSAValue] = []
    total = index_constant(b, 0)
    align = index_constant(b, ALIGNMENT)
    for alloc in allocs:
        try:
            nbytes = evaluator.value(alloc.bytes)
        except _NotOnHost as error:
            raise CannotLower(
                alloc,
                f"allocates memory whose size depends on what a thread computes ({error}); "
                "kernels can only allocate sizes known before the launch",
            ) from None
        rounded = b.insert(arith.MuliOp(b.insert(arith.CeilDivUIOp(nbytes, align)).results[0], align)).results[0]
        offsets.append(total)
        total = b.insert(arith.AddiOp(total, rounded)).results[0]
    return ScratchPlan(allocs, offsets, total)


def scratch_buffer(b: Builder, plan: ScratchPlan, threads: SSAValue, space) -> SSAValue:
    """The host allocation of every thread's region, as a view of i64 words."""
    nbytes = b.insert(arith.MuliOp(plan.per_thread, threads)).results[0]
    block = b.insert(mem.AllocOp(nbytes, space)).results[0]
    block.name_hint = "scratch_mem"
    words = b.insert(arith.DivUIOp(nbytes, index_constant(b, 8))).results[0]
    view = b.insert(mem.ViewOp(block, index_constant(b, 0), [words], mem.view_type(i64, [DYNAMIC_INDEX], space))).results[0]
    view.name_hint = "scratch"
    return view


def _space(op: Operation) -> mem.MemorySpaceAttr:
    """The memory space of the kernel's views: its device."""
    return mem.space_of(next(v for v in op.operands if isinstance(v.type, MemRefType)).type)


def scratch_parameters(op: Operation, plan: ScratchPlan | None) -> list[tuple[str, Attribute]]:
    """The kernel parameters (name, type) that bring `plan`'s scratch memory: the buffer,
    the bytes per thread and each alloc's offset in a thread's region (none without)."""
    if plan is None:
        return []
    buffer = mem.view_type(i64, [DYNAMIC_INDEX], _space(op))
    return [
        ("scratch", buffer),
        ("scratch_threads", IndexType()),
        *[(f"slot{j}", IndexType()) for j in range(len(plan.allocs))],
    ]


def bind_scratch(b: Builder, body, plan: ScratchPlan | None, params: Sequence[SSAValue], thread: SSAValue) -> None:
    """Inside the kernel: each alloc's slot for this thread, for the KernelBody `body` to
    give the alloc (and its views, KernelBody.scratch_view)."""
    if plan is None:
        return
    buffer, threads, *slots = params
    for alloc, slot in zip(plan.allocs, slots):
        start = b.insert(arith.MuliOp(slot, threads)).results[0]
        body.scratch[alloc] = ScratchBlock(buffer, start, thread, threads)


def bind_scratch_per_thread(kb, plan: ScratchPlan | None, params: Sequence[SSAValue]) -> None:
    """bind_scratch for this thread of the grid (its global id), where there is a plan."""
    if plan is not None:
        bind_scratch(kb.b, kb, plan, params, kb.op(gpu.GlobalIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))))


def grid_blocks(b: Builder, needed: SSAValue, plan: ScratchPlan | None) -> SSAValue:
    """Host code: the blocks of a grid-stride launch that wants `needed` blocks: at most
    MAX_BLOCKS, or with scratch memory what scratch_blocks allows; at least one."""
    if plan is not None:
        return scratch_blocks(b, plan, needed, THREADS_PER_BLOCK)
    capped = b.insert(arith.MinUIOp(needed, index_constant(b, MAX_BLOCKS))).results[0]
    return b.insert(arith.MaxUIOp(capped, index_constant(b, 1))).results[0]


def scratch_operands(
    b: Builder, plan: ScratchPlan | None, blocks: SSAValue, op: Operation, threads_per_block: int | SSAValue = THREADS_PER_BLOCK
) -> list[SSAValue]:
    """On the host: the launch operands for scratch_parameters, the buffer allocated for
    `blocks` blocks of `threads_per_block` threads."""
    if plan is None:
        return []
    threads = b.insert(arith.MuliOp(blocks, index_value(b, threads_per_block))).results[0]
    return [scratch_buffer(b, plan, threads, _space(op)), threads, *plan.slot_offsets]


class _NotOnHost(Exception):
    pass


class _HostEvaluator:
    """Recomputes a value of a kernel's lambda on the host, before the kernel."""

    def __init__(self, b: Builder, inside: set[Operation]):
        self.b = b
        self.inside = inside
        self.memo: dict[SSAValue, SSAValue] = {}

    def is_outside(self, v: SSAValue) -> bool:
        owner = v.owner
        if isinstance(owner, Operation):
            return owner not in self.inside
        assert isinstance(owner, Block)
        return owner.parent_op() not in self.inside

    def value(self, v: SSAValue) -> SSAValue:
        if self.is_outside(v):
            return v
        if v in self.memo:
            return self.memo[v]
        owner = v.owner
        if isinstance(owner, mem.SizeOp):
            result = self.size(owner.view, owner.dim.value.data)
        elif isinstance(owner, Operation) and owner.dialect_name() == "arith" and not owner.regions and len(owner.results) == 1:
            clone = owner.clone(value_mapper={o: self.value(o) for o in owner.operands})
            self.b.insert(clone)
            result = clone.results[0]
        else:
            what = owner.name if isinstance(owner, Operation) else "a lambda parameter"
            raise _NotOnHost(f"it uses {what}")
        self.memo[v] = result
        return result

    def size(self, view: SSAValue, dim: int) -> SSAValue:
        """Dimension `dim` of a view inside the kernel, on the host."""
        if self.is_outside(view):
            return self.b.insert(mem.SizeOp(view, dim)).result
        t = view.type
        assert isinstance(t, MemRefType)
        static = t.get_shape()[dim]
        if static != DYNAMIC_INDEX:
            return index_constant(self.b, static)
        owner = view.owner
        if isinstance(view, BlockArgument):
            source = _row_source(view)
            if source is None:
                raise _NotOnHost("the size of an array parameter it cannot trace")
            return self.size(source, dim + 1)
        if isinstance(owner, mem.ViewOp):
            dynamic = [d for d, s in enumerate(t.get_shape()) if s == DYNAMIC_INDEX]
            return self.value(owner.sizes[dynamic.index(dim)])
        raise _NotOnHost(f"the size of an array made by {owner.name}")


def _row_source(arg: BlockArgument) -> SSAValue | None:
    """The array whose rows a lambda parameter ranges over."""
    op = arg.block.parent_op()
    i = arg.index
    if isinstance(op, mem.MapOp):
        k = len(op.inputs)
        if i < k:
            return op.inputs[i]
        array_outs = [o for o in op.outputs if isinstance(o.type, MemRefType) and o.type.get_num_dims() > 1]
        return array_outs[i - k] if i - k < len(array_outs) else None
    if isinstance(op, mem.ReduceOp | mem.ScanOp):
        return op.inputs[i % len(op.inputs)]
    if isinstance(op, mem.RedomapOp | mem.ScanomapOp | mem.ScatteromapOp | mem.HistomapOp) and arg.block is op.map_body.block:
        k = len(op.inputs)
        if i < k:
            return op.inputs[i]
        mapped = op.mapped_outputs if isinstance(op, mem.RedomapOp) else op.outputs
        array_outs = [o for o in mapped if isinstance(o.type, MemRefType) and o.type.get_num_dims() > 1]
        return array_outs[i - k] if i - k < len(array_outs) else None
    return None



