"""The `python` target: the host code of a level-3 module (after convert-mem-to-gpu) as
the source of a Python module that calls the runtime, as Futhark's Python backends do.

Every `func.func` becomes one Python function taking the runtime `rt`
(runtime/gpu/host_runtime.py) and then its own arguments; each op becomes a line or
a few: scalars are NumPy scalars computed by the reference executor's own functions
(runtime/host_scalars.py), so host code computes exactly what the reference executor
computes; arrays are views (runtime/gpu/arrays.py) whose slices and transposes are
metadata; `gpu.launch_func` is `rt.launch` of a kernel of the module's CUDA C (the
`cuda` target), each view passed as its pointer, offset, sizes and strides.

Memory is freed as the reference executor frees it: a block dies with its last view,
and the code deletes each block and view after its last use (passes/analysis/liveness.py).
Loops keep their carried values as the executor does (the values of the previous
iteration live until the next one yields), so peak memory is counted the same.

An op with no rule here is an error naming it, never code that runs and is wrong.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, cf, func, gpu, scf
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.target import Target

from soacc.passes.analysis.device_loops import reads_only_its_condition
from soacc.dialects import fork, husk, mem
from soacc.dialects.soac import SliceSpec
from soacc.lowering.emit_cuda import EmissionError
from soacc.lowering.kernel_parallelism import SEQUENTIAL
from soacc.passes.analysis.kernel_writes import written_parameters
from soacc.passes.analysis.liveness import LastUses, last_uses, scope_end_uses
from soacc.dialects.shared.host_abi import is_cast, scalar_function
from soacc.dialects.shared.traits import is_host_kernel, is_kernel
from soacc.dialects.shared.dtypes import constant_value, numpy_dtype
from soacc.dialects.shared.kernel_abi import argument_format
from soacc.dialects.shared.utils import captured_values, enclosing_function

_GLOBALS = {"rt", "np", "arith", "math", "KERNELS"}
"""Names the emitted module itself uses."""

_RESERVED = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins)) | _GLOBALS

@dataclass
class HostModule:
    """The emitted host code and what an executor needs to run it."""

    source: str
    functions: dict[str, str]
    """MLIR function name -> Python function name."""
    op_at_line: dict[int, Operation]
    """Source line (from 1) -> the op it runs, to name the op when a line fails."""
    kernel_formats: dict[str, str]
    """Kernel name -> its arguments' struct format (as KERNELS in the source)."""
    scalar_functions: dict[str, Operation] = field(default_factory=dict)
    """The runtime's scalar functions the code calls (`arith.addi`; dialects/shared/host_abi.py),
    each with the first op that needs it, for the runtime to check it has them all."""
    host_kernels: list[Operation] = field(default_factory=list)
    """The kernels placed on the host (mem ops, place-kernels), by the index the code's
    `rt.host_kernel(i, ...)` names them with (runtime/host_kernels.py runs them)."""
    sequential_inside: dict[str, str] = field(default_factory=dict)
    """Kernel name -> the nested combinators each of its threads runs sequentially
    (lowering/kernel_parallelism.py), for the runtime's statistics."""


def emit_host(module: ModuleOp, free_at_last_use: bool = True) -> HostModule:
    """The host code of `module` as a Python module's source. It frees each block at its
    last use, or (free_at_last_use=False) when the block of code that made it ends, as
    the study's baseline did (for measuring against it)."""
    return _ModuleEmitter(module, scope_end=not free_at_last_use).emit()


@dataclass(frozen=True)
class PythonTarget(Target):
    name = "python"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(emit_host(module).source)


def kernel_argument_format(types: Sequence[Attribute]) -> str:
    """The struct format of a kernel's arguments: a view of rank r is a pointer then
    1 + 2r 64-bit integers (offset, sizes, strides), as lowering/emit_cuda.py declares it."""
    try:
        return argument_format(types)
    except TypeError as error:
        raise EmissionError(f"python target: {error}") from None


def _numpy_type(dtype: np.dtype) -> str:
    return "np.bool_" if dtype == np.bool_ else f"np.{dtype.name}"


def _literal(value: np.generic) -> str:
    """A NumPy scalar as Python source giving exactly that value."""
    dtype = value.dtype
    if dtype == np.bool_:
        return "np.True_" if value else "np.False_"
    if dtype.kind in "iu":
        return f"{_numpy_type(dtype)}({int(value)})"
    number = float(value)
    text = repr(number) if np.isfinite(number) else f'"{number}"'
    return f"{_numpy_type(dtype)}({text})"


def _is_memory(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | mem.BlockType)


def _function_of(op: Operation) -> str:
    where = enclosing_function(op)
    return f" in @{where.sym_name.data}" if where is not None else ""


def _error(op: Operation, why: str) -> EmissionError:
    error = EmissionError(f"python target: {op.name}{_function_of(op)} {why}")
    error.op = op  # type: ignore[attr-defined]  (for located diagnostics)
    return error


def _python_name(hint: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", hint)
    if not name or name[0].isdigit():
        name = "v" + name
    return name


@dataclass
class _ModuleEmitter:
    module: ModuleOp
    scope_end: bool = False
    """Free values when their block ends, not at their last use."""
    lines: list[str] = field(default_factory=list)
    op_at_line: dict[int, Operation] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)
    kernel_formats: dict[str, str] = field(default_factory=dict)
    kernel_params: dict[str, list[str]] = field(default_factory=dict)
    sequential_inside: dict[str, str] = field(default_factory=dict)
    scalar_functions: dict[str, Operation] = field(default_factory=dict)
    host_kernels: list[Operation] = field(default_factory=list)
    function_names: set[str] = field(default_factory=set)
    """Python names of every function: no local may take one."""
    uses: LastUses = field(default_factory=LastUses)
    touches: bool = False
    """Each launch names its arrays to the runtime first, those its kernel only reads
    and those it may write (a program with husks: what other devices computed of them
    comes back, and what they hold of the written ones is gone,
    runtime/husk_residency.py)."""
    kernel_writes: dict[str, frozenset[int]] = field(default_factory=dict)
    """Per kernel, the parameters it may write (where `touches`)."""
    indent: int = 0
    # per function
    names: dict[SSAValue, str] = field(default_factory=dict)
    bound: set[SSAValue] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    anonymous: int = 0

    # --- output ----------------------------------------------------------------------------

    def call_scalar_function(self, op: Operation) -> None:
        """`result = arith.addi(a, b)`: the runtime's function for a scalar op."""
        function = scalar_function(op)
        if function is None:
            raise _error(op, "has no host code rule")
        self.scalar_functions.setdefault(function, op)
        args = self.operands(op.operands)
        if is_cast(op):
            args.append(_numpy_type(numpy_dtype(op.results[0].type)))
        self.assign(op.results[0], f"{function}({', '.join(args)})", op)

    def line(self, text: str, op: Operation | None = None) -> None:
        self.lines.append("    " * self.indent + text)
        if op is not None:
            self.op_at_line[len(self.lines)] = op

    def truncate(self, length: int) -> None:
        """Forgets the lines past `length` (a branch that turned out empty)."""
        for number in range(length + 1, len(self.lines) + 1):
            self.op_at_line.pop(number, None)
        del self.lines[length:]

    # --- names -----------------------------------------------------------------------------

    def fresh(self, hint: str | None) -> str:
        """A Python name no other local, function, built-in or keyword has."""
        if hint is None:
            while f"v{self.anonymous}" in self.used:
                self.anonymous += 1
            name = f"v{self.anonymous}"
        else:
            base = _python_name(hint)
            name, n = base, 0
            while name in self.used or name in _RESERVED:
                n += 1
                name = f"{base}_{n}"
        self.used.add(name)
        return name

    def name(self, value: SSAValue) -> str:
        if value not in self.names:
            raise AssertionError(f"{value} is used before it is named")  # verified IR: never
        return self.names[value]

    def define(self, value: SSAValue) -> str:
        """Names a value being bound here."""
        if value not in self.names:
            self.names[value] = self.fresh(value.name_hint)
        self.bound.add(value)
        return self.names[value]

    def operands(self, values: Sequence[SSAValue]) -> list[str]:
        return [self.name(v) for v in values]

    # --- structure -------------------------------------------------------------------------

    def emit(self) -> HostModule:
        self.uses = scope_end_uses(self.module) if self.scope_end else last_uses(self.module)
        self.touches = any(isinstance(op, husk.RunOp) for op in self.module.walk())
        bodies: list[func.FuncOp] = []
        taken = set(_RESERVED)
        for op in self.module.ops:
            if isinstance(op, func.FuncOp):
                name = _python_name(op.sym_name.data)
                while name in taken:
                    name += "_"
                taken.add(name)
                if op.body.blocks:
                    self.functions[op.sym_name.data] = name
                    bodies.append(op)
            elif isinstance(op, gpu.ModuleOp):
                self.collect_kernels(op)
            else:
                raise _error(op, "is not a function: the host emitter takes functions and gpu.modules")
        self.function_names = taken - _RESERVED
        self.emit_header()
        for f in bodies:
            self.line("")
            self.line("")
            self.emit_function(f)
        return HostModule(
            "\n".join(self.lines) + "\n", self.functions, self.op_at_line, self.kernel_formats, self.scalar_functions, self.host_kernels,
            self.sequential_inside,
        )

    def collect_kernels(self, module: gpu.ModuleOp) -> None:
        for op in module.body.block.ops:
            if isinstance(op, gpu.FuncOp):
                name = op.sym_name.data
                args = op.body.block.args
                self.kernel_formats[name] = kernel_argument_format([a.type for a in args])
                self.kernel_params[name] = [a.name_hint or f"arg{i}" for i, a in enumerate(args)]
                inside = op.attributes.get(SEQUENTIAL)
                if isinstance(inside, StringAttr):
                    self.sequential_inside[name] = inside.data
                if self.touches:
                    self.kernel_writes[name] = written_parameters(op)

    def emit_header(self) -> None:
        self.lines += [
            '"""Host code of a soacc program, emitted by soacc\'s `python` target (lowering/emit_host.py).',
            "",
            "Each function takes the runtime `rt` (soacc.runtime.gpu.host_runtime.HostRuntime) and",
            "then the arguments of its MLIR function. Arrays are views of memory blocks",
            "(soacc.runtime.gpu.arrays); a block is freed when its last view dies, and `del`",
            "releases each block and view after its last use. Scalars are NumPy scalars with",
            "MLIR's semantics (soacc.runtime.host_scalars).",
            '"""',
            "",
            "import numpy as np",
            "",
            "from soacc.runtime.host_scalars import arith, math",
            "",
            "# The kernels this module launches (CUDA C from the cuda target), with the struct",
            "# format of their arguments: a view is a pointer (P) then its offset, sizes and",
            "# strides (q each); index and i64 are q, i32 i, i1 ?, f32 f, f64 d.",
        ]
        if not self.kernel_formats:
            self.lines.append("KERNELS: dict[str, str] = {}")
            return
        self.lines.append("KERNELS = {")
        for name, fmt in self.kernel_formats.items():
            self.lines.append(f"    {name!r}: {fmt!r},  # {', '.join(self.kernel_params[name])}")
        self.lines.append("}")

    def emit_function(self, f: func.FuncOp) -> None:
        self.names, self.bound, self.anonymous = {}, set(), 0
        self.used = set(self.function_names)
        params = [self.define(a) for a in f.body.block.args]
        signature = mem.entry_signature(f) or f.function_type
        self.line(f"def {self.functions[f.sym_name.data]}({', '.join(['rt', *params])}):", f)
        self.indent += 1
        self.line(f'"""@{f.sym_name.data}: {signature}"""')
        self.emit_block(f.body.block, self.finisher([]))
        self.indent -= 1

    def emit_block(self, block: Block, finish: Callable[[Operation], None]) -> bool:
        """Emits the ops of `block`; its terminator through `finish`. Returns whether
        anything was emitted (else the block is `pass`)."""
        start = len(self.lines)
        for op in block.ops:
            self.release(self.uses.dead_before.get(op, ()))
            if isinstance(op, scf.YieldOp | scf.ConditionOp | func.ReturnOp):
                finish(op)
            else:
                self.emit_op(op)
            if isinstance(op, func.ReturnOp):
                continue
            self.release(self.uses.dies_after.get(op, ()))
            if isinstance(op, scf.ConditionOp):
                self.line(f"if not {self.name(op.condition)}:", op)
                self.line("    break", op)
        if len(self.lines) == start:
            self.line("pass")
            return False
        return True

    def release(self, values: Sequence[SSAValue]) -> None:
        """Deletes the names of dead blocks and views (scalars hold no memory)."""
        names = [self.names[v] for v in values if v in self.bound and _is_memory(v)]
        if names:
            self.line(f"del {', '.join(names)}")

    def finisher(self, targets: Sequence[str]) -> Callable[[Operation], None]:
        """How a region's terminator ends: its values assigned to `targets` (the results
        of the op around it), or, for func.return, returned."""

        def finish(op: Operation) -> None:
            values = self.operands(op.args if isinstance(op, scf.ConditionOp) else op.operands)
            if isinstance(op, func.ReturnOp):
                self.line(f"return ({', '.join(values)}{',' if len(values) == 1 else ''})", op)
            elif targets:
                self.line(f"{', '.join(targets)} = {', '.join(values)}", op)

        return finish

    def bind(self, args: Sequence[SSAValue], sources: Sequence[str], op: Operation) -> None:
        """Binds the used block arguments of a region to the Python names holding them."""
        pairs = [(a, s) for a, s in zip(args, sources) if a.uses]
        if pairs:
            targets = [self.define(a) for a, _ in pairs]
            self.line(f"{', '.join(targets)} = {', '.join(s for _, s in pairs)}", op)

    def emit_op(self, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
        elif is_host_kernel(op):
            _host_kernel(self, op)
        elif op.name.startswith("soac."):
            raise _error(op, "is a level-1 op: lower the program to kernels first (soacc-pipeline)")
        elif is_kernel(op):
            raise _error(op, "is a kernel that convert-mem-to-gpu has not turned into a gpu.launch_func "
                         "(the host code can only launch kernels)")
        else:
            raise _error(op, "has no host code rule (host code is func, arith, math, scf, cf.assert, mem, fork, husk and gpu.launch_func)")

    def assign(self, result: SSAValue, expression: str, op: Operation) -> None:
        self.line(f"{self.define(result)} = {expression}", op)


# --------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------


def _constant(e: _ModuleEmitter, op: arith.ConstantOp) -> None:
    value = constant_value(op.value, op.result.type)
    if value.ndim:
        raise _error(op, f"of type {op.result.type}: host code has scalar constants only")
    e.assign(op.result, _literal(value[()]), op)


def _arith(e: _ModuleEmitter, op: Operation) -> None:
    if isinstance(op, arith.SelectOp):
        c, a, b = e.operands(op.operands)
        e.assign(op.result, f"{a} if {c} else {b}", op)
        return
    e.call_scalar_function(op)


def _math(e: _ModuleEmitter, op: Operation) -> None:
    e.call_scalar_function(op)


def _call(e: _ModuleEmitter, op: func.CallOp) -> None:
    callee = op.callee.string_value()
    if callee not in e.functions:
        raise _error(op, f"calls @{callee}, which has no body here")
    call = f"{e.functions[callee]}({', '.join(['rt', *e.operands(op.arguments)])})"
    if not op.results:
        e.line(call, op)
        return
    targets = [e.define(r) for r in op.results]
    left = f"({targets[0]},)" if len(targets) == 1 else ", ".join(targets)
    e.line(f"{left} = {call}", op)


def _if(e: _ModuleEmitter, op: scf.IfOp) -> None:
    results = [e.define(r) for r in op.results]
    e.line(f"if {e.name(op.cond)}:", op)
    e.indent += 1
    e.emit_block(op.true_region.block, e.finisher(results))
    e.indent -= 1
    if op.false_region.blocks:
        start = len(e.lines)
        e.line("else:", op)
        e.indent += 1
        if not e.emit_block(op.false_region.block, e.finisher(results)):
            e.truncate(start)
        e.indent -= 1


def _for(e: _ModuleEmitter, op: scf.ForOp) -> None:
    lb, ub, step = e.operands([op.lb, op.ub, op.step])
    results = [e.define(r) for r in op.results]
    if results:
        e.line(f"{', '.join(results)} = {', '.join(e.operands(op.iter_args))}", op)
    body = op.body.block
    induction, *carried = body.args
    bounds = f"range(int({lb}), int({ub}), int({step}))"
    i = e.define(induction) if induction.uses else "_"
    e.line(f"for {i} in {bounds}:", op)
    e.indent += 1
    _next_iteration(e, op)
    if induction.uses:  # typed as MLIR types it (index is int64)
        e.line(f"{i} = {_numpy_type(numpy_dtype(induction.type))}({i})", op)
    e.bind(carried, results, op)
    e.emit_block(body, e.finisher(results))
    e.indent -= 1


def _next_iteration(e: _ModuleEmitter, loop: Operation) -> None:
    """`rt.next_iteration()` first in a host loop's body where it launches kernels
    (itself or through a call): an eager call's segments of device work end at whole
    iterations (runtime/gpu/segment_graphs.py)."""
    if any(isinstance(op, gpu.LaunchFuncOp | func.CallOp) for op in loop.walk()):
        e.line("rt.next_iteration()", loop)


def _device_condition(op: scf.WhileOp) -> mem.LoadOp | None:
    """The read of the loop's condition, where the loop only reads it: its before
    region loads it from one of the loop's arguments and forwards arguments (what
    reduce-device-syncs makes of a device loop, passes/analysis/device_loops.py).
    A memory block the loop changes must be only carried, never viewed (the runtime may
    carry its arrays in other memory: the views it carries are what count)."""
    if not reads_only_its_condition(op):
        return None
    before, after = op.before_region.block, op.after_region.block
    load, condition = list(before.ops)
    yields = after.last_op.operands
    for k, arg in enumerate(before.args):
        if isinstance(arg.type, mem.BlockType) and yields[k] is not op.arguments[k]:
            forwarded = [b for a, b in zip(condition.args, after.args) if a is arg]
            if not all(_only_carried(v) for v in (arg, *forwarded)):
                return None
    return load


def _only_carried(block: SSAValue) -> bool:
    """Nothing makes a view of the memory block `block`: it is only carried, by
    terminators and loops, to where it is freed."""
    todo, seen = [block], set()
    while todo:
        value = todo.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if isinstance(user, scf.YieldOp | scf.ConditionOp):
                continue
            if isinstance(user, scf.ForOp) and use.index >= 3:
                todo.append(user.body.block.args[use.index - 2])
                todo.append(user.results[use.index - 3])
                continue
            return False
    return True


def _device_while(e: _ModuleEmitter, op: scf.WhileOp, load: mem.LoadOp) -> None:
    """`rt.device_while(body, state, ...)` (HostRuntime.device_while): the body a nested
    function from the state's forwarded values to the next state, so that under a task
    graph's capture the runtime can run it once into a conditional node."""
    before, after = op.before_region.block, op.after_region.block
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    yields = after.last_op.operands
    forwarded = tuple(before.args.index(a) for a in condition.args)
    after_of = {before.args.index(a): b for a, b in zip(condition.args, after.args)}
    varying = tuple(
        k for k, (init, value) in enumerate(zip(op.arguments, yields)) if value is not init and value is not after_of.get(k)
    )
    inits = e.operands(op.arguments)
    body = e.fresh("loop_body")
    e.line(f"def {body}(state):", op)
    e.indent += 1
    params = [e.define(a) for a in after.args]
    if params:
        e.line(f"{_tuple(params)} = state", op)
    following = e.fresh("following")
    e.emit_block(after, lambda term: e.line(f"{following} = [{', '.join(e.operands(term.operands))}]", term))
    e.line(f"return {following}", op)
    e.indent -= 1
    call = (
        f"rt.device_while({body}, [{', '.join(inits)}], {before.args.index(load.view)}, "
        f"{_indices(e, load.indices)}, {_tuple([str(i) for i in forwarded]) if forwarded else '()'}, "
        f"{_tuple([str(i) for i in varying]) if varying else '()'})"
    )
    results = [e.define(r) for r in op.results]
    e.line(f"{_tuple(results)} = {call}" if results else call, op)


def _while(e: _ModuleEmitter, op: scf.WhileOp) -> None:
    load = _device_condition(op)
    if load is not None:
        _device_while(e, op, load)
        return
    before, after = op.before_region.block, op.after_region.block
    # what the before region starts from: the initial values, then each yield's
    holders = [e.fresh(f"{a.name_hint or 'loop'}_next") for a in before.args]
    if holders:
        e.line(f"{', '.join(holders)} = {', '.join(e.operands(op.arguments))}", op)
    results = [e.define(r) for r in op.results]
    e.line("while True:", op)
    e.indent += 1
    _next_iteration(e, op)
    e.bind(before.args, holders, op)
    e.emit_block(before, e.finisher(results))
    e.bind(after.args, results, op)
    e.emit_block(after, e.finisher(holders))
    e.indent -= 1
    memory = [h for h, a in zip(holders, before.args) if _is_memory(a)]
    if memory:
        e.line(f"del {', '.join(memory)}")


def _alloc(e: _ModuleEmitter, op: mem.AllocOp) -> None:
    space = op.block.type.space
    if space.is_device and space.device.data != 0:
        raise _error(op, f"allocates on {space.describe()}: the host code runs on one device")
    function = "rt.alloc_device" if space.is_device else "rt.alloc_host"
    e.assign(op.block, f"{function}({e.name(op.bytes)})", op)


def _tuple(items: Sequence[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _view(e: _ModuleEmitter, op: mem.ViewOp) -> None:
    t = op.result.type
    dynamic = iter(e.operands(op.sizes))
    shape = [next(dynamic) if d < 0 else str(d) for d in t.get_shape()]
    strides = _tuple(e.operands(op.strides)) if op.strides else "None"
    dtype = _numpy_type(numpy_dtype(t.element_type))
    e.assign(op.result, f"{e.name(op.block)}.view({e.name(op.byte_offset)}, {_tuple(shape)}, {strides}, {dtype})", op)


def _slice(e: _ModuleEmitter, op: mem.SliceOp) -> None:
    entries = []
    for kind, values in SliceSpec.entries(op.kinds.get_values(), op.spec):
        names = e.operands(values)
        entries.append(names[0] if kind == SliceSpec.FIXED else f"({', '.join(names)})")
    e.assign(op.result, f"{e.name(op.source)}.slice([{', '.join(entries)}])", op)


def _transpose(e: _ModuleEmitter, op: mem.TransposeOp) -> None:
    permutation = [str(p) for p in op.permutation.get_values()]
    e.assign(op.result, f"{e.name(op.input)}.transpose({_tuple(permutation)})", op)


def _size(e: _ModuleEmitter, op: mem.SizeOp) -> None:
    e.assign(op.result, f"{e.name(op.view)}.size({op.dim.value.data})", op)


def _threshold(e: _ModuleEmitter, op: mem.ThresholdOp) -> None:
    e.assign(op.result, f"rt.threshold({op.threshold.data!r}, {op.default.value.data})", op)


def _copy(e: _ModuleEmitter, op: mem.CopyOp) -> None:
    # an upload borrow-arguments marked: the runtime may let the block be the caller's
    function = "rt.copy_or_borrow" if mem.BORROWABLE in op.attributes else "rt.copy"
    e.line(f"{function}({e.name(op.source)}, {e.name(op.dest)})", op)


def _assert(e: _ModuleEmitter, op: cf.AssertOp) -> None:
    e.line(f"rt.check({e.name(op.arg)}, {op.msg.data!r})", op)


def _indices(e: _ModuleEmitter, values: Sequence[SSAValue]) -> str:
    names = e.operands(values)
    return "()" if not names else _tuple(names)


def _load(e: _ModuleEmitter, op: mem.LoadOp) -> None:
    e.assign(op.result, f"rt.load({e.name(op.view)}, {_indices(e, op.indices)})", op)


def _store(e: _ModuleEmitter, op: mem.StoreOp) -> None:
    e.line(f"rt.store({e.name(op.value)}, {e.name(op.view)}, {_indices(e, op.indices)})", op)


def _array(e: _ModuleEmitter, op: mem.ArrayOp) -> None:
    e.line(f"rt.array([{', '.join(e.operands(op.elements))}], {e.name(op.output)})", op)


def _launch_dimension(e: _ModuleEmitter, value: SSAValue) -> str:
    """A launch's grid, block or shared-memory size as a Python int, which the driver
    takes: a constant as its literal, another value converted where it is used (a
    launch in a host loop pays no conversion for its constant sizes)."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return str(op.value.value.data)
    return f"int({e.name(value)})"


def _launch(e: _ModuleEmitter, op: gpu.LaunchFuncOp) -> None:
    if op.asyncDependencies or op.asyncToken is not None or op.asyncObject is not None:
        raise _error(op, "is asynchronous (tokens and streams are not supported yet)")
    if op.clusterSizeX is not None:
        raise _error(op, "has cluster sizes, which are not supported")
    kernel: SymbolRefAttr = op.kernel
    name = kernel.nested_references.data[-1].data if kernel.nested_references.data else kernel.root_reference.data
    if name not in e.kernel_formats:
        raise _error(op, f"launches @{name}, which is not a kernel of the module")
    operands = list(op.kernelOperands)
    if len(operands) != len(e.kernel_params[name]):
        raise _error(op, f"passes {len(operands)} arguments to @{name}, which takes {len(e.kernel_params[name])}")
    args = [f"*{e.name(v)}.kernel_args" if isinstance(v.type, MemRefType) else e.name(v) for v in operands]
    grid = _tuple([_launch_dimension(e, v) for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ)])
    block = _tuple([_launch_dimension(e, v) for v in (op.blockSizeX, op.blockSizeY, op.blockSizeZ)])
    shared = f", shared={_launch_dimension(e, op.dynamicSharedMemorySize)}" if op.dynamicSharedMemorySize is not None else ""
    if e.touches:  # (in order: a kernel reads what it writes, too)
        written = e.kernel_writes.get(name, ())
        arrays = [(i, e.name(v)) for i, v in enumerate(operands) if isinstance(v.type, MemRefType)]
        if read := [v for i, v in arrays if i not in written]:
            e.line(f"rt.reads({', '.join(read)})", op)
        if changed := [v for i, v in arrays if i in written]:
            e.line(f"rt.touch({', '.join(changed)})", op)
    e.line(f"rt.launch({name!r}, {grid}, {block}, {', '.join(args)}{shared})", op)


def _host_kernel(e: _ModuleEmitter, op: Operation) -> None:
    """A kernel in host memory (place-kernels): run on the CPU by the runtime, on its
    operands and the values its lambdas capture."""
    index = len(e.host_kernels)
    e.host_kernels.append(op)
    operands = _tuple(e.operands(op.operands))
    captured = _tuple(e.operands(list(captured_values(op))))
    e.line(f"rt.host_kernel({index}, {operands}, {captured})  # {op.name}", op)


def _signal(e: _ModuleEmitter, op: fork.SignalOp) -> None:
    e.assign(op.signal, "rt.signal()", op)


def _ref(e: _ModuleEmitter, op: fork.RefOp) -> None:
    e.assign(op.ref, "[None]", op)  # a cell, written once


def _fork_write(e: _ModuleEmitter, op: fork.WriteOp) -> None:
    e.line(f"{e.name(op.ref)}[0] = {e.name(op.value)}", op)


def _fork_read(e: _ModuleEmitter, op: fork.ReadOp) -> None:
    e.assign(op.value, f"{e.name(op.ref)}[0]", op)


def _fork(e: _ModuleEmitter, op: fork.ForkOp) -> None:
    """The thread runs where it is forked, in program order (convert-fork-to-gpu
    checked that this order is a schedule): its device work goes on a stream of its
    own, so it overlaps with other threads' on the device, not on the host."""
    e.line("rt.fork()", op)
    e.emit_block(op.body.block, e.finisher([]))


def _fork_end(e: _ModuleEmitter, op: fork.EndOp) -> None:
    e.line("rt.end_fork()", op)


def _resolve(e: _ModuleEmitter, op: fork.ResolveOp) -> None:
    e.line(f"rt.resolve({', '.join(e.operands(op.signals))})", op)


def _wait(e: _ModuleEmitter, op: fork.WaitOp) -> None:
    e.line(f"rt.wait({', '.join(e.operands(op.signals))})", op)


def _husk_devices(e: _ModuleEmitter, op: husk.DevicesOp) -> None:
    e.assign(op.result, "rt.devices()", op)


def _husk_run(e: _ModuleEmitter, op: husk.RunOp) -> None:
    """The body becomes a nested function of the device's runtime (`rt` in it is the
    running device's), its partition parameters and then the device arrays it uses
    from above (which the runtime hands each device as its own copies); host values it
    uses are its closure's. `rt.husk_run` runs it once per device."""
    body = op.body.block
    broadcast = [v for v in captured_values(op) if isinstance(v.type, MemRefType) and mem.space_of(v.type).is_device]
    function = e.fresh("husk_body")
    outer = {v: e.names[v] for v in broadcast}
    for v in broadcast:  # inside, the device's own copies
        e.names[v] = e.fresh(f"{e.names[v]}_here")
    params = [e.define(a) for a in body.args] + [e.names[v] for v in broadcast]
    e.line(f"def {function}({', '.join(['rt', *params])}):", op)
    e.indent += 1
    e.emit_block(body, e.finisher([]))
    e.indent -= 1
    e.names.update(outer)
    groups = [_tuple(e.operands(g)) if g else "()" for g in (op.sources, op.outs, op.slots)]
    here = _tuple([outer[v] for v in broadcast]) if broadcast else "()"
    used = f", used={e.name(op.used)}" if op.used is not None else ""
    call = f"rt.husk_run({function}, {e.name(op.size)}, {', '.join(groups)}, {here}, {op.work_per_row}{used})"
    if op.busy.uses:
        e.assign(op.busy, call, op)
    else:
        e.line(call, op)


def _husk_yield(e: _ModuleEmitter, op: husk.YieldOp) -> None:
    """The end of a husk's body: nothing to give back (its outs and slots hold it)."""


_HANDLERS: dict[type[Operation], Callable] = {
    husk.DevicesOp: _husk_devices,
    husk.RunOp: _husk_run,
    husk.YieldOp: _husk_yield,
    fork.SignalOp: _signal,
    fork.RefOp: _ref,
    fork.WriteOp: _fork_write,
    fork.ReadOp: _fork_read,
    fork.ForkOp: _fork,
    fork.EndOp: _fork_end,
    fork.ResolveOp: _resolve,
    fork.WaitOp: _wait,
    arith.ConstantOp: _constant,
    func.CallOp: _call,
    scf.IfOp: _if,
    scf.ForOp: _for,
    scf.WhileOp: _while,
    mem.AllocOp: _alloc,
    mem.ViewOp: _view,
    mem.SliceOp: _slice,
    mem.TransposeOp: _transpose,
    mem.SizeOp: _size,
    mem.ThresholdOp: _threshold,
    mem.CopyOp: _copy,
    cf.AssertOp: _assert,
    mem.LoadOp: _load,
    mem.StoreOp: _store,
    mem.ArrayOp: _array,
    gpu.LaunchFuncOp: _launch,
}
_HANDLERS.update(
    {
        op_type: _arith
        for op_type in vars(arith).values()
        if isinstance(op_type, type) and issubclass(op_type, Operation) and op_type not in _HANDLERS
        and getattr(op_type, "name", "").startswith("arith.")
    }
)
_HANDLERS.update(
    {
        op_type: _math
        for op_type in vars(math_dialect).values()
        if isinstance(op_type, type) and issubclass(op_type, Operation) and getattr(op_type, "name", "").startswith("math.")
    }
)
