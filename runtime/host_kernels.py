"""Kernels on the host: the level-2 kernels that place-kernels put in host memory, run
on the CPU by the host code of the cuda backend (and of any executor of emitted host
code), as the study of transfer fusion maps some kernels to the CPU.

A host kernel stays a `mem` op at level 3 (convert-mem-to-gpu leaves it), and the host
code calls `rt.host_kernel(i, operands, captured)`. It runs through the reference
executor's own implementations (runtime/interp: a lambda is evaluated once over all
rows with NumPy), on NumPy arrays that share the memory of the host views it is given,
so a host kernel computes exactly what the reference executor computes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.interpreter import Interpreter
from xdsl.ir import Operation

from soacc.dialects.shared.utils import captured_values
from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import HostBlock, View
from soacc.runtime.interp import new_interpreter
from soacc.runtime.statistics import Statistics


class HostKernels:
    """The host kernels of one program, by the index the host code names them with."""

    def __init__(self, ops: Sequence[Operation]):
        self.ops = tuple(ops)
        self._interpreter: Interpreter | None = None
        self._captured = [tuple(captured_values(op)) for op in self.ops]

    def run(self, index: int, operands: Sequence, captured: Sequence, statistics: Statistics) -> None:
        """Runs kernel `index` on its operands and the values its regions capture (host
        views and scalars, in the order of the op's operands and `captured_values`)."""
        op = self.ops[index]
        interpreter = self._interpreter
        if interpreter is None:
            # its own counters: what a host kernel's lambdas allocate is not the program's memory traffic
            interpreter = self._interpreter = new_interpreter(op.get_toplevel_object(), Statistics())
        interpreter.push_scope("host kernel")
        try:
            interpreter.set_values(zip(self._captured[index], map(_value, captured)))
            interpreter.run_op(op, tuple(map(_value, operands)))
        finally:
            interpreter.pop_scope()
        statistics.host_kernels += 1


def _value(value):
    """What the reference executor's implementations take: a view as a NumPy array over
    its memory; a scalar as it is."""
    if isinstance(value, View):
        if not isinstance(value.block, HostBlock):
            raise ExecutionError("a kernel placed on the host was given an array in device memory")
        return value.array  # (an empty view: a fresh empty array, nothing to share)
    return value
