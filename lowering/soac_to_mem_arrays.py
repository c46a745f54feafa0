"""convert-soac-to-mem for the ops that make or view one array: literals, iota,
replicate, copy, concat, update (in place when its source may be consumed), and the
views (index, slice, transpose, a select of arrays); sizes and scalar arithmetic."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType

from soacc.dialects import mem, soac
from soacc.lowering.soac_to_mem_base import Array, ConversionBase, is_array


class ArrayConversion(ConversionBase):
    """Converts the ops that make or view one array."""

    def convert_select(self, op: arith.SelectOp) -> None:
        if not is_array(op.result.type):
            self.insert_clone(op)
            return
        cond = self.scope[op.cond]
        a, b = self.array(op.lhs), self.array(op.rhs)
        view = self.insert(arith.SelectOp(cond, a.view, b.view)).result
        self._name(view, op.result)
        block = None
        if self.depth == 0 and a.block is not None and b.block is not None:
            block = self.insert(arith.SelectOp(cond, a.block, b.block)).result
        self.scope[op.result] = Array(view, block)


    def convert_constant(self, op: arith.ConstantOp) -> None:
        if not is_array(op.result.type):
            new = self.insert(op.clone())
            self.scope[op.result] = new.results[0]
            return
        t = op.result.type
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        values = list(value.get_values())
        shape = t.get_shape()
        count = 1
        for d in shape:
            count *= d
        if len(values) == 1:
            values = values * count
        flat = TensorType(t.element_type, [count])
        attr = FloatAttr if isinstance(t.element_type, AnyFloat) else IntegerAttr
        elements = [self.insert(arith.ConstantOp(attr(v, t.element_type))).results[0] for v in values]
        target = self.destination(op.result, op)
        flat_view = target.view
        if len(shape) != 1:
            # literal elements are written row-major through a flat view of the same block
            zero = self.index_constant(0)
            flat_view = self.insert(mem.ViewOp(target.block, zero, [], mem.view_type_of(flat, mem.DEVICE))).result
        self.insert(mem.ArrayOp(elements, flat_view))
        self.scope[op.result] = target


    def convert_iota(self, op: soac.IotaOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.IotaOp(target.view))
        self.scope[op.result] = target

    def convert_replicate(self, op: soac.ReplicateOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.FillOp(self._view_or_scalar(op.value), target.view))
        self.scope[op.result] = target

    def convert_array(self, op: soac.ArrayOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.ArrayOp([self._view_or_scalar(e) for e in op.elements], target.view))
        self.scope[op.result] = target

    def convert_copy(self, op: soac.CopyOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.CopyOp(self.array(op.input).view, target.view))
        self.scope[op.result] = target

    def convert_concat(self, op: soac.ConcatOp) -> None:
        target = self.destination(op.result, op)
        offset = self.index_constant(0)
        for v in op.inputs:
            part = self.array(v).view
            count = self.insert(mem.SizeOp(part, 0)).result
            piece = self.insert(
                mem.SliceOp(target.view, [soac.SliceSpec.RANGE], [offset, count], part.type)
            ).result
            self.insert(mem.CopyOp(part, piece))
            offset = self.insert(arith.AddiOp(offset, count)).results[0]
        self.scope[op.result] = target

    def convert_index(self, op: soac.IndexOp) -> None:
        source = self.array(op.array)
        indices = [self.scope[i] for i in op.indices]
        if not is_array(op.result.type):
            load = self.insert(mem.LoadOp(source.view, indices))
            self._name(load.result, op.result)
            self.scope[op.result] = load.result
            return
        view = self.insert(
            mem.SliceOp(source.view, [soac.SliceSpec.FIXED] * len(indices), indices, mem.view_type_of(op.result.type, mem.space_of(source.view.type)))
        ).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_slice(self, op: soac.SliceOp) -> None:
        source = self.array(op.source)
        view = self.insert(
            mem.SliceOp(source.view, op.kinds.get_values(), [self.scope[s] for s in op.spec], mem.view_type_of(op.result.type, mem.space_of(source.view.type)))
        ).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_transpose(self, op: soac.TransposeOp) -> None:
        source = self.array(op.input)
        view = self.insert(mem.TransposeOp(source.view, op.permutation.get_values())).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_update(self, op: soac.UpdateOp) -> None:
        target = self.writable_copy(op.source, op.result, op)
        kinds = op.kinds.get_values()
        spec = [self.scope[s] for s in op.spec]
        if not is_array(op.value.type):
            self.insert(mem.StoreOp(self.scope[op.value], target.view, spec))
        else:
            value = self.array(op.value).view
            part = self.insert(
                mem.SliceOp(target.view, kinds, spec, mem.view_type_of(op.value.type, mem.space_of(target.view.type)))
            ).result
            self.insert(mem.CopyOp(value, part))
        self.scope[op.result] = target

    def convert_size(self, op: soac.SizeOp) -> None:
        self.scope[op.result] = self.dimension(op.array, op.dim.value.data, op)
