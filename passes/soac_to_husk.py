"""soac-to-husk: data-parallel combinators of host code become husks, so that the
runtime can split their rows over several devices (Larsen, *Multi-GPU Futhark Using
Parallel Streams*, §3.5 and §4.2; docs/soac-to-husk.md).

- `soac.map` becomes a husk that concatenates: its body maps the partitions.
- `soac.reduce` and `soac.redomap` (reduce and a fused map-reduce) become a husk that
  reduces: its body reduces (and maps) the partitions, and the husk combines the
  devices' values with the same operators, in device order (no commutativity needed);
  a redomap's mapped arrays are concatenated.
- `soac.hist` and `soac.histomap` (past the thesis, which husks map and redomap only)
  become a husk whose body makes a histogram of its rows in bins of its own, filled
  with the neutral element; the husk combines the devices' histograms bin by bin with
  the operator, and a map combines the result into the destination
  (`histograms=false`, or one device, keeps them whole: there they would only cost).
  Bins of scalars only: the devices' bins are combined by a kernel over the bins,
  and bins that are rows (a histogram of vectors) would need a reduction of rows at
  host level, which has no kernel yet.
- `soac.scan` and `soac.scanomap` (past the thesis) over scalars become a **scan
  husk**: each device scans its rows, and the husk completes the scans across devices
  with the operator (each device's rows combined with the fold of the totals of the
  devices before it). A scanomap's post lambda becomes a map after the husk, itself a
  husk (`scans=false`, or one device, keeps them whole: two passes over the rows
  there would only cost). A scan of rows (arrays) stays whole, as histograms of rows
  do.
- `soac.scatteromap` (a map fused with a scatter, past the thesis) becomes a
  **scatter husk**: each device computes its rows' (index, value) pairs and mapped
  arrays; the pairs are written into the destination on the main device, whose
  memory it is (`scatters=false`, or one device, keeps them whole). A plain
  `soac.scatter` has no work to split and stays as it is.
- Nothing else, and nothing inside a kernel or a husk's body (one level: the thesis's
  E′).

Then the thesis's two rules simplify each husk:

- **an unused partition is dropped**: its source is not copied to any device; the
  husk's size stays, since it decides the work and the concatenated rows;
- **a source the body also reads whole is internalised**: it must be broadcast anyway,
  so its partition becomes a `soac.slice` of it inside the body (rows [offset, offset +
  size)), and no partition of it is made.

Each husk gets `work_per_row`, the estimate of the scalar operations its body runs per
row (passes/analysis/husk_work.py), which the runtime's cost model weighs against what
a split moves. `report=true` prints each husk made, with its partitions, broadcasts
and that estimate.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, IntegerAttr, ModuleOp, TensorType, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from soacc.dialects import husk, soac
from soacc.dialects.husk import WORK_PER_ROW
from soacc.passes.analysis.husk_work import work_per_row
from soacc.dialects.shared.traits import runs_on_device
from soacc.dialects.shared.utils import used_values

HUSKED = (soac.MapOp, soac.ReduceOp, soac.RedomapOp)
HISTOGRAMS = (soac.HistOp, soac.HistomapOp)
SCANS = (soac.ScanOp, soac.ScanomapOp)
SCATTERS = (soac.ScatteromapOp,)


def _partition_types(types: Sequence) -> list:
    """Result types as the body sees them: arrays of the partition's rows."""
    return [husk.partition_type(t) if isinstance(t, TensorType) else t for t in types]


def _inlined(block: Block, args: Sequence[SSAValue], at: Block) -> list[SSAValue]:
    """Clones `block`'s ops (but its terminator) at the end of `at`, its parameters
    bound to `args`; returns the values its terminator gives."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args))
    for op in block.ops:
        if op is block.last_op:
            return [mapping.get(v, v) for v in op.operands]
        at.add_op(op.clone(value_mapper=mapping))
    return []


def _reducer(op: Operation) -> Region:
    """The husk's operator: each of `op`'s operators (one for a reduce, one per group
    for a redomap) on its own values, in one region of 2K parameters."""
    if isinstance(op, soac.MapOp) or not op.neutral:
        return Region()
    regions = [op.body] if isinstance(op, soac.ReduceOp | soac.ScanOp) else list(op.operators)
    types = [v.type for v in op.neutral]
    block = Block(arg_types=[*types, *types])
    k = len(types)
    left, right = block.args[:k], block.args[k:]
    combined: list[SSAValue] = []
    start = 0
    for region in regions:
        arity = len(region.block.args) // 2
        group = range(start, start + arity)
        combined += _inlined(region.block, [*(left[i] for i in group), *(right[i] for i in group)], block)
        start += arity
    block.add_op(husk.YieldOp(*combined))
    return Region(block)


def _inner(op: Operation, parts: Sequence[SSAValue]) -> IRDLOperation:
    """`op` over the partitions instead of its inputs."""
    types = _partition_types([r.type for r in op.results])
    if isinstance(op, soac.MapOp):
        return soac.MapOp(parts, types, op.body.clone())
    if isinstance(op, soac.ReduceOp):
        return soac.ReduceOp(parts, op.neutral, op.body.clone(), op.commutative is not None)
    assert isinstance(op, soac.RedomapOp)
    return soac.RedomapOp(
        parts,
        op.neutral,
        op.map_body.clone(),
        [r.clone() for r in op.operators],
        [bool(f) for f in op.commutative.get_values()],
        types,
    )


def _rows_and_body(op: Operation, inputs: Sequence[SSAValue]) -> tuple[soac.SizeOp, Block]:
    """The rows a husk of `op` splits (`soac.size` of its first input, placed before
    `op`) and its body's block: offset, size, then a partition of each input."""
    size = soac.SizeOp(inputs[0], 0)
    size.result.name_hint = "rows"
    Rewriter.insert_op(size, InsertPoint.before(op))
    return size, _partitioned_block(inputs)


def _partitioned_block(inputs: Sequence[SSAValue]) -> Block:
    """A husk body's block: offset, size, then a partition of each input (named after
    it)."""
    body = Block(arg_types=[IndexType(), IndexType(), *(husk.partition_type(v.type) for v in inputs)])
    body.args[0].name_hint, body.args[1].name_hint = "offset", "size"
    for part, source in zip(body.args[2:], inputs):
        if source.name_hint:
            part.name_hint = f"{source.name_hint}_part"
    return body


def husk_of(op: Operation) -> husk.HuskOp:
    """A husk equal to the combinator `op` (placed before it; `op` is left alone)."""
    inputs = list(op.inputs)
    size, body = _rows_and_body(op, inputs)
    inner = _inner(op, body.args[2:])
    body.add_op(inner)
    body.add_op(husk.YieldOp(*inner.results))
    made = husk.HuskOp(size, inputs, op.neutral if not isinstance(op, soac.MapOp) else [], [r.type for r in op.results], Region(body), _reducer(op))
    for new, old in zip(made.outputs, op.results):
        new.name_hint = old.name_hint
    return made


def husk_of_histogram(op: soac.HistOp | soac.HistomapOp) -> tuple[husk.HuskOp, list[SSAValue]]:
    """A husk that makes the histogram of `op`'s rows bin by bin (placed before `op`,
    which is left alone), and what replaces `op`'s results: the destination combined
    with the husk's histogram by a map of the operator, then the mapped arrays.

    Each device's body makes a histogram of its rows in bins of its own (`soac.replicate`
    of the neutral element); the husk combines them with a map of the operator, which
    is associative and commutative (a histogram's), so the result is the histogram of
    every row whatever the split, as a reduction's is."""
    dest = op.dest
    histogram = dest.type
    outer = dest.type.get_shape()[0] if dest.type.get_shape() else DYNAMIC_INDEX
    operator = op.body if isinstance(op, soac.HistOp) else op.operator
    inputs = [op.indices, op.values] if isinstance(op, soac.HistOp) else list(op.inputs)
    bins = soac.SizeOp(dest, 0)
    bins.result.name_hint = "bin_count"
    empty = soac.ReplicateOp(bins.result, op.neutral, outer)
    empty.result.name_hint = "empty_bins"
    rows = soac.SizeOp(inputs[0], 0)
    rows.result.name_hint = "rows"
    Rewriter.insert_op([bins, empty, rows], InsertPoint.before(op))

    body = _partitioned_block(inputs)
    parts = body.args[2:]
    own = soac.ReplicateOp(bins.result, op.neutral, outer)
    own.result.name_hint = "own_bins"
    if isinstance(op, soac.HistOp):
        inner: IRDLOperation = soac.HistOp(own.result, parts[0], parts[1], op.neutral, operator.clone())
    else:
        mapped = _partition_types([r.type for r in op.outputs[1:]])
        inner = soac.HistomapOp(own.result, parts, op.neutral, op.map_body.clone(), operator.clone(), mapped)
    body.add_ops([own, inner, husk.YieldOp(*inner.results)])

    combine = Block(arg_types=[histogram, histogram])
    combine.args[0].name_hint, combine.args[1].name_hint = "left", "right"  # (in device order)
    combined = soac.MapOp(list(combine.args), [histogram], operator.clone())
    combine.add_ops([combined, husk.YieldOp(combined.results[0])])
    results = list(op.results)
    made = husk.HuskOp(rows.result, inputs, [empty.result], [r.type for r in results], Region(body), Region(combine))
    for new, old in zip(made.outputs[1:], results[1:]):
        new.name_hint = old.name_hint
    made.outputs[0].name_hint = "histogram"
    Rewriter.insert_op(made, InsertPoint.before(op))
    into = soac.MapOp([dest, made.outputs[0]], [dest.type], operator.clone())
    into.results[0].name_hint = results[0].name_hint
    Rewriter.insert_op(into, InsertPoint.before(op))
    return made, [into.results[0], *made.outputs[1:]]


def husk_of_scan(op: soac.ScanOp | soac.ScanomapOp) -> tuple[husk.HuskOp, list[SSAValue]]:
    """A scan husk equal to `op` (placed before it; `op` is left alone), and what
    replaces `op`'s results: the husk's, or, for a scanomap with a post lambda, those
    of a map of the post lambda over them (also placed before `op`; the caller makes
    it a husk)."""
    inputs = list(op.inputs)
    size, body = _rows_and_body(op, inputs)
    parts = body.args[2:]
    if isinstance(op, soac.ScanOp):
        whole = [r.type for r in op.results]
        inner: IRDLOperation = soac.ScanOp(parts, op.neutral, op.body.clone(), op.commutative is not None)
    else:
        outer = inputs[0].type.get_shape()[0]
        whole = [soac.array_of(v.type, outer) for v in op.map_body.block.last_op.operands]
        inner = soac.ScanomapOp(
            parts, op.neutral, op.map_body.clone(), [r.clone() for r in op.operators],
            [bool(f) for f in op.commutative.get_values()], _partition_types(whole),
        )
    body.add_ops([inner, husk.YieldOp(*inner.results)])
    made = husk.HuskOp(size, inputs, op.neutral, whole, Region(body), _reducer(op), scan=True)
    post = op.post if isinstance(op, soac.ScanomapOp) else None
    if post is None:
        for new, old in zip(made.outputs, op.results):
            new.name_hint = old.name_hint
    else:  # (the post lambda's map makes the results)
        for j, new in enumerate(made.outputs):
            new.name_hint = "scanned" if j < len(op.neutral) else "mapped"
    Rewriter.insert_op(made, InsertPoint.before(op))
    if post is None:
        return made, list(made.outputs)
    after = soac.MapOp(list(made.outputs), [r.type for r in op.results], post.clone())
    for new, old in zip(after.results, op.results):
        new.name_hint = old.name_hint
    Rewriter.insert_op(after, InsertPoint.before(op))
    return made, list(after.results)


def husk_of_scatter(op: soac.ScatteromapOp) -> husk.HuskOp:
    """A scatter husk equal to `op` (placed before it; `op` is left alone): its body
    maps its rows to the (index, value) pairs and mapped rows of `op`'s map lambda."""
    inputs = list(op.inputs)
    size, body = _rows_and_body(op, inputs)
    parts = body.args[2:]
    outer = inputs[0].type.get_shape()[0]
    whole = [soac.array_of(v.type, outer) for v in op.map_body.block.last_op.operands]
    inner = soac.MapOp(parts, _partition_types(whole), op.map_body.clone())
    inner.results[0].name_hint, inner.results[1].name_hint = "indices", "values"
    body.add_ops([inner, husk.YieldOp(*inner.results)])
    made = husk.HuskOp(size, inputs, [], [op.dest.type, *whole[2:]], Region(body), Region(), dest=op.dest)
    for new, old in zip(made.outputs, op.results):
        new.name_hint = old.name_hint
    Rewriter.insert_op(made, InsertPoint.before(op))
    return made


def _drop_unread_rows(made: husk.HuskOp) -> None:
    """A map (or redomap) of the body whose lambda never reads the rows of a partition
    stops taking it (Futhark's simplifier drops such map inputs before the thesis's
    rule sees the partition unused); one left with no input maps `iota %size` instead,
    which keeps its width and which fuse-iota makes free."""
    partitions = set(made.partitions)
    for op in made.body.block.ops:
        if not isinstance(op, soac.MapOp | soac.RedomapOp):
            continue
        lam = op.body.block if isinstance(op, soac.MapOp) else op.map_body.block
        inputs = list(op.inputs)
        for k in reversed(range(len(inputs))):
            if inputs[k] not in partitions or lam.args[k].uses:
                continue
            if len(inputs) > 1:
                del inputs[k]
                lam.erase_arg(lam.args[k])
                continue
            iota = soac.IotaOp(made.size_arg, TensorType(IndexType(), (DYNAMIC_INDEX,)))
            made.body.block.insert_op_before(iota, op)
            inputs[k] = iota.result
            lam.erase_arg(lam.args[k])
            lam.insert_arg(IndexType(), k)
        if len(inputs) == len(op.inputs) and all(a is b for a, b in zip(inputs, op.inputs)):
            continue
        if isinstance(op, soac.MapOp):
            op.operands = inputs
        else:
            op.operands = [*inputs, *op.neutral]
            op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(inputs), len(op.neutral)])


def _own_iota_rows(made: husk.HuskOp) -> None:
    """A source that is `soac.iota %m` is not sent anywhere: a device's rows of it are
    offset + iota(size), which the body makes itself. Where its partition is an input
    of the body's maps (and nothing else), each map takes `soac.iota %size` instead
    and adds the offset to its row number; fuse-iota then makes the iota free, as it
    does without the husk (the Mandelbrot and Tunnel patterns map over an iota)."""
    body = made.body.block
    for part, source in zip(made.partitions, made.sources):
        if not isinstance(source.owner, soac.IotaOp) or not part.uses:
            continue
        users = list(dict.fromkeys(use.operation for use in part.uses))  # (in order of use: names are stable)
        if not all(isinstance(u, soac.MapOp | soac.RedomapOp) and u.parent_block() is body for u in users):
            continue
        if any(list(u.inputs).count(part) != 1 for u in users):
            continue
        for user in users:
            k = list(user.inputs).index(part)
            iota = soac.IotaOp(made.size_arg, part.type)
            body.insert_op_before(iota, user)
            user.operands = [iota.result if v is part else v for v in user.operands]
            lam = (user.body if isinstance(user, soac.MapOp) else user.map_body).block
            row = lam.args[k]
            if not row.uses:
                continue
            offset: SSAValue = made.offset_arg
            first = lam.first_op
            if row.type != offset.type:
                cast = arith.IndexCastOp(offset, row.type)
                lam.insert_op_before(cast, first)
                offset = cast.result
            shifted = arith.AddiOp(row, offset)
            lam.insert_op_before(shifted, first)
            row.replace_all_uses_with(shifted.result)
            shifted.operands = [row, offset]  # (the replacement took its own operand too)


def simplify(made: husk.HuskOp) -> tuple[list[int], list[int]]:
    """The thesis's two rules, in place: drops unused partitions, and internalises
    those whose source the body reads whole. Returns the indices (among the original
    sources) dropped and internalised."""
    _own_iota_rows(made)
    _drop_unread_rows(made)
    inside = {v for op in made.body.walk() for v in op.operands}
    dropped, internalised = [], []
    body = made.body.block
    for j in reversed(range(len(made.sources))):
        part = body.args[2 + j]
        source = made.sources[j]
        if not part.uses:
            dropped.append(j)
        elif source in inside:
            internalised.append(j)
            kinds = [soac.SliceSpec.RANGE]
            piece = soac.SliceOp(source, kinds, [made.offset_arg, made.size_arg], part.type)
            piece.result.name_hint = part.name_hint
            body.insert_op_before(piece, body.first_op)
            part.replace_all_uses_with(piece.result)
        else:
            continue
        body.erase_arg(part)
        sources, neutral, dest = list(made.sources), list(made.neutral), [made.dest] if made.is_scatter else []
        del sources[j]
        made.operands = [made.size, *sources, *neutral, *dest]
        made.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, len(sources), len(neutral), len(dest)])
    return sorted(dropped), sorted(internalised)


def candidates(function: func.FuncOp, histograms: bool = True, scans: bool = True, scatters: bool = True) -> list[Operation]:
    """The combinators of `function`'s host code that become husks."""
    kinds = HUSKED + (HISTOGRAMS if histograms else ()) + (SCANS if scans else ()) + (SCATTERS if scatters else ())
    return [
        op
        for op in function.walk()
        if isinstance(op, kinds) and not runs_on_device(op) and husk.enclosing_husk(op) is None
        and (not isinstance(op, HISTOGRAMS) or op.dest.type.get_num_dims() == 1)
        and (not isinstance(op, SCANS) or not any(isinstance(v.type, TensorType) for v in op.neutral))
    ]


@dataclass(frozen=True)
class SoacToHuskPass(ModulePass):
    """map, reduce, redomap, histograms, scans and fused scatters in host code become
    husks (module docstring)."""

    name = "soac-to-husk"

    report: bool = False
    """Print each husk made: its combinator, partitioned and broadcast arrays."""

    histograms: bool = True
    """Split histograms (soac.hist, soac.histomap) too: bins of each device's own,
    combined (the pipeline turns it off for one device, where it would only cost)."""

    scans: bool = True
    """Split scans (soac.scan, soac.scanomap) too: each device's scan of its rows,
    completed across devices (the pipeline turns it off for one device)."""

    scatters: bool = True
    """Split fused scatters (soac.scatteromap) too: each device's pairs, written on
    the main device (the pipeline turns it off for one device)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:  # (found before anything changes)
            for combinator in candidates(function, self.histograms, self.scans, self.scatters):
                made_here: list[tuple[Operation, husk.HuskOp]] = []
                if isinstance(combinator, HISTOGRAMS):
                    made, replacements = husk_of_histogram(combinator)
                elif isinstance(combinator, SCATTERS):
                    made = husk_of_scatter(combinator)
                    replacements = list(made.outputs)
                elif isinstance(combinator, SCANS):
                    made, replacements = husk_of_scan(combinator)
                    after = replacements[0].owner
                    if isinstance(after, soac.MapOp):  # a scanomap's post lambda: a map, husked too
                        post = husk_of(after)
                        Rewriter.insert_op(post, InsertPoint.before(after))
                        Rewriter.replace_op(after, [], list(post.outputs))
                        replacements = list(post.outputs)
                        made_here.append((after, post))
                else:
                    made = husk_of(combinator)
                    Rewriter.insert_op(made, InsertPoint.before(combinator))
                    replacements = list(made.outputs)
                Rewriter.replace_op(combinator, [], replacements)
                for what, husked in [(combinator, made), *made_here]:
                    dropped, internalised = simplify(husked)
                    husked.attributes[WORK_PER_ROW] = IntegerAttr(work_per_row(husked), i64)
                    if self.report:
                        self._report(function, what, husked, dropped, internalised)

    @staticmethod
    def _report(function: func.FuncOp, combinator: Operation, made: husk.HuskOp, dropped, internalised) -> None:
        names = [f"%{v.name_hint}" if v.name_hint else "(unnamed)" for v in made.sources]
        broadcast = [
            f"%{v.name_hint}" if v.name_hint else "(unnamed)"
            for v in used_values(made)
            if isinstance(v.type, TensorType) and v not in made.sources and v not in made.neutral and v is not made.dest
        ]
        what = ", ".join(f"%{r.name_hint}" for r in made.outputs if r.name_hint) or "no named result"
        notes = []
        if dropped:
            notes.append(f"{len(dropped)} unused partition(s) dropped")
        if internalised:
            notes.append(f"{len(internalised)} partition(s) internalised")
        if made.is_scatter:
            notes.append(f"pairs written into {f'%{made.dest.name_hint}' if made.dest.name_hint else 'its destination'} on the main device")
        work = made.attributes[WORK_PER_ROW].value.data
        print(
            f"soac-to-husk: @{function.sym_name.data}: {combinator.name} ({what}): partitions "
            f"{', '.join(names) or 'none'}; broadcast {', '.join(broadcast) or 'none'}"
            + (f"; {'; '.join(notes)}" if notes else "")
            + f"; ~{work} op(s) per row",
            file=sys.stderr,
        )
