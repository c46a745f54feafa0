"""soac-fusion: producer-consumer (vertical) and horizontal fusion of SOACs, after
Futhark's fusion (level 1).

Every combinator is seen as Futhark's *screma*: a map lambda over the rows of its inputs
that yields the operands of a combinator part (none for a map; reduce or scan operators;
a scatter or a hist into a destination) and then *mapped* values, which are results. A
scan may be followed by a *post* lambda (a map after the scan). Two combinators of one
block are fused by composing their lambdas into one, so that values flow from one to the
other per row, in registers, instead of through an array in memory:

- vertical (producer-consumer): a consumer that takes a producer's array as an *input*
  (row by row) gets the producer's lambda in front of its own: map-map, map into reduce
  or scan (soac.redomap, soac.scanomap), map into scatter or hist (soac.scatteromap,
  soac.histomap), a map (or a reduce) of a redomap's mapped arrays, and a map after a
  scan (the scanomap's post lambda);
- horizontal: two combinators that read a common input and do not depend on each other
  become one pass over the data (a map and a reduce become one redomap, two reduces one
  redomap with two operators, ...);
- fusion happens in every block, the lambdas' bodies included (a map of a map and a
  reduce over each row becomes a map of a redomap: a segmented redomap), and repeats until
  nothing more fuses (a chain of five maps becomes one map).

Each rule has its legality condition, checked by passes/analysis/block_dataflow.py:

- the consumer reads the producer's arrays only as inputs, row by row (an array indexed
  inside a lambda, given as a neutral element or as a destination, stays an array);
- a producer array that something else uses too is kept: the fused op also gives it, as a
  mapped result (no work is repeated: each row is computed once). Every such other use
  must come after the consumer, since the fused op takes the consumer's place: an array
  used in between (host code reading an element with soac.index, say) stays apart;
- nothing moves across an op that consumes what it reads (`update`, `scatter` and `hist`
  consume their destination), and a consumer that consumes an array the producer reads is
  not fused with it;
- horizontally fused ops must not depend on each other, even through host code, and one
  of them must be able to move to the other (nothing in between uses its results, or it
  reads nothing made in between);
- the fused form must exist: operands of the combinator part are scalars (a reduce of
  arrays of rows stays a soac.reduce), and scatter, hist and scan do not combine with each
  other or with a reduce;
- a host-level map whose lambda runs a combinator over each row (row sums) is not fused
  into a reduce or scan: as a map of its own its rows go to blocks or warps
  (lowering/gpu_segmented.py), in a redomap each row would be one thread's loop (srad's
  image statistics took 78 µs a sweep so, on an H200); inside a lambda, where all of it
  is one thread's work, it is;
- producer and consumer are in the same block: nothing is fused into a loop or a lambda
  (that would compute the producer again in every iteration or row).

The reduction order never changes: each operator of a fused op reduces its own operands
exactly as the unfused reduce did, so results are the same to the last bit.
`soac-fusion{report=true}` prints every fusion and every refusal, with its reason.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, ModuleOp
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.dialects import func
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import SymbolTable
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from soacc.dialects import soac
from soacc.dialects.shared.traits import runs_on_device
from soacc.passes.analysis.block_dataflow import BlockOrder, captured_values, consumed_values, read_values
from soacc.passes.utils.size_checks import insert_size_check

MAP, REDUCE, SCAN, SCATTER, HIST = "map", "reduce", "scan", "scatter", "hist"


# --------------------------------------------------------------------------------------
# Every combinator as a screma
# --------------------------------------------------------------------------------------


def _identity_lambda(types: Sequence[Attribute]) -> Region:
    block = Block(arg_types=types)
    Rewriter.insert_op(soac.YieldOp(*block.args), InsertPoint.at_end(block))
    return Region(block)


@dataclass
class Screma:
    """A combinator as a map lambda `pre` over the rows of `inputs`, yielding `k`
    operands of its combinator part, then mapped values (its mapped results)."""

    op: Operation
    kind: str
    inputs: list[SSAValue]
    pre: Region
    k: int
    operators: list[Region] = field(default_factory=list)
    neutral: list[SSAValue] = field(default_factory=list)
    commutative: list[bool] = field(default_factory=list)
    post: Region | None = None
    dest: SSAValue | None = None

    @staticmethod
    def of(op: Operation) -> Screma | None:
        match op:
            case soac.MapOp():
                return Screma(op, MAP, list(op.inputs), op.body, 0)
            case soac.ReduceOp() | soac.ScanOp():
                rows = [soac.row_type(v.type) for v in op.inputs]
                return Screma(
                    op, REDUCE if isinstance(op, soac.ReduceOp) else SCAN, list(op.inputs), _identity_lambda(rows),
                    len(rows), [op.body], list(op.neutral), [op.commutative is not None],
                )
            case soac.RedomapOp() | soac.ScanomapOp():
                flags = [bool(f) for f in op.commutative.get_values()]
                is_reduce = isinstance(op, soac.RedomapOp)
                k = op.num_operands_reduced if is_reduce else op.num_operands_scanned
                return Screma(
                    op, REDUCE if is_reduce else SCAN, list(op.inputs), op.map_body, k, list(op.operators),
                    list(op.neutral), flags, None if is_reduce else op.post,
                )
            case soac.ScatterOp():
                rows = [soac.row_type(op.indices.type), soac.row_type(op.values.type)]
                return Screma(op, SCATTER, [op.indices, op.values], _identity_lambda(rows), 2, dest=op.dest)
            case soac.HistOp():
                rows = [soac.row_type(op.indices.type), soac.row_type(op.values.type)]
                return Screma(
                    op, HIST, [op.indices, op.values], _identity_lambda(rows), 2, [op.body], [op.neutral], [True], dest=op.dest
                )
            case soac.ScatteromapOp():
                return Screma(op, SCATTER, list(op.inputs), op.map_body, 2, dest=op.dest)
            case soac.HistomapOp():
                return Screma(op, HIST, list(op.inputs), op.map_body, 2, [op.operator], [op.neutral], [True], dest=op.dest)
        return None

    @property
    def results(self) -> list[OpResult]:
        return list(self.op.results)

    @property
    def operand_types(self) -> list[Attribute]:
        return [v.type for v in self.pre.block.last_op.operands[: self.k]]

    @property
    def other_operands(self) -> list[SSAValue]:
        """What it reads besides its inputs: neutral elements, the destination."""
        return [*self.neutral, *([self.dest] if self.dest is not None else [])]

    def tail_results(self) -> list[OpResult]:
        """Results of the combinator part (not available row by row in the lambda)."""
        if self.kind in (SCATTER, HIST):
            return self.results[:1]
        if self.kind in (REDUCE, SCAN) and self.post is None:
            return self.results[: self.k]
        return []

    def row_value_type(self, r: OpResult) -> Attribute:
        """The type of the value a lambda gives for a row of result `r`."""
        if self.post is not None:
            return self.post.block.last_op.operands[r.index].type
        if r in self.tail_results():
            return self.operand_types[r.index]  # a scanned value
        return self.pre.block.last_op.operands[dict(self.mapped())[r]].type

    def mapped(self) -> list[tuple[OpResult, int]]:
        """Results whose rows the map lambda yields: (result, index of the yield)."""
        if self.post is not None:
            return []
        offset = 1 if self.kind in (SCATTER, HIST) else 0
        return [(r, r.index + offset) for r in self.results if r not in self.tail_results()]


# --------------------------------------------------------------------------------------
# Building the fused op
# --------------------------------------------------------------------------------------


class Refused(Exception):
    """A fusion that is not done, and why."""


def _emit(region: Region, args: Sequence[SSAValue], builder: Builder) -> list[SSAValue]:
    """Clones a lambda's body at the builder with its parameters bound to `args`;
    returns the values it yields."""
    mapper: dict[SSAValue, SSAValue] = dict(zip(region.block.args, args))
    for op in region.block.ops:
        if op is region.block.last_op:
            break
        builder.insert(op.clone(value_mapper=mapper))
    return [mapper.get(v, v) for v in region.block.last_op.operands]


def _combined_kind(a: str, b: str) -> str | None:
    if a == MAP:
        return b
    if b == MAP:
        return a
    if a == b and a in (REDUCE, SCAN):
        return a
    return None


def _unique(values: Sequence[SSAValue]) -> list[SSAValue]:
    return list(dict.fromkeys(values))


def _lambda_block(inputs: Sequence[SSAValue], templates: Sequence[Screma]) -> tuple[Block, dict[SSAValue, SSAValue]]:
    """A new map lambda over the rows of `inputs`; parameters named after the ones of
    the lambdas being fused."""
    block = Block(arg_types=[soac.row_type(v.type) for v in inputs])
    param_of = dict(zip(inputs, block.args))
    for s in templates:
        for v, old in zip(s.inputs, s.pre.block.args):
            if v in param_of and old.name_hint and not param_of[v].name_hint:
                param_of[v].name_hint = old.name_hint
    return block, param_of


@dataclass
class Fused:
    """The fused op (not yet inserted) and what each old result becomes."""

    op: Operation
    replaces: list[tuple[SSAValue, SSAValue]]
    form: str


def _post_side(s: Screma, keep: set[SSAValue], pre_yields: list[SSAValue]):
    """How one side of a merged scanomap carries its values to the post lambda: the
    mapped values it passes on, and a function building its results' rows there from
    its scanned values and those carried values (and naming those parameters)."""
    if s.post is not None:
        carried = pre_yields[s.k :]

        def build(b: Builder, scanned, carried_args):
            _name_like([*scanned, *carried_args], s.post.block.args)
            rows = _emit(s.post, [*scanned, *carried_args], b)
            return [(r, rows[r.index]) for r in s.results if r in keep]

        return carried, build
    kept = [(r, j) for r, j in s.mapped() if r in keep]
    carried = [pre_yields[j] for _, j in kept]

    def build(b: Builder, scanned, carried_args):
        _name_like([*scanned, *carried_args], [*s.tail_results(), *[r for r, _ in kept]])
        return list(zip(s.tail_results(), scanned)) + [(r, v) for (r, _), v in zip(kept, carried_args)]

    return carried, build


def _name_like(values: Sequence[SSAValue], models: Sequence[SSAValue]) -> None:
    for v, m in zip(values, models):
        if m.name_hint and not v.name_hint:
            v.name_hint = m.name_hint


def _make_op(
    kind: str, parts: Sequence[Screma], inputs: list[SSAValue], pre: Block, slots: list[SSAValue], post: Block | None
) -> Operation:
    """The op of `kind` with this map lambda (and post lambda), combining the parts'
    operators in order; its results replace `slots`."""
    types = [v.type for v in slots]
    regions = [Region(pre)]
    post_region = Region(post) if post is not None else None
    for r in [*regions, *([post_region] if post_region else [])]:
        region_dce(r)
    _drop_unused_inputs(pre, inputs)
    sides = [s for s in parts if s.kind != MAP]
    operators = [r.clone() for s in sides for r in s.operators]
    neutral = [v for s in sides for v in s.neutral]
    flags = [f for s in sides for f in s.commutative]
    match kind:
        case "map":
            return soac.MapOp(inputs, types, regions[0])
        case "reduce":
            return soac.RedomapOp(inputs, neutral, regions[0], operators, flags, types)
        case "scan":
            return soac.ScanomapOp(inputs, neutral, regions[0], operators, flags, types, post_region)
        case "scatter":
            (side,) = sides
            return soac.ScatteromapOp(side.dest, inputs, regions[0], types[1:])
        case "hist":
            (side,) = sides
            return soac.HistomapOp(side.dest, inputs, side.neutral[0], regions[0], operators[0], types[1:])
    raise AssertionError(kind)


def _drop_unused_inputs(block: Block, inputs: list[SSAValue]) -> None:
    """Inputs whose rows the fused lambda no longer reads (at least one stays: it gives
    the number of rows)."""
    for i in reversed(range(len(inputs))):
        if len(inputs) > 1 and not block.args[i].uses:
            block.erase_arg(block.args[i])
            del inputs[i]


def _row_combinator(s: Screma) -> Operation | None:
    """A combinator over a row in the screma's map lambda (a map of rows that reduces
    each, say). Fused into a reduction or scan, its rows would each be one thread's
    sequential loop, reading addresses a row apart; as a map of its own the rows go to
    blocks or warps (lowering/gpu_segmented.py), which reads them coalesced and fills
    the GPU however few rows there are, for the price of one value per row in memory."""
    for op in s.pre.walk():
        if _is_combinator(op):
            return op
    return None


def _check_scalar_operands(s: Screma) -> None:
    """Fused combinators take scalar operands: a reduce, scan, scatter or hist of rows
    (arrays) has no fused form."""
    for t in s.operand_types:
        if not soac.is_element_type(t):
            raise Refused(f"{_describe(s.op)} combines arrays of rows ({t}); fused combinators take scalar operands")


def merge(p: Screma, c: Screma, connected: dict[int, OpResult], keep: set[SSAValue]) -> Fused:
    """The fusion of `p` and then `c`: `connected` gives, per input of c, the result of
    p it is (empty for horizontal fusion); `keep` are the results of p that the fused op
    must still give. Raises Refused where no fused form exists."""
    kind = _combined_kind(p.kind, c.kind)
    pre_level = {r for r, _ in p.mapped()}
    into_post = bool(connected) and not set(connected.values()) <= pre_level
    if into_post and not (p.kind == SCAN and c.kind == MAP):
        late = next(r for r in connected.values() if r not in pre_level)
        raise Refused(
            f"{_describe(c.op)} reads {_name(late)}, which {_describe(p.op)} gives only after its "
            f"{p.kind}, not row by row"
        )
    for s in (p, c):
        _check_scalar_operands(s)
    if kind in (REDUCE, SCAN) and not runs_on_device(c.op):  # (in a lambda all is one thread's anyway)
        for s in (p, c):
            nested = _row_combinator(s)
            if nested is not None:
                raise Refused(
                    f"{_describe(s.op)} {nested.name.removeprefix('soac.')}s each row: as a map it gets a block "
                    f"or a warp per row (gpu_segmented), in a {kind} one thread per row"
                )
    for i, r in connected.items():
        # the lambda may yield a row of a less static type than the array's (tensor<?xf32>
        # for rows of tensor<8xf32>): the consumer's lambda must not get another type
        value, param = p.row_value_type(r), c.pre.block.args[i].type
        if value != param:
            raise Refused(f"{_describe(c.op)} takes rows of {_name(r)} as {param}, but they are made as {value}")
    if into_post:
        return _merge_into_post(p, c, connected, keep)
    if kind is None:
        raise Refused(f"there is no fused form of a {p.kind} and a {c.kind}")
    return _merge_into_pre(kind, p, c, connected, keep)


def _merge_into_pre(kind: str, p: Screma, c: Screma, connected: dict[int, OpResult], keep: set[SSAValue]) -> Fused:
    """c's lambda runs after p's, in one map lambda."""
    inputs = _unique([*p.inputs, *[v for i, v in enumerate(c.inputs) if i not in connected]])
    pre, param_of = _lambda_block(inputs, [p, c])
    b = Builder(InsertPoint.at_end(pre))
    p_rows = _emit(p.pre, [param_of[v] for v in p.inputs], b)
    c_rows = _emit(
        c.pre, [p_rows[dict(p.mapped())[connected[i]]] if i in connected else param_of[v] for i, v in enumerate(c.inputs)], b
    )
    operands = [*p_rows[: p.k], *c_rows[: c.k]]
    post = None
    if kind == SCAN and (p.post is not None or c.post is not None):
        p_carried, p_build = _post_side(p, keep, p_rows)
        c_carried, c_build = _post_side(c, set(c.results), c_rows)
        b.insert(soac.YieldOp(*operands, *p_carried, *c_carried))
        post = Block(arg_types=[v.type for v in [*operands, *p_carried, *c_carried]])
        args = list(post.args)
        pb = Builder(InsertPoint.at_end(post))
        pairs = p_build(pb, args[: p.k], args[len(operands) : len(operands) + len(p_carried)])
        pairs += c_build(pb, args[p.k : len(operands)], args[len(operands) + len(p_carried) :])
        pb.insert(soac.YieldOp(*[v for _, v in pairs]))
        slots = [r for r, _ in pairs]
    else:
        p_kept = [(r, p_rows[j]) for r, j in p.mapped() if r in keep]
        c_mapped = [(r, c_rows[j]) for r, j in c.mapped()]
        b.insert(soac.YieldOp(*operands, *[v for _, v in p_kept], *[v for _, v in c_mapped]))
        slots = [*p.tail_results(), *c.tail_results(), *[r for r, _ in p_kept], *[r for r, _ in c_mapped]]
    op = _make_op(kind, [p, c], inputs, pre, slots, post)
    return Fused(op, list(zip(slots, op.results)), op.name)


def _merge_into_post(p: Screma, c: Screma, connected: dict[int, OpResult], keep: set[SSAValue]) -> Fused:
    """A map after a scan: the map's lambda runs in the scanomap's post lambda, on the
    scanned values and the rows it reads (passed on by the map lambda)."""
    forwarded = _unique([v for i, v in enumerate(c.inputs) if i not in connected])
    inputs = _unique([*p.inputs, *forwarded])
    pre, param_of = _lambda_block(inputs, [p, c])
    b = Builder(InsertPoint.at_end(pre))
    p_rows = _emit(p.pre, [param_of[v] for v in p.inputs], b)
    p_carried, p_build = _post_side(p, set(p.results), p_rows)
    operands = p_rows[: p.k]
    b.insert(soac.YieldOp(*operands, *p_carried, *[param_of[v] for v in forwarded]))
    post = Block(arg_types=[v.type for v in [*operands, *p_carried]] + [soac.row_type(v.type) for v in forwarded])
    args = list(post.args)
    pb = Builder(InsertPoint.at_end(post))
    p_pairs = p_build(pb, args[: p.k], args[p.k : p.k + len(p_carried)])
    p_value = dict(p_pairs)
    forwarded_arg = dict(zip(forwarded, args[p.k + len(p_carried) :]))
    _name_like(forwarded_arg.values(), forwarded)
    c_rows = _emit(c.pre, [p_value[connected[i]] if i in connected else forwarded_arg[v] for i, v in enumerate(c.inputs)], pb)
    kept = [(r, v) for r, v in p_pairs if r in keep]
    pb.insert(soac.YieldOp(*[v for _, v in kept], *c_rows))
    slots = [*[r for r, _ in kept], *c.results]
    op = _make_op(SCAN, [p, c], inputs, pre, slots, post)
    return Fused(op, list(zip(slots, op.results)), op.name)


def inline_replicates(s: Screma, replicated: dict[int, soac.ReplicateOp]) -> Fused:
    """`s` with the inputs `replicated` (replicates of a value) taken away: its lambda
    uses the replicated value instead of their rows. Raises Refused where the result
    would have no fused form (a scatter, hist, reduce or scan of rows)."""
    if s.kind != MAP:
        _check_scalar_operands(s)
    inputs = _unique([v for i, v in enumerate(s.inputs) if i not in replicated])
    pre, param_of = _lambda_block(inputs, [s])
    b = Builder(InsertPoint.at_end(pre))
    b.insert(soac.YieldOp(*_emit(s.pre, [replicated[i].value if i in replicated else param_of[v] for i, v in enumerate(s.inputs)], b)))
    post = None
    if s.post is not None:
        post = Block(arg_types=[a.type for a in s.post.block.args])
        for new, old in zip(post.args, s.post.block.args):
            new.name_hint = old.name_hint
        pb = Builder(InsertPoint.at_end(post))
        pb.insert(soac.YieldOp(*_emit(s.post, post.args, pb)))
    op = _make_op(s.kind, [s], inputs, pre, s.results, post)
    return Fused(op, list(zip(s.results, op.results)), op.name)


def replicated_inputs(s: Screma) -> dict[int, soac.ReplicateOp]:
    """Inputs of `s` that are replicates of a value of the row's type (all but one,
    when every input is: one input must stay to give the number of rows)."""
    found = {
        i: v.op
        for i, v in enumerate(s.inputs)
        if isinstance(v, OpResult) and isinstance(v.op, soac.ReplicateOp) and v.op.value.type == soac.row_type(v.type)
    }
    if len(found) == len(s.inputs):
        found.pop(min(found))
    # The combinator checks that its inputs have one outer size: a replicate may go only
    # where the inputs that stay say its count, or the check (and a run-time error the
    # program has as written) would go with it.
    staying = [v for i, v in enumerate(s.inputs) if i not in found]
    return {i: rep for i, rep in found.items() if _count_is_outer_size(rep.count, staying)}


def _count_is_outer_size(count: SSAValue, arrays: list[SSAValue]) -> bool:
    """`count` is provably the outer size of one of `arrays`."""
    size = _size_of(count)
    return any(_outer_size(a) == size for a in arrays)


def _outer_size(array: SSAValue, depth: int = 0) -> object:
    """A representative of an array's outer size, equal for arrays whose outer sizes are
    provably equal: a static size, or the array (or count) it comes from: a map's rows
    are its first input's, an iota's or replicate's their count, a size op's its array's,
    a call's result what the callee returns in terms of its arguments."""
    static = array.type.get_shape()[0]
    if static != DYNAMIC_INDEX:
        return static
    op = array.owner
    if isinstance(op, soac.IotaOp | soac.ReplicateOp):
        return _size_of(op.count, depth)
    if isinstance(op, soac.MapOp | soac.ScanOp | soac.ScanomapOp) and op.inputs:
        return _outer_size(op.inputs[0], depth)
    if isinstance(op, func.CallOp) and depth < 8:
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if isinstance(callee, func.FuncOp) and callee.body.blocks and isinstance(ret := callee.body.block.last_op, func.ReturnOp):
            inner = _outer_size(ret.arguments[op.results.index(array)], depth + 1)
            if isinstance(inner, BlockArgument) and inner.block is callee.body.block:
                return _outer_size(op.arguments[inner.index], depth + 1)
            if isinstance(inner, int):
                return inner
    return array


def _size_of(count: SSAValue, depth: int = 0) -> object:
    constant = const_evaluate_operand(count)
    if constant is not None:
        return constant
    size = count.owner
    if isinstance(size, soac.SizeOp) and size.dim.value.data == 0:
        return _outer_size(size.array, depth)
    return count


def keep_size_checks(fused: Operation, old_ops: Sequence[Operation], where: InsertPoint) -> None:
    """Each combinator checks that its inputs have one outer size. An input the fused
    lambda no longer reads is dropped (a lambda that ignores its rows, a map's rows
    used by no one after fusion), and its check with it, unless its outer size is
    provably another input's: there a size check stays in its place (a program that
    fails as written must fail fused)."""
    staying = list(Screma.of(fused).inputs)
    if not staying:
        return  # (replicate inlining never drops every input: no size stays to compare)
    # the arrays the old ops took from outside them (not one another's results), each
    # checked once
    unchecked = {v for op in old_ops for v in Screma.of(op).inputs if not (isinstance(v, OpResult) and v.op in old_ops)}
    for op in old_ops:
        for v in _unique(Screma.of(op).inputs):
            if v not in unchecked or v in staying or any(_outer_size(v) == _outer_size(k) for k in staying):
                continue
            unchecked.discard(v)
            insert_size_check(
                where, _outer_size_value(v, where), _outer_size_value(staying[0], where),
                f"{_describe(op)}: {_name(v)} and the other arrays it takes have different outer sizes",
            )


def _outer_size_value(array: SSAValue, where: InsertPoint) -> SSAValue | int:
    """An array's outer size as a value at `where`: what `_outer_size` traces it back to
    (a count, a constant), or a `soac.size` of the array it traces back to, so that the
    check keeps no producer alive that fusion made dead (an iota's, a map's)."""
    size = _outer_size(array)
    if isinstance(size, int):
        return size
    if isinstance(size.type, IndexType):
        return size
    op = soac.SizeOp(size, 0)
    Rewriter.insert_op(op, where)
    return op.result


# --------------------------------------------------------------------------------------
# Legality, and the driver
# --------------------------------------------------------------------------------------


def _name(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "an array"


def _describe(op: Operation) -> str:
    named = [r for r in op.results if r.name_hint]
    return f"{op.name} {_name(named[0])}" if named else op.name


def place(order: BlockOrder, first: Operation, second: Operation) -> Operation:
    """Where the op fusing `first` and then `second` (ops of one block) goes: at
    `second`'s place when `first` can move down to it (nothing between uses its results
    or consumes what it reads), else at `first`'s place when `second` can move up to it
    (it reads nothing made after `first`, first's results aside, and nothing between
    uses what it consumes). Raises Refused when neither can move."""
    used_between = next(
        (
            (r, u)
            for r in first.results
            for u in order.users(r)
            if u is not second and order.index[u] < order.index[second]
        ),
        None,
    )
    consumed = order.consumed_between(first, second, read_values(first))
    if used_between is None and consumed is None:
        return second
    late = next((v for v in read_values(second) - set(first.results) if not order.defined_before(v, first)), None)
    dest_used = any(
        order.index[u] < order.index[second] for d in consumed_values(second) for u in order.users(d) if u is not second
    )
    if late is None and not dest_used:
        return first
    if used_between is not None:
        why = f"{_name(used_between[0])} is used by {_describe(used_between[1])} between them"
    else:
        why = f"{_name(consumed)}, which {_describe(first)} reads, is consumed between them"
    if late is not None:
        why += f", and {_describe(second)} reads {_name(late)}, made after {_describe(first)}"
    else:
        why += f", and what {_describe(second)} consumes is used between them"
    raise Refused(why)


def try_vertical(order: BlockOrder, p: Operation, c: Operation) -> tuple[Fused, Operation]:
    """Fuses producer p into consumer c; returns the fused op and the op before which it
    goes. Raises Refused."""
    ps, cs = Screma.of(p), Screma.of(c)
    assert ps is not None and cs is not None
    connected = {i: v for i, v in enumerate(cs.inputs) if isinstance(v, OpResult) and v.op is p}
    produced = set(p.results)
    other = (set(cs.other_operands) | captured_values(c)) & produced
    if other:
        raise Refused(f"{_describe(c)} reads {_name(next(iter(other)))} other than row by row")
    reads = read_values(p)
    if consumed_values(c) & reads:
        raise Refused(f"{_describe(c)} consumes {_name(next(iter(consumed_values(c) & reads)))}, which {_describe(p)} reads")
    before = place(order, p, c)
    keep = {r for r in p.results if any(u is not c for u in order.users(r))}
    return merge(ps, cs, connected, keep), before


def try_horizontal(order: BlockOrder, a: Operation, b: Operation) -> tuple[Fused, Operation]:
    """Fuses two independent combinators with a common input; returns the fused op and
    the op before which it goes. Raises Refused."""
    sa, sb = Screma.of(a), Screma.of(b)
    assert sa is not None and sb is not None
    through = order.dependence(b, a)
    if through is not None:
        via = "" if through is b else f" through {_describe(through)}"
        raise Refused(f"{_describe(b)} depends on {_describe(a)}{via}")
    for x, y in ((a, b), (b, a)):
        if consumed_values(x) & read_values(y):
            raise Refused(f"{_describe(x)} consumes an array {_describe(y)} reads")
    before = place(order, a, b)
    return merge(sa, sb, {}, set(a.results)), before


def _is_combinator(op: Operation) -> bool:
    return Screma.of(op) is not None


@dataclass
class Fusion:
    """One run of the pass over a module: fuses until nothing more fuses."""

    report: bool
    log: list[str] = field(default_factory=list)
    refusals: dict[tuple[Operation, str, Operation], str] = field(default_factory=dict)

    def run(self, module: ModuleOp) -> None:
        # every change to the module goes through it (each names where it inserts)
        self.rewriter = PatternRewriter(InsertPoint.at_end(module.body.block))
        while any(self.fuse_in(block) for block in self._blocks(module)):
            pass
        if self.report:
            for line in self.log:
                print(f"soac-fusion: {line}", file=sys.stderr)
            live = {op for op in module.walk()}
            for (x, how, y), why in self.refusals.items():
                if x in live and y in live:
                    print(f"soac-fusion: did not fuse {_describe(x)} {how} {_describe(y)}: {why}", file=sys.stderr)

    @staticmethod
    def _blocks(module: ModuleOp) -> list[Block]:
        return [block for op in module.walk() for region in op.regions for block in region.blocks]

    def fuse_in(self, block: Block) -> bool:
        """Does one fusion in `block` (vertical first, then horizontal); False when none
        is possible."""
        order = BlockOrder(block)
        combinators = [op for op in order.ops if _is_combinator(op)]
        for c in combinators:
            replicated = replicated_inputs(Screma.of(c))
            if replicated and self._inline(c, replicated):
                return True
        for p in combinators:
            consumers = [
                c for c in combinators
                if order.index[c] > order.index[p] and any(v.op is p for v in Screma.of(c).inputs if isinstance(v, OpResult))
            ]
            # a map consumer first: what it makes is a map, which may fuse further
            consumers.sort(key=lambda c: (not isinstance(c, soac.MapOp), order.index[c]))
            for c in consumers:
                if self._attempt(lambda: try_vertical(order, p, c), p, c, "into"):
                    return True
        for i, a in enumerate(combinators):
            for b in combinators[i + 1 :]:
                if set(Screma.of(a).inputs) & set(Screma.of(b).inputs):
                    if self._attempt(lambda: try_horizontal(order, a, b), a, b, "with"):
                        return True
        return False

    def _inline(self, c: Operation, replicated: dict[int, soac.ReplicateOp]) -> bool:
        """A replicate is fused into every combinator that takes it as an input: its
        value is used in the lambda (nothing is computed again: the rows are all that
        value). False, with the reason kept for the report, where that is refused."""
        try:
            fused = inline_replicates(Screma.of(c), replicated)
        except Refused as why:
            for rep in dict.fromkeys(replicated.values()):
                self.refusals[(rep, "into", c)] = str(why)
            return False
        for rep in dict.fromkeys(replicated.values()):
            self.log.append(f"fused {_describe(rep)} into {_describe(c)}: {fused.form}")
        self._replace(fused, c, [c])
        for rep in replicated.values():
            if rep.parent is not None and not rep.result.uses:
                self.rewriter.erase(rep)
        return True

    def _replace(self, fused: Fused, before: Operation, old_ops: Sequence[Operation]) -> None:
        keep_size_checks(fused.op, old_ops, InsertPoint.before(before))
        self.rewriter.insert(fused.op, InsertPoint.before(before))
        for old, new in fused.replaces:
            if new.name_hint is None and old.name_hint:
                new.name_hint = old.name_hint
            self.rewriter.replace_all_uses_with(old, new)
        for op in old_ops:
            self.rewriter.erase(op)

    def _attempt(self, fuse, first: Operation, second: Operation, how: str) -> bool:
        try:
            fused, before = fuse()
        except Refused as why:
            self.refusals[(first, how, second)] = str(why)
            return False
        self.log.append(f"fused {_describe(first)} {how} {_describe(second)}: {fused.form}")
        self._replace(fused, before, [second, first])
        return True


@dataclass(frozen=True)
class SoacFusionPass(ModulePass):
    """Fuses SOACs vertically and horizontally, in every block, until nothing more fuses."""

    name = "soac-fusion"

    report: bool = False
    """Print every fusion done and every one refused, with the reason (to stderr)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        Fusion(self.report).run(op)
