"""fuse-iota: a map reads row i of `iota n` as the number i, so it need not read an
array for it (level 2, after convert-soac-to-mem).

Futhark fuses an `iota` into the map that consumes it: the map's thread computes its
index instead of loading it. soacc's maps had no row number, so `map f (iota n)` kept
`iota n` as an n-element array: n loads, and n elements of memory live from the iota to
the map (canny's flat indices and series' coefficients, the arrays memory block merging
could not remove). Here every `mem.map` that reads the iota's array becomes `indexed`:
its lambda takes the row number last, and the parameter that was the iota's element is
that number (cast to the element type). The fused combinators (redomap, scanomap,
scatteromap, histomap) at host level become `indexed(%n)` the same way, `%n` the iota's
size: their row count, as they may be left with no input array. When no other op reads
the array, the iota, its view and its block are gone.

An op takes the iota only where its other arrays' outer size is provably the iota's
(the same size value, through `mem.size` of views with stated sizes, or an equal size
in sizes.py's normal form): the op's run-time check that its arrays agree in size
would otherwise be lost. The iota's block must be
written by the iota alone and read only through its view, as an input of these ops, and
by `mem.size`.

`report=true` prints each iota fused and the bytes no longer allocated to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem
from soacc.dialects.shared.traits import runs_on_device
from soacc.dialects.shared.utils import enclosing_function
from soacc.passes.analysis.sizes import outer_size
from soacc.passes.analysis.symbolic import Symbolic


class FuseIota(RewritePattern):
    """fuse-iota of one `mem.iota`: the maps and fused ops that read its array take
    the row number instead; the iota, its view and its block go when nothing else
    reads them."""

    def __init__(self) -> None:
        self.fused: list[tuple[str, int]] = []
        """(the iota's array, how many maps took it) per iota fused away."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, iota: mem.IotaOp, rewriter: PatternRewriter) -> None:
        array = iota.output
        view = array.owner
        if not isinstance(view, mem.ViewOp):
            return
        alloc = view.block.owner
        if not isinstance(alloc, mem.AllocOp) or any(use.operation is not view for use in alloc.block.uses):
            return  # the block may be reached through another view
        size = outer_size(array)
        if size is None:
            return
        users = [u for u in dict.fromkeys(use.operation for use in array.uses) if u is not iota]  # in use order
        maps = [u for u in users if not isinstance(u, mem.SizeOp)]
        if not all(_reads_as_input(u, array) for u in maps):
            return
        symbolic = Symbolic(enclosing_function(iota))  # afresh: each fusion changes the IR
        takers = [m for m in maps if self.sizes_agree(m, array, size, symbolic)]
        for m in takers:
            if isinstance(m, mem.MapOp):
                self.take_iota(m, array, rewriter)
            else:
                self.take_iota_fused(m, array, size, rewriter)
        if len(takers) != len(maps):
            return
        for use in list(array.uses):
            if isinstance(use.operation, mem.SizeOp):
                rewriter.replace(use.operation, [], [_as_value(size, use.operation, rewriter)])
        if any(use.operation is not iota for use in array.uses):
            return
        self.fused.append((array.name_hint or "?", len(takers)))
        rewriter.erase(iota)
        rewriter.erase(view)
        rewriter.erase(alloc)

    @staticmethod
    def sizes_agree(m: mem.MapOp | mem.FusedKernel, array: SSAValue, size: SSAValue | int, symbolic: Symbolic) -> bool:
        """Whether the op's other arrays of one row per row provably have `size` rows: the
        same stated size, or equal sizes in normal form (a fused op with none left takes
        the size as its row count)."""
        others = [v for v in (*m.inputs, *_rows_out(m)) if v is not array]
        if not isinstance(m, mem.MapOp) and not others:
            return True
        rows = symbolic.size_of(array, 0)
        return any(outer_size(v) == size or symbolic.equal(symbolic.size_of(v, 0), rows) for v in others)

    @staticmethod
    def take_iota(m: mem.MapOp, array: SSAValue, rewriter: PatternRewriter) -> None:
        """`m` without `array` among its inputs: indexed, the element it read is the row
        number."""
        lam = m.body.block
        row = _row_number(lam, m.indexed is not None, rewriter)
        _replace_params(lam, [p for p, v in enumerate(m.inputs) if v is array], row, rewriter)
        inputs = [v for v in m.inputs if v is not array]
        new = mem.MapOp(inputs, list(m.outputs), m.detach_region(m.body), indexed=True)
        rewriter.replace(m, new)

    @staticmethod
    def take_iota_fused(m: mem.FusedKernel, array: SSAValue, size: SSAValue | int, rewriter: PatternRewriter) -> None:
        """`m` without `array` among its inputs: `indexed(%size)`, the element its map
        lambda read is the row number."""
        lam = m.map_body.block
        row = _row_number(lam, m.row_count is not None, rewriter)
        _replace_params(lam, [p for p, v in enumerate(m.inputs) if v is array], row, rewriter)
        count = m.row_count if m.row_count is not None else _as_value(size, m, rewriter)
        inputs = [v for v in m.inputs if v is not array]
        rewriter.replace(m, _rebuilt(m, inputs, count))


def _rows_out(m: mem.MapOp | mem.FusedKernel) -> list[SSAValue]:
    """The outputs written one row per row of the op's inputs."""
    if isinstance(m, mem.RedomapOp):
        return list(m.mapped_outputs)
    return list(m.outputs)


def _reads_as_input(op: Operation, array: SSAValue) -> bool:
    """Whether `op` reads `array` only as an input, and is a map anywhere, or a fused
    combinator at host level (inside a kernel's lambda a fused op's rows stay arrays)."""
    if isinstance(op, mem.MapOp):
        return array not in op.outputs
    if not isinstance(op, mem.FUSED_KERNELS) or sum(v is array for v in op.operands) != sum(v is array for v in op.inputs):
        return False
    return not runs_on_device(op)


def _as_value(size: SSAValue | int, before: Operation, rewriter: PatternRewriter) -> SSAValue:
    """A size as an SSA value (a constant made before `before`)."""
    if isinstance(size, SSAValue):
        return size
    constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
    rewriter.insert(constant, InsertPoint.before(before))
    return constant.result


def _row_number(lam: Block, indexed: bool, rewriter: PatternRewriter) -> SSAValue:
    """The lambda's row-number parameter: its last, added where the op was not indexed."""
    if indexed:
        return lam.args[-1]
    index = rewriter.insert_block_argument(lam, len(lam.args), IndexType())
    index.name_hint = "row"
    return index


def _replace_params(lam: Block, positions: list[int], index: SSAValue, rewriter: PatternRewriter) -> None:
    """The lambda parameters at `positions` replaced by the row number `index` (cast to
    their type) and removed."""
    for p in reversed(positions):
        param = lam.args[p]
        if param.uses:
            value = index
            if not isinstance(param.type, IndexType):
                cast = arith.IndexCastOp(index, param.type)
                rewriter.insert(cast, InsertPoint.at_start(lam))  # (a lambda ends in its yield)
                value = cast.result
            rewriter.replace_all_uses_with(param, value)
        rewriter.erase_block_argument(param)


def _rebuilt(m: mem.FusedKernel, inputs: list[SSAValue], count: SSAValue) -> Operation:
    """`m` with these inputs and row count, built anew from its own operand, region and
    result groups (in its definition's order); its regions are moved over."""
    definition = type(m).get_irdl_definition()

    def group(value):  # an op's accessor value as a build() group: one, or a list
        if value is None:
            return []
        return value if isinstance(value, SSAValue | Region) else list(value)

    replaced = {"inputs": inputs, "row_count": [count]}
    operands = [replaced.get(name, group(getattr(m, name))) for name, _ in definition.operands]
    regions = [group(getattr(m, name)) for name, _ in definition.regions]  # (all found before any moves)
    regions = [[m.detach_region(r) for r in g] if isinstance(g, list) else m.detach_region(g) for g in regions]
    results = [[r.type for r in group(getattr(m, name))] for name, _ in definition.results]
    properties = {k: v for k, v in m.properties.items() if k not in ("operandSegmentSizes", "regionSegmentSizes")}
    new = type(m).build(operands=operands, result_types=results, regions=regions, properties=properties, attributes=dict(m.attributes))
    for old, result in zip(m.results, new.results):
        result.name_hint = old.name_hint
    return new


def _host_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks]


@dataclass(frozen=True)
class FuseIotaPass(ModulePass):
    """Maps read the row number instead of an iota's array (level 2)."""

    name = "fuse-iota"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in _host_functions(op):
            fusion = FuseIota()
            PatternRewriteWalker(fusion, apply_recursively=False).rewrite_region(f.body)  # each iota once, in order
            if self.report:
                for name, maps in fusion.fused:
                    print(f"fuse-iota: @{f.sym_name.data}: %{name} read as the row number by {maps} map(s); its block is gone", file=sys.stderr)
