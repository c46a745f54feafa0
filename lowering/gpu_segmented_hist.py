"""A histogram per row (a map of a hist: issue 21, item 2, the segmented hist) with a
group of threads per row and a sub-histogram in shared memory, as the host-level hist
kernels do for one histogram (gpu_hist.py).

The map's lambda makes each row's histogram from bins filled with one value (or a
copy of an array from outside the map), a hist of the row's bin numbers and values, and
yields the bins:

    map (\\row -> hist (op) ne (replicate nbins init) row values) rows

where the bin numbers and values are rows of the map's inputs, arrays from outside,
or a replicate of one value (a count's ones); or a histomap, whose map lambda (scalar
code) computes each element's bin and value from such arrays. A thread per row runs the row's hist alone, element after
element (the kernel's fallback for short rows); here instead:

- `block`: a block per row, or, where there are fewer rows than the GPU has room for
  blocks, several blocks per row, each over a chunk of it (the host picks the chunks:
  about TARGET_BLOCKS in all, each of at least MIN_CHUNK elements). Each block builds
  its chunk's sub-histogram in shared memory (shared-memory atomics, cheap and spread
  over the blocks), then merges it into the row's bins in global memory: stored
  directly where a block has the whole row (the bins' fill value combined with it),
  by one atomic update per bin it changed where several blocks share the row (the
  row's bins filled before, by a kernel of their own). Bins that do not fit shared
  memory (or whose count only the run knows) are updated in global memory directly.
- `warp`: a warp per row, each warp with its own sub-histogram in the block's shared
  memory, merged by direct stores (a warp has its whole row): rows of a few dozen to a
  few thousand elements, too short to keep a block busy.

The host chooses by the rows' length (BLOCK_FROM, WARP_FROM), as for segmented
reductions (gpu_segmented.py). The operator updates a bin by an atomic where CUDA has
one for it, else by a compare-and-swap loop (gpu_hist.py); it is associative and
commutative (a hist's), so the order of updates does not matter."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, gpu, memref
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import SSAValue

from soacc.dialects import mem, soacc_gpu
from soacc.dialects.shared.utils import captured_values
from soacc.lowering.gpu_cooperation import WARP, WARPS, barrier, block_id, thread_ids
from soacc.lowering.row_elements import RowReader, element_count, element_inputs, filled_with, kernel_scalar_available, lone_update
from soacc.lowering.gpu_hist import SHARED_BUDGET, atomic_kind, combine_by_cas, static_bins, value_bits, word_sized
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.gpu_segmented import may_overlap_outputs
from soacc.lowering.kernel_body import THREADS_PER_BLOCK, KernelBody, choose_from, host_branch, index_constant, kernel_function
from soacc.lowering.kernel_elements import operator_regions
from soacc.lowering.kernel_scratch import _HostEvaluator, _NotOnHost, grid_blocks
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.symbolic import Symbolic

BLOCK_FROM = 2048
"""Rows at least this long take the block strategy."""
WARP_FROM = 32
"""Rows at least this long (and shorter than BLOCK_FROM) take the warp strategy."""
TARGET_BLOCKS = 528
"""About this many blocks share out few long rows (four per SM of an H100)."""
MIN_CHUNK = 4 * THREADS_PER_BLOCK
"""The fewest elements a block's chunk of a row has (four per thread)."""


@dataclass(frozen=True)
class HistPerRow:
    """A map of a hist the strategies above compute (segmented_hist)."""

    op: mem.MapOp
    hist: mem.HistOp | mem.HistomapOp
    init: SSAValue
    """What the row's bins start as: one value each, or a copy of an array from
    outside the map (a rank-1 view)."""
    inputs: tuple[SSAValue, ...]
    """What the hist reads per element: its bin numbers and values (a hist), or its
    map lambda's inputs (a histomap). Each is a row parameter of the map's lambda or an
    array from outside, or a replicate of one value (`filled`)."""
    filled: tuple[SSAValue | None, ...]
    """For each input, the value it is a replicate of, or None."""

    @property
    def bins(self) -> int | None:
        return static_bins(self.hist)

    def shared_fits(self, groups: int) -> bool:
        bins = self.bins
        return bins is not None and groups * bins * self.hist.dest.type.element_type.compile_time_size <= SHARED_BUDGET


def segmented_hist(op: mem.MapOp, aliases: MemoryAliases, symbolic: Symbolic) -> HistPerRow | None:
    """The map of a hist (module docstring) `op` is, or None; also None where an array
    it reads may share memory with its output (the groups' reads of a row and the
    writes of its bins are not ordered: the bins may be filled before any row is read).
    Reads level-2 code."""
    found = _map_of_hist(op)
    if found is None:
        return None
    read = [v for v in (*op.inputs, *captured_values(op)) if isinstance(v.type, MemRefType) and v not in op.outputs]
    if any(may_overlap_outputs(op, v, aliases, symbolic) for v in read):
        return None
    return found


def _map_of_hist(op: mem.MapOp) -> HistPerRow | None:
    found = lone_update(op, mem.HistOp, mem.HistomapOp)
    if found is None:
        return None
    hist, inputs = found
    lam, dest = op.body.block, hist.dest
    if not word_sized(dest.type.element_type):
        return None
    init = filled_with(dest, lam, hist, copies=True)
    if init is None or not kernel_scalar_available(init, op) or not kernel_scalar_available(hist.neutral, op):
        return None
    filled = element_inputs(inputs, op, hist)
    if filled is None:
        return None
    if isinstance(hist, mem.HistOp) and filled[0] is not None:
        return None  # (every element in one bin: rare, and a thread per row does it)
    return HistPerRow(op, hist, init, inputs, filled)


def lower_hist_per_row(h: HistPerRow, name: str, b: Builder, add_kernel, thread_per_row) -> bool:
    """The kernels, and on the host the choice among them by the rows' length (the
    shortest rows: thread_per_row(builder)). False (nothing done) where the rows'
    length cannot be computed on the host."""
    op, hist = h.op, h.hist
    evaluator = _HostEvaluator(b, set(op.walk()))
    try:
        length = element_count(b, hist, h.inputs, evaluator, "a histogram inside a map has bin numbers and values of different lengths")
    except _NotOnHost:
        return False
    rows = b.insert(mem.SizeOp(op.rows_of, 0)).result
    out = op.outputs[0]
    bins = b.insert(mem.SizeOp(out, 1)).result
    if isinstance(h.init.type, MemRefType):  # (the copy's check, as mem.copy makes it)
        same = b.insert(arith.CmpiOp(b.insert(mem.SizeOp(h.init, 0)).result, bins, "eq")).result
        b.insert(cf.AssertOp(same, "copies an array into one of another shape"))
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, out]
    index = IndexType()

    in_shared = h.shared_fits(1)
    block_kernel = add_kernel(
        kernel_function(
            f"{name}_hist_block_per_row",
            operands,
            [("rows", index), ("length", index), ("chunks", index), ("per_chunk", index)],
            lambda kb, params, extra: _Kernel(kb, h).block(*extra, in_shared),
        )
    )
    init_kernel = add_kernel(
        kernel_function(
            f"{name}_hist_fill", operands, [("elements", index)], lambda kb, params, extra: _Kernel(kb, h).fill(*extra)
        )
    )
    warp_kernel = None
    if h.shared_fits(WARPS):
        warp_kernel = add_kernel(
            kernel_function(
                f"{name}_hist_warp_per_row",
                operands,
                [("rows", index), ("length", index)],
                lambda kb, params, extra: _Kernel(kb, h).warp(*extra),
            )
        )

    def by_blocks(inner: Builder) -> None:
        one = index_constant(inner, 1)
        some_rows = inner.insert(arith.MaxUIOp(rows, one)).results[0]
        per_rows = inner.insert(arith.CeilDivUIOp(index_constant(inner, TARGET_BLOCKS), some_rows)).results[0]
        per_length = inner.insert(arith.CeilDivUIOp(length, index_constant(inner, MIN_CHUNK))).results[0]
        chunks = inner.insert(arith.MaxUIOp(inner.insert(arith.MinUIOp(per_rows, per_length)).results[0], one)).results[0]
        per_chunk = inner.insert(arith.CeilDivUIOp(length, chunks)).results[0]

        def fill(then: Builder) -> None:
            elements = then.insert(arith.MuliOp(rows, bins)).results[0]
            wanted = then.insert(arith.CeilDivUIOp(elements, index_constant(then, THREADS_PER_BLOCK))).results[0]
            launch(then, init_kernel, grid_blocks(then, wanted, None), [*operands, elements])

        # the bins filled first where blocks share a row, or always where they update
        # global memory
        if in_shared:
            host_branch(inner, inner.insert(arith.CmpiOp(chunks, one, "ugt")).result, fill, lambda otherwise: None)
        else:
            fill(inner)
        pairs = inner.insert(arith.MuliOp(rows, chunks)).results[0]
        launch(inner, block_kernel, grid_blocks(inner, pairs, None), [*operands, rows, length, chunks, per_chunk])

    def by_warps(inner: Builder) -> None:
        wanted = inner.insert(arith.CeilDivUIOp(rows, index_constant(inner, WARPS))).results[0]
        launch(inner, warp_kernel, grid_blocks(inner, wanted, None), [*operands, rows, length])

    if warp_kernel is not None:
        choose_from(
            b, length, f"{name}.hist_block_from", BLOCK_FROM, by_blocks,
            lambda inner: choose_from(inner, length, f"{name}.hist_warp_from", WARP_FROM, by_warps, thread_per_row),
        )
    else:
        choose_from(b, length, f"{name}.hist_block_from", BLOCK_FROM, by_blocks, thread_per_row)
    return True


def _store(kb: KernelBody, value: SSAValue, ref: SSAValue, at: list[SSAValue]) -> None:
    kb.b.insert(memref.StoreOp.get(value, ref, at))


class _Kernel(RowReader):
    """Writes one of the kernels' bodies."""

    def __init__(self, kb: KernelBody, h: HistPerRow):
        super().__init__(kb, h.op)
        self.h, self.hist = h, h.hist
        self.out = kb.value(h.op.outputs[0])
        self.element = h.hist.dest.type.element_type
        self.kind = atomic_kind(h.hist)
        self.operator = operator_regions(h.hist)[0]

    def initial(self, j: SSAValue) -> SSAValue:
        """What bin j of a row starts as."""
        init = self.h.init
        if isinstance(init.type, MemRefType):
            return self.kb.op(memref.LoadOp.get(self.kb.value(init), [j]))
        return self.scalar(init)

    def bin_and_value(self, row: SSAValue, e: SSAValue) -> tuple[SSAValue, SSAValue]:
        kb = self.kb
        elements = self.elements(self.h.inputs, self.h.filled, row, e)
        if isinstance(self.hist, mem.HistomapOp):
            indexed = [e] if self.hist.row_count is not None else []
            k, v = kb.apply_operator(self.hist.map_body, [*elements, *indexed], [])
        else:
            k, v = elements
        if not isinstance(k.type, IndexType):
            k = kb.op(arith.IndexCastOp(k, IndexType()))  # sign-extends: negatives become huge
        return k, v

    def update(self, ref: SSAValue, at: list[SSAValue], value: SSAValue) -> None:
        if self.kind is not None:
            self.kb.op(soacc_gpu.AtomicRMWOp(self.kind, value, ref, at))
        else:
            combine_by_cas(self.kb, self.operator, ref, at, value)

    def each_element(self, row: SSAValue, first: SSAValue, end: SSAValue, step: SSAValue, bins: SSAValue, update) -> None:
        """update(bin, value) for the row's elements first, first + step, ... < end whose
        bins are in [0, bins)."""
        kb = self.kb

        def one(e: SSAValue) -> None:
            k, v = self.bin_and_value(row, e)
            kb.when(kb.op(arith.CmpiOp(k, bins, "ult")), lambda: update(k, v))

        kb.range_loop(first, end, step, one)

    def fill(self, elements: SSAValue) -> None:
        """Every row's bins filled with the fill value (grid-stride)."""
        kb = self.kb
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        gid = kb.op(gpu.GlobalIdOp(x))
        threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
        bins = kb.op(memref.DimOp(self.out, kb.constant(1)))

        def one(e: SSAValue) -> None:
            r = kb.op(arith.DivUIOp(e, bins))
            j = kb.op(arith.RemUIOp(e, bins))
            kb.b.insert(memref.StoreOp.get(self.initial(j), self.out, [r, j]))

        kb.range_loop(gid, elements, threads, one)

    def block(self, rows, length, chunks, per_chunk, in_shared: bool) -> None:
        kb = self.kb
        tid, _, _ = thread_ids(kb)
        threads = kb.constant(THREADS_PER_BLOCK)
        neutral = self.scalar(self.hist.neutral)
        one = kb.constant(1)
        whole_rows = kb.op(arith.CmpiOp(chunks, one, "eq"))
        bins = kb.op(memref.DimOp(self.out, one))
        sub = None
        if in_shared:
            sub = kb.op(soacc_gpu.SharedOp(MemRefType(self.element, [self.h.bins])))
            sub.name_hint = "sub_histogram"
        grid = kb.op(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
        pairs = kb.op(arith.MuliOp(rows, chunks))

        def pair(p: SSAValue) -> None:
            row = kb.op(arith.DivUIOp(p, chunks))
            first = kb.op(arith.MuliOp(kb.op(arith.RemUIOp(p, chunks)), per_chunk))
            end = kb.op(arith.MinUIOp(kb.op(arith.AddiOp(first, per_chunk)), length))
            start = kb.op(arith.AddiOp(first, tid))
            if sub is None:
                self.each_element(row, start, end, threads, bins, lambda k, v: self.update(self.out, [row, k], v))
                return
            kb.range_loop(tid, bins, threads, lambda j: _store(kb, neutral, sub, [j]))
            barrier(kb)
            self.each_element(row, start, end, threads, bins, lambda k, v: self.update(sub, [k], v))
            barrier(kb)
            self._merge(sub, kb.constant(0), row, tid, threads, bins, neutral, whole_rows)
            barrier(kb)  # (before the next row's bins are set)

        kb.range_loop(block_id(kb), pairs, grid, pair)

    def warp(self, rows, length) -> None:
        kb = self.kb
        _, lane, warp = thread_ids(kb)
        lanes = kb.constant(WARP)
        neutral = self.scalar(self.hist.neutral)
        bins = kb.constant(self.h.bins)
        sub = kb.op(soacc_gpu.SharedOp(MemRefType(self.element, [WARPS * self.h.bins])))
        sub.name_hint = "sub_histograms"
        mine = kb.op(arith.MuliOp(warp, bins))
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        first = kb.op(arith.AddiOp(kb.op(arith.MuliOp(block_id(kb), kb.constant(WARPS))), warp))
        step = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.constant(WARPS)))

        def row(r: SSAValue) -> None:
            kb.range_loop(lane, bins, lanes, lambda j: _store(kb, neutral, sub, [kb.op(arith.AddiOp(mine, j))]))
            kb.b.insert(soacc_gpu.SyncWarpOp())
            self.each_element(r, lane, length, lanes, bins, lambda k, v: self.update(sub, [kb.op(arith.AddiOp(mine, k))], v))
            kb.b.insert(soacc_gpu.SyncWarpOp())
            self._merge(sub, mine, r, lane, lanes, bins, neutral, True)
            kb.b.insert(soacc_gpu.SyncWarpOp())

        kb.range_loop(first, rows, step, row)

    def _merge(self, sub, base, row, first, step, bins, neutral, whole_row: SSAValue | bool) -> None:
        """The sub-histogram into the row's bins: op(initial bin, partial) stored where
        the group has the whole row (`whole_row`: a run-time flag, or True), else the
        bins it changed updated atomically."""
        kb = self.kb

        def one(j: SSAValue) -> None:
            partial = kb.op(memref.LoadOp.get(sub, [kb.op(arith.AddiOp(base, j))]))

            def store() -> None:
                (total,) = kb.apply_operator(self.operator, [self.initial(j)], [partial])
                kb.b.insert(memref.StoreOp.get(total, self.out, [row, j]))

            def combine() -> None:
                changed = kb.op(arith.CmpiOp(value_bits(kb, partial), value_bits(kb, neutral), "ne"))
                kb.when(changed, lambda: self.update(self.out, [row, j], partial))

            if whole_row is True:
                store()
            else:
                kb.when(whole_row, store, combine)

        kb.range_loop(first, bins, step, one)


__all__ = ["BLOCK_FROM", "WARP_FROM", "HistPerRow", "lower_hist_per_row", "segmented_hist"]
