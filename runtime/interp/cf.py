"""`cf.assert` on NumPy: the run-time checks passes leave where they remove an op
that checked something when it ran (short-circuit's size check of a copy it removes,
soac-fusion's of an input it drops). Only `cf.assert` of `cf` runs here: soacc takes
structured control flow, not branches."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.lanes import active_values, lanes


@register_impls
class CfFunctions(InterpreterFunctions):
    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp, args):
        (condition,) = args
        # inside a lambda the condition is one per lane: every active lane must hold it
        if not np.all(active_values(lanes(interpreter), np.asarray(condition))):
            raise ExecutionError(op.msg.data)
        return ()
