"""Block and register tiling of a map of maps of a reduction that reuses its inputs
(issue 21, item 3; Futhark's `tileLoops` and its register tiling: Henriksen et al.,
"Incremental flattening for nested data parallelism", PPoPP 2019, and the tiling
passes of the Futhark compiler).

The nest it tiles is a matrix product's shape, written as a user writes it:

    map (\\x_row -> map (\\y_row -> redomap (op) (f) (x_row, y_row, ...)) ys) xs

an outer map over rows i of some arrays, a map inside it over rows j of arrays from
outside the nest, and in that a redomap whose inputs are rows of the outer map's
arrays (each read by every j), rows of the inner map's arrays (each read by every i),
or arrays from outside the nest (read by every i and j), all of one length k. Each of
the n·m results folds k values, and a thread per result (the flattened nest) reads its
2k operands from global memory: n·m·2k reads for n·m·k multiply-adds.

Tiled, a block of 16 × 16 threads computes a T × T tile of the results (T = 16 R) and
each thread an R × R tile of it in registers, its rows and columns 16 apart (so that
neighbouring threads read neighbouring shared-memory words and write neighbouring
results). The k axis is walked in chunks of CHUNK: the block loads the chunk of its T
rows of each outer array and of its T rows of each inner array into shared memory
(each element once), and each thread then folds, for each of the chunk's k, its R
outer values against its R inner values, R² applications of the map lambda and the
operator from 2R shared-memory reads. Each thread folds its results' k values in
order, so any associative operator is folded exactly as the reference executor's
left fold would (commutativity is not needed).

Loads of a tile read the chunk's columns of T rows. Which order of loads coalesces
depends on how the array is laid out, which is known only at run time (a transposed
matrix, as `transpose b` of a matrix product, is a view whose rows are strided): a
kernel takes neighbouring k in neighbouring threads where the row's stride is 1, and
neighbouring rows otherwise (soacc_gpu.stride). Shared rows are padded by PAD words so
that neither order's stores fall into one bank.

The tiled kernel pays where both result sides fill a tile; the host chooses it where
n and m are at least TILED_FROM, and the nest's other strategy (a group of threads per
row, or the flattened nest) otherwise."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, gpu, memref
from xdsl.dialects.builtin import Float32Type, Float64Type, FloatAttr, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue

from soacc.dialects import mem, soacc_gpu
from soacc.dialects.shared.utils import captured_values
from soacc.lowering.gpu_cooperation import barrier, block_id, thread_ids
from soacc.lowering.gpu_flatten import _bind, _outside, _scalar
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.kernel_body import (
    THREADS_PER_BLOCK,
    KernelBody,
    Row,
    host_branch,
    index_constant,
    kernel_function,
    threshold,
)
from soacc.lowering.kernel_elements import combiner
from soacc.lowering.kernel_scratch import _HostEvaluator, _NotOnHost, grid_blocks

SIDE = 16
"""A block is SIDE × SIDE threads (THREADS_PER_BLOCK of them)."""
CHUNK = 8
"""The k values a block loads into shared memory at a time."""
PAD = 32 // CHUNK
"""Words a shared row is padded by: CHUNK rows of T + PAD words put the CHUNK values a
warp stores for one row (loads along k) in CHUNK different banks."""
TILED_FROM = 32
"""The least rows on each side of the results for which the host launches the tiled
kernel."""
SHARED_BYTES = 40 * 1024
"""At most this much of a block's (static, 48 KiB) shared memory for its tiles."""
TILED_SUFFIX = "_tiled"

assert SIDE * SIDE == THREADS_PER_BLOCK


@dataclass(frozen=True)
class Source:
    """Where one redomap input comes from: a row of the outer map's input `index`
    ("outer"), a row of the inner map's input `index` ("inner"), or an array from
    outside the nest ("free", index -1)."""

    side: str
    index: int


@dataclass(frozen=True)
class Tiling:
    """A nest the tiled kernel computes (module docstring)."""

    outer: mem.MapOp
    inner: mem.MapOp
    redomap: mem.RedomapOp
    sources: tuple[Source, ...]
    per_thread: int
    """R: a thread computes R × R results, a block T = SIDE·R rows and columns."""

    @property
    def tile(self) -> int:
        return SIDE * self.per_thread

    def tiled(self) -> list[Source]:
        """The distinct outer and inner sources: one shared-memory tile each."""
        return list(dict.fromkeys(s for s in self.sources if s.side != "free"))

    def array(self, source: Source) -> SSAValue:
        """The host view a tiled source's rows come from."""
        return (self.outer if source.side == "outer" else self.inner).inputs[source.index]


def tiling(levels: list[mem.MapOp]) -> Tiling | None:
    """The tiling of a perfect nest of two maps (gpu_flatten.perfect_nest) whose inner
    lambda is scalar code around one redomap of the kind the module docstring says;
    None for any other nest. Reads level-2 code."""
    if len(levels) != 2:
        return None
    outer, inner = levels
    if any(o.type.get_num_dims() != 2 for o in outer.outputs):
        return None  # (the inner map writes scalars: rows of results would need more)
    body = inner.body.block
    redomaps = [o for o in body.ops if isinstance(o, mem.RedomapOp)]
    if len(redomaps) != 1:
        return None
    (redomap,) = redomaps
    others = [o for o in body.ops if o is not redomap and o is not body.last_op]
    if not all(_scalar(o) or isinstance(o, cf.AssertOp) for o in others):
        return None
    if redomap.outputs or redomap.row_count is not None or not redomap.results_:
        return None
    if not all(scalar_lambda(region.block, outer) for region in (redomap.map_body, *redomap.operators)):
        return None
    if not all(_outside(v, outer) or isinstance(v.owner, arith.ConstantOp) for v in redomap.neutral):
        return None
    outer_params = list(outer.body.block.args[: len(outer.inputs)])
    inner_params = list(body.args[: len(inner.inputs)])
    sources = []
    for v in redomap.inputs:
        if v.type.get_num_dims() != 1:
            return None
        if v in outer_params:
            source = Source("outer", outer_params.index(v))
        elif v in inner_params and _outside(inner.inputs[inner_params.index(v)], outer):
            source = Source("inner", inner_params.index(v))
        elif _outside(v, outer):
            source = Source("free", -1)
        else:
            return None
        sources.append(source)
    sides = {s.side for s in sources}
    if "outer" not in sides or "inner" not in sides:
        return None  # (no reuse along one of the two sides: nothing to tile)
    for per_thread in (8, 4, 2):
        found = Tiling(outer, inner, redomap, tuple(sources), per_thread)
        if _fits(found):
            return found
    return None


def scalar_lambda(block: Block, outer: Operation) -> bool:
    """Whether a lambda is scalar arithmetic on its parameters and on values from
    outside `outer` (a kernel can run it anywhere: a tiled redomap's R² times per k, in
    registers)."""
    for o in block.ops:
        if o is block.last_op:
            continue
        if o.regions or o.dialect_name() not in ("arith", "math"):
            return False
        if any(not (v.owner is block or _in_block(v, block) or _outside(v, outer)) for v in o.operands):
            return False
    return all(_in_block(v, block) or v.owner is block or _outside(v, outer) for v in block.last_op.operands)


def _in_block(v: SSAValue, block: Block) -> bool:
    return isinstance(v.owner, Operation) and v.owner.parent_block() is block


def _fits(t: Tiling) -> bool:
    """Whether a thread's accumulators stay in registers (at most 64 words for R = 8,
    as many as 16 words per result for smaller R) and the tiles fit SHARED_BYTES."""
    words = sum(-(-r.type.compile_time_size // 4) for r in t.redomap.results_)
    widest = max(t.array(s).type.element_type.compile_time_size for s in t.tiled())
    if t.per_thread == 8 and (words > 1 or widest > 4):
        return False
    if t.per_thread == 4 and words > 4:
        return False
    shared = sum(CHUNK * (t.tile + PAD) * t.array(s).type.element_type.compile_time_size for s in t.tiled())
    return shared <= SHARED_BYTES


def lower_tiled(t: Tiling, name: str, b: Builder, add_kernel, otherwise) -> bool:
    """The tiled kernel and, on the host, its launch where both sides of the results
    have TILED_FROM rows or more, else `otherwise(builder)`: the nest's other strategy.
    False (nothing done) where the inner row count cannot be computed on the host."""
    evaluator = _HostEvaluator(b, set(t.outer.walk()))
    try:
        m = evaluator.size(t.inner.rows_of, 0)
    except _NotOnHost:
        return False
    n = b.insert(mem.SizeOp(t.outer.rows_of, 0)).result
    lengths = [_length(b, t, v, source) for v, source in zip(t.redomap.inputs, t.sources)]
    k = lengths[0]
    for other in lengths[1:]:
        same = b.insert(arith.CmpiOp(k, other, "eq")).result
        b.insert(cf.AssertOp(same, "a reduction inside a map of maps folds arrays of different lengths"))
    kernel, operands = build_tiled_kernel(t, f"{name}{TILED_SUFFIX}")
    add_kernel(kernel)
    wide = threshold(b, f"{name}.tiled_from", TILED_FROM)
    enough = b.insert(arith.AndIOp(b.insert(arith.CmpiOp(n, wide, "uge")).result, b.insert(arith.CmpiOp(m, wide, "uge")).result)).result

    def tiled(inner: Builder) -> None:
        side = index_constant(inner, t.tile)
        tiles = inner.insert(
            arith.MuliOp(inner.insert(arith.CeilDivUIOp(n, side)).results[0], inner.insert(arith.CeilDivUIOp(m, side)).results[0])
        ).results[0]
        launch(inner, kernel.sym_name.data, grid_blocks(inner, tiles, None), [*operands, n, m, k])

    host_branch(b, enough, tiled, otherwise)
    return True


def _length(b: Builder, t: Tiling, v: SSAValue, source: Source) -> SSAValue:
    """On the host: the length of the redomap input `v`, which `source` gives."""
    if source.side == "free":
        return b.insert(mem.SizeOp(v, 0)).result
    return b.insert(mem.SizeOp(t.array(source), 1)).result


def build_tiled_kernel(t: Tiling, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """The kernel, and the host values to launch it with: the values the nest captures,
    the outer map's inputs and outputs; then n, m and k."""
    outer = t.outer
    captured = [v for v in captured_values(outer) if v not in outer.inputs and v not in outer.outputs]
    operands = [*captured, *outer.inputs, *outer.outputs]
    index = IndexType()

    def build(kb: KernelBody, params, extra) -> None:
        n, m, k = extra
        _Tile(kb, t, n, m, k).run()

    kernel = kernel_function(name, operands, [("rows", index), ("columns", index), ("length", index)], build)
    return kernel, operands


class _Tile:
    """Writes the tiled kernel's body (one instance per kernel)."""

    def __init__(self, kb: KernelBody, t: Tiling, n: SSAValue, m: SSAValue, k: SSAValue):
        self.kb, self.t, self.n, self.m, self.k = kb, t, n, m, k
        self.side = t.tile
        self.row_words = self.side + PAD

    def run(self) -> None:
        kb, t = self.kb, self.t
        tid, _, _ = thread_ids(kb)
        self.tx = kb.op(arith.RemUIOp(tid, kb.constant(SIDE)))
        self.ty = kb.op(arith.DivUIOp(tid, kb.constant(SIDE)))
        self.tid = tid
        side = kb.constant(self.side)
        tiles_across = kb.op(arith.CeilDivUIOp(self.m, side))
        tiles = kb.op(arith.MuliOp(kb.op(arith.CeilDivUIOp(self.n, side)), tiles_across))
        self.shared: dict[Source, SSAValue] = {}
        self.along_k: dict[Source, SSAValue] = {}
        for source in t.tiled():
            view = kb.value(t.array(source))
            element = view.type.element_type
            tile = kb.op(soacc_gpu.SharedOp(MemRefType(element, [CHUNK * self.row_words])))
            tile.name_hint = f"tile_{source.side}{source.index}"
            self.shared[source] = tile
            stride = kb.op(soacc_gpu.StrideOp(view, 1))
            self.along_k[source] = kb.op(arith.CmpiOp(stride, kb.constant(1), "eq"))
        self.neutral = [self._neutral(v) for v in t.redomap.neutral]
        self.combine = combiner(kb, t.redomap)
        grid = kb.op(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
        kb.range_loop(block_id(kb), tiles, grid, lambda tile: self._tile(tile, tiles_across))

    def _neutral(self, v: SSAValue) -> SSAValue:
        if v in self.kb.values:
            return self.kb.value(v)
        constant = v.owner.clone()  # (an arith.constant inside the nest: tiling())
        self.kb.b.insert(constant)
        return constant.results[0]

    def _tile(self, tile: SSAValue, tiles_across: SSAValue) -> None:
        kb = self.kb
        side = kb.constant(self.side)
        i0 = kb.op(arith.MuliOp(kb.op(arith.DivUIOp(tile, tiles_across)), side))
        j0 = kb.op(arith.MuliOp(kb.op(arith.RemUIOp(tile, tiles_across)), side))
        r = self.t.per_thread
        start = [v for _ in range(r * r) for v in self.neutral]
        acc = kb.range_loop(kb.constant(0), self.k, kb.constant(CHUNK), lambda k0, *a: self._chunk(i0, j0, k0, list(a)), start)
        self._store(i0, j0, acc)

    def _chunk(self, i0: SSAValue, j0: SSAValue, k0: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
        """Loads the chunk [k0, k0 + CHUNK) of the block's rows into the tiles, then
        folds it into this thread's accumulators."""
        kb, t = self.kb, self.t
        width = kb.op(arith.MinUIOp(kb.op(arith.SubiOp(self.k, k0)), kb.constant(CHUNK)))
        for source, tile in self.shared.items():
            base, rows = (i0, self.n) if source.side == "outer" else (j0, self.m)
            self._load(kb.value(t.array(source)), tile, self.along_k[source], base, rows, k0, width)
        barrier(kb)
        folded = kb.range_loop(kb.constant(0), width, kb.constant(1), lambda kk, *a: self._fold(k0, kk, list(a)), acc)
        barrier(kb)
        return folded

    def _load(self, view, tile, along_k, base, rows, k0, width) -> None:
        """The block's CHUNK columns of rows base .. base + T - 1 of `view` into `tile`
        (column c of row r at c·(T + PAD) + r); zeros past the rows or the length."""
        kb = self.kb
        element = view.type.element_type
        zero = kb.op(arith.ConstantOp(FloatAttr(0.0, element) if isinstance(element, Float32Type | Float64Type) else IntegerAttr(0, element)))
        for step in range(self.side * CHUNK // THREADS_PER_BLOCK):
            e = kb.op(arith.AddiOp(self.tid, kb.constant(step * THREADS_PER_BLOCK)))
            c = kb.op(arith.SelectOp(along_k, kb.op(arith.RemUIOp(e, kb.constant(CHUNK))), kb.op(arith.DivUIOp(e, kb.constant(self.side)))))
            r = kb.op(arith.SelectOp(along_k, kb.op(arith.DivUIOp(e, kb.constant(CHUNK))), kb.op(arith.RemUIOp(e, kb.constant(self.side)))))
            row = kb.op(arith.AddiOp(base, r))
            inside = kb.op(arith.AndIOp(kb.op(arith.CmpiOp(row, rows, "ult")), kb.op(arith.CmpiOp(c, width, "ult"))))
            column = kb.op(arith.AddiOp(k0, c))
            (value,) = kb.when(inside, lambda: [kb.op(memref.LoadOp.get(view, [row, column]))], lambda: [zero], [element])
            at = kb.op(arith.AddiOp(kb.op(arith.MuliOp(c, kb.constant(self.row_words))), r))
            kb.b.insert(memref.StoreOp.get(value, tile, [at]))

    def _fold(self, k0: SSAValue, kk: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
        """Folds column kk of the tiles: R² applications of the map lambda and the
        operator, from R values of each outer tile and R of each inner tile."""
        kb, t = self.kb, self.t
        r = t.per_thread
        base = kb.op(arith.MuliOp(kk, kb.constant(self.row_words)))
        mine = {"outer": kb.op(arith.AddiOp(base, self.ty)), "inner": kb.op(arith.AddiOp(base, self.tx))}
        values = {
            source: [kb.op(memref.LoadOp.get(tile, [kb.op(arith.AddiOp(mine[source.side], kb.constant(SIDE * q)))])) for q in range(r)]
            for source, tile in self.shared.items()
        }
        position = kb.op(arith.AddiOp(k0, kk))
        free = {
            j: kb.op(memref.LoadOp.get(kb.value(v), [position]))
            for j, (v, s) in enumerate(zip(t.redomap.inputs, t.sources))
            if s.side == "free"
        }
        count = len(self.neutral)
        out: list[SSAValue] = []
        for ri in range(r):
            for rj in range(r):
                args = [
                    free[j] if s.side == "free" else values[s][ri if s.side == "outer" else rj]
                    for j, s in enumerate(t.sources)
                ]
                mapped = kb.apply_operator(t.redomap.map_body, args, [])
                at = (ri * r + rj) * count
                out += self.combine(acc[at : at + count], mapped[:count])
        return out

    def _store(self, i0: SSAValue, j0: SSAValue, acc: list[SSAValue]) -> None:
        """Each of this thread's results inside the matrix: the outer lambda's scalar
        code, the inner lambda's around the redomap (its results are the fold's), and
        the inner map's values stored to their outputs."""
        kb, t = self.kb, self.t
        r = t.per_thread
        count = len(self.neutral)
        outer, inner = t.outer, t.inner
        for ri in range(r):
            i = kb.op(arith.AddiOp(kb.op(arith.AddiOp(i0, self.ty)), kb.constant(SIDE * ri)))
            for rj in range(r):
                j = kb.op(arith.AddiOp(kb.op(arith.AddiOp(j0, self.tx)), kb.constant(SIDE * rj)))
                inside = kb.op(arith.AndIOp(kb.op(arith.CmpiOp(i, self.n, "ult")), kb.op(arith.CmpiOp(j, self.m, "ult"))))
                results = acc[(ri * r + rj) * count : (ri * r + rj + 1) * count]

                def element(i=i, j=j, results=results) -> None:
                    ins = [Row(kb.value(v), ()) for v in outer.inputs]
                    outs = [Row(kb.value(v), ()) for v in outer.outputs]
                    _bind(kb, outer, ins, outs, i)
                    for o in list(outer.body.block.ops)[:-2]:
                        kb.translate(o)
                    inner_ins = [kb.row(v) for v in inner.inputs]
                    inner_outs = [kb.row(v) for v in inner.outputs]
                    _bind(kb, inner, inner_ins, inner_outs, j)
                    lam = inner.body.block
                    for o in lam.ops:
                        if o is lam.last_op:
                            break
                        if o is t.redomap:
                            for old, new in zip(o.results_, results):
                                kb.values[old] = new
                        else:
                            kb.translate(o)
                    for value, out in zip(lam.last_op.operands, inner_outs):
                        kb.store(kb.values[value], out, j, inner)

                kb.when(inside, element)


__all__ = ["TILED_FROM", "TILED_SUFFIX", "Tiling", "build_tiled_kernel", "lower_tiled", "scalar_lambda", "tiling"]
