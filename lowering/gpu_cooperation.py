"""Cooperation between the threads of a block, as kernel code: reductions and scans
within a warp (shuffles) and within a block (shuffles, then one value per warp through
shared memory). Every combination keeps the order of the operands, so these work for
any associative operator, commutative or not, and for tuples of values (an operator
over k-tuples is `combine(left, right) -> k values`).

Blocks have THREADS_PER_BLOCK threads (a multiple of the warp size); every thread of
the block must reach each of these calls (they shuffle and synchronise).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, i32
from xdsl.ir import SSAValue

from soacc.dialects import soacc_gpu
from soacc.lowering.kernel_body import THREADS_PER_BLOCK, KernelBody

WARP = 32
WARPS = THREADS_PER_BLOCK // WARP

Combine = Callable[[Sequence[SSAValue], Sequence[SSAValue]], list[SSAValue]]


def thread_ids(kb: KernelBody) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(thread index in the block, lane in the warp, warp in the block)."""
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    tid = kb.op(gpu.ThreadIdOp(x))
    lane = kb.op(arith.RemUIOp(tid, kb.constant(WARP)))
    warp = kb.op(arith.DivUIOp(tid, kb.constant(WARP)))
    return tid, lane, warp


def block_id(kb: KernelBody) -> SSAValue:
    return kb.op(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))


def shuffle(kb: KernelBody, mode: str, values: Sequence[SSAValue], offset: int) -> list[SSAValue]:
    k = kb.op(arith.ConstantOp(IntegerAttr(offset, i32)))
    return [kb.op(soacc_gpu.ShuffleOp(mode, v, k)) for v in values]


def select(kb: KernelBody, condition: SSAValue, yes: Sequence[SSAValue], no: Sequence[SSAValue]) -> list[SSAValue]:
    return [kb.op(arith.SelectOp(condition, a, b)) for a, b in zip(yes, no)]


def shared_arrays(kb: KernelBody, values: Sequence[SSAValue], size: int) -> list[SSAValue]:
    return [kb.op(soacc_gpu.SharedOp(MemRefType(v.type, [size]))) for v in values]


def load_all(kb: KernelBody, arrays: Sequence[SSAValue], index: SSAValue) -> list[SSAValue]:
    return [kb.op(memref.LoadOp.get(a, [index])) for a in arrays]


def store_all(kb: KernelBody, values: Sequence[SSAValue], arrays: Sequence[SSAValue], index: SSAValue) -> None:
    for v, a in zip(values, arrays):
        kb.b.insert(memref.StoreOp.get(v, a, [index]))


def barrier(kb: KernelBody) -> None:
    kb.b.insert(gpu.BarrierOp())


def warp_reduce(kb: KernelBody, values: Sequence[SSAValue], combine: Combine) -> list[SSAValue]:
    """Lane 0 gets the combination of all 32 lanes' values in lane order (the other
    lanes get partial results)."""
    values = list(values)
    # offsets grow, so lane i (a multiple of 2*offset) always holds lanes i..i+2*offset-1
    # combined in order; halving offsets would pair lane 0 with lane 16 first
    offset = 1
    while offset < WARP:
        values = combine(values, shuffle(kb, "down", values, offset))
        offset *= 2
    return values


def block_reduce(kb: KernelBody, values: Sequence[SSAValue], combine: Combine, neutral: Sequence[SSAValue], broadcast: bool = False) -> list[SSAValue]:
    """Thread 0 (every thread with `broadcast`) gets the combination of all the block's
    values in thread order."""
    tid, lane, warp = thread_ids(kb)
    zero = kb.constant(0)
    per_warp = warp_reduce(kb, values, combine)
    totals = shared_arrays(kb, values, WARPS)
    is_first_lane = kb.op(arith.CmpiOp(lane, zero, "eq"))
    kb.when(is_first_lane, lambda: store_all(kb, per_warp, totals, warp))
    barrier(kb)
    is_first_warp = kb.op(arith.CmpiOp(warp, zero, "eq"))

    def first_warp() -> list[SSAValue]:
        has = kb.op(arith.CmpiOp(lane, kb.constant(WARPS), "ult"))
        # lanes past the number of warps read a valid slot and then take the neutral
        mine = load_all(kb, totals, kb.op(arith.MinUIOp(lane, kb.constant(WARPS - 1))))
        return warp_reduce(kb, select(kb, has, mine, neutral), combine)

    result = kb.when(is_first_warp, first_warp, lambda: list(neutral), [v.type for v in values])
    if not broadcast:
        return result
    barrier(kb)  # every warp has read `totals`
    is_first = kb.op(arith.CmpiOp(tid, zero, "eq"))
    kb.when(is_first, lambda: store_all(kb, result, totals, zero))
    barrier(kb)
    everyone = load_all(kb, totals, zero)
    barrier(kb)  # `totals` may be reused
    return everyone


def warp_scan(kb: KernelBody, values: Sequence[SSAValue], combine: Combine, lane: SSAValue) -> list[SSAValue]:
    """Inclusive scan over the warp's lanes in lane order."""
    values = list(values)
    offset = 1
    while offset < WARP:
        before = shuffle(kb, "up", values, offset)
        combined = combine(before, values)
        has_before = kb.op(arith.CmpiOp(lane, kb.constant(offset), "uge"))
        values = select(kb, has_before, combined, values)
        offset *= 2
    return values


def block_scan(kb: KernelBody, values: Sequence[SSAValue], combine: Combine, neutral: Sequence[SSAValue]) -> tuple[list[SSAValue], list[SSAValue]]:
    """(exclusive prefix of each thread's values in thread order, the block's total),
    both in every thread."""
    tid, lane, warp = thread_ids(kb)
    zero = kb.constant(0)
    inclusive = warp_scan(kb, values, combine, lane)
    totals = shared_arrays(kb, values, WARPS)
    is_last_lane = kb.op(arith.CmpiOp(lane, kb.constant(WARP - 1), "eq"))
    kb.when(is_last_lane, lambda: store_all(kb, inclusive, totals, warp))
    barrier(kb)
    is_first_warp = kb.op(arith.CmpiOp(warp, zero, "eq"))

    def scan_totals() -> None:
        # lane l < WARPS reads and then rewrites slot l; no lane touches another's slot
        # (a lane past WARPS reading a clamped slot that its owner rewrites is a
        # read-write hazard within the warp, which racecheck reports)
        has = kb.op(arith.CmpiOp(lane, kb.constant(WARPS), "ult"))
        types = [v.type for v in values]
        mine = kb.when(has, lambda: load_all(kb, totals, lane), lambda: list(neutral), types)
        scanned = warp_scan(kb, mine, combine, lane)
        kb.when(has, lambda: store_all(kb, scanned, totals, lane))

    kb.when(is_first_warp, scan_totals)
    barrier(kb)
    has_warp_before = kb.op(arith.CmpiOp(warp, zero, "ne"))
    previous = kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(warp, kb.constant(1))), kb.constant(1)))
    warp_prefix = select(kb, has_warp_before, load_all(kb, totals, previous), neutral)
    lane_before = shuffle(kb, "up", inclusive, 1)
    has_lane_before = kb.op(arith.CmpiOp(lane, zero, "ne"))
    lane_prefix = select(kb, has_lane_before, lane_before, neutral)
    exclusive = combine(warp_prefix, lane_prefix)
    total = load_all(kb, totals, kb.constant(WARPS - 1))
    barrier(kb)  # `totals` may be reused
    return exclusive, total


__all__ = [
    "WARP",
    "WARPS",
    "barrier",
    "block_id",
    "block_reduce",
    "block_scan",
    "load_all",
    "select",
    "shared_arrays",
    "shuffle",
    "store_all",
    "thread_ids",
    "warp_reduce",
    "warp_scan",
]
