"""fuse-iota: a map reads row i of `iota n` as the number i, so it need not read an
array for it (level 2, after convert-soac-to-mem).

Futhark fuses an `iota` into the map that consumes it: the map's thread computes its
index instead of loading it. soacc's maps had no row number, so `map f (iota n)` kept
`iota n` as an n-element array: n loads, and n elements of memory live from the iota to
the map (canny's flat indices and series' coefficients, the arrays memory block merging
could not remove). Here every `mem.map` that reads the iota's array becomes `indexed`:
its lambda takes the row number last, and the parameter that was the iota's element is
that number (cast to the element type). When no other op reads the array, the iota, its
view and its block are gone.

A map takes the iota only where its other arrays' outer size is provably the iota's
(the same size value, through `mem.size` of views with stated sizes): the map's run-time
check that its arrays agree in size would otherwise be lost. The iota's block must be
written by the iota alone and read only through its view, by maps and `mem.size`; a
fused combinator (redomap, scanomap, scatteromap, histomap) that reads it keeps it.

`report=true` prints each iota fused and the bytes no longer allocated to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from soacc.dialects import mem


def outer_size(view: SSAValue) -> SSAValue | int | None:
    """What the outer size of a view is stated as: a static size, or the size value of
    the `mem.view` that made it (followed through `mem.size` of such views); None when
    not stated."""
    t = view.type
    if isinstance(t, MemRefType) and t.get_num_dims() and t.get_shape()[0] != DYNAMIC_INDEX:
        return t.get_shape()[0]
    op = view.owner
    if not isinstance(op, mem.ViewOp) or not op.sizes or op.strides:
        return None
    return size_value(op.sizes[0])


def size_value(value: SSAValue) -> SSAValue | int:
    """A size, with `mem.size %v[0]` replaced by what %v's outer size is stated as."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    if isinstance(op, mem.SizeOp) and op.dim.value.data == 0:
        stated = outer_size(op.view)
        if stated is not None:
            return stated
    return value


@dataclass
class IotaFusion:
    """fuse-iota in one function."""

    function: func.FuncOp
    fused: list[tuple[str, int]] = field(default_factory=list)
    """(the iota's array, how many maps took it) per iota fused away."""

    def run(self) -> None:
        for iota in [op for op in self.function.walk() if isinstance(op, mem.IotaOp)]:
            self.fuse(iota)

    def fuse(self, iota: mem.IotaOp) -> None:
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
        if not all(isinstance(u, mem.SizeOp | mem.MapOp) for u in users):
            return
        maps = [u for u in users if isinstance(u, mem.MapOp)]
        if any(array in m.outputs for m in maps):
            return
        takers = [m for m in maps if self.sizes_agree(m, array, size)]
        for m in takers:
            self.take_iota(m, array)
        if len(takers) != len(maps):
            return
        for use in list(array.uses):
            if isinstance(use.operation, mem.SizeOp):
                self.replace_size(use.operation, size)
        if any(use.operation is not iota for use in array.uses):
            return
        self.fused.append((array.name_hint or "?", len(takers)))
        Rewriter.erase_op(iota)
        Rewriter.erase_op(view)
        Rewriter.erase_op(alloc)

    @staticmethod
    def sizes_agree(m: mem.MapOp, array: SSAValue, size: SSAValue | int) -> bool:
        others = [v for v in (*m.inputs, *m.outputs) if v is not array]
        return any(outer_size(v) == size for v in others)

    @staticmethod
    def replace_size(op: mem.SizeOp, size: SSAValue | int) -> None:
        if isinstance(size, int):
            constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
            Rewriter.insert_op(constant, InsertPoint.before(op))
            size = constant.result
        op.result.replace_all_uses_with(size)
        Rewriter.erase_op(op)

    @staticmethod
    def take_iota(m: mem.MapOp, array: SSAValue) -> None:
        """`m` without `array` among its inputs: indexed, the element it read is the row
        number."""
        lam = m.body.block
        if m.indexed is None:
            index = lam.insert_arg(IndexType(), len(lam.args))
            index.name_hint = "row"
        else:
            index = lam.args[-1]
        positions = [p for p, v in enumerate(m.inputs) if v is array]
        for p in reversed(positions):
            param = lam.args[p]
            if param.uses:
                value = index
                if not isinstance(param.type, IndexType):
                    cast = arith.IndexCastOp(index, param.type)
                    lam.insert_op_before(cast, lam.first_op)  # (a lambda ends in its yield)
                    value = cast.result
                param.replace_all_uses_with(value)
            lam.erase_arg(param)
        inputs = [v for v in m.inputs if v is not array]
        new = mem.MapOp(inputs, list(m.outputs), m.detach_region(m.body), indexed=True)
        Rewriter.replace_op(m, new)


def _host_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks]


@dataclass(frozen=True)
class FuseIotaPass(ModulePass):
    """Maps read the row number instead of an iota's array (level 2)."""

    name = "fuse-iota"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in _host_functions(op):
            fusion = IotaFusion(f)
            fusion.run()
            if self.report:
                for name, maps in fusion.fused:
                    print(f"fuse-iota: @{f.sym_name.data}: %{name} read as the row number by {maps} map(s); its block is gone", file=sys.stderr)
