"""The CPU reference executor: runs a level-1 module on NumPy through xDSL's
interpreter framework with soacc's vectorised implementations (runtime/interp)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation

from soacc.runtime.errors import ExecutionError, SoaccError
from soacc.runtime.interp import register_implementations
from soacc.runtime.interp.lanes import LaneState


@dataclass
class _OpTracker(Interpreter.Listener):
    """Keeps the stack of ops being run, so that an error names the innermost one."""

    stack: list[Operation] = field(default_factory=list)

    def will_interpret_op(self, op: Operation, args) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results) -> None:
        self.stack.pop()


def describe_op(op: Operation) -> str:
    """`soac.index %x in @main`: enough to find the op in the source."""
    from xdsl.dialects import func

    names = [f"%{r.name_hint}" for r in op.results if r.name_hint]
    where = op.parent_op()
    while where is not None and not isinstance(where, func.FuncOp):
        where = where.parent_op()
    text = op.name + (" " + ", ".join(names) if names else "")
    return text + (f" in @{where.sym_name.data}" if where else "")


class ReferenceExecutor:
    """Runs functions of one module on the CPU."""

    name = "numpy"
    description = "the CPU reference executor (NumPy)"

    def __init__(self, module: ModuleOp):
        self.module = module
        self._captured_cache: dict = {}  # per region, reused across calls

    def call(self, function: str, args: Sequence) -> tuple:
        tracker = _OpTracker()
        interpreter = Interpreter(self.module, index_bitwidth=64, listeners=(tracker,))
        register_implementations(interpreter)
        interpreter.set_data(LaneState, "captured", self._captured_cache)  # type: ignore[arg-type]
        try:
            with np.errstate(all="ignore"):  # wrap-around and inf/NaN are MLIR semantics
                return tuple(interpreter.call_op(function, tuple(args)))
        except Exception as error:
            where = describe_op(tracker.stack[-1]) if tracker.stack else f"@{function}"
            if isinstance(error, SoaccError):
                message = str(error)
                if tracker.stack and message.startswith(tracker.stack[-1].name + ": "):
                    message = message[len(tracker.stack[-1].name) + 2 :]
            else:
                message = f"{type(error).__name__}: {error}"
            raise ExecutionError(f"{where}: {message}") from None
