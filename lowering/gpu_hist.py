"""The kernel of a host-level `mem.hist` (reduce-by-index): for every i,
`dest[indices[i]] = op(dest[indices[i]], values[i])`, in place; indices outside dest
(negative ones too) are ignored. A `mem.histomap` (soac-fusion's fused form) is the same
with bin and value yielded by its map lambda on row i. The operator is associative and
commutative, so the updates may happen in any order: each is one atomic update of a bin.

How a bin is updated:
- `atomic`: the operator is one arith op on its two parameters for which CUDA has an
  atomic on the element type (add, min, max, and, or, xor of 32/64-bit integers; add of
  f32/f64): one `soacc_gpu.atomic_rmw`;
- `cas`: any other operator on a 32- or 64-bit element: a compare-and-swap loop (read
  the bin, combine, swap the result in if the bin still holds the bits read, else retry
  with what it holds). Bits are compared, not values, so a NaN cannot make it loop
  forever; a bin the operator leaves unchanged is not written (a max seldom changes one).

Where the bins live while the input is read:
- `shared`: the bin count is static and the bins fit SHARED_BUDGET: each block builds a
  sub-histogram in shared memory (initialised to the neutral element) from a grid-stride
  part of the input, then merges it into dest with one global update per bin it changed.
  Contention is spread over the blocks and shared-memory atomics are cheap;
- `global`: otherwise every element updates dest directly.

Rows as values (a destination of rank > 1) and elements narrower than 32 bits (i1) need
a lock per bin, since no atomic covers a whole row or a byte: they are reported. (A
hist combines one value per element, so a tuple operator cannot reach this level.)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects.shared.utils import captured_values
from soacc.dialects import mem, soacc_gpu
from soacc.lowering.gpu_cooperation import barrier
from soacc.lowering.gpu_reduce import launch
from soacc.lowering.kernel_elements import Elements, elementwise_operator, operator_regions
from soacc.lowering.kernel_scratch import bind_scratch_per_thread, plan_scratch, scratch_operands, scratch_parameters
from soacc.lowering.kernel_body import (
    THREADS_PER_BLOCK,
    CannotLower,
    KernelBody,
    Row,
    index_constant,
    kernel_function,
)

SHARED_BUDGET = 32 * 1024
"""Bytes of static shared memory a sub-histogram may take (of the 48 KiB a block may
declare statically): several blocks still fit on one SM."""

SHARED_BLOCKS = 264
"""Blocks of the shared-memory kernel: two per SM of an H100 (132 SMs). Each block
merges every bin it changed, so more blocks would mostly add merge work."""

GLOBAL_BLOCKS = 1024
"""Blocks of the global-memory kernel: enough to fill an H100 (132 SMs x 8 blocks of
256 threads); a grid-stride loop covers the rest."""

UNROLL = 4
"""Input elements a thread loads before it updates any of them (loads in flight)."""

_ATOMIC_KINDS = {
    arith.AddiOp: "addi",
    arith.AddfOp: "addf",
    arith.MaxSIOp: "maxs",
    arith.MinSIOp: "mins",
    arith.MaxUIOp: "maxu",
    arith.MinUIOp: "minu",
    arith.AndIOp: "andi",
    arith.OrIOp: "ori",
    arith.XOrIOp: "xori",
}
"""The arith ops CUDA has an atomic for. arith's type rules leave the integer ones on
integers and addf on floats; CUDA has each of those on every 32/64-bit type."""


Update = Callable[[KernelBody, SSAValue, SSAValue, SSAValue], None]
"""update(kb, ref, index, value): ref[index] = op(ref[index], value), atomically."""


def word_sized(t: Attribute) -> bool:
    """A 32- or 64-bit scalar: what CUDA's atomicCAS (and so every update here) takes."""
    if isinstance(t, IndexType | Float32Type | Float64Type):
        return True
    return isinstance(t, IntegerType) and t.width.data in (32, 64)


def atomic_kind(op: mem.HistOp) -> str | None:
    """The atomic_rmw kind of the operator when it is one arith op on its two
    parameters (in either order) that CUDA has an atomic for; None otherwise."""
    lam = operator_regions(op)[0].block
    ops = list(lam.ops)
    if len(ops) != 2 or not word_sized(op.dest.type.element_type):
        return None
    combine, result = ops
    kind = _ATOMIC_KINDS.get(type(combine))
    if kind is None or list(result.operands) != [combine.results[0]]:
        return None
    left, right = lam.args
    if list(combine.operands) not in ([left, right], [right, left]):
        return None
    return kind


def elementwise_atomic_kind(op: mem.HistOp) -> str | None:
    """For a hist of rows whose operator combines two rows element by element
    (kernel_elements.elementwise_operator) with one arith op CUDA has an atomic for:
    that op's atomic kind."""
    elementwise = elementwise_operator(op.body)
    if elementwise is None:
        return None
    body = elementwise[0].block
    ops = list(body.ops)
    if len(ops) != 2 or not word_sized(op.dest.type.element_type):
        return None
    combine, result = ops
    kind = _ATOMIC_KINDS.get(type(combine))
    if kind is None or list(result.operands) != [combine.results[0]] or set(combine.operands) != set(body.args):
        return None
    return kind


def _lower_row_hist(op: mem.HistOp, name: str, b: Builder, add_kernel) -> None:
    """A hist of rows whose operator combines them element by element: a grid-stride
    loop over all elements of the value rows (coalesced), element (i, j) combining into
    dest[indices[i], j], by an atomic where CUDA has one for the operator, else by a
    compare-and-swap loop running the operator's element lambda."""
    elementwise = elementwise_operator(op.body)
    assert elementwise is not None
    element_lambda, swapped = elementwise
    kind = elementwise_atomic_kind(op)
    captured = [v for v in captured_values(op) if v not in (op.dest, op.indices, op.values, op.neutral)]
    operands = [*captured, op.dest, op.indices, op.values]

    def build(kb: KernelBody, params, extra) -> None:
        dest, indices, values = params[len(captured) :]
        (count,) = extra
        width = kb.dim(Row(values, ()), 1)
        bins = kb.dim(Row(dest, ()), 0)
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        gid = kb.op(gpu.GlobalIdOp(x))
        threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))

        def element(e: SSAValue) -> None:
            i = kb.op(arith.DivUIOp(e, width))
            j = kb.op(arith.RemUIOp(e, width))
            k = kb.op(memref.LoadOp.get(indices, [i]))
            if not isinstance(k.type, IndexType):
                k = kb.op(arith.IndexCastOp(k, IndexType()))
            inside = kb.op(arith.CmpiOp(k, bins, "ult"))

            def update() -> None:
                value = kb.op(memref.LoadOp.get(values, [i, j]))
                if kind is not None:
                    kb.op(soacc_gpu.AtomicRMWOp(kind, value, dest, [k, j]))
                else:
                    combine_by_cas(kb, element_lambda, dest, [k, j], value, swapped)

            kb.when(inside, update)

        kb.range_loop(gid, count, threads, element)

    strategy = "rows_global_atomic" if kind is not None else "rows_global_cas"
    kernel = add_kernel(kernel_function(f"{name}_{strategy}", operands, [("count", IndexType())], build))
    rows = b.insert(mem.SizeOp(op.values, 0)).result
    width = b.insert(mem.SizeOp(op.values, 1)).result
    n = b.insert(arith.MuliOp(rows, width)).results[0]
    wanted = b.insert(arith.CeilDivUIOp(n, index_constant(b, THREADS_PER_BLOCK))).results[0]
    capped = b.insert(arith.MinUIOp(wanted, index_constant(b, GLOBAL_BLOCKS))).results[0]
    blocks = b.insert(arith.MaxUIOp(capped, index_constant(b, 1))).results[0]
    launch(b, kernel, blocks, [*operands, n])


def static_bins(op: mem.HistOp) -> int | None:
    """The number of bins when dest's type fixes it."""
    n = op.dest.type.get_shape()[0]
    return None if n == DYNAMIC_INDEX else n


def fits_shared_memory(op: mem.HistOp) -> bool:
    bins = static_bins(op)
    return bins is not None and bins * op.dest.type.element_type.compile_time_size <= SHARED_BUDGET


def lower_hist(op: mem.HistOp | mem.HistomapOp, name: str, b: Builder, add_kernel) -> None:
    """Replaces a host-level mem.hist or mem.histomap (b is before it) by one launch. A
    histomap's bins and values are what its map lambda yields on each row (its mapped
    values are written on the way; kernel_elements.py)."""
    dest_type = op.dest.type
    assert isinstance(dest_type, MemRefType)
    if (
        isinstance(op, mem.HistOp)
        and dest_type.get_num_dims() == 2
        and elementwise_operator(op.body) is not None
        and word_sized(dest_type.element_type)
    ):
        _lower_row_hist(op, name, b, add_kernel)
        return
    if dest_type.get_num_dims() != 1:
        raise CannotLower(
            op,
            "combines rows (its destination has rank > 1) by an operator that does not combine "
            "them element by element (or of values narrower than 32 bits): no atomic covers a "
            "whole row, so this needs a lock per bin, which is not supported yet",
        )
    element = dest_type.element_type
    if not word_sized(element):
        raise CannotLower(
            op,
            f"combines {element} values: CUDA's atomics and compare-and-swap take 32- and "
            "64-bit words, so this needs a lock per bin, which is not supported yet",
        )
    kind = atomic_kind(op)
    in_shared = fits_shared_memory(op)
    elements = Elements.of(op)
    read = [*elements.inputs, *elements.mapped]
    captured = [v for v in captured_values(op) if v not in (op.dest, op.neutral, *read)]
    operands = [*captured, op.neutral, op.dest, *read]
    region = operator_regions(op)[0]
    plan = plan_scratch(op, b)  # what a histomap's map lambda allocates, per thread

    def update(kb: KernelBody, ref: SSAValue, index: SSAValue, value: SSAValue) -> None:
        if kind is not None:
            kb.op(soacc_gpu.AtomicRMWOp(kind, value, ref, [index]))
        else:
            combine_by_cas(kb, region, ref, index, value)

    def build(kb: KernelBody, params, extra) -> None:
        neutral, dest, *views = params[len(captured) :]
        ins, mapped = views[: len(elements.inputs)], views[len(elements.inputs) :]
        count, *scratch = extra
        bind_scratch_per_thread(kb, plan, scratch)
        bin_and_value = lambda i: elements.at(kb, ins, mapped, i)  # noqa: E731
        if in_shared:
            _shared_histogram(kb, static_bins(op), neutral, dest, bin_and_value, count, update)
        else:
            bins = kb.dim(Row(dest, ()), 0)
            _each_element(kb, bin_and_value, count, bins, lambda k, v: update(kb, dest, k, v))

    strategy = f"{'shared' if in_shared else 'global'}_{'atomic' if kind is not None else 'cas'}"
    extra = [("count", IndexType()), *scratch_parameters(op, plan)]
    kernel = add_kernel(kernel_function(f"{name}_{strategy}", operands, extra, build))
    n = elements.host_rows(b)
    cap = SHARED_BLOCKS if in_shared else GLOBAL_BLOCKS
    wanted = b.insert(arith.CeilDivUIOp(n, index_constant(b, THREADS_PER_BLOCK))).results[0]
    capped = b.insert(arith.MinUIOp(wanted, index_constant(b, cap))).results[0]
    blocks = b.insert(arith.MaxUIOp(capped, index_constant(b, 1))).results[0]
    launch(b, kernel, blocks, [*operands, n, *scratch_operands(b, plan, blocks, op)])


def _shared_histogram(kb: KernelBody, bins: int, neutral, dest, bin_and_value, count, update: Update) -> None:
    """The block's sub-histogram in shared memory, from its grid-stride part of the
    input, then merged into dest (bins still neutral are skipped: combining the neutral
    element changes nothing)."""
    sub = kb.op(soacc_gpu.SharedOp(MemRefType(neutral.type, [bins])))
    sub.name_hint = "sub_histogram"
    tid = kb.op(gpu.ThreadIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
    size = kb.constant(bins)
    threads = kb.constant(THREADS_PER_BLOCK)

    def initialise(j: SSAValue) -> None:
        kb.b.insert(memref.StoreOp.get(neutral, sub, [j]))

    kb.range_loop(tid, size, threads, initialise)
    barrier(kb)
    _each_element(kb, bin_and_value, count, size, lambda k, v: update(kb, sub, k, v))
    barrier(kb)

    def merge(j: SSAValue) -> None:
        partial = kb.op(memref.LoadOp.get(sub, [j]))
        changed = kb.op(arith.CmpiOp(value_bits(kb, partial), value_bits(kb, neutral), "ne"))
        kb.when(changed, lambda: update(kb, dest, j, partial))

    kb.range_loop(tid, size, threads, merge)


def _each_element(kb: KernelBody, bin_and_value, count, bins, update: Callable[[SSAValue, SSAValue], None]) -> None:
    """update(bin, value) for every input element of this thread whose bin is in
    [0, bins): elements gid, gid + T, ... (T threads in the grid; coalesced), UNROLL of
    them loaded before any is used."""
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    gid = kb.op(gpu.GlobalIdOp(x))
    threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
    stride = kb.op(arith.MuliOp(threads, kb.constant(UNROLL)))

    def load(i: SSAValue) -> tuple[SSAValue, SSAValue]:
        k, v = bin_and_value(i)
        if not isinstance(k.type, IndexType):
            k = kb.op(arith.IndexCastOp(k, IndexType()))  # sign-extends: negatives become huge
        return k, v

    def use(loaded: tuple[SSAValue, SSAValue]) -> None:
        k, v = loaded
        inside = kb.op(arith.CmpiOp(k, bins, "ult"))  # unsigned: rejects negative bins too
        kb.when(inside, lambda: update(k, v))

    # whole groups: gid + j*T for j < UNROLL all below count while base + (UNROLL-1)*T < count
    span = kb.op(arith.MuliOp(threads, kb.constant(UNROLL - 1)))
    limit = kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(count, span)), span))

    def group(i: SSAValue) -> None:
        loaded = [load(i if j == 0 else kb.op(arith.AddiOp(i, kb.op(arith.MuliOp(threads, kb.constant(j)))))) for j in range(UNROLL)]
        for item in loaded:
            use(item)

    kb.range_loop(gid, limit, stride, group)
    # the rest, one at a time: from the first element no group took
    groups_done = kb.op(arith.CeilDivUIOp(kb.op(arith.SubiOp(kb.op(arith.MaxUIOp(limit, gid)), gid)), stride))
    rest = kb.op(arith.AddiOp(gid, kb.op(arith.MuliOp(groups_done, stride))))
    kb.range_loop(rest, count, threads, lambda i: use(load(i)))


def value_bits(kb: KernelBody, v: SSAValue) -> SSAValue:
    """The value as an integer of its width, so that comparisons are of bits (NaN
    equals itself, -0.0 differs from 0.0)."""
    t = v.type
    if isinstance(t, Float32Type | Float64Type):
        return kb.op(arith.BitcastOp(v, IntegerType(t.bitwidth)))
    return v


def combine_by_cas(
    kb: KernelBody, operator: Region, ref: SSAValue, index: SSAValue | list[SSAValue], value: SSAValue, swapped: bool = False
) -> None:
    """ref[index] = op(ref[index], value) atomically (op(value, ref[index]) where
    `swapped`; `index` one index or a list), by compare-and-swap:

        seen = ref[index]                       (volatile: not a stale cached copy)
        do { assumed = seen; desired = op(assumed, value);
             seen = desired has assumed's bits ? assumed : atomic_cas(assumed, desired)
        } while (seen's bits differ from assumed's)
    """
    t = value.type
    at = index if isinstance(index, list) else [index]
    first = kb.op(soacc_gpu.LoadVolatileOp(ref, at))
    before = Block(arg_types=[t])
    assumed = before.args[0]
    assumed.name_hint = "assumed"
    outer = kb.b
    kb.b = Builder(InsertPoint.at_end(before))
    try:
        (desired,) = kb.apply_operator(operator, *(([value], [assumed]) if swapped else ([assumed], [value])))
        assumed_bits = value_bits(kb, assumed)
        unchanged = kb.op(arith.CmpiOp(value_bits(kb, desired), assumed_bits, "eq"))
        (seen,) = kb.when(
            unchanged,
            lambda: [assumed],
            lambda: [kb.op(soacc_gpu.AtomicCasOp(assumed, desired, ref, at))],
            [t],
        )
        seen.name_hint = "seen"
        retry = kb.op(arith.CmpiOp(value_bits(kb, seen), assumed_bits, "ne"))
        kb.b.insert(scf.ConditionOp(retry, seen))
    finally:
        kb.b = outer
    after = Block(arg_types=[t])
    after.add_op(scf.YieldOp(after.args[0]))
    kb.b.insert(scf.WhileOp([first], [t], Region(before), Region(after)))


__all__ = ["SHARED_BUDGET", "atomic_kind", "combine_by_cas", "fits_shared_memory", "lower_hist", "static_bins", "value_bits", "word_sized"]
