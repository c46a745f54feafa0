"""`scf` and `func` on NumPy lanes.

At host level (no lanes) control flow is plain Python control flow. Inside a lambda a
condition or a loop bound may differ between lanes: then both branches of an `if` run
under complementary masks and merge with `np.where`, and a loop runs until no active
lane continues, each lane keeping the values of its own last iteration.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func, scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)

from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.lanes import (
    LaneState,
    active_values,
    is_uniform,
    lanes,
    masked,
    scalar,
    select_lanes,
)


def _merge(cond, new, old, depth: int) -> tuple:
    return tuple(select_lanes(cond, n, o, depth) for n, o in zip(new, old))


def _flag(x) -> bool:
    return bool(np.asarray(x).reshape(-1)[0])


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args):
        (cond,) = args
        state = lanes(interpreter)
        if is_uniform(cond):
            region = op.true_region if _flag(cond) else op.false_region
            return interpreter.run_ssacfg_region(region, (), "scf.if")
        taken = active_values(state, cond)
        if taken.size == 0 or taken.all() or not taken.any():
            # Every active lane goes the same way: run that branch alone.
            branch = op.true_region if (taken.size and taken[0]) else op.false_region
            return interpreter.run_ssacfg_region(branch, (), "scf.if")
        cond = np.asarray(cond)
        with masked(interpreter, cond):
            then_values = interpreter.run_ssacfg_region(op.true_region, (), "scf.if.then")
        with masked(interpreter, ~cond):
            else_values = interpreter.run_ssacfg_region(op.false_region, (), "scf.if.else")
        return _merge(cond, then_values, else_values, state.depth)

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args):
        lb, ub, step, *carried = args
        state = lanes(interpreter)
        carried = tuple(carried)
        steps = active_values(state, step) if state.depth else np.asarray(step).reshape(-1)
        if steps.size and steps.min() <= 0:
            # MLIR requires a positive step; a loop of step 0 would never end
            raise ExecutionError(f"scf.for: step {steps.min()} is not positive (a loop's step must be at least 1)")
        if is_uniform(lb) and is_uniform(ub) and is_uniform(step):
            iv_dtype = np.asarray(lb).dtype
            for i in range(int(np.asarray(lb).item()), int(np.asarray(ub).item()), int(np.asarray(step).item())):
                carried = interpreter.run_ssacfg_region(
                    op.body, (scalar(state, i, iv_dtype), *carried), "scf.for"
                )
            return carried
        # Bounds differ between lanes: iterate until no active lane is inside its range.
        iv = np.asarray(lb)
        active = iv < ub
        while active_values(state, active).any():
            with masked(interpreter, active):
                new = interpreter.run_ssacfg_region(op.body, (iv, *carried), "scf.for")
            carried = _merge(active, new, carried, state.depth)
            iv = iv + step
            active = active & (iv < ub)
        return carried

    @impl(scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: scf.WhileOp, args):
        state = lanes(interpreter)
        if state.depth == 0:
            values = args
            while True:
                cond, *forwarded = interpreter.run_ssacfg_region(
                    op.before_region, values, "scf.while.before"
                )
                if not _flag(cond):
                    return tuple(forwarded)
                values = interpreter.run_ssacfg_region(
                    op.after_region, tuple(forwarded), "scf.while.after"
                )
        return self._run_while_lanes(interpreter, op, args, state)

    def _run_while_lanes(self, interpreter: Interpreter, op: scf.WhileOp, args, state: LaneState):
        """Each lane loops until its own condition fails; the loop ends when no active lane
        continues. A lane's results are the values forwarded when its condition failed."""
        active = True if state.mask is None else state.mask
        values = tuple(args)
        results: tuple | None = None
        while True:
            with masked(interpreter, np.asarray(active)):
                cond, *forwarded = interpreter.run_ssacfg_region(
                    op.before_region, values, "scf.while.before"
                )
            cond = np.asarray(cond)
            finished_now = np.asarray(active) & ~cond
            results = (
                tuple(forwarded)
                if results is None
                else _merge(finished_now, forwarded, results, state.depth)
            )
            active = np.asarray(active) & cond
            if not active_values(state, active).any():
                return results
            with masked(interpreter, active):
                new = interpreter.run_ssacfg_region(
                    op.after_region, tuple(forwarded), "scf.while.after"
                )
            values = _merge(active, new, values, state.depth)

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: scf.YieldOp, args):
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(self, interpreter: Interpreter, op: scf.ConditionOp, args):
        return ReturnedValues(args), ()


@register_impls
class FuncFunctions(InterpreterFunctions):
    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp, args):
        return ReturnedValues(args), ()

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp, args):
        # The callee runs over the caller's lanes (its values get the same lane axes).
        return interpreter.call_op(op.callee, args)

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp, args):
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)
