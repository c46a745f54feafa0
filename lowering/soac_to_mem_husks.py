"""convert-soac-to-mem for husks: a `husk.husk` (level 1) becomes a `husk.run` (level
2, the thesis's `expmem_husk`) and, where it reduces, a `mem.reduce` after it.

- Its concatenated arrays are allocated whole on the main device, as any array is; the
  body builds its rows in them (the `outs` of the run: on device 0 in place, elsewhere
  copied back after the body).
- Each reduced value gets a slot array of one row per device (`husk.devices` of them),
  where each device's body leaves its value: a reduction the body ends with writes its
  slot directly. A `mem.reduce` after the run combines the slots in device order on the
  main device, with the husk's operator, so the value stays in device memory; the host
  reads it only where host code uses it (as any reduction's). The thesis reduced on
  the host, which made every reduction a synchronous read, even one device's (its NN
  slowdown). Arrays combined by a map of a scalar operator (a histogram's bins) are
  combined by a kernel over their elements instead, each folding its column of the
  slots: a reduction of rows has no kernel at host level.
- Its sources are partitioned whatever their layout: each device's rows are a view of
  the source on device 0 and a copy elsewhere (the runtime copies a strided view's rows
  as they are). The thesis partitioned only row-major sources and broadcast the rest
  whole, since its copies were byte ranges.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType, i64
from xdsl.ir import Block, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import husk, mem, soac
from soacc.dialects.soac import array_of
from soacc.lowering.soac_to_mem_base import Array, CannotBufferise, ConversionBase, DeviceScalar, is_array


BUILT_IN_PLACE = (
    soac.MapOp, soac.ScanOp, soac.IotaOp, soac.ReplicateOp, soac.ArrayOp, soac.ConcatOp, soac.CopyOp, soac.RedomapOp, soac.ScanomapOp,
)
"""Ops whose array convert-soac-to-mem builds in a destination chosen ahead."""


def _elementwise_operator(op: husk.HuskOp) -> Block | None:
    """The scalar operator of a husk that reduces one array of scalars with a map of
    that operator over the two arrays' elements (a histogram's husk), or None."""
    if len(op.neutral) != 1 or not is_array(op.neutral[0].type) or op.neutral[0].type.get_num_dims() != 1:
        return None
    block = op.reducer.block
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[0], soac.MapOp) or not isinstance(ops[1], husk.YieldOp):
        return None
    combine = ops[0]
    if list(combine.inputs) != list(block.args) or list(ops[1].operands) != list(combine.results):
        return None
    lam = combine.body.block
    if len(lam.args) != 2 or any(is_array(a.type) for a in lam.args):
        return None
    if any(inner.regions or inner.dialect_name() not in ("arith", "math") for inner in lam.ops if inner is not lam.last_op):
        return None
    return lam


def _single_map(op: husk.HuskOp) -> soac.MapOp | None:
    """The map a scatter husk's body ends with, yielding its results as they are (as
    soac-to-husk builds it; ops before it make its inputs), or None."""
    block = op.body.block
    last = block.last_op
    inner = last.prev_op if last is not None else None
    if not isinstance(inner, soac.MapOp) or list(last.operands) != list(inner.results):
        return None
    if any(op.regions for op in block.ops if op is not inner and op is not last):
        return None
    return inner


def _made_here(value, block: Block, kinds) -> bool:
    return (
        isinstance(value, OpResult)
        and value.op.parent_block() is block
        and value.has_one_use()
        and isinstance(value.op, kinds)
    )


class HuskConversion(ConversionBase):
    """Converts husks (module docstring)."""

    @contextmanager
    def _only_if(self, condition: SSAValue) -> Iterator[None]:
        """What the `with` block inserts runs only where `condition` holds (an scf.if
        without results, inserted where the builder was)."""
        then = Block()
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(then))
        try:
            yield
            self.insert(scf.YieldOp())
        finally:
            self.builder = outer
        self.insert(scf.IfOp(condition, [], Region(then), Region(Block([scf.YieldOp()]))))

    def convert_husk(self, op: husk.HuskOp) -> None:
        if self.depth:
            raise CannotBufferise(op, "a husk inside a kernel cannot be bufferised (a husk is host code)")
        k = len(op.reduced)
        sources = [self.array(v).view for v in op.sources]
        # the whole arrays' sizes are those of the body on device 0 with every row (as
        # without the husk): its offset 0, its size the husk's, its partitions the
        # sources (a row size computed per row is the first row's)
        self.scope.layers.append({})
        try:
            self.scope[op.offset_arg] = self.index_constant(0)
            self.scope[op.size_arg] = self.scope[op.size]
            for part, source in zip(op.partitions, op.sources):
                self.scope[part] = self.array(source)
            yields = list(op.body.block.last_op.operands[k:])
            # a scatter husk's pairs: arrays of the husk's rows, as its results'
            pairs = [self._pair_array(op, y, name) for y, name in zip(yields[: op.pairs], ("indices", "values"))]
            outs = pairs + [self._whole_array(op, r, y) for r, y in zip(op.concatenated, yields[op.pairs :])]
        finally:
            self.scope.layers.pop()
        target = self.writable_copy(op.dest, op.scattered, op) if op.is_scatter else None
        slot_arrays: list[Array] = []
        devices = None
        if op.neutral:
            devices = self.insert(husk.DevicesOp()).result
            devices.name_hint = "devices"
            # one row per device, a row as the value (a scalar, or an array): a
            # reduction's value, or the last row of a scan's
            for v, r in zip(op.neutral, op.reduced or op.scanned):
                shape = [devices, *(self.shape_of(v, op) if is_array(v.type) else [])]
                what = "_totals" if op.is_scan else "_slots"
                slot_arrays.append(self.allocate(array_of(v.type), shape, (r.name_hint or "reduced") + what))
        types = husk.RunOp.body_types([v.type for v in sources], [o.view.type for o in outs], [a.view.type for a in slot_arrays])
        body = Block(arg_types=types)
        run = husk.RunOp(self.scope[op.size], sources, [o.view for o in outs], [a.view for a in slot_arrays], Region(body))
        if husk.WORK_PER_ROW in op.attributes:
            run.attributes[husk.WORK_PER_ROW] = op.attributes[husk.WORK_PER_ROW]
        fused = _single_map(op) if target is not None else None
        self._convert_body(op, run, later_devices_only=fused is not None)
        self.insert(run)
        for r, o in zip(op.concatenated, outs[op.pairs :]):
            self.scope[r] = o
        if target is not None:
            self.scope[op.scattered] = target
            if fused is None:
                # the devices' pairs, on device 0 (the writes land anywhere in the
                # destination, which is device 0's)
                self.insert(mem.ScatterOp(target.view, outs[0].view, outs[1].view))
            else:
                self._scatter_on_device_0(op, run, fused, target, outs)
            return
        if op.is_scan:
            self._complete_scans(op, run, outs[: len(op.scanned)], slot_arrays, devices)
            return
        if not k:
            return
        results = [
            self.destination(r, op) if is_array(r.type) else self.allocate(TensorType(r.type, []), [], (r.name_hint or "red") + "_dev")
            for r in op.reduced
        ]
        busy_slots = self._busy_slots(run, slot_arrays, devices)
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        operator = _elementwise_operator(op)
        if operator is not None:
            self._combine_columns(busy_slots[0], neutral[0], results[0].view, operator)
        else:
            self.insert(
                mem.ReduceOp.build(
                    operands=[busy_slots, neutral, [r.view for r in results]],
                    result_types=[[]],
                    regions=[self.operator_region(op.reducer)],
                )
            )
        for r, o in zip(op.reduced, results):
            if is_array(r.type):
                self.scope[r] = o
            else:
                self.bind_reduced(r, o.view)

    def _combine_columns(self, slots: SSAValue, neutral: SSAValue, result: SSAValue, operator: Block) -> None:
        """The devices' arrays (the rows of `slots`) combined element by element: a
        kernel over the elements, each folding its column of the slots (one value per
        device that had rows, in device order) with the scalar `operator`, from the
        first device's value (the neutral element where none had rows). A reduction of rows at host level is a map of reductions of
        columns when its operator is a map of a scalar one (a histogram's bins)."""
        columns = self.insert(mem.TransposeOp(slots, [1, 0])).result
        columns.name_hint = "device_columns"
        body = Block(arg_types=mem.MapOp.lambda_params([columns.type, neutral.type], [result.type]))
        column, start = body.args
        column.name_hint, start.name_hint = "column", "neutral"
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.depth += 1
        try:
            zero, one = self.index_constant(0), self.index_constant(1)
            count = self.insert(mem.SizeOp(column, 0)).result
            step = Block(arg_types=[IndexType(), start.type])
            self.builder = Builder(InsertPoint.at_end(step))
            value = self.insert(mem.LoadOp(column, [step.args[0]])).result
            self.scope.layers.append({})
            try:
                left, right = operator.args
                self.scope[left], self.scope[right] = step.args[1], value
                self.convert_ops_until_yield(operator)
                self.insert(scf.YieldOp(self._view_or_scalar(operator.last_op.operands[0])))
            finally:
                self.scope.layers.pop()
            self.builder = Builder(InsertPoint.at_end(body))
            # the first device's value, the neutral element only where no device had
            # rows (as the reduction without the husk, which never uses it otherwise)
            any_device = self.insert(arith.CmpiOp(count, zero, "ugt")).result
            first, none = Block(), Block()
            first_value = mem.LoadOp(column, [zero])
            first.add_ops([first_value, scf.YieldOp(first_value.results[0])])
            none.add_op(scf.YieldOp(start))
            initial = self.insert(scf.IfOp(any_device, [start.type], Region(first), Region(none)))
            fold = self.insert(scf.ForOp(one, count, one, [initial.results[0]], Region(step)))
            self.insert(mem.YieldOp(fold.results[0]))
        finally:
            self.depth -= 1
            self.builder = outer
        self.insert(mem.MapOp([columns, neutral], [result], Region(body)))

    def _leave_totals(self, run: husk.RunOp, scanned_rows, slots) -> None:
        """In a scan husk's first run: the device's total of each scan (its scan's last
        row) into its slot, where it has rows (a device without runs nothing, but
        device 0 runs when there are none)."""
        zero, one = self.index_constant(0), self.index_constant(1)
        with self._only_if(self.insert(arith.CmpiOp(run.size_arg, zero, "ugt")).result):
            last = self.insert(arith.SubiOp(run.size_arg, one)).result
            for rows, slot in zip(scanned_rows, slots):
                row = self.insert(mem.SliceOp(rows, [soac.SliceSpec.FIXED], [last], slot.type)).result
                self.insert(mem.CopyOp(row, slot))

    def _complete_scans(self, op: husk.HuskOp, first: husk.RunOp, scanned: list[Array], totals: list[Array], devices) -> None:
        """After a scan husk's first run (each device's scan of its rows, and its total
        in its slot): on device 0, the inclusive scan of the busy devices' totals (the
        carries), then a second run over the same partitions (`devices(%busy)`) in which
        each device but the first combines its rows, on the left, with the carry of the
        devices before it. The rows are where the first run left them (each on its
        device, runtime/husk_residency.py): the second run moves only the carries."""
        busy_totals = self._busy_slots(first, totals, devices)
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        carries = [self.allocate(array_of(v.type), [devices], (r.name_hint or "scanned") + "_carries") for v, r in zip(op.neutral, op.scanned)]
        # (where one device had every row, its scan is the result: nothing to carry)
        split = self.insert(arith.CmpiOp(first.busy, self.index_constant(1), "ugt")).result
        split.name_hint = "split"
        with self._only_if(split):
            zero = self.index_constant(0)
            busy_carries = [
                self.insert(mem.SliceOp(c.view, [soac.SliceSpec.RANGE], [zero, first.busy], c.view.type)).result for c in carries
            ]
            self.insert(
                mem.ScanOp.build(operands=[busy_totals, neutral, busy_carries], regions=[self.operator_region(op.reducer)])
            )
            self._second_run(op, first, [a.view for a in scanned], [c.view for c in carries])

    def _second_run(self, op: husk.HuskOp, first: husk.RunOp, views: list, carries: list) -> None:
        """The run over `first`'s devices that combines each device's rows but the
        first's with the carry of the devices before it, in place."""
        body = Block(arg_types=husk.RunOp.body_types([v.type for v in views], [v.type for v in views], []))
        second = husk.RunOp(self.scope[op.size], views, views, [], Region(body), used=first.busy)
        second.attributes[husk.WORK_PER_ROW] = IntegerAttr(len(op.reducer.block.ops), i64)
        for arg, name in zip(body.args, ("device", "offset", "size")):
            arg.name_hint = name
        rows = list(second.parts("sources"))
        for new, r in zip(rows, op.scanned):
            self._name(new, r, "_rows")
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        try:
            zero, one = self.index_constant(0), self.index_constant(1)
            with self._only_if(self.insert(arith.CmpiOp(second.device_arg, zero, "ugt")).result):
                before = self.insert(arith.SubiOp(second.device_arg, one)).result
                before.name_hint = "devices_before"
                self._carry_map(op.reducer.block, rows, carries, before)
            self.insert(husk.YieldOp())
        finally:
            self.builder = outer
        self.insert(second)

    def _carry_map(self, operator: Block, rows: list, carries: list, before: SSAValue) -> None:
        """A kernel over a device's rows, in place: each row combined, on the left, with
        the carry (row `before` of each carries array)."""
        types = [r.type for r in rows]
        body = Block(arg_types=mem.MapOp.lambda_params(types, types))
        k = len(rows)
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.depth += 1
        self.scope.layers.append({})
        try:
            left = [self.insert(mem.LoadOp(c, [before])).result for c in carries]
            for param, value in zip(operator.args, [*left, *body.args[:k]]):
                self.scope[param] = value
            self.convert_ops_until_yield(operator)
            self.insert(mem.YieldOp(*(self._view_or_scalar(v) for v in operator.last_op.operands)))
        finally:
            self.scope.layers.pop()
            self.depth -= 1
            self.builder = outer
        self.insert(mem.MapOp(rows, rows, Region(body)))

    def _scatter_on_device_0(self, op: husk.HuskOp, run: husk.RunOp, inner: soac.MapOp, target: Array, outs: list[Array]) -> None:
        """A scatter husk whose body is one map: device 0's rows (the first of the
        run's partitions) scattered by one fused kernel, as without the husk (every row
        where the run used one device); then, where it used more, the other devices'
        pairs."""
        size = self.scope[op.size]
        run.busy.name_hint = "busy_devices"
        one = self.index_constant(1)
        used = self.insert(arith.MaxUIOp(run.busy, one)).result
        most = self.insert(arith.CeilDivUIOp(size, used)).result
        first = self.insert(arith.MinUIOp(most, size)).result
        first.name_hint = "device_0_rows"
        zero = self.index_constant(0)

        def rows(view: SSAValue, offset: SSAValue, count: SSAValue) -> SSAValue:
            return self.insert(mem.SliceOp(view, [soac.SliceSpec.RANGE], [offset, count], view.type)).result

        self.scope.layers.append({})
        try:
            self.scope[op.offset_arg] = zero
            self.scope[op.size_arg] = first
            for part, source in zip(op.partitions, op.sources):
                self.scope[part] = Array(rows(self.array(source).view, zero, first), None)
            for before in op.body.block.ops:
                if before is inner:
                    break
                self.convert_op(before)
            mapped = [Array(rows(o.view, zero, first), None) for o in outs[2:]]
            lam = self.fused_lambda(inner.body, self._row_params(inner.inputs), list(inner.results[2:]), mapped)
            ins = [self.array(v).view for v in inner.inputs]
        finally:
            self.scope.layers.pop()
        self.insert(mem.ScatteromapOp.build(operands=[target.view, ins, [m.view for m in mapped], []], regions=[lam]))
        with self._only_if(self.insert(arith.CmpiOp(run.busy, one, "ugt")).result):
            count = self.insert(arith.SubiOp(size, first)).result
            self.insert(mem.ScatterOp(target.view, rows(outs[0].view, first, count), rows(outs[1].view, first, count)))

    def _pair_array(self, op: husk.HuskOp, yielded, name: str) -> Array:
        """A scatter husk's indices or values, allocated whole (one per row)."""
        maker = yielded.owner if isinstance(yielded, OpResult) and yielded.owner.parent_block() is op.body.block else op
        t = yielded.type
        dims = [self.scope[op.size], *(self.dimension(yielded, axis, maker) for axis in range(1, t.get_num_dims()))]
        return self.allocate(TensorType(t.element_type, (DYNAMIC_INDEX, *t.get_shape()[1:])), dims, name)

    def _whole_array(self, op: husk.HuskOp, result, yielded) -> Array:
        """A concatenated result, allocated whole: the husk's rows, each of the size of
        the rows of the body's array (as the combinator that makes it in the body sizes
        them: from its first row where they depend on the rows)."""
        hint = self.hints.pop(result, None)
        if hint is not None:
            return hint
        maker = yielded.owner if isinstance(yielded, OpResult) and yielded.owner.parent_block() is op.body.block else op
        dims = [self.scope[op.size], *(self.dimension(yielded, axis, maker) for axis in range(1, result.type.get_num_dims()))]
        return self.allocate(result.type, dims, result.name_hint)

    def _busy_slots(self, run: husk.RunOp, slot_arrays: list[Array], devices) -> list:
        """The slots of the devices that had rows: the run's first `%busy` (devices are
        used in order). Only their values are combined, so a husk gives what the
        reduction without it gives even where the program's neutral element is not
        neutral (the reduction of rows never uses it)."""
        busy = run.busy
        busy.name_hint = "busy_devices"
        zero = self.index_constant(0)
        return [
            self.insert(mem.SliceOp(a.view, [soac.SliceSpec.RANGE], [zero, busy], a.view.type)).result for a in slot_arrays
        ]

    def _convert_body(self, op: husk.HuskOp, run: husk.RunOp, later_devices_only: bool = False) -> None:
        """The husk's body, as host code of each device, into the run's body: it builds
        its concatenated rows in the outs' rows and leaves its reduced values in its
        slots (`later_devices_only`: on every device but the first, which does its rows
        otherwise)."""
        old = op.body.block
        body = run.body.block
        k = len(op.reduced)
        for arg, name in zip(body.args, ("device", "offset", "size")):
            arg.name_hint = name
        out_rows, slots = run.parts("outs"), run.parts("slots")
        for new, old_part in zip(run.parts("sources"), op.partitions):
            self._name(new, old_part)
        for new, name in zip(out_rows, ("indices_rows", "values_rows")[: op.pairs]):
            new.name_hint = name
        for new, r in zip(out_rows[op.pairs :], op.concatenated):
            self._name(new, r, "_rows")
        for new, r in zip(slots, op.reduced or op.scanned):
            self._name(new, r, "_total" if op.is_scan else "_slot")
        yields = list(old.last_op.operands)
        outer = self.builder
        work = Block() if later_devices_only else body
        self.builder = Builder(InsertPoint.at_end(work))
        self.scope.layers.append({})
        try:
            self.scope[op.offset_arg] = run.offset_arg
            self.scope[op.size_arg] = run.size_arg
            for old_part, new in zip(op.partitions, run.parts("sources")):
                self.scope[old_part] = Array(new, None)
            # built where they go: a concatenated array in the out's rows, a reduction's
            # value in the device's slot
            for y, row in zip(yields[k:], out_rows):
                # (rows sized by the first row are copied, which checks that each fits)
                if _made_here(y, old, BUILT_IN_PLACE) and y not in self.hints and y not in self.sized_by_first_row:
                    self.hints[y] = Array(row, None)
            for y, slot in zip(yields[:k], slots):
                if is_array(y.type):
                    if _made_here(y, old, BUILT_IN_PLACE + (soac.ReduceOp,)) and y not in self.hints:
                        self.hints[y] = Array(slot, None)
                elif _made_here(y, old, (soac.ReduceOp, soac.RedomapOp)) and y not in self.scalar_hints:
                    self.scalar_hints[y] = slot
            self.convert_ops_until_yield(old)
            for y, slot in zip(yields[:k], slots):
                new = self.scope[y]
                if isinstance(new, Array):
                    if new.view is not slot:
                        self.insert(mem.CopyOp(new.view, slot))
                elif isinstance(new, DeviceScalar):
                    if new.view is not slot:
                        self.insert(mem.CopyOp(new.view, slot))
                else:
                    self.insert(mem.StoreOp(new, slot, []))
            for y, row in zip(yields[k:], out_rows):
                if self.array(y).view is not row:
                    self.insert(mem.CopyOp(self.array(y).view, row))
            if op.is_scan:
                self._leave_totals(run, out_rows[: len(op.scanned)], slots)
            if later_devices_only:
                self.insert(scf.YieldOp())
                self.builder = Builder(InsertPoint.at_end(body))
                later = self.insert(arith.CmpiOp(run.device_arg, self.index_constant(0), "ugt")).result
                self.insert(scf.IfOp(later, [], Region(work), Region(Block([scf.YieldOp()]))))
            self.insert(husk.YieldOp())
        finally:
            self.scope.layers.pop()
            self.builder = outer
