"""The number of synchronous reads reduce-device-syncs promises for one run: the cut's
read points (MigrationTable.read_points) counted over a run of the analysed program on
the reference executor. A test checks that the program the passes make reads exactly
that many times (program.statistics.sync_reads at level 2).

Imported by the tests of tests/passes as `sync_bound` (pytest puts this folder on
sys.path)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation

from soacc.passes.analysis.migration_table import analyse_module
from soacc.passes.reduce_device_syncs import rotate_host_loops
from soacc.runtime.interp import register_implementations
from soacc.runtime.interp.lanes import LaneState
from soacc.runtime.interp.mem import MemFunctions
from soacc.runtime.program import convert_argument, parse_program
from soacc.runtime.statistics import Statistics


class _CountReads(Interpreter.Listener):
    def __init__(self, points: Sequence[Operation | Block]):
        self.ops = Counter(p for p in points if isinstance(p, Operation))
        self.blocks = Counter(p for p in points if isinstance(p, Block))
        self.reads = 0

    def will_interpret_op(self, op: Operation, args) -> None:
        self.reads += self.ops.get(op, 0)
        block = op.parent
        if block is not None and block.first_op is op:
            self.reads += self.blocks.get(block, 0)

    def did_interpret_op(self, op: Operation, results) -> None:
        pass


@functools.lru_cache(maxsize=8)
def analysed(source: str) -> tuple[ModuleOp, list[Operation | Block]]:
    """The program as the pass analyses it (its while loops rotated) and its read points
    (cached: running a module does not change it)."""
    module = parse_program(source)
    for f in module.ops:
        if isinstance(f, func.FuncOp) and f.body.blocks:
            rotate_host_loops(f)
    points = [p for table in analyse_module(module).values() for p in table.read_points()]
    return module, points


def cut_bound(source: str, args: Sequence, entry: str = "main") -> int:
    """The reads of one call of `entry`, as the analysis counts them."""
    module, points = analysed(source)
    callee = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == entry)
    values = [
        convert_argument(a, t, f"argument {i}") for i, (a, t) in enumerate(zip(args, callee.function_type.inputs.data))
    ]
    counter = _CountReads(points)
    interpreter = Interpreter(module, index_bitwidth=64)
    interpreter.listeners = (counter,)
    register_implementations(interpreter)
    interpreter.set_data(LaneState, "captured", {})  # type: ignore[arg-type]
    interpreter.set_data(MemFunctions, "statistics", Statistics())
    with np.errstate(all="ignore"):
        interpreter.call_op(entry, tuple(values))
    return counter.reads
