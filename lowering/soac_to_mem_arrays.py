"""convert-soac-to-mem for the ops that make or view one array: literals, iota,
replicate, copy, concat, update (in place when its source may be consumed), and the
views (index, slice, transpose, a select of arrays); sizes and scalar arithmetic. An
index, slice or update at a position read on the device (`soac.device_index`,
`soac.device_update`) is, at host level, a copy kernel (an indexed `mem.map`; one
thread for an element) that loads the position from device memory and checks it."""

from __future__ import annotations

from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, StringAttr, TensorType, IndexType, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue

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

    # --- positions read on the device ------------------------------------------------

    def convert_device_index(self, op: soac.DeviceIndexOp) -> None:
        """Inside a lambda a view at the loaded position; at host level a copy kernel
        over the result's rows: row j is what the spec addresses with its first range
        at its j-th element (or, all entries fixed, the next dimension at j)."""
        source = self.array(op.array)
        kinds = op.slice_kinds()
        if self.depth > 0:
            view = self.insert(
                mem.SliceOp(source.view, kinds, self._loaded_indices(op.indices), mem.view_type_of(op.result.type, mem.DEVICE))
            ).result
            self._name(view, op.result)
            self.scope[op.result] = Array(view, source.block)
            return
        target = self.destination(op.result, op)
        entries = self._position_entries(op, source.view)
        out = target.view.type
        body = Block(arg_types=mem.MapOp.lambda_params([], [out], indexed=True))
        ops, part_kinds, part_spec = self._addressed_row(op, entries, body.args[-1])
        if len(part_spec) == source.view.type.get_num_dims() and all(k == soac.SliceSpec.FIXED for k in part_kinds):
            element: Operation = mem.LoadOp(source.view, part_spec)
        else:
            element = mem.SliceOp(source.view, part_kinds, part_spec, mem.row_view_type(out))
        body.add_ops([*ops, element, mem.YieldOp(element.results[0])])
        self.insert(mem.MapOp([], [target.view], Region(body), indexed=True))
        self._check_without_rows(op, target.view, entries)
        self.scope[op.result] = target

    def convert_device_update(self, op: soac.DeviceUpdateOp) -> None:
        """Inside a lambda an update at the loaded position; at host level a copy
        kernel over the value's rows: row j goes where the spec addresses with its first
        range at its j-th element (in place when the source may be consumed, as
        `soac.update`); an element written at a device position is one thread's store."""
        target = self.writable_copy(op.source, op.result, op)
        kinds = op.slice_kinds()
        if not is_array(op.value.type):
            self._store_at_device_position(op, target.view)
            self.scope[op.result] = target
            return
        value = self.array(op.value).view
        if self.depth > 0:
            part_type = mem.view_type_of(op.value.type, mem.DEVICE)
            part = self.insert(mem.SliceOp(target.view, kinds, self._loaded_indices(op.indices), part_type)).result
            self.insert(mem.CopyOp(value, part))
            self.scope[op.result] = target
            return
        entries = self._position_entries(op, target.view)
        body = Block(arg_types=mem.MapOp.lambda_params([value.type], [], indexed=True))
        ops, part_kinds, part_spec = self._addressed_row(op, entries, body.args[-1])
        row = body.args[0]
        if value.type.get_num_dims() == 1:
            ops.append(mem.StoreOp(row, target.view, part_spec))
        else:
            part = mem.SliceOp(target.view, part_kinds, part_spec, row.type)
            ops += [part, mem.CopyOp(row, part.result)]
        body.add_ops([*ops, mem.YieldOp()])
        self.insert(mem.MapOp([value], [], Region(body), indexed=True))
        self._check_without_rows(op, value, entries)
        self.scope[op.result] = target

    def _store_at_device_position(self, op: soac.DeviceUpdateOp, target: SSAValue) -> None:
        """One element written at a position read on the device: one thread loads and
        checks the position and stores the value (in a lambda, the lane's store)."""
        if self.depth > 0:
            self.insert(mem.StoreOp(self.scope[op.value], target, self._loaded_indices(op.indices)))
            return
        entries = self._position_entries(op, target)
        body = Block()
        ops, _, position = self._addressed_row(op, entries, None)
        body.add_ops([*ops, mem.StoreOp(self.scope[op.value], target, position), mem.YieldOp()])
        self.insert(mem.GpuBodyOp.build(operands=[[]], regions=[Region(body)]))

    def _loaded_indices(self, indices) -> list[SSAValue]:
        """The indices as scalars, a device one loaded (in a kernel: no transfer)."""
        zero = self.index_constant(0)
        return [
            self.insert(mem.LoadOp(self.array(i).view, [zero])).result if soac.is_device_index(i.type) else self.scope[i]
            for i in indices
        ]

    def _position_entries(self, op: Operation, array: SSAValue) -> list[tuple[int, list[SSAValue], SSAValue, int, str]]:
        """Per slice entry: its kind, its level-2 operands (scalars, or one-row device
        views), the size of its dimension (computed on the host), the dimension, and the
        message of its bounds check."""
        name = f" of %{op.operands[0].name_hint}" if op.operands[0].name_hint else ""
        entries = []
        for d, (kind, values) in enumerate(soac.SliceSpec.entries(op.slice_kinds(), op.indices)):
            entries.append(
                (
                    kind,
                    [self.array(v).view if soac.is_device_index(v.type) else self.scope[v] for v in values],
                    self.insert(mem.SizeOp(array, d)).result,
                    d,
                    f"{op.name}: a position is out of bounds for dimension {d}{name}",
                )
            )
        return entries

    @staticmethod
    def _addressed_row(op: Operation, entries, lane: SSAValue | None) -> tuple[list[Operation], list[int], list[SSAValue]]:
        """Kernel code: each device value loaded, and the slice spec of row `lane` of
        what `entries` address (the first range fixed at its lane-th element; all
        entries fixed, the next dimension at `lane`), each entry checked (the kernel
        traps where one is out of bounds, as the host's soac.index and soac.slice fail).
        `lane` None: no rows, so the first range addresses nothing and is not checked
        (the zero-row check), and only the other entries' checks are made."""
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        one = arith.ConstantOp(IntegerAttr(1, IndexType()))
        ops: list[Operation] = [zero, one]

        def loaded(value: SSAValue) -> SSAValue:
            if isinstance(value.type, MemRefType):
                load = mem.LoadOp(value, [zero.result])
                ops.append(load)
                return load.result
            return value

        def check(ok: SSAValue, message: str) -> None:
            ops.append(cf.AssertOp(ok, StringAttr(message)))

        def below(value: SSAValue, size: SSAValue) -> SSAValue:
            ops.append(inside := arith.CmpiOp(value, size, "ult"))  # a negative index wraps: out of bounds too
            return inside.result

        kinds: list[int] = []
        spec: list[SSAValue] = []
        row_placed = False
        for kind, values, size, dim, message in entries:
            values = [loaded(v) for v in values]
            if kind == soac.SliceSpec.STRIDED:
                # a stride of 0 repeats one element: allowed for at most one (as soac.slice)
                ops.append(moves := arith.CmpiOp(values[2], zero.result, "ne"))
                ops.append(few := arith.CmpiOp(values[1], one.result, "ule"))
                ops.append(fine := arith.OrIOp(moves.result, few.result))
                check(fine.result, f"{op.name}: slice stride is 0 in dimension {dim}")
            if kind == soac.SliceSpec.FIXED:
                check(below(values[0], size), message)
                kinds.append(kind)
                spec.append(values[0])
            elif not row_placed:
                row_placed = True
                if lane is None:
                    kinds.append(kind)
                    spec.extend(values)
                    continue
                offset = values[0]
                if kind == soac.SliceSpec.STRIDED:
                    ops.append(step := arith.MuliOp(lane, values[2]))
                    ops.append(at := arith.AddiOp(offset, step.result))
                else:
                    ops.append(at := arith.AddiOp(offset, lane))
                check(below(at.result, size), message)
                kinds.append(soac.SliceSpec.FIXED)
                spec.append(at.result)
            else:
                # a range past the row's: its first and last elements in bounds, or no
                # elements at all (a range of none may start anywhere)
                offset, count = values[0], values[1]
                stride = values[2] if kind == soac.SliceSpec.STRIDED else one.result
                ops.append(none := arith.CmpiOp(count, zero.result, "eq"))
                ops.append(last_step := arith.SubiOp(count, one.result))
                ops.append(span := arith.MuliOp(last_step.result, stride))
                ops.append(last := arith.AddiOp(offset, span.result))
                ops.append(both := arith.AndIOp(below(offset, size), below(last.result, size)))
                ops.append(ok := arith.OrIOp(none.result, both.result))
                check(ok.result, message)
                kinds.append(kind)
                spec.extend(values)
        if not row_placed and lane is not None:
            kinds.append(soac.SliceSpec.FIXED)
            spec.append(lane)  # every entry fixed: the rows are the next dimension's
        return ops, kinds, spec

    def _check_without_rows(self, op: Operation, rows: SSAValue, entries) -> None:
        """A copy of no rows runs no lane, so where there may be none the position is
        checked by one thread of its own (only then)."""
        outer = rows.type.get_shape()[0]
        if outer > 0:
            return
        count = self.insert(mem.SizeOp(rows, 0)).result
        none = self.insert(arith.CmpiOp(count, self.index_constant(0), "eq")).result
        body = Block()
        ops, _, _ = self._addressed_row(op, entries, None)
        body.add_ops([*ops, mem.YieldOp()])
        check = mem.GpuBodyOp.build(operands=[[]], regions=[Region(body)])
        self.insert(scf.IfOp(none, [], Region(Block([check, scf.YieldOp()]))))

    def convert_size(self, op: soac.SizeOp) -> None:
        self.scope[op.result] = self.dimension(op.array, op.dim.value.data, op)
