"""The CPU reference executor: runs a level-1 module on NumPy through xDSL's
interpreter framework with soacc's vectorised implementations (runtime/interp)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.utils.exceptions import InterpretationError
from xdsl.ir import Operation

from soacc.dialects import fork
from soacc.dialects.mem import entry_signature
from soacc.dialects.shared.provenance import made_from
from soacc.dialects.shared.utils import enclosing_function
from soacc.passes.analysis.liveness import LastUses, last_uses
from soacc.runtime.arguments import array_parameters, host_arguments
from soacc.runtime.errors import ExecutionError, SoaccError
from soacc.runtime.interp import new_interpreter
from soacc.runtime.interp.fork import start_threads
from soacc.runtime.interp.husk import end_call
from soacc.runtime.husk_residency import residency_wanted
from soacc.runtime.interp.mem import Block
from soacc.runtime.statistics import Statistics

@dataclass
class _OpTracker(Interpreter.Listener):
    """Keeps the stack of ops being run, so that an error names the innermost one."""

    stack: list[Operation] = field(default_factory=list)

    def will_interpret_op(self, op: Operation, args) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results) -> None:
        self.stack.pop()


@dataclass
class _DropDeadValues(Interpreter.Listener):
    """Forgets each value after its last use, so that a memory block is freed when
    its last view dies (as reference-counted blocks are at run time)."""

    interpreter: Interpreter
    uses: LastUses

    def will_interpret_op(self, op: Operation, args) -> None:
        for v in self.uses.dead_before.get(op, ()):
            self._drop(v)

    def did_interpret_op(self, op: Operation, results) -> None:
        for v in self.uses.dies_after.get(op, ()):
            self._drop(v)

    def _drop(self, value) -> None:
        scope = self.interpreter._ctx  # xDSL keeps no public way to forget a value
        while scope is not None:
            local = scope.local_scope
            if value in local:
                del local[value]  # type: ignore[attr-defined]  (it is the scope's dict)
                return
            scope = scope.parent


def _named(op: Operation) -> str:
    names = [f"%{r.name_hint}" for r in op.results if r.name_hint]
    return op.name + (" " + ", ".join(names) if names else "")


def describe_op(op: Operation) -> str:
    """`soac.index %x in @main`: enough to find the op in the source; an op a lowering
    made without a name of its own names the op it comes from: `arith.muli (of
    soac.replicate %r)`."""
    text = _named(op)
    origin = op
    while made_from(origin) is not None:
        origin = made_from(origin)
    # an op carried over unchanged by a lowering (a cf.assert) is its own origin in all but identity
    if origin is not op and not any(r.name_hint for r in op.results) and _named(origin) != text:
        text += f" (of {_named(origin)})"
    where = enclosing_function(op)
    return text + (f" in @{where.sym_name.data}" if where else "")


class ReferenceExecutor:
    """Runs functions of one module on the CPU."""

    name = "numpy"
    description = "the CPU reference executor (NumPy)"

    def __init__(
        self,
        module: ModuleOp,
        free_at_last_use: bool = True,
        kernels_source: Callable[[], str] | None = None,
        fork_seed: int = 0,
        devices: int = 1,
    ):
        """`kernels_source` gives the CUDA C of a level-3 module's kernels, which its
        gpu.launch_func ops run on the real GPU. `fork_seed` draws the interleaving of
        the threads of a fork program (runtime/interp/fork.py). Husks run on `devices`
        devices (runtime/interp/husk.py)."""
        if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
            raise SoaccError(f"devices={devices!r}: husks run on a whole number of devices, at least 1")
        self.devices = devices
        self.resident = residency_wanted()
        """Husk devices keep what they were sent and computed from one run to the next
        (runtime/husk_residency.py; decided when the executor is made, as the GPU's)."""
        self.fork_seed = fork_seed
        self.module = module
        self.kernels_source = kernels_source
        self._captured_cache: dict = {}  # per region, reused across calls
        # free_at_last_use=False keeps every value until its scope (block run) ends, as
        # scope-based memory management does: benchmarks/memory.py measures that model.
        # (threads share their scopes, so a fork program's values live until its call
        # ends; the functions without forks beside it, such as the function a forked
        # copy is of, free at last use as ever)
        functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
        self._forked = {name for name, f in functions.items() if fork.has_forks(f)}
        self._callees = {name: {c.callee.string_value() for c in f.walk() if isinstance(c, func.CallOp)} for name, f in functions.items()}
        self._last_uses = LastUses()
        if free_at_last_use:
            for op in module.ops:
                if not (isinstance(op, func.FuncOp) and op.sym_name.data in self._forked):
                    found = last_uses(op)
                    self._last_uses.dies_after.update(found.dies_after)
                    self._last_uses.dead_before.update(found.dead_before)
        self.last_statistics = Statistics()

    def _reaches_forks(self, function: str) -> bool:
        """`function`, or a function it calls, has threads."""
        seen, todo = set(), [function]
        while todo:
            name = todo.pop()
            if name in self._forked:
                return True
            if name not in seen:
                seen.add(name)
                todo += self._callees.get(name, ())
        return False

    def call(self, function: str, args: Sequence) -> tuple:
        """Runs `function` on level-1 values (NumPy arrays and scalars); at level 2 the
        arrays are passed and returned in host memory blocks."""
        tracker = _OpTracker()
        statistics = Statistics()
        interpreter = new_interpreter(
            self.module, statistics, captured_cache=self._captured_cache, kernels_source=self.kernels_source, devices=self.devices,
            resident=self.resident,
        )
        interpreter.listeners += (tracker, _DropDeadValues(interpreter, self._last_uses))
        threads = start_threads(interpreter, self.fork_seed) if self._reaches_forks(function) else None
        if threads is not None:
            interpreter.listeners += (threads.calls,)
        self.last_statistics = statistics
        callee = interpreter.get_op_for_symbol(function)
        signature = entry_signature(callee)
        level2 = signature is not None
        if level2:
            args = host_arguments(args, array_parameters(signature.inputs.data), _host_block)
        try:
            with np.errstate(all="ignore"):  # wrap-around and inf/NaN are MLIR semantics
                results = tuple(interpreter.call_op(function, tuple(args)))
                if threads is not None:
                    threads.join()
                return tuple(r for r in results if not isinstance(r, Block)) if level2 else results
        except Exception as error:
            where = describe_op(tracker.stack[-1]) if tracker.stack else f"@{function}"
            if isinstance(error, SoaccError):
                message = str(error)
                if tracker.stack and message.startswith(tracker.stack[-1].name + ": "):
                    message = message[len(tracker.stack[-1].name) + 2 :]
            elif isinstance(error, MemoryError):
                message = f"out of memory: {error or 'an array does not fit in this machine'}"
            elif isinstance(error, RecursionError):
                message = "the program nests calls or regions too deeply for the reference executor (Python's recursion limit)"
            elif isinstance(error, InterpretationError) and "Could not find interpretation function" in str(error):
                op_name = tracker.stack[-1].name if tracker.stack else "an op"
                message = f"the reference executor has no implementation of {op_name}"
            else:
                message = f"{type(error).__name__}: {error}"
            raise ExecutionError(f"{where}: {message}") from None
        finally:
            end_call(interpreter)
            if threads is not None:
                threads.close()


def _host_block(array: np.ndarray, data: np.ndarray) -> tuple[Block, np.ndarray]:
    return Block(data, "host"), array  # the interpreter's views are NumPy arrays
