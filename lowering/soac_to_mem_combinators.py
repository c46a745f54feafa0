"""convert-soac-to-mem for the combinators: map, reduce, scan, scatter, hist, the fused
ones (their lambdas stay in the op, so no intermediate array) and gpu_body. Their
lambdas run one lane deeper, where arrays are views alone; an array a lambda makes only
to return it is built in its output row (unless its size may differ between rows:
then it is copied there, which checks that it fits)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem, soac
from soacc.dialects.shared.traits import used_only_on_device
from soacc.lowering.soac_to_mem_base import Array, ConversionBase, DeviceScalar, is_array


def _made_here_for(value: SSAValue, block: Block) -> bool:
    """`value` is made by an array-making op of `block` and only returned: it can be
    built directly where it is returned to."""
    return (
        isinstance(value, OpResult)
        and value.op.parent_block() is block
        and value.has_one_use()
        and isinstance(
            value.op,
            soac.MapOp | soac.ScanOp | soac.IotaOp | soac.ReplicateOp | soac.ArrayOp | soac.ConcatOp | soac.CopyOp
            | soac.RedomapOp | soac.ScanomapOp,
        )
    )


class CombinatorConversion(ConversionBase):
    """Converts the combinators and their lambdas."""

    def convert_map(self, op: soac.MapOp) -> None:
        outs = [self.destination(r, op) for r in op.outputs]
        ins = [self.array(v).view for v in op.inputs]
        out_types = [o.view.type for o in outs]
        params = mem.MapOp.lambda_params([v.type for v in ins], out_types)
        body = Block(arg_types=params)
        old_block = op.body.block
        yields = old_block.last_op.operands
        # output rows of array-valued results are lambda parameters: build those rows in place
        row_params = iter(body.args[len(ins) :])
        for j, r in enumerate(op.outputs):
            if r.type.get_num_dims() > 1:
                row = next(row_params)
                if r.name_hint:
                    row.name_hint = r.name_hint + "_row"
                y = yields[j]
                if _made_here_for(y, old_block) and r not in self.sized_by_first_row:
                    self.hints[y] = Array(row, None)
        self.convert_lambda(old_block, body)
        self.insert(mem.MapOp(ins, [o.view for o in outs], Region(body)))
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o


    def operator_region(self, old: Region) -> Region:
        """An operator lambda (reduce, scan, hist) at level 2; it runs one lane deeper."""
        old_block = old.block
        params = []
        for a in old_block.args:
            params.append(mem.view_type_of(a.type, mem.DEVICE) if is_array(a.type) else a.type)
        body = Block(arg_types=params)
        self.convert_lambda(old_block, body)
        return Region(body)

    def convert_lambda(self, old_block: Block, body: Block) -> None:
        """Converts a lambda's body into `body`, one lane deeper: its leading parameters
        stand for the old ones (rows are views without a block of their own)."""
        self.depth += 1
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.scope.layers.append({})
        try:
            for old_arg, new_arg in zip(old_block.args, body.args):
                self._name(new_arg, old_arg)
                self.scope[old_arg] = Array(new_arg, None) if is_array(old_arg.type) else new_arg
            self.load_device_scalars(old_block)
            self.convert_ops_until_yield(old_block)
            self.insert(mem.YieldOp(*[self._view_or_scalar(v) for v in old_block.last_op.operands]))
        finally:
            self.scope.layers.pop()
            self.builder = outer
            self.depth -= 1

    def load_device_scalars(self, old_block: Block) -> None:
        """Device code reads the DeviceScalars it uses from device memory, once, at its top."""
        for inner in old_block.walk():
            for v in inner.operands:
                if v in self.scope and isinstance(self.scope[v], DeviceScalar):
                    load = self.insert(mem.LoadOp(self.scope[v].view, []))
                    self._name(load.result, v)
                    self.scope[v] = load.result

    def convert_reduce(self, op: soac.ReduceOp) -> None:
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        scalar_results = all(not is_array(r.type) for r in op.outputs)
        region = self.operator_region(op.body)
        commutative = op.commutative is not None
        if self.depth > 0 and scalar_results:
            new = mem.ReduceOp.build(
                operands=[ins, neutral, []],
                result_types=[[r.type for r in op.outputs]],
                regions=[region],
                properties={"commutative": op.commutative} if commutative else {},
            )
            self.insert(new)
            for r, n in zip(op.outputs, new.results):
                self._name(n, r)
                self.scope[r] = n
            return
        outs: list[Array] = []
        for r in op.outputs:
            if is_array(r.type):
                outs.append(self.destination(r, op))
            else:
                outs.append(self.reduced_destination(r))
        self.insert(
            mem.ReduceOp.build(
                operands=[ins, neutral, [o.view for o in outs]],
                result_types=[[]],
                regions=[region],
                properties={"commutative": op.commutative} if commutative else {},
            )
        )
        for r, o in zip(op.outputs, outs):
            if is_array(r.type):
                self.scope[r] = o
            else:
                self.bind_reduced(r, o.view)

    def reduced_destination(self, result: SSAValue) -> Array:
        """Where a host-level reduction leaves its scalar `result` in device memory: a
        view chosen ahead (a husk's slot), or a fresh 0-d array."""
        hint = self.scalar_hints.get(result)
        if hint is not None:
            return Array(hint, None)
        return self.allocate(TensorType(result.type, []), [], (result.name_hint or "red") + "_dev")

    def bind_reduced(self, result: SSAValue, view: SSAValue) -> None:
        """A host-level reduction's scalar `result`, which the kernel leaves in device
        memory at `view`."""
        if self.scalar_hints.pop(result, None) is not None:
            self.scope[result] = DeviceScalar(view)  # where it was asked to go: no read
        elif result.uses and used_only_on_device(result):
            self.scope[result] = DeviceScalar(view)  # no read: only kernels use it
        elif result.uses:
            # the result is in device memory; host code reads it (a synchronous read)
            load = self.insert(mem.LoadOp(view, []))
            self._name(load.result, result)
            self.scope[result] = load.result

    def convert_scan(self, op: soac.ScanOp) -> None:
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        outs = [self.destination(r, op) for r in op.outputs]
        region = self.operator_region(op.body)
        self.insert(
            mem.ScanOp.build(
                operands=[ins, neutral, [o.view for o in outs]],
                regions=[region],
                properties={"commutative": op.commutative} if op.commutative is not None else {},
            )
        )
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def convert_scatter(self, op: soac.ScatterOp) -> None:
        target = self.writable_copy(op.dest, op.result, op)
        self.insert(mem.ScatterOp(target.view, self.array(op.indices).view, self.array(op.values).view))
        self.scope[op.result] = target

    def convert_hist(self, op: soac.HistOp) -> None:
        target = self.writable_copy(op.dest, op.result, op)
        region = self.operator_region(op.body)
        self.insert(
            mem.HistOp.build(
                operands=[target.view, self.array(op.indices).view, self.array(op.values).view, self._view_or_scalar(op.neutral)],
                regions=[region],
            )
        )
        self.scope[op.result] = target

    # --- fused combinators: their lambdas stay in the op, so no intermediate array -----


    def fused_lambda(self, old: Region, params: Sequence[Attribute], results: Sequence[SSAValue], outs: Sequence[Array]) -> Region:
        """A fused op's lambda at level 2: the parameters of `old`, then the rows of the
        array-valued outputs among `outs` (which take `results`' values); a yielded row
        made in the lambda is built in its output row."""
        body = Block(arg_types=[*params, *[mem.row_view_type(o.view.type) for o in outs if o.view.type.get_num_dims() > 1]])
        old_block = old.block
        yields = old_block.last_op.operands
        row_params = iter(body.args[len(params) :])
        position = {r: j for j, r in enumerate(old.parent_op().results)}
        for r, o in zip(results, outs):
            if o.view.type.get_num_dims() > 1:
                row = next(row_params)
                if r.name_hint:
                    row.name_hint = r.name_hint + "_row"
                y = yields[self._yield_position(old.parent_op(), old, position[r])]
                if _made_here_for(y, old_block) and r not in self.sized_by_first_row:
                    self.hints[y] = Array(row, None)
        self.convert_lambda(old_block, body)
        return Region(body)

    @staticmethod
    def _yield_position(op: Operation, region: Region, result_index: int) -> int:
        """Which value `region` yields for result `result_index` of the fused op."""
        if isinstance(op, soac.ScatteromapOp | soac.HistomapOp):
            return result_index + 1  # after the index and the value
        return result_index  # redomap/scanomap: the operands' results come first, in order

    def _row_params(self, inputs: Sequence[SSAValue]) -> list[Attribute]:
        return [mem.row_view_type(self.array(v).view.type) for v in inputs]

    def _properties(self, op: Operation) -> dict:
        return {"commutative": op.commutative}

    def convert_redomap(self, op: soac.RedomapOp) -> None:
        k = op.num_operands_reduced
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        mapped = list(op.outputs[k:])
        outs = [self.destination(r, op) for r in mapped]
        map_body = self.fused_lambda(op.map_body, self._row_params(op.inputs), mapped, outs)
        operators = [self.operator_region(r) for r in op.operators]
        reduced = list(op.outputs[:k])
        if self.depth > 0:
            new = mem.RedomapOp.build(
                operands=[ins, neutral, [o.view for o in outs], []],
                result_types=[[r.type for r in reduced]],
                regions=[map_body, operators],
                properties=self._properties(op),
            )
            self.insert(new)
            for r, n in zip(reduced, new.results):
                self._name(n, r)
                self.scope[r] = n
        else:
            red_outs = [self.reduced_destination(r) for r in reduced]
            self.insert(
                mem.RedomapOp.build(
                    operands=[ins, neutral, [o.view for o in [*red_outs, *outs]], []],
                    result_types=[[]],
                    regions=[map_body, operators],
                    properties=self._properties(op),
                )
            )
            for r, o in zip(reduced, red_outs):
                self.bind_reduced(r, o.view)
        for r, o in zip(mapped, outs):
            self.scope[r] = o

    def convert_scanomap(self, op: soac.ScanomapOp) -> None:
        k = op.num_operands_scanned
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        outs = [self.destination(r, op) for r in op.outputs]
        params = self._row_params(op.inputs)
        if op.post is None:
            map_body = self.fused_lambda(op.map_body, params, op.outputs[k:], outs[k:])
            post = []
        else:
            map_body = Block(arg_types=params)
            self.convert_lambda(op.map_body.block, map_body)
            map_body = Region(map_body)
            post_params = [mem.view_type_of(a.type, mem.DEVICE) for a in op.post.block.args]
            post = [self.fused_lambda(op.post, post_params, op.outputs, outs)]
        operators = [self.operator_region(r) for r in op.operators]
        self.insert(
            mem.ScanomapOp.build(
                operands=[ins, neutral, [o.view for o in outs], []],
                regions=[map_body, operators, post],
                properties=self._properties(op),
            )
        )
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def _dest_fused(self, op: soac.ScatteromapOp | soac.HistomapOp) -> tuple[Array, list[SSAValue], list[Array], Region]:
        target = self.writable_copy(op.dest, op.outputs[0], op)
        mapped = list(op.outputs[1:])
        outs = [self.destination(r, op) for r in mapped]
        map_body = self.fused_lambda(op.map_body, self._row_params(op.inputs), mapped, outs)
        return target, [self.array(v).view for v in op.inputs], outs, map_body

    def convert_scatteromap(self, op: soac.ScatteromapOp) -> None:
        target, ins, outs, map_body = self._dest_fused(op)
        self.insert(mem.ScatteromapOp.build(operands=[target.view, ins, [o.view for o in outs], []], regions=[map_body]))
        self.scope[op.outputs[0]] = target
        for r, o in zip(op.outputs[1:], outs):
            self.scope[r] = o

    def convert_histomap(self, op: soac.HistomapOp) -> None:
        target, ins, outs, map_body = self._dest_fused(op)
        operator = self.operator_region(op.operator)
        self.insert(
            mem.HistomapOp.build(
                operands=[target.view, ins, [o.view for o in outs], self._view_or_scalar(op.neutral), []],
                regions=[map_body, operator],
            )
        )
        self.scope[op.outputs[0]] = target
        for r, o in zip(op.outputs[1:], outs):
            self.scope[r] = o

    def convert_gpu_body(self, op: soac.GpuBodyOp) -> None:
        outs = [self.destination(r, op) for r in op.outputs]
        # an array the body makes only to yield it is built in its output's row (as a
        # map's rows are), not in memory of its own that the kernel would need
        for value, out in zip(op.body.block.last_op.operands, outs):
            if is_array(value.type) and _made_here_for(value, op.body.block) and value not in self.hints:
                row_type = mem.view_type_of(value.type, mem.space_of(out.view.type))
                zero = self.index_constant(0)
                row = self.insert(mem.SliceOp(out.view, [soac.SliceSpec.FIXED], [zero], row_type)).result
                self.hints[value] = Array(row, None)
        body = Block()
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.scope.layers.append({})
        try:
            self.load_device_scalars(op.body.block)
            self.convert_ops_until_yield(op.body.block)
            self.insert(mem.YieldOp(*[self._view_or_scalar(v) for v in op.body.block.last_op.operands]))
        finally:
            self.scope.layers.pop()
            self.builder = outer
        self.insert(mem.GpuBodyOp.build(operands=[[o.view for o in outs]], regions=[Region(body)]))
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o
