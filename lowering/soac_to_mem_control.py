"""convert-soac-to-mem for functions and control flow: a function's boundary (an entry
point's arrays arrive and leave in host memory), `scf.if`, `scf.for` and `scf.while`
carrying arrays as (block, view) pairs at host level (views alone in lambdas), calls
(to the callee's variant for the caller's convention) and returns."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, StringAttr
from xdsl.ir import Block, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem
from soacc.lowering.soac_to_mem_base import DEVICE, ENTRY, LANE, Array, ConversionBase, is_array
from soacc.dialects.shared.utils import defined_inside
from soacc.passes.utils.memory_motion import drop_if_results, stop_carrying


class ControlFlowConversion(ConversionBase):
    """Converts functions' boundaries, control flow, calls and returns."""

    def convert(self, name: str) -> func.FuncOp:
        old_type = self.old.function_type
        inputs = self.boundary_types(old_type.inputs.data)
        outputs = self.boundary_types(old_type.outputs.data)
        body = Block(arg_types=inputs)
        self.builder = Builder(InsertPoint.at_end(body))
        old_block = self.old.body.block
        args = iter(body.args)
        for old_arg in old_block.args:
            if not is_array(old_arg.type):
                new = next(args)
                self._name(new, old_arg)
                self.scope[old_arg] = new
                continue
            block = next(args) if self.convention != LANE else None
            view = next(args)
            self._name(view, old_arg)
            if block is not None:
                self._name(block, old_arg, "_mem")
            if self.convention == ENTRY and old_arg.uses:
                # the argument arrives in host memory: its device copy is what the program uses
                host_view = view
                host_view.name_hint = (old_arg.name_hint or "arg") + "_host"
                if block is not None:
                    block.name_hint = (old_arg.name_hint or "arg") + "_host_mem"
                device = self.allocate(old_arg.type, [self.insert(mem.SizeOp(host_view, a)).result for a in range(old_arg.type.get_num_dims())], old_arg.name_hint or "arg")
                self.insert(mem.CopyOp(host_view, device.view))
                self.scope[old_arg] = device
            else:
                self.scope[old_arg] = Array(view, block)
        self.convert_ops(old_block)
        new = func.FuncOp(name, FunctionType.from_lists(inputs, outputs), Region(body))
        if self.convention == ENTRY:
            new.attributes[mem.ENTRY_SIGNATURE] = old_type
        if self.convention != ENTRY:
            new.sym_visibility = StringAttr("private")
        return new


    def convert_if(self, op: scf.IfOp) -> None:
        result_types = self.carried_types([r.type for r in op.results])
        regions = []
        for old_region in op.regions:
            if not old_region.blocks:
                regions.append(Region())
                continue
            block = Block()
            self.convert_structured_body(old_region, block)
            regions.append(Region(block))
        new = self.insert(scf.IfOp(self.scope[op.cond], result_types, regions[0], regions[1]))
        # a result every branch yields unchanged from outside (an array each branch
        # updates in place) is that value: later passes see the array itself
        forwarded: dict[int, SSAValue] = {}
        if new.results:  # (then both branches have a block and yield)
            yields = [r.block.last_op.operands for r in new.regions]
            for i, value in enumerate(yields[0]):
                if all(y[i] is value for y in yields) and not defined_inside(value, new):
                    forwarded[i] = value
        if forwarded:
            new = drop_if_results(new, list(forwarded))
        kept = iter(new.results)
        self.unflatten(op.results, [forwarded[i] if i in forwarded else next(kept) for i in range(len(result_types))])

    def convert_structured_body(
        self,
        old: Region,
        new_block: Block,
        old_args: Sequence[SSAValue] = (),
        bound: dict[SSAValue, SSAValue] | None = None,
    ) -> None:
        """Converts an scf body: `old_args` stand for `new_block`'s arguments after those
        already in `bound`."""
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(new_block))
        self.scope.layers.append({})
        try:
            for old_value, new_value in (bound or {}).items():
                self.scope[old_value] = new_value
            self.unflatten(old_args, new_block.args[len(bound or {}) :])
            self.convert_ops_until_yield(old.block)
            term = old.block.last_op
            if isinstance(term, scf.ConditionOp):
                self.insert(scf.ConditionOp(self.scope[term.condition], *self.flatten(term.args)))
            else:
                self.insert(scf.YieldOp(*self.flatten(term.operands)))
        finally:
            self.scope.layers.pop()
            self.builder = outer

    def convert_for(self, op: scf.ForOp) -> None:
        inits = self.flatten(op.iter_args)
        carried = self.carried_types([v.type for v in op.iter_args])
        old_iv, *old_carried = op.body.block.args
        body = Block(arg_types=[old_iv.type, *carried])
        self._name(body.args[0], old_iv)
        self.convert_structured_body(op.body, body, old_carried, {old_iv: body.args[0]})
        new = self.insert(scf.ForOp(self.scope[op.lb], self.scope[op.ub], self.scope[op.step], inits, Region(body)))
        # an array updated in place is carried unchanged: it is its initial value throughout
        # (and kernels cannot carry arrays through loops)
        yielded = body.last_op.operands
        unchanged = [k for k, v in enumerate(yielded) if v is body.args[k + 1]]
        if not unchanged:
            self.unflatten(op.results, new.results)
            return
        kept = iter(stop_carrying(new, unchanged).results)
        self.unflatten(op.results, [inits[k] if k in unchanged else next(kept) for k in range(len(inits))])

    def convert_while(self, op: scf.WhileOp) -> None:
        inits = self.flatten(op.arguments)
        before_types = self.carried_types([a.type for a in op.before_region.block.args])
        after_types = self.carried_types([a.type for a in op.after_region.block.args])
        before = Block(arg_types=before_types)
        after = Block(arg_types=after_types)
        self.convert_structured_body(op.before_region, before, op.before_region.block.args)
        self.convert_structured_body(op.after_region, after, op.after_region.block.args)
        new = self.insert(scf.WhileOp(inits, self.carried_types([r.type for r in op.results]), Region(before), Region(after)))
        self.unflatten(op.results, new.results)

    def convert_call(self, op: func.CallOp) -> None:
        convention = LANE if self.depth > 0 else DEVICE
        callee = self.modules.function(op.callee.root_reference.data, convention, op)
        new = self.insert(func.CallOp(callee, self.flatten(op.arguments), self.carried_types([r.type for r in op.results])))
        self.unflatten(op.results, new.results)

    def convert_return(self, op: func.ReturnOp) -> None:
        if self.convention != ENTRY:
            self.insert(func.ReturnOp(*self.flatten(op.arguments)))
            return
        values: list[SSAValue] = []
        for v in op.arguments:
            new = self.scope[v]
            if not isinstance(new, Array):
                values.append(new)
                continue
            # results leave in host memory; what that costs comes from the op that made
            # the array (a size past 64 bits names it, not the return)
            returning, self.converting = self.converting, v.op if isinstance(v, OpResult) else self.converting
            try:
                dims = [self.insert(mem.SizeOp(new.view, a)).result for a in range(v.type.get_num_dims())]
                block = self.insert(mem.AllocOp(self.byte_count(v.type, dims), mem.HOST)).block
                zero = self.index_constant(0)
                dynamic = [d for d, s in zip(dims, v.type.get_shape()) if s == DYNAMIC_INDEX]
                view = self.insert(mem.ViewOp(block, zero, dynamic, mem.view_type_of(v.type, mem.HOST))).result
                name = (v.name_hint or "result") + "_host"
                view.name_hint, block.name_hint = name, name + "_mem"
                self.insert(mem.CopyOp(new.view, view))
            finally:
                self.converting = returning
            values += [block, view]
        self.insert(func.ReturnOp(*values))
