"""`soacc.compile`: a program object whose entry points take and return NumPy arrays.

Parsing and verification errors become ProgramError, arguments that do not fit the
signature ArgumentError, failures while running ExecutionError: each with a message
that names what is wrong and where.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, VerifyException

from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.dialects import mem
from soacc.dialects.mem import BlockType, entry_signature
from soacc.dialects.shared.structural_checks import check_structure, check_structured_control_flow
from soacc.pipeline import SoaccPipelinePass
from soacc.registry import pass_registry
from soacc.passes.analysis.argument_sizes import Requirement, SameOuterSize, argument_requirements
from soacc.runtime.arguments import argument_converter, device_arrays_refused
from soacc.runtime.device_arrays import ForeignDeviceArray
from soacc.runtime.errors import ArgumentError, ExecutionError, ProgramError
from soacc.runtime.reference import describe_op
from soacc.runtime.statistics import Statistics
from soacc.source import TOO_DEEP, LocatingParser, located_message, read_source


def make_context() -> Context:
    """A context that knows every dialect xDSL and soacc register (lazily)."""
    from xdsl.universe import Universe

    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_program(source: str, name: str = "<input>") -> ModuleOp:
    """Parses and verifies a program; a ProgramError says where and why it is bad."""
    return _parse_with(_new_parser(source, name))


def verify_program(module: ModuleOp) -> None:
    """xDSL's verifiers and the rules they miss (dialects/shared/structural_checks.py)."""
    try:
        check_structure(module)
        module.verify()
    except VerifyException as error:
        notes = "\n".join(getattr(error, "__notes__", []))
        raise ProgramError(f"{error}\n{notes}".strip()) from None


def _cuda_executor(module: ModuleOp, devices: int = 1):
    from soacc.backends import cuda_executor

    return cuda_executor(module, devices=devices)


def _reference_executor(module: ModuleOp, devices: int = 1):
    from soacc.backends import reference_executor

    return reference_executor(module, devices=devices)


# Backends by name, in order of preference for `auto`: each is a factory from a verified
# module (compiled through the backend's default pipeline) and the number of devices
# husks run on, to an executor with `call(function, args) -> tuple`, `last_statistics`
# and `description`.
BACKENDS: dict[str, Callable[..., object]] = {
    "cuda": _cuda_executor,
    "numpy": _reference_executor,
}


@cache
def backend_usable(name: str) -> tuple[bool, str]:
    """(True, "") where the backend can run here, else (False, why not). Asked once."""
    if name == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        return usable, "" if usable else f"no GPU: {why}"
    return True, ""


def available_backends() -> list[str]:
    return [name for name in BACKENDS if backend_usable(name)[0]]


@dataclass(frozen=True)
class BackendChoice:
    name: str
    why_not_better: str
    """Why `auto` could not take a preferred backend ("" when it took the first)."""


def choose_backend(requested: str) -> BackendChoice:
    """The backend `requested` names (`auto`: the first usable one, with why the ones
    before it were not); a named backend that cannot run here is an ArgumentError."""
    if requested == "auto":
        reasons = []
        for name in BACKENDS:
            usable, why = backend_usable(name)
            if usable:
                return BackendChoice(name, "; ".join(reasons))
            reasons.append(why)
    if requested not in BACKENDS:
        raise ArgumentError(
            f"unknown backend '{requested}'; available: {', '.join(['auto', *available_backends()])}"
        )
    usable, why = backend_usable(requested)
    if not usable:
        raise ArgumentError(f"the {requested} backend cannot run here ({why})")
    return BackendChoice(requested, "")


def _own_results(results: Sequence, args: Sequence, fresh: bool = False) -> tuple:
    """Results are the caller's own: NumPy scalars, or arrays that share memory with
    neither an argument nor another result. `fresh`: the executor made every result's
    memory for this call and keeps none of it (the cuda backend's host blocks), so a
    view of it is the caller's as it is (no copy: a large result in page-locked memory
    stays there); otherwise a view may be of memory the executor keeps, and is copied."""
    owned: list = []
    for value in results:
        if isinstance(value, np.ndarray):
            if value.ndim == 0:
                value = value[()]
            elif (
                (value.base is not None and not fresh)
                or not value.flags.writeable
                or any(stride == 0 for stride, n in zip(value.strides, value.shape) if n > 1)  # a broadcast
                or any(np.may_share_memory(value, other) for other in (*args, *owned) if isinstance(other, np.ndarray))
            ):
                value = np.array(value, copy=True)
        owned.append(value)
    return tuple(owned)


_MISSING = object()


@dataclass(frozen=True)
class SizeCheck:
    """One requirement of an entry point on its arguments' sizes (argument_sizes.py),
    with the op that makes it, described as the source names it."""

    requirement: Requirement
    where: str

    def __call__(self, entry: EntryPoint, args: Sequence) -> None:
        r = self.requirement
        names = entry.param_names
        if isinstance(r, SameOuterSize):
            sizes = [np.shape(args[p])[0] for p in r.params]
            if len(set(sizes)) > 1:
                given = ", ".join(f"%{names[p]} {n}" for p, n in zip(r.params, sizes))
                raise ArgumentError(f"@{entry.name}: the arrays {self.where} takes together must have one outer size; given {given}")
        elif int(args[r.param]) < 0:
            raise ArgumentError(f"@{entry.name}: %{names[r.param]} is {int(args[r.param])}, a count {self.where} takes, which must not be negative")


def argument_size_checks(module: ModuleOp, parser: LocatingParser | None) -> dict[str, list[SizeCheck]]:
    """Each function's argument size requirements, read before a pipeline changes it."""
    checks: dict[str, list[SizeCheck]] = {}
    for f in module.ops:
        if isinstance(f, func.FuncOp) and entry_signature(f) is None:
            found = []
            for r in argument_requirements(f):
                where = parser.location(r.op) if parser else None
                found.append(SizeCheck(r, f"{r.op.name} at {where}" if where else describe_op(r.op)))
            checks[f.sym_name.data] = found
    return checks


class EntryPoint:
    """A callable public function of the program."""

    def __init__(self, program: Program, function: func.FuncOp):
        self.program = program
        self.function = function
        self.name = function.sym_name.data
        # once lowered, an entry point keeps its source-level signature for its callers
        self.function_type = entry_signature(function) or function.function_type
        self.param_types = list(self.function_type.inputs.data)
        names = [a.name_hint for a in function.body.block.args if not isinstance(a.type, BlockType)]
        names = [(n or "").removesuffix("_host") for n in names]
        self.param_names = [n or f"arg{i}" for i, n in enumerate(names)]
        self._converters: list | None = None
        """Each parameter's argument check (runtime/arguments.argument_converter), made
        at the first call."""

    @property
    def signature(self) -> str:
        params = ", ".join(f"%{n}: {t}" for n, t in zip(self.param_names, self.param_types))
        results = ", ".join(str(t) for t in self.function_type.outputs.data)
        return f"@{self.name}({params}) -> ({results})"

    def unsupported_type(self) -> str | None:
        """Why NumPy values cannot be passed to or taken from this function (a type
        with no NumPy equivalent: i7, bf16, complex), or None."""
        for what, types in (("parameter", self.param_types), ("result", self.function_type.outputs.data)):
            for i, t in enumerate(types):
                try:
                    numpy_dtype(t)
                except TypeError:
                    return (
                        f"@{self.name} cannot be called from NumPy: its {what} {i} has type {t}, which has no NumPy "
                        "equivalent (soacc passes i1, i8, i16, i32, i64, index, f16, f32, f64 and tensors of them)"
                    )
        return None

    def bind(self, args: Sequence, kwargs: dict) -> list:
        """The arguments in parameter order, from positional ones and ones named by
        their parameter's name."""
        if not kwargs:
            return list(args)
        bound: list = [*args, *[_MISSING] * (len(self.param_names) - len(args))]
        for key, value in kwargs.items():
            if key not in self.param_names:
                raise ArgumentError(f"{self.signature} has no parameter %{key}")
            position = self.param_names.index(key)
            if position < len(args) or bound[position] is not _MISSING:
                raise ArgumentError(f"{self.signature} was given %{key} twice")
            bound[position] = value
        missing = [f"%{n}" for n, v in zip(self.param_names, bound) if v is _MISSING]
        if missing:
            raise ArgumentError(f"{self.signature} was not given {', '.join(missing)}")
        return bound

    def check_arguments(self, args: Sequence) -> list:
        converters = self._converters
        if converters is None:
            why = self.unsupported_type()
            if why:
                raise ArgumentError(why)
            converters = self._converters = [
                argument_converter(t, f"argument {i} (%{n}) of @{self.name}")
                for i, (t, n) in enumerate(zip(self.param_types, self.param_names))
            ]
        if len(args) != len(converters):
            raise ArgumentError(
                f"{self.signature} takes {len(self.param_types)} argument(s), "
                f"{len(args)} given"
            )
        return [convert(a) for convert, a in zip(converters, args)]

    def __call__(self, *args, **kwargs):
        checked = self.check_arguments(self.bind(args, kwargs))
        if not self.program.takes_device_arrays:
            for i, value in enumerate(checked):
                if isinstance(value, ForeignDeviceArray):
                    raise ArgumentError(f"argument {i} (%{self.param_names[i]}) of @{self.name}: {device_arrays_refused(value)}")
        for check in self.program.size_checks.get(self.name, ()):
            check(self, checked)
        results = self.program.executor.call(self.name, checked)
        try:
            results = _own_results(results, checked, getattr(self.program.executor, "fresh_results", False))
        except MemoryError:
            # a result the executor kept as a view (a replicate's broadcast) is copied here
            sizes = ", ".join(f"{np.asarray(r).nbytes} bytes" for r in results)
            raise ExecutionError(f"@{self.name}: out of memory: its results ({sizes}) do not fit in this machine") from None
        return results[0] if len(results) == 1 else results


# What each backend runs by default: the reference executor runs the program lowered to
# explicit memory (level 2), so that its runs count allocations, copies and reads; the
# GPU runs it lowered to kernels (level 3).


def parse_pipeline(pipeline: str) -> PassPipeline:
    """The passes a comma-separated pipeline (`pass-a,pass-b{opt=1}`) names, from xDSL's
    and soacc's (soacc/registry.py)."""
    try:
        return PassPipeline.parse_spec(pass_registry(), pipeline)
    except ValueError as error:  # an unknown pass, or bad options
        raise ArgumentError(str(error)) from None
    except ArgSpecParseError as error:  # malformed text (a BaseException in xDSL)
        raise ArgumentError(pipeline_syntax_error(error)) from None


def default_pipeline(backend: str, results: str = "host", devices: int = 1) -> PassPipeline:
    """What a backend runs when the caller names no pipeline: the cuda backend the whole
    of soacc-pipeline; the reference executor the same passes down to level 2 (fusion,
    device syncs, memory block merging), so that a run on the CPU checks and counts what
    the GPU runs. Husks where `devices` is not 1."""
    if backend == "cuda":
        return PassPipeline((SoaccPipelinePass(results=results, devices=devices),))
    return PassPipeline(tuple(SoaccPipelinePass(devices=devices).level2_passes()))


def apply_pipeline(module: ModuleOp, pipeline: str | PassPipeline, parser: LocatingParser | None = None) -> None:
    """Runs a pass pipeline (its text, `pass-a,pass-b{opt=1}`, or the passes) on `module`."""
    if isinstance(pipeline, str):
        if not pipeline.strip():
            return
        passes = parse_pipeline(pipeline)
    else:
        passes = pipeline
    try:
        passes.apply(make_context(), module)
    except DiagnosticException as error:
        where = located_message(parser, module, error) if parser else f"error: {error}"
        raise ProgramError(where.removeprefix("error: ")) from None
    try:
        module.verify()
    except DiagnosticException as error:
        raise ProgramError(
            f"the passes {','.join(p.name for p in passes.passes)} made invalid IR (a bug in soacc): {error}"
        ) from None


def pipeline_syntax_error(error: ArgSpecParseError) -> str:
    """xDSL's multi-line message about a malformed pipeline, in one line."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    if len(lines) < 4:
        return " ".join(lines)
    column = lines[1].rsplit(":", 1)[-1]
    return (
        f"malformed pass pipeline {lines[2].strip()!r} at column {column}: {lines[-1].strip()} "
        '(quote option values that are not words or numbers: dot="out.dot")'
    )


class Program:
    """A compiled soacc program. Its public functions are attributes: `prog.main(x, y)`;
    `statistics` says what the last call cost."""

    def __init__(
        self, module: ModuleOp, backend: str = "auto", size_checks: dict[str, list[SizeCheck]] | None = None, devices: int = 1
    ):
        """`size_checks`: what each entry point requires of its arguments' sizes, read
        from the program before it was lowered (argument_size_checks). Husks run on
        `devices` devices (0: every usable GPU of one kind)."""
        self.module = module
        self.size_checks = size_checks or {}
        choice = choose_backend(backend)
        self.backend = choice.name
        self.executor = BACKENDS[self.backend](module, devices)
        self.takes_device_arrays = getattr(self.executor, "takes_device_arrays", False)
        """Whether entry points take arrays already in GPU memory (the cuda backend)."""
        self.runs_on = self.executor.description + (f"; {choice.why_not_better}" if choice.why_not_better else "")
        """Where calls run, in words, and why not on something better when `auto` chose."""
        self.entry_points = {
            f.sym_name.data: EntryPoint(self, f)
            for f in module.ops
            if isinstance(f, func.FuncOp)
            and (f.sym_visibility is None or f.sym_visibility.data != "private")
            and f.body.blocks
        }

    def __getattr__(self, name: str) -> EntryPoint:
        entry_points = self.__dict__.get("entry_points", {})
        if name in entry_points:
            return entry_points[name]
        raise AttributeError(
            f"the program has no public function @{name}; it has "
            f"{', '.join('@' + n for n in entry_points) or 'none'}"
        )

    @property
    def profiling(self) -> bool:
        """Whether calls time every kernel on the device (`statistics.kernel_time_s`,
        and `statistics.kernel_launch_counts` its launches); the cuda backend only. A
        profiled call runs eagerly (no task graph), each launch between two CUDA events."""
        return getattr(self.executor, "profiling", False)

    @profiling.setter
    def profiling(self, on: bool) -> None:
        if self.backend != "cuda":
            raise ArgumentError(f"profiling times kernels on the GPU; this program runs on {self.runs_on}")
        self.executor.profiling = bool(on)

    @property
    def task_graphs(self) -> bool:
        """Whether calls run as task graphs where they can: a call's device work is
        captured as a CUDA graph on its second call with the same shapes and scalars,
        and replayed on later ones (runtime/gpu/task_graphs.py). On by default on the
        cuda backend where cuda-bindings is installed (SOACC_TASK_GRAPHS=0 turns it off)."""
        return getattr(self.executor, "task_graphs", None) is not None

    @task_graphs.setter
    def task_graphs(self, on: bool) -> None:
        if self.backend != "cuda":
            raise ArgumentError(f"task graphs are CUDA graphs on the GPU; this program runs on {self.runs_on}")
        self.executor.use_task_graphs(bool(on))

    @property
    def segment_graphs(self) -> bool:
        """Whether, in calls that cannot be task graphs (their host code reads the
        device), the stretches of device work between reads are recorded and those that
        repeat replayed as CUDA graphs (runtime/gpu/segment_graphs.py). Off by default:
        on an H100 it made the calls it replayed slower (docs/runtime.md); SOACC_SEGMENT_GRAPHS=1
        turns it on with task graphs; turning task graphs off turns it off."""
        return getattr(self.executor, "segment_graphs", None) is not None

    @segment_graphs.setter
    def segment_graphs(self, on: bool) -> None:
        if self.backend != "cuda":
            raise ArgumentError(f"segment graphs are CUDA graphs on the GPU; this program runs on {self.runs_on}")
        self.executor.use_segment_graphs(bool(on))

    @property
    def thresholds(self) -> dict[str, int]:
        """The sizes at which the program's host code switches between versions of a
        kernel (mem.threshold: a tiled matrix product from 32 rows on each side, a block
        per row from 128 elements, ...), each name with its default."""
        return {
            op.threshold.data: op.default.value.data for op in self.module.walk() if isinstance(op, mem.ThresholdOp)
        }

    @property
    def tuning(self) -> dict[str, int]:
        """The thresholds this program's runs use instead of their defaults (a copy; the
        reference executor runs one version whatever the sizes, so there it changes
        nothing)."""
        return dict(self.__dict__.get("_tuning", {}))

    @tuning.setter
    def tuning(self, values: Mapping[str, int]) -> None:
        """Thresholds by name (as `thresholds` lists them) to use instead of their
        defaults; {} for the defaults. A name the program does not have is an error,
        but where it has none at all (compiled for the reference executor, which runs
        one version of each kernel) any tuning is accepted and changes nothing, so
        that one command line serves both backends."""
        known = self.thresholds
        if not isinstance(values, Mapping):
            raise ArgumentError(f"a tuning maps threshold names to sizes, not {type(values).__name__}")
        unknown = [name for name in values if name not in known]
        if unknown and known:
            raise ArgumentError(
                f"the program has no threshold named {', '.join(map(repr, unknown))}; its thresholds: "
                f"{', '.join(sorted(known)) or 'none'}"
            )
        for name, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise ArgumentError(f"threshold {name!r} is a size (an integer of 0 or more), not {value!r}")
        chosen = {name: int(value) for name, value in values.items()}
        set_tuning = getattr(self.executor, "set_tuning", None)
        if set_tuning is not None:
            set_tuning(chosen)
        self.__dict__["_tuning"] = chosen

    @property
    def statistics(self) -> Statistics:
        """The counters of the last call: allocations, copies, reads, launches."""
        return self.executor.last_statistics

    def entry(self, name: str) -> EntryPoint:
        if name not in self.entry_points:
            raise ArgumentError(
                f"no public function @{name}; the program has "
                f"{', '.join('@' + n for n in self.entry_points) or 'none'}"
            )
        return self.entry_points[name]


def compile(  # noqa: A001
    source: str | Path | ModuleOp, *, backend: str = "auto", pipeline: str | None = None, filename: str | None = None,
    results: str = "host", devices: int = 1,
) -> Program:
    """Compiles a soac program (MLIR text, a path to a .mlir file, or a module) for the
    given backend (`auto`: the best available here), through `pipeline` (a pass
    pipeline; None: the backend's default; "": run the program as it is). `filename`
    names source text in diagnostics (`kernels.mlir:3:5: error: ...`; default
    `<input>`): text read from a file the caller opened keeps its name.

    `results`: where entry points return their arrays: "host" (NumPy arrays) or
    "device" (soacc.DeviceArray, in GPU memory, which CuPy, PyTorch, Numba and JAX take
    without a copy; the cuda backend only). Entry points take arrays in GPU memory
    (anything with `__cuda_array_interface__` or DLPack) on the cuda backend either way.

    `devices`: how many GPUs husks split the work of the data-parallel combinators over
    (soac-to-husk, docs/soac-to-husk.md): 1 by default, 0 for every usable GPU of the
    program's kind. The numpy backend simulates them, each device a memory space of
    its own. A pipeline given by name says itself whether it makes husks
    (`soacc-pipeline{devices=N}`); the executor runs them on `devices` devices."""
    if filename is not None and not isinstance(filename, str | Path):
        raise ArgumentError(f"filename must be the source text's file name, not {type(filename).__name__}")
    if filename is not None and not isinstance(source, str):
        raise ArgumentError("filename names source text; a Path names itself and a module has no text")
    if pipeline is not None and not isinstance(pipeline, str):
        raise ArgumentError(f"pipeline must be a pass pipeline's text (or None for the backend's), not {type(pipeline).__name__}")
    if not isinstance(backend, str):
        raise ArgumentError(f"backend must be a backend's name, not {type(backend).__name__}")
    if results not in ("host", "device"):
        raise ArgumentError(f"results must be \"host\" or \"device\", not {results!r}")
    if isinstance(devices, bool) or not isinstance(devices, int) or devices < 0:
        raise ArgumentError(f"devices must be a number of devices (0: every usable GPU), not {devices!r}")
    parser = None
    try:
        if isinstance(source, ModuleOp):
            verify_program(source)
            module = source.clone()
        elif isinstance(source, str | Path):
            if isinstance(source, Path):
                try:
                    text, name = read_source(source), str(source)
                except OSError as error:
                    raise ProgramError(f"cannot read {source}: {error.strerror}") from None
                except ValueError as error:
                    raise ProgramError(str(error)) from None
            else:
                if "\n" not in source and source.strip().endswith(".mlir"):
                    raise ArgumentError(
                        f"{source!r} is a file name, not a program's text: pass pathlib.Path({source.strip()!r}) to compile a file"
                    )
                text, name = source, "<input>" if filename is None else str(filename)
            parser = _new_parser(text, name)
            module = _parse_with(parser)
        else:
            raise ArgumentError(
                f"soacc.compile takes a program's text, a pathlib.Path to a .mlir file or a module, not {type(source).__name__}"
            )
        try:
            check_structured_control_flow(module)
        except VerifyException as error:
            raise ProgramError(located_message(parser, module, error).removeprefix("error: ") if parser else str(error)) from None
        chosen = choose_backend(backend)
        if results == "device" and chosen.name != "cuda":
            why = f" ({chosen.why_not_better})" if chosen.why_not_better else ""
            raise ArgumentError(f'results="device" returns arrays in GPU memory: it needs the cuda backend, and this program runs on the {chosen.name} backend{why}')
        checks = argument_size_checks(module, parser)
        if devices == 0 and chosen.name != "cuda":
            raise ArgumentError("devices=0 asks for every usable GPU, and this program runs on the CPU (numpy backend): give a number of devices to simulate")
        apply_pipeline(module, default_pipeline(chosen.name, results, devices) if pipeline is None else pipeline, parser)
        try:
            program = Program(module, backend, checks, devices)
            if results == "device":  # (the cuda backend's executor: checked above)
                program.executor.device_results = True
            return program
        except ProgramError as error:  # an emitter's refusal: at the op of the text
            where = parser.location(error.op) if parser and getattr(error, "op", None) else None
            raise (ProgramError(f"{where}: error: {error}") if where else error) from None
    except RecursionError:
        raise ProgramError(TOO_DEEP) from None


def _new_parser(text: str, name: str) -> LocatingParser:
    """A parser of `text`; it lexes the first token at once, which may already be bad."""
    try:
        return LocatingParser(make_context(), text, name)
    except ParseError as error:
        raise ProgramError(str(error).strip()) from None


def _parse_with(parser: LocatingParser) -> ModuleOp:
    try:
        module = parser.parse_module()
    except ParseError as error:
        raise ProgramError(str(error).strip()) from None
    try:
        check_structure(module)
        module.verify()
    except VerifyException as error:
        raise ProgramError(located_message(parser, module, error).removeprefix("error: ")) from None
    return module
