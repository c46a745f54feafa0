"""How many times chosen ops and blocks run in one call of a level-1 program on the
reference executor: what reduce-device-syncs' bound on synchronous reads is counted
with (MigrationTable.read_points: the reads of the cut happen once per execution of
each point). Used by its tests and by benchmarks/device_syncs.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation

from soacc.runtime.arguments import convert_argument
from soacc.runtime.interp import new_interpreter
from soacc.runtime.statistics import Statistics


class _Count(Interpreter.Listener):
    def __init__(self, points: Sequence[Operation | Block]):
        self.ops = Counter(p for p in points if isinstance(p, Operation))
        self.blocks = Counter(p for p in points if isinstance(p, Block))
        self.total = 0

    def will_interpret_op(self, op: Operation, args) -> None:
        self.total += self.ops.get(op, 0)
        block = op.parent
        if block is not None and block.first_op is op:  # the block is entered
            self.total += self.blocks.get(block, 0)

    def did_interpret_op(self, op: Operation, results) -> None:
        pass


def count_executions(module: ModuleOp, entry: str, args: Sequence, points: Sequence[Operation | Block]) -> int:
    """Runs `entry` of the level-1 `module` on `args` and gives the executions of
    `points` (ops, and blocks counted when entered), each as often as it is listed."""
    callee = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == entry)
    values = [
        convert_argument(a, t, f"argument {i}") for i, (a, t) in enumerate(zip(args, callee.function_type.inputs.data))
    ]
    counter = _Count(points)
    interpreter = new_interpreter(module, Statistics(), listeners=(counter,))
    with np.errstate(all="ignore"):  # wrap-around and inf/NaN are MLIR semantics
        interpreter.call_op(entry, tuple(values))
    return counter.total
