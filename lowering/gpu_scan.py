"""Kernels for a host-level `mem.scan` (inclusive) or `mem.scanomap` (soac-fusion's fused
map-scan: each element is what the map lambda yields on a row; mapped values are written
as the tile is loaded, or kept in shared memory for the post lambda, which makes the
outputs from the scanned and kept values as the tile is stored; rows, which cannot be
kept there, are made again by the map lambda at store time): a single pass over the
data with decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with
Decoupled Look-back", 2016; the scan of CUB).

Two launches:

`scan<k>_init` zeroes the look-back flags (one per tile) and the tile counter.

`scan<k>_lookback`, one block per tile of TILE = THREADS_PER_BLOCK * items elements:
1. thread 0 takes the next tile id from the counter (atomic add): ids follow the order
   in which blocks start, so every predecessor of a tile is running or done and the
   waits below cannot deadlock, whatever order the hardware starts blocks in;
2. the tile is loaded coalesced (element i of the tile by thread i mod THREADS) into
   shared memory, past-the-end elements as the neutral element, and read back blocked
   (thread t takes elements t*items .. t*items + items - 1); shared positions are skewed
   by one slot per 32 elements, so neither arrangement has bank conflicts for 4-byte
   values;
3. each thread folds its items, `block_scan` gives every thread the exclusive prefix of
   the folds before it and the tile's aggregate;
4. thread 0 publishes the aggregate (flag AGGREGATE), or for tile 0 the inclusive prefix
   (flag PREFIX); then warp 0 looks back over the predecessors, 32 at a time (lane l
   takes tile window_end - 32 + l): it waits until every lane's flag is set, finds the
   nearest predecessor that published its inclusive prefix, and combines, in tile
   order, that prefix and the aggregates after it; without such a predecessor it
   combines all 32 aggregates and moves on to the 32 tiles before. Thread 0 then
   publishes the tile's inclusive prefix (exclusive prefix + aggregate, flag PREFIX);
5. each thread rescans its items from (tile's exclusive prefix + its own), writing them
   back to the same shared slots, and the block stores the tile coalesced.

Where the element is one 32-bit value (i32, f32: the common case), a tile publishes
one 64-bit *status word*, its flag in the high half and the value's bits in the low
half, with one volatile store; a reader gets flag and value with one volatile load,
so a window of the look-back costs one round trip to L2 and no fence (a tile's
look-back waits for its predecessors, so this latency is what bounds the scan).
Otherwise publishing is: value (volatile stores), fence, flag (volatile store); reading
is: flag (volatile load), fence, value (volatile load). Values and flags are then in
separate arrays and a flag only grows (0, then AGGREGATE, then PREFIX), the aggregate
slot is never written again once flagged, so a reader that saw AGGREGATE reads a
complete aggregate even if PREFIX was published since.

Every combination keeps the order of the input (operators need not commute), and the
input and output may be the same memory (a tile reads all its elements before it writes
any, and no other tile touches them).

Scratch memory, one allocation laid out by `_LookbackScratch`: the status words (i64
per tile) or the flags (i32 per tile), the tile counter (one i32), then, without status
words, per value of the tuple its aggregates and inclusive prefixes (one per tile),
each at an 8-byte aligned offset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, Float32Type, Float64Type, IndexType, IntegerType, MemRefType, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects.shared.utils import captured_values
from soacc.dialects import mem, soacc_gpu
from soacc.lowering.kernel_elements import Elements, combiner, store_scanned
from soacc.lowering.kernel_scratch import bind_scratch_per_thread, plan_scratch, scratch_operands, scratch_parameters
from soacc.lowering.gpu_cooperation import (
    WARP,
    barrier,
    block_scan,
    load_all,
    shared_arrays,
    shuffle,
    store_all,
    thread_ids,
    warp_reduce,
)
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.kernel_body import (
    THREADS_PER_BLOCK,
    CannotLower,
    KernelBody,
    index_constant,
    kernel_function,
)

BYTES_PER_THREAD = 64
"""Input bytes one thread scans per tile: a tile takes 16 KiB of shared memory whatever
the tuple, so several blocks still fit on an SM, while the per-tile work (block scan,
look-back) is spread over enough elements."""

MAX_ITEMS = 16

SKEW = 32
"""One padding slot of shared memory after every SKEW elements (one per bank)."""

AGGREGATE = 1
"""Flag of a tile that published its aggregate (0: nothing yet)."""
PREFIX = 2
"""Flag of a tile that published its inclusive prefix (everything up to its end)."""


def items_per_thread(element_types: Sequence[Attribute]) -> int:
    """Elements each thread takes per tile: BYTES_PER_THREAD of tuples, 1 to MAX_ITEMS."""
    tuple_bytes = sum(t.compile_time_size for t in element_types)
    return max(1, min(MAX_ITEMS, BYTES_PER_THREAD // tuple_bytes))


def packs_status(element_types: Sequence[Attribute]) -> bool:
    """Whether a tile's flag and value fit one 64-bit status word: one 32-bit value."""
    if len(element_types) != 1:
        return False
    (t,) = element_types
    return isinstance(t, Float32Type) or (isinstance(t, IntegerType) and t.width.data == 32)


def lower_scan(op: mem.ScanOp | mem.ScanomapOp, name: str, b: Builder, add_kernel) -> None:
    """Replaces a host-level mem.scan or mem.scanomap (b is before it) by two launches:
    the flags' initialisation, then the single-pass scan."""
    elements = Elements.of(op)
    if isinstance(op, mem.ScanOp) and any(v.type.get_num_dims() != 1 for v in op.inputs):
        raise CannotLower(op, "scans arrays of rows at host level (inputs of rank > 1); only arrays of scalars are supported so far")
    kept_types = _kept_types(op)
    # rows cannot wait in shared memory: then the map lambda runs again as the tile is
    # stored, to make what the post lambda needs (the inputs are read twice)
    recompute = any(not isinstance(t, IntegerType | IndexType | Float32Type | Float64Type) for t in kept_types)
    if recompute:
        kept_types = []
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    element_types = [v.type for v in op.neutral]
    items = items_per_thread([*element_types, *kept_types])
    tile_size = THREADS_PER_BLOCK * items
    space = mem.space_of(op.outputs[0].type)

    n = elements.host_rows(b)
    wanted = b.insert(arith.CeilDivUIOp(n, index_constant(b, tile_size))).results[0]
    tiles = b.insert(arith.MaxUIOp(wanted, index_constant(b, 1))).results[0]  # n = 0: one empty tile
    tiles.name_hint = "tiles"
    packed = packs_status(element_types)
    scratch = _LookbackScratch.allocate(b, element_types, tiles, space, packed)

    init_operands = [scratch.flags, scratch.next_tile]
    init = add_kernel(kernel_function(f"{name}_init", init_operands, [("count", IndexType())], _clear_flags))
    init_blocks = b.insert(arith.CeilDivUIOp(tiles, index_constant(b, THREADS_PER_BLOCK))).results[0]
    launch(b, init, init_blocks, [*init_operands, tiles])

    c, k, i, r = len(captured), len(op.neutral), len(op.inputs), len(op.outputs)
    a = len(scratch.aggregates)
    plan = plan_scratch(op, b)  # what a scanomap's lambdas allocate, per thread of the grid

    def build(kb: KernelBody, params, extra) -> None:
        neutral = params[c : c + k]
        inputs = params[c + k : c + k + i]
        outputs = params[c + k + i : c + k + i + r]
        flags, next_tile = params[c + k + i + r : c + k + i + r + 2]
        rest = params[c + k + i + r + 2 :]
        published = _Published(flags, rest[:a], rest[a:], packed)
        count, *scratch_params = extra
        bind_scratch_per_thread(kb, plan, scratch_params)
        tile = _Tile(op, elements, items, neutral, inputs, outputs, kept_types, recompute)
        _scan_tile(kb, tile, published, next_tile, count)

    operands = [*captured, *op.neutral, *op.inputs, *op.outputs, scratch.flags, scratch.next_tile, *scratch.aggregates, *scratch.prefixes]
    extra = [("count", IndexType()), *scratch_parameters(op, plan)]
    scan = add_kernel(kernel_function(f"{name}_lookback", operands, extra, build))
    launch(b, scan, tiles, [*operands, n, *scratch_operands(b, plan, tiles, op)])


def _kept_types(op: Operation) -> list[Attribute]:
    """The types of the values a scanomap's map lambda passes to its post lambda (kept
    in shared memory beside the scanned values): none without a post lambda."""
    if not isinstance(op, mem.ScanomapOp) or op.post is None:
        return []
    yields = op.map_body.block.last_op.operands
    return [v.type for v in yields[op.num_operands_scanned :]]


@dataclass(frozen=True)
class _Tile:
    """What a tile of the scan kernel reads, combines and writes (kernel values)."""

    op: Operation
    elements: Elements
    items: int
    neutral: list[SSAValue]
    inputs: list[SSAValue]
    outputs: list[SSAValue]
    kept_types: list[Attribute]
    recompute: bool = False
    """The post lambda's values come from running the map lambda again at store time."""

    @property
    def mapped(self) -> list[SSAValue]:
        """The outputs the map lambda writes as it goes (a scanomap without post)."""
        if isinstance(self.op, mem.ScanomapOp) and self.op.post is None:
            return self.outputs[len(self.neutral) :]
        return []

    def load(self, kb: KernelBody, at: SSAValue) -> list[SSAValue]:
        """Row `at`'s operands, then the values kept for the post lambda."""
        if self.recompute:
            return list(self.elements.all_yields_at(kb, self.inputs, [], at)[: len(self.neutral)])  # type: ignore[arg-type]
        if not self.kept_types:
            return self.elements.at(kb, self.inputs, self.mapped, at)
        return list(self.elements.all_yields_at(kb, self.inputs, [], at))  # type: ignore[arg-type]

    def placeholders(self, kb: KernelBody) -> list[SSAValue]:
        """Past the end: the neutral elements, and zeros for the kept values (unused)."""
        return [*self.neutral, *[kb.op(arith.ConstantOp(_zero_attr(t))) for t in self.kept_types]]

    def store(self, kb: KernelBody, scanned: Sequence[SSAValue], kept: Sequence[SSAValue], at: SSAValue) -> None:
        """Row `at` of the outputs."""
        if self.recompute:
            kept = self.elements.all_yields_at(kb, self.inputs, [], at)[len(self.neutral) :]  # type: ignore[assignment]
        store_scanned(kb, self.op, self.outputs, scanned, kept, at)


def _zero_attr(t: Attribute):
    from xdsl.dialects.builtin import FloatAttr, IntegerAttr

    return FloatAttr(0.0, t) if isinstance(t, Float32Type | Float64Type) else IntegerAttr(0, t)


@dataclass(frozen=True)
class _LookbackScratch:
    """The host views of the look-back's scratch memory (one allocation)."""

    flags: SSAValue
    """The status words (i64) where packed, else the flags (i32)."""
    next_tile: SSAValue
    aggregates: list[SSAValue]
    prefixes: list[SSAValue]

    @staticmethod
    def allocate(b: Builder, element_types: Sequence[Attribute], tiles: SSAValue, space: mem.MemorySpaceAttr, packed: bool) -> _LookbackScratch:
        one = index_constant(b, 1)
        if packed:
            parts = [("status", i64, tiles), ("next_tile", i32, one)]
        else:
            parts = [("flags", i32, tiles), ("next_tile", i32, one)]
            parts += [(f"aggregates{j}", t, tiles) for j, t in enumerate(element_types)]
            parts += [(f"prefixes{j}", t, tiles) for j, t in enumerate(element_types)]
        # byte offsets rounded up to 8, so every view is aligned for its elements
        eight = index_constant(b, 8)
        end = index_constant(b, 0)
        offsets = []
        for _, t, count in parts:
            offsets.append(end)
            nbytes = b.insert(arith.MuliOp(index_constant(b, t.compile_time_size), count)).results[0]
            aligned = b.insert(arith.MuliOp(b.insert(arith.CeilDivUIOp(nbytes, eight)).results[0], eight)).results[0]
            end = b.insert(arith.AddiOp(end, aligned)).results[0]
        block = b.insert(mem.AllocOp(end, space)).results[0]
        block.name_hint = "lookback_mem"
        views = []
        for (hint, t, count), offset in zip(parts, offsets):
            view = b.insert(mem.ViewOp(block, offset, [count], mem.view_type(t, [DYNAMIC_INDEX], space))).results[0]
            view.name_hint = hint
            views.append(view)
        k = 0 if packed else len(element_types)
        return _LookbackScratch(views[0], views[1], views[2 : 2 + k], views[2 + k :])


def _clear_flags(kb: KernelBody, params, extra) -> None:
    """flags[i] = 0 (or status[i] = 0) for every tile i (one thread each), and the tile
    counter = 0."""
    flags, next_tile = params
    (count,) = extra
    i = kb.op(gpu.GlobalIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
    first = kb.constant(0)
    zero_flag = kb.constant(0, flags.type.element_type)
    kb.when(kb.op(arith.CmpiOp(i, count, "ult")), lambda: store_all(kb, [zero_flag], [flags], i))
    kb.when(kb.op(arith.CmpiOp(i, first, "eq")), lambda: store_all(kb, [kb.constant(0, i32)], [next_tile], first))


@dataclass(frozen=True)
class _Published:
    """What tiles publish for their successors (kernel views, one slot per tile): status
    words where `packed`, else flags and separate aggregates and prefixes."""

    flags: SSAValue
    aggregates: list[SSAValue]
    prefixes: list[SSAValue]
    packed: bool

    def publish(self, kb: KernelBody, tile: SSAValue, values: Sequence[SSAValue], flag: int) -> None:
        """Packed: flag and value in one store. Otherwise the values, then (after a
        fence, so that no reader sees the flag first) the flag."""
        if self.packed:
            (value,) = values
            bits = value if isinstance(value.type, IntegerType) else kb.op(arith.BitcastOp(value, i32))
            low = kb.op(arith.ExtUIOp(bits, i64))
            word = kb.op(arith.OrIOp(low, kb.constant(flag << 32, i64)))
            kb.b.insert(soacc_gpu.StoreVolatileOp(word, self.flags, [tile]))
            return
        for v, array in zip(values, self.aggregates if flag == AGGREGATE else self.prefixes):
            kb.b.insert(soacc_gpu.StoreVolatileOp(v, array, [tile]))
        kb.b.insert(soacc_gpu.FenceOp())
        kb.b.insert(soacc_gpu.StoreVolatileOp(kb.constant(flag, i32), self.flags, [tile]))

    def read_flag(self, kb: KernelBody, tile: SSAValue) -> list[SSAValue]:
        """(flag, payload...) of a tile as one read sees it: packed, the status word is
        the payload; otherwise there is none (values are read once the flag is set)."""
        seen = kb.op(soacc_gpu.LoadVolatileOp(self.flags, [tile]))
        if not self.packed:
            return [seen]
        flag = kb.op(arith.TruncIOp(kb.op(arith.ShRUIOp(seen, kb.constant(32, i64))), i32))
        return [flag, seen]

    def read_values(self, kb: KernelBody, tile: SSAValue, payload: Sequence[SSAValue], prefix: bool, types) -> list[SSAValue]:
        """The values of a tile whose flag was seen (its prefix or its aggregate)."""
        if self.packed:
            (word,) = payload
            (t,) = types
            bits = kb.op(arith.TruncIOp(word, i32))
            return [bits if isinstance(t, IntegerType) else kb.op(arith.BitcastOp(bits, t))]
        return _load_volatile(kb, self.prefixes if prefix else self.aggregates, tile)


def _scan_tile(kb: KernelBody, tile_of: _Tile, published: _Published, next_tile, count) -> None:
    """The body of the scan kernel: one tile per block (see the module's description)."""
    items = tile_of.items
    neutral = tile_of.neutral
    tile_size = THREADS_PER_BLOCK * items
    tid, lane, warp = thread_ids(kb)
    zero = kb.constant(0)
    combine = combiner(kb, tile_of.op)
    k = len(neutral)

    # 1. the tile id, in the order blocks start
    tile_slot = kb.op(soacc_gpu.SharedOp(MemRefType(i32, [1])))
    tile_slot.name_hint = "tile_slot"
    is_thread0 = kb.op(arith.CmpiOp(tid, zero, "eq"))

    def take_tile() -> None:
        taken = kb.op(soacc_gpu.AtomicRMWOp("addi", kb.constant(1, i32), next_tile, [kb.constant(0)]))
        kb.b.insert(memref.StoreOp.get(taken, tile_slot, [kb.constant(0)]))

    kb.when(is_thread0, take_tile)
    barrier(kb)
    tile = kb.op(arith.IndexCastOp(kb.op(memref.LoadOp.get(tile_slot, [zero])), IndexType()))
    tile.name_hint = "tile"
    start = kb.op(arith.MuliOp(tile, kb.constant(tile_size)))
    valid = kb.op(arith.MinUIOp(kb.op(arith.SubiOp(count, start)), kb.constant(tile_size)))
    valid.name_hint = "valid"

    # 2. coalesced loads into shared memory, past-the-end elements neutral (checked
    # only in the last tile: a full tile's loads are all in bounds); a fused scan's
    # map lambda runs here (and writes its mapped outputs, or keeps the values its post
    # lambda needs beside the operands)
    placeholders = tile_of.placeholders(kb)
    staged = shared_arrays(kb, placeholders, tile_size + tile_size // SKEW)
    for v in staged[:k]:
        v.name_hint = "tile_values"
    for v in staged[k:]:
        v.name_hint = "kept_values"
    threads = kb.constant(THREADS_PER_BLOCK)
    full = kb.op(arith.CmpiOp(valid, kb.constant(tile_size), "eq"))
    types = [v.type for v in placeholders]

    def stage(checked: bool) -> None:
        for j in range(items):
            i = kb.op(arith.AddiOp(kb.op(arith.MuliOp(kb.constant(j), threads)), tid))
            at = kb.op(arith.AddiOp(start, i))
            if checked:
                inside = kb.op(arith.CmpiOp(i, valid, "ult"))
                loaded = kb.when(inside, lambda: tile_of.load(kb, at), lambda: list(placeholders), types)
            else:
                loaded = tile_of.load(kb, at)
            store_all(kb, loaded, staged, _skewed(kb, i))

    kb.when(full, lambda: stage(False), lambda: stage(True))
    barrier(kb)
    staged, kept = staged[:k], staged[k:]

    # 3. this thread's fold of its items, then the block's scan of the folds
    first_item = kb.op(arith.MuliOp(tid, kb.constant(items)))
    slots = [_skewed(kb, kb.op(arith.AddiOp(first_item, kb.constant(j)))) for j in range(items)]
    folded = load_all(kb, staged, slots[0])
    for slot in slots[1:]:
        folded = combine(folded, load_all(kb, staged, slot))
    thread_prefix, aggregate = block_scan(kb, folded, combine, neutral)

    # 4. publish, look back, publish the inclusive prefix; the tile's exclusive prefix
    # reaches every thread through shared memory
    is_first_tile = kb.op(arith.CmpiOp(tile, zero, "eq"))

    def publish_aggregate() -> None:
        kb.when(
            is_first_tile,
            lambda: published.publish(kb, tile, aggregate, PREFIX),
            lambda: published.publish(kb, tile, aggregate, AGGREGATE),
        )

    kb.when(is_thread0, publish_aggregate)
    has_predecessors = kb.op(arith.CmpiOp(tile, zero, "ne"))
    looks_back = kb.op(arith.AndIOp(kb.op(arith.CmpiOp(warp, zero, "eq")), has_predecessors))
    tile_prefix = kb.when(looks_back, lambda: _look_back(kb, tile, lane, published, neutral, combine), lambda: list(neutral), [v.type for v in neutral])
    shared_prefix = shared_arrays(kb, neutral, 1)

    def finish_tile() -> None:
        kb.when(has_predecessors, lambda: published.publish(kb, tile, combine(tile_prefix, aggregate), PREFIX))
        store_all(kb, tile_prefix, shared_prefix, kb.constant(0))

    kb.when(is_thread0, finish_tile)
    barrier(kb)
    tile_prefix = load_all(kb, shared_prefix, zero)

    # 5. rescan the items from the thread's prefix, in place, then store coalesced
    running = combine(tile_prefix, thread_prefix)
    for slot in slots:
        running = combine(running, load_all(kb, staged, slot))
        store_all(kb, running, staged, slot)
    barrier(kb)

    def store_tile(checked: bool) -> None:
        for j in range(items):
            i = kb.op(arith.AddiOp(kb.op(arith.MuliOp(kb.constant(j), threads)), tid))

            def store(i: SSAValue = i) -> None:
                slot = _skewed(kb, i)
                tile_of.store(kb, load_all(kb, staged, slot), load_all(kb, kept, slot), kb.op(arith.AddiOp(start, i)))

            if checked:
                kb.when(kb.op(arith.CmpiOp(i, valid, "ult")), store)
            else:
                store()

    kb.when(full, lambda: store_tile(False), lambda: store_tile(True))


def _skewed(kb: KernelBody, i: SSAValue) -> SSAValue:
    """The shared slot of tile element i: one padding slot after every SKEW elements."""
    return kb.op(arith.AddiOp(i, kb.op(arith.DivUIOp(i, kb.constant(SKEW)))))


def _look_back(kb: KernelBody, tile: SSAValue, lane: SSAValue, published: _Published, neutral, combine) -> list[SSAValue]:
    """The combination of all tiles before `tile`, in tile order, in every lane of the
    calling warp (all 32 lanes must call it; every branch below is warp-uniform)."""
    lane32 = kb.op(arith.IndexCastOp(lane, i32))
    warp_size = kb.constant(WARP)

    def window(window_end: SSAValue, *exclusive: SSAValue):
        # lane l looks at tile window_end - 32 + l (none where that is negative)
        j = kb.op(arith.SubiOp(kb.op(arith.AddiOp(window_end, lane)), warp_size))
        exists = kb.op(arith.CmpiOp(j, kb.constant(0), "sge"))
        at = kb.op(arith.SelectOp(exists, j, kb.constant(0)))
        flag, *payload = _wait_for_flags(kb, published, at, exists)
        if not published.packed:
            kb.b.insert(soacc_gpu.FenceOp())  # the values below are read after the flags
        # the nearest predecessor that published its inclusive prefix (-1: none here)
        is_prefix = kb.op(arith.CmpiOp(flag, kb.constant(PREFIX, i32), "eq"))
        stop = _warp_max(kb, kb.op(arith.SelectOp(is_prefix, lane32, kb.constant(-1, i32))))
        after_stop = kb.op(arith.CmpiOp(lane32, stop, "sgt"))
        at_stop = kb.op(arith.CmpiOp(lane32, stop, "eq"))
        types = [v.type for v in neutral]

        def prefix_or_neutral() -> list[SSAValue]:
            return kb.when(at_stop, lambda: published.read_values(kb, at, payload, True, types), lambda: list(neutral), types)

        mine = kb.when(after_stop, lambda: published.read_values(kb, at, payload, False, types), prefix_or_neutral, types)
        # lanes in tile order: lane 0 gets the window's combination; every lane takes it
        total = shuffle(kb, "idx", warp_reduce(kb, mine, combine), 0)
        more = kb.op(arith.CmpiOp(stop, kb.constant(0, i32), "slt"))  # no prefix in this window
        return more, [kb.op(arith.SubiOp(window_end, warp_size)), *combine(total, exclusive)]

    _, *exclusive = _do_while(kb, [tile, *neutral], window)
    return exclusive


def _wait_for_flags(kb: KernelBody, published: _Published, at: SSAValue, exists: SSAValue) -> list[SSAValue]:
    """Each lane's (flag, payload...) of tile `at` (flag AGGREGATE where the lane has no
    tile), once every lane's flag is set."""

    def poll(*_previous: SSAValue):
        flag, *payload = published.read_flag(kb, at)
        flag = kb.op(arith.SelectOp(exists, flag, kb.constant(AGGREGATE, i32)))
        unset = kb.op(arith.ExtUIOp(kb.op(arith.CmpiOp(flag, kb.constant(0, i32), "eq")), i32))
        pending = kb.op(arith.CmpiOp(_warp_max(kb, unset), kb.constant(0, i32), "ne"))
        return pending, [flag, *payload]

    initial = [kb.constant(0, i32)] + ([kb.constant(0, i64)] if published.packed else [])
    return _do_while(kb, initial, poll)


def _warp_max(kb: KernelBody, value: SSAValue) -> SSAValue:
    """The signed maximum of an i32 over the warp, in every lane (xor butterfly)."""
    offset = WARP // 2
    while offset:
        (other,) = shuffle(kb, "xor", [value], offset)
        value = kb.op(arith.MaxSIOp(value, other))
        offset //= 2
    return value


def _load_volatile(kb: KernelBody, arrays: Sequence[SSAValue], index: SSAValue) -> list[SSAValue]:
    return [kb.op(soacc_gpu.LoadVolatileOp(a, [index])) for a in arrays]


def _do_while(kb: KernelBody, initial: Sequence[SSAValue], body) -> list[SSAValue]:
    """values = initial; do { again, values = body(*values) } while (again); the last values.
    (An scf.while whose `before` region does the work and whose `after` region passes
    the values back.)"""
    types = [v.type for v in initial]
    before = Block(arg_types=types)
    outer = kb.b
    kb.b = Builder(InsertPoint.at_end(before))
    try:
        again, values = body(*before.args)
        kb.b.insert(scf.ConditionOp(again, *values))
    finally:
        kb.b = outer
    after = Block(arg_types=types)
    after.add_op(scf.YieldOp(*after.args))
    loop = kb.b.insert(scf.WhileOp(list(initial), types, Region(before), Region(after)))
    return list(loop.results)


__all__ = ["AGGREGATE", "PREFIX", "items_per_thread", "lower_scan", "packs_status"]
