"""Where a combinator's kernel gets the values of row i, and how it combines them: the
part that differs between a combinator and its fused form (soac-fusion's redomap,
scanomap, scatteromap, histomap), so that one kernel strategy serves both.

An unfused combinator's operands at row i are its inputs' elements i. A fused one's are
what its map lambda yields on row i of its inputs: the first `count` yields are the
operands, the rest are mapped values, which the kernel writes to the mapped outputs'
row i as it goes (so no intermediate array exists). Where every input and mapped output
is a rank-1 view of one vector width, whole groups of rows come from 16-byte vector
loads (the lambda then runs once per row of the group) and go out by vector stores.

A combinator's operator may be several operators side by side (a fused op keeps each
reduction separate): `combiner` applies each to its own columns of the tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Operation, Region, SSAValue

from soacc.dialects import mem, soacc_gpu
from soacc.lowering.kernel_body import CannotLower, KernelBody, Row

Combine = Callable[[Sequence[SSAValue], Sequence[SSAValue]], list[SSAValue]]


def operator_regions(op: Operation) -> list[Region]:
    """The operator regions of a combinator, in tuple order."""
    if isinstance(op, mem.RedomapOp | mem.ScanomapOp):
        return list(op.operators)
    if isinstance(op, mem.HistomapOp):
        return [op.operator]
    return [op.body]


def combiner(kb: KernelBody, op: Operation) -> Combine:
    """combine(left, right) of the op's operator(s), each on its own columns."""
    regions = operator_regions(op)

    def combine(left: Sequence[SSAValue], right: Sequence[SSAValue]) -> list[SSAValue]:
        out: list[SSAValue] = []
        at = 0
        for region in regions:
            arity = len(region.block.args) // 2
            out += kb.apply_operator(region, left[at : at + arity], right[at : at + arity])
            at += arity
        return out

    return combine


def elementwise_operator(region: Region) -> tuple[Region, bool] | None:
    """For an operator on two rows that combines them element by element (a mem.map of
    scalar code over the two rows into a fresh row, which it yields): that map's scalar
    lambda, and whether it takes the second row's element first (its inputs the other
    way round). A hist of rows with such an operator is a hist of elements: each
    element of a value row combines into its own element of the bin's row. None for
    any other operator."""
    lam = region.block
    maps = [o for o in lam.ops if isinstance(o, mem.MapOp)]
    if len(maps) != 1 or not isinstance(lam.last_op, mem.YieldOp):
        return None
    (inner,) = maps
    left, right = lam.args
    if list(lam.last_op.operands) != list(inner.outputs) or list(inner.inputs) not in ([left, right], [right, left]):
        return None
    if any(not isinstance(o, mem.AllocOp | mem.ViewOp | mem.SizeOp | mem.MapOp | mem.YieldOp) and o.dialect_name() != "arith" for o in lam.ops):
        return None
    body = inner.body.block
    if any(o.regions or (o is not body.last_op and o.dialect_name() not in ("arith", "math")) for o in body.ops):
        return None
    return inner.body, inner.inputs[0] is right


def is_commutative(op: Operation) -> bool:
    """Whether the whole (tuple) operator may combine in any order."""
    if isinstance(op, mem.RedomapOp | mem.ScanomapOp):
        return all(op.commutative.get_values())
    return getattr(op, "commutative", None) is not None


def shared_vector_width(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], body: Region | None) -> int | None:
    """The elements per 16-byte vector that every input and output (host views) can be
    read and written by, where they are all rank-1 views of elements of one vector width
    and the lambda `body` allocates nothing (it then runs once per element of a group);
    None otherwise."""
    views = [*inputs, *outputs]
    if not inputs or any(v.type.get_num_dims() != 1 for v in views):
        return None
    widths = {soacc_gpu.vector_width(v.type.element_type) for v in views}
    if len(widths) != 1 or None in widths:
        return None
    if body is not None and any(isinstance(o, mem.AllocOp) for o in body.walk()):
        return None
    return widths.pop()


@dataclass(frozen=True)
class Elements:
    """The operands of each row of a combinator: `count` values per row, read from
    `inputs` (host views), with `mapped` (host views) written per row by fused ops."""

    op: Operation
    inputs: list[SSAValue]
    mapped: list[SSAValue]
    count: int

    @staticmethod
    def of(op: Operation) -> Elements:
        if isinstance(op, mem.RedomapOp):
            return Elements(op, list(op.inputs), list(op.mapped_outputs), len(op.neutral))
        if isinstance(op, mem.ScatteromapOp | mem.HistomapOp):
            return Elements(op, list(op.inputs), list(op.outputs), 2)
        if isinstance(op, mem.ScanomapOp):
            k = op.num_operands_scanned
            mapped = [] if op.post is not None else list(op.outputs[k:])
            return Elements(op, list(op.inputs), mapped, k)
        if isinstance(op, mem.ScatterOp | mem.HistOp):
            return Elements(op, [op.indices, op.values], [], 2)
        return Elements(op, list(op.inputs), [], len(op.inputs))

    @property
    def fused(self) -> bool:
        return isinstance(self.op, mem.RedomapOp | mem.ScanomapOp | mem.ScatteromapOp | mem.HistomapOp)

    def types(self) -> list[Attribute]:
        """The operands' types."""
        if not self.fused:
            return [v.type.element_type for v in self.inputs]
        return [v.type for v in self.op.map_body.block.last_op.operands[: self.count]]

    @property
    def row_count(self) -> SSAValue | None:
        """An indexed fused op's row count (fuse-iota's `indexed(%n)`)."""
        return self.op.row_count if self.fused else None  # type: ignore[attr-defined]

    def host_rows(self, b: Builder) -> SSAValue:
        """The number of rows, computed before the op at host level (b)."""
        if self.row_count is not None:
            return self.row_count
        return b.insert(mem.SizeOp(self.inputs[0], 0)).result

    def all_yields_at(self, kb: KernelBody, ins: Sequence[SSAValue], mapped: Sequence[SSAValue], i: SSAValue) -> list[SSAValue | Row]:
        """Fused: everything the map lambda yields on row i (output rows of rank >= 2
        are its parameters, addressed in place; an indexed op's row number is i), mapped
        values not yet written."""
        body = self.op.map_body.block
        k = len(self.inputs)
        for param, view in zip(body.args[:k], ins):
            kb.values[param] = kb.element_or_row(Row(view, ()), i)
        array_outs = [v for v in mapped if v.type.get_num_dims() > 1]
        for param, view in zip(body.args[k:], array_outs):
            kb.values[param] = Row(view, (i,))
        if self.op.row_index is not None:  # type: ignore[attr-defined]
            kb.values[self.op.row_index] = i  # type: ignore[attr-defined]
        kb.translate_block(body)
        return [kb.values[v] for v in body.last_op.operands]

    def at(self, kb: KernelBody, ins: Sequence[SSAValue], mapped: Sequence[SSAValue], i: SSAValue) -> list[SSAValue]:
        """The operands of row i (kernel views `ins`); a fused op's mapped values are
        written to row i of `mapped` on the way."""
        if not self.fused:
            return [kb.element_or_row(Row(v, ()), i) for v in ins]  # (a hist's values may be rows)
        yields = self.all_yields_at(kb, ins, mapped, i)
        for value, view in zip(yields[self.count :], mapped):
            kb.store(value, Row(view, ()), i, self.op)
        return list(yields[: self.count])  # type: ignore[arg-type]

    # --- by vectors ---------------------------------------------------------------------------

    def vector_width(self) -> int | None:
        """The rows per vector group when every input and mapped output is a rank-1 view
        of one vector width (None: no vectors; an indexed op takes its rows one by one,
        as a vector of rows has no one row number)."""
        if self.row_count is not None:
            return None
        return shared_vector_width(self.inputs, self.mapped, self.op.map_body if self.fused else None)

    def vector_views(self, ins: Sequence[SSAValue], mapped: Sequence[SSAValue]) -> list[SSAValue]:
        """The kernel views whose alignment vector access needs."""
        return [*ins, *mapped]

    def group_at(self, kb: KernelBody, ins: Sequence[SSAValue], mapped: Sequence[SSAValue], at: SSAValue, width: int) -> list[list[SSAValue]]:
        """The operands of rows at .. at + width - 1 (one list per row), by vector loads;
        a fused op's mapped values of the group go out by vector stores."""
        loaded = [kb.b.insert(soacc_gpu.VectorLoadOp(v, at)).results for v in ins]
        rows = [[lanes[j] for lanes in loaded] for j in range(width)]
        if not self.fused:
            return rows
        body = self.op.map_body.block
        operands, outputs = [], []
        for row in rows:
            for param, value in zip(body.args, row):
                kb.values[param] = value
            kb.translate_block(body)
            yields = [kb.value(v) for v in body.last_op.operands]
            operands.append(yields[: self.count])
            outputs.append(yields[self.count :])
        for j, view in enumerate(mapped):
            kb.b.insert(soacc_gpu.VectorStoreOp([outputs[lane][j] for lane in range(width)], view, at))
        return operands


def store_scanned(kb: KernelBody, op: Operation, outputs: Sequence[SSAValue], scanned: Sequence[SSAValue], kept: Sequence[SSAValue], at: SSAValue) -> None:
    """Row `at` of a scan's outputs (kernel views): the scanned values, or, for a
    scanomap with a post lambda, what it makes of them and the values the map lambda
    kept for it (then the output rows of rank >= 2 are its parameters)."""
    if isinstance(op, mem.ScanomapOp) and op.post is not None:
        post = op.post.block
        values = [*scanned, *kept]
        for param, v in zip(post.args, values):
            kb.values[param] = v
        array_outs = [o for o in outputs if o.type.get_num_dims() > 1]
        for param, view in zip(post.args[len(values) :], array_outs):
            kb.values[param] = Row(view, (at,))
        kb.translate_block(post)
        for value, view in zip(post.last_op.operands, outputs):
            kb.store(kb.values[value], Row(view, ()), at, op)
        return
    for value, view in zip(scanned, outputs):
        kb.b.insert(memref.StoreOp.get(value, view, [at]))


def translate_nested(kb: KernelBody, op: Operation) -> None:
    """A fused combinator, or a hist, inside a kernel's lambda, run sequentially by its
    thread, row by row (as nested_reduce and nested_scan do for the unfused ones)."""
    elements = Elements.of(op)
    ins = [kb.materialise(v) for v in elements.inputs]
    mapped = [kb.materialise(v) for v in elements.mapped]
    n = kb.value(elements.row_count) if elements.row_count is not None else kb.op(memref.DimOp(ins[0], kb.constant(0)))
    if isinstance(op, mem.RedomapOp):
        combine = combiner(kb, op)
        neutral = [kb.value(v) for v in op.neutral]
        acc = kb.loop(n, lambda j, *acc: combine(list(acc), elements.at(kb, ins, mapped, j)), neutral)
        for old, new in zip(op.results_, acc):
            kb.values[old] = new
        for value, out in zip(acc if not op.results_ else [], op.reduce_outputs):
            kb.b.insert(memref.StoreOp.get(value, kb.materialise(out), []))
        return
    if isinstance(op, mem.ScanomapOp):
        combine = combiner(kb, op)
        outputs = [kb.materialise(v) for v in op.outputs]
        k = op.num_operands_scanned

        def step(j: SSAValue, *acc: SSAValue) -> list[SSAValue]:
            if op.post is None:
                operands, kept = elements.at(kb, ins, mapped, j), []
            else:
                yields = list(elements.all_yields_at(kb, ins, [], j))
                operands, kept = yields[:k], yields[k:]
            new = combine(list(acc), operands)
            store_scanned(kb, op, outputs, new, kept, j)
            return new

        kb.loop(n, step, [kb.value(v) for v in op.neutral])
        return
    dest = kb.materialise(op.dest)
    bins = kb.op(memref.DimOp(dest, kb.constant(0)))
    operator = op.body if isinstance(op, mem.HistOp) else getattr(op, "operator", None)  # (a scatteromap has none)
    swapped = False
    rows = isinstance(op, mem.HistOp | mem.HistomapOp) and dest.type.get_num_dims() > 1
    if rows:
        # a hist of rows: element by element, where its operator is so
        elementwise = elementwise_operator(operator) if dest.type.get_num_dims() == 2 else None
        if elementwise is None:
            raise CannotLower(op, "is a histogram of rows inside a kernel whose operator does not combine them element by element, which is not supported yet")
        operator, swapped = elementwise

    def write(j: SSAValue) -> None:
        b, v = elements.at(kb, ins, mapped, j)
        if not isinstance(b.type, IndexType):
            b = kb.op(arith.IndexCastOp(b, IndexType()))  # negatives become huge
        inside = kb.op(arith.CmpiOp(b, bins, "ult"))
        if isinstance(op, mem.ScatteromapOp):

            def scatter_into_bin() -> None:
                kb.b.insert(memref.StoreOp.get(v, dest, [b]))

            kb.when(inside, scatter_into_bin)
            return

        def combine(at: list[SSAValue], value: SSAValue) -> None:
            old = kb.op(memref.LoadOp.get(dest, at))
            (new,) = kb.apply_operator(operator, *(([value], [old]) if swapped else ([old], [value])))
            kb.b.insert(memref.StoreOp.get(new, dest, at))

        def combine_into_bin() -> None:  # the lambda's own destination: no other thread writes it
            if not rows:
                combine([b], v)
                return
            row = v if isinstance(v, Row) else Row(v, ())
            kb.loop(kb.dim(row, 0), lambda e: combine([b, e], kb.element_or_row(row, e)))

        kb.when(inside, combine_into_bin)

    kb.loop(n, write)


__all__ = [
    "Combine", "Elements", "shared_vector_width", "combiner", "elementwise_operator", "is_commutative", "operator_regions",
    "store_scanned", "translate_nested",
]
