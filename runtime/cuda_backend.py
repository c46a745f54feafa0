"""The `cuda` backend: a level-3 program's kernels compiled from their CUDA C (the cuda
target, through the disk cache), its host code emitted as a Python module (the python
target) and run against the runtime (runtime/gpu/host_runtime.py), data staying on
the device between kernels.

`HostCodeExecutor` runs emitted host code against any device memory (the tests give
it one simulated in host memory, to check host code where there is no GPU);
`CudaExecutor` is the backend, on the GPU through PyCUDA, imported only when used.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Mapping, Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.runtime import host_scalars
from soacc.runtime.arguments import array_parameters, host_arguments
from soacc.runtime.errors import ExecutionError, ProgramError, SoaccError
from soacc.runtime.device_arrays import LEGACY_DEFAULT_STREAM, DeviceArray, ForeignDeviceArray
from soacc.runtime.gpu.arrays import BorrowedMemory, DeviceBlock, HostBlock, OutOfBounds, View, dense_strides, is_borrowed
from soacc.runtime.gpu.host_runtime import DeviceMemory, HostRuntime, overlap as _overlap
from soacc.runtime.host_kernels import HostKernels
from soacc.runtime.gpu.husks import send_back
from soacc.runtime.husk_residency import ResidentRows, residency_wanted
from soacc.runtime.gpu.segment_graphs import SegmentGraphs
from soacc.runtime.gpu.task_graphs import TaskGraphs
from soacc.dialects.fork import forked_variant_of
from soacc.dialects.mem import entry_signature
from soacc.runtime.reference import describe_op
from soacc.runtime.statistics import Statistics

_module_numbers = itertools.count()


class HostCodeExecutor:
    """Runs the functions of a level-3 module: its emitted host code, with `memory` as
    the device and `kernels` (name -> launchable kernel) as its kernels."""

    name = "host code"
    description = "emitted host code"
    fresh_results = True
    """Every array result is in host memory made for its call (a host block of the call,
    or of a graph's replay), which nothing of the executor's keeps: the caller may have
    it without a copy."""
    takes_device_arrays = True
    """Entry points take arrays already in GPU memory (ForeignDeviceArray), uploading
    from them with device-to-device copies."""

    def __init__(self, module: ModuleOp, host, memory: DeviceMemory, kernels: Mapping[str, object]):
        """`host` is the module's emitted host code (lowering/emit_host.HostModule: its
        source, functions, kernels' argument formats and the scalar functions it calls)."""
        missing = [f"{name} (for {op.name})" for name, op in host.scalar_functions.items() if not host_scalars.provides(name)]
        if missing:
            raise ProgramError(f"the host code calls functions the runtime does not have: {', '.join(missing)}")
        self.module = module
        self.host = host
        self.filename = f"<soacc host code {next(_module_numbers)}>"
        code = compile(self.host.source, self.filename, "exec")
        # the source of each line, for tracebacks (SOACC_TRACEBACK=1) and debuggers
        linecache.cache[self.filename] = (len(self.host.source), None, self.host.source.splitlines(True), self.filename)
        namespace: dict = {"__name__": "soacc_host_code"}
        exec(code, namespace)
        self.functions = {name: namespace[python] for name, python in self.host.functions.items()}
        self.forked_copies = {
            original: self.functions[f.sym_name.data]
            for f in module.ops
            if f.name == "func.func" and (original := forked_variant_of(f)) is not None and f.sym_name.data in self.functions
        }
        """Function name -> the host code of its forked copy (introduce-forks{beside}),
        which only task graphs run (measured against the function's own)."""
        self.entry_layouts = {
            f.sym_name.data: _EntryLayout.of(signature)
            for f in module.ops
            if f.name == "func.func" and (signature := entry_signature(f)) is not None
        }
        """Entry points (functions with a source-level signature) -> which arguments
        and results are arrays, asked once."""
        self.memory = memory
        self._device_id = getattr(getattr(memory, "device", None), "index", 0)
        self.device_results = False
        """Array results are returned as DeviceArrays in device memory (compile's
        `results="device"`): those the program returns on the device as they are, any it
        returns in host memory copied there."""
        self.runtime = HostRuntime(memory, kernels, HostKernels(host.host_kernels) if host.host_kernels else None)
        self.runtime.sequential_inside = host.sequential_inside
        self.compile_seconds: float | None = None
        self.last_statistics = Statistics()
        self.profiling = False
        """Time every kernel launch on the device (Statistics.kernel_time_s and
        kernel_launch_counts); the memory must be able to (`start_profiling`, then
        `stop_profiling`: each launch's kernel name and device seconds, or
        `discard_profile` after a failure). A profiled call runs its host code, never a
        task graph."""
        self.task_graphs: TaskGraphs | None = None
        """Calls captured as task graphs and replayed (runtime/gpu/task_graphs.py);
        None: the host code runs every call. The memory must be able to capture."""
        self.segment_graphs: SegmentGraphs | None = None
        """In calls the host code runs, the stretches of device work between host reads
        that repeat, replayed as graphs (runtime/gpu/segment_graphs.py); None: every
        launch is issued as the host code makes it. Off by default (measured slower);
        SOACC_SEGMENT_GRAPHS=1 turns it on with task graphs."""

    def call(self, function: str, args: Sequence) -> tuple:
        """Runs `function` on level-1 values (NumPy arrays and scalars); arrays go in and
        come out in host memory, as (block, view) pairs at level 2 and 3."""
        statistics = Statistics(gpu_compile_seconds=self.compile_seconds)
        self.runtime.statistics = statistics
        self.last_statistics = statistics
        layout = self.entry_layouts.get(function)
        if layout is not None:
            args = host_arguments(args, layout.arrays, _host_view, self._device_view)
        profiling = self.profiling
        if profiling:
            self.memory.start_profiling()
        try:
            with np.errstate(all="ignore"):  # wrap-around and inf/NaN are MLIR semantics
                if self.task_graphs is not None and not profiling:
                    results = self.task_graphs.call(
                        function, self.functions[function], args, statistics, lambda: self._eager(function, args),
                        forked=self.forked_copies.get(function),
                    )
                else:
                    results = self._eager(function, args)
            if profiling:
                statistics.record_profile(self.memory.stop_profiling())
        except Exception as error:
            if profiling:
                self.memory.discard_profile()
            if self.runtime.resident is not None:
                self.runtime.resident.clear()
            reset_forks = getattr(self.memory, "reset_forks", None)
            if reset_forks is not None:
                reset_forks()
            raise self._located(error, function) from None
        resident = self.runtime.resident
        if resident is not None:  # (what the devices held is the call's)
            try:
                # results left on the device: what other devices computed of them comes back
                resident.reading(*(v.block for v in results if isinstance(v, View) and v.on_device))
            finally:
                resident.clear()
        if layout is not None:
            try:
                results = self._results(results, layout.scalar_results)
            except Exception as error:
                raise self._located(error, function) from None
        return tuple(results)

    def _results(self, results: Sequence, scalar_results: Sequence) -> list:
        """The values of the source-level results (`scalar_results`: each one's NumPy
        scalar type, None for an array): arrays from their (block, view) pairs, as NumPy
        arrays over host memory or DeviceArrays over device memory (what
        device_results asks for); scalars as NumPy scalars of their types."""
        values = iter(results)
        out: list = []
        devices: list[View] = []
        for scalar_type in scalar_results:
            if scalar_type is not None:
                out.append(scalar_type(next(values)))
                continue
            next(values)  # the block: the view keeps it alive
            view = next(values)
            if not view.on_device and not self.device_results:
                out.append(view.array)
                continue
            if not view.on_device or is_borrowed(view.block) or any(_overlap(view, other) for other in devices):
                # (a host result, the caller's own memory, or one sharing device memory
                # with another: its own copy)
                view = self._fresh_device_copy(view)
            devices.append(view)
            out.append(DeviceArray(view.block, view.address, view.shape, view.dtype, view.strides, self._to_numpy, self._device_id))
        if devices:
            self.memory.synchronize()  # (a DeviceArray's data is ready: its interface names no stream)
        return out

    def _fresh_device_copy(self, view: View) -> View:
        block = self.runtime.alloc_device(view.nbytes)
        copy = block.view(0, view.shape, None, view.dtype)
        self.runtime._move(view, copy)
        return copy

    def _to_numpy(self, array: DeviceArray) -> np.ndarray:
        """A DeviceArray's copy on the host."""
        host = np.empty(array.shape, array.dtype)
        source = View(array._block, array._address - array._block.address, array.shape, array.strides, array.dtype)
        self.runtime._to_host(source, host)
        return host

    def _device_view(self, array: ForeignDeviceArray) -> tuple[DeviceBlock, View]:
        """An argument in GPU memory as a (block, view) pair over the caller's memory,
        which the program uploads from as from a host argument (a device-to-device
        copy); the block is not the program's: never freed by it, nor counted. Work the
        producer queued on a stream of its own is waited for first."""
        if array.stream is not None and array.stream != LEGACY_DEFAULT_STREAM:
            self.memory.synchronize()  # (the context: the producer's stream too)
        # (its bytes relative to its address, as a view at offset 0 says them)
        lo, hi = View(None, 0, array.shape, array.strides, array.dtype).byte_extent() if array.size else (0, 0)
        block = DeviceBlock(BorrowedMemory(array.address + lo, array.owner), hi - lo, Statistics())
        return block, View(block, -lo, array.shape, array.strides, array.dtype)

    def _eager(self, function: str, args: Sequence) -> tuple:
        """The host code runs the call (its device work recorded into segments, which
        repeated ones replay as graphs, where segment graphs are on)."""
        segments = None if self.profiling else self.segment_graphs
        if segments is None:
            results = self.functions[function](self.runtime, *args)
        else:
            results = segments.call(function, self.functions[function], self.runtime, args)
        self.memory.synchronize()  # a failing kernel fails this call, not the next
        return results

    def set_tuning(self, values: Mapping[str, int]) -> None:
        """The thresholds the host code uses instead of their defaults (checked by the
        caller). Graphs captured under other thresholds go: they replay the versions
        those chose."""
        for runtime in self.runtime.peers:
            runtime.tuning = dict(values)
        segments = getattr(self, "segment_graphs", None) is not None
        if self.task_graphs is not None:
            self.use_task_graphs(False)
            self.use_task_graphs(True)
        if segments:
            self.use_segment_graphs(False)
            self.use_segment_graphs(True)

    def use_task_graphs(self, on: bool) -> None:
        """Captures calls as task graphs and replays them (on), or runs every call's
        host code (off, dropping the graphs and their memory). A program whose husks
        run on several devices runs eagerly: a task graph is one context's."""
        on = on and len(self.runtime.peers) == 1
        if on and self.task_graphs is None:
            self.task_graphs = TaskGraphs(self.memory, self.runtime.kernels)
        elif not on and self.task_graphs is not None:
            self.task_graphs.release()
            self.task_graphs = None
        # (off with task graphs; on with them where SOACC_SEGMENT_GRAPHS asks, else as set)
        if not on:
            self.use_segment_graphs(False)
        elif segment_graphs_wanted():
            self.use_segment_graphs(True)

    def use_segment_graphs(self, on: bool) -> None:
        """Records calls that the host code runs into segments and replays the repeated
        ones as graphs (on), or issues every launch as it comes (off, dropping the
        graphs). A program whose husks run on several devices issues every launch."""
        on = on and len(self.runtime.peers) == 1
        if on and self.segment_graphs is None:
            self.segment_graphs = SegmentGraphs(self.memory)
        elif not on and self.segment_graphs is not None:
            self.segment_graphs.release()
            self.segment_graphs = None

    def _located(self, error: Exception, function: str) -> ExecutionError:
        """The error as the reference executor words it: the op that failed (found by the
        emitted line that raised), then what went wrong."""
        line = None
        frame = error.__traceback__
        while frame is not None:
            if frame.tb_frame.f_code.co_filename == self.filename:
                line = frame.tb_lineno
            frame = frame.tb_next
        op = self.host.op_at_line.get(line) if line is not None else None
        where = describe_op(op) if op is not None else f"@{function}"
        message = str(error) if isinstance(error, SoaccError) else f"{type(error).__name__}: {error}"
        if isinstance(error, OutOfBounds) and op is not None:
            message += _indexed_array_name(op)
        return ExecutionError(f"{where}: {message}")


class CudaExecutor(HostCodeExecutor):
    """The cuda backend: kernels on the GPU, host code in Python, data on the device."""

    name = "cuda"

    def __init__(self, module: ModuleOp, host, cuda_source: str, devices: int = 1):
        """`host` is the module's emitted host code, `cuda_source` its kernels' CUDA C
        (both made by the compile driver, soacc/backends.py); husks run on `devices`
        GPUs (0: every usable one of the program's kind)."""
        from soacc.runtime.gpu.cuda_memory import CudaMemory
        from soacc.runtime.gpu.device import get_device
        from soacc.runtime.gpu.module_cache import ModuleCache

        device = get_device()
        cache = ModuleCache(device.arch)
        memory = CudaMemory(device, _pool(device.index), cache, pinned_pool(device.index))
        super().__init__(module, host, memory, _kernels(cache, cuda_source, host, memory))
        self._add_husk_devices(devices, device, host, cuda_source)
        self.compile_seconds = cache.counters.compile_seconds
        n = len(self.runtime.peers)
        self.description = f"the GPU ({device.name}, {device.arch})" if n == 1 else f"{n} GPUs ({device.name}, {device.arch})"
        # a task graph is one context's: husks on several devices run eagerly
        self.use_task_graphs(task_graphs_wanted() and n == 1)

    def _add_husk_devices(self, count: int, main, host, cuda_source: str) -> None:
        """A runtime of its own (context, module, memory pool) for each device past the
        first that husks run on (runtime/gpu/husks.py)."""
        import pycuda.driver as cuda

        from soacc.runtime.gpu.cuda_memory import CudaMemory
        from soacc.runtime.gpu.device import husk_devices
        from soacc.runtime.gpu.memory_pool import MemoryPool
        from soacc.runtime.gpu.module_cache import ModuleCache

        for i, gpu in enumerate(husk_devices(count, main)[1:], start=1):
            gpu.context.push()  # (its module, pool and streams are its context's)
            try:
                cache = ModuleCache(gpu.arch)
                memory = CudaMemory(gpu, MemoryPool(), cache, None)
                kernels = _kernels(cache, cuda_source, host, memory)
            finally:
                cuda.Context.pop()
            peer = HostRuntime(memory, kernels, self.runtime.host_kernels)
            peer.space = f"device {i}"
            peer.sequential_inside = host.sequential_inside
            self.runtime.peers.append(peer)
        if len(self.runtime.peers) > 1:
            from soacc.runtime.husk_cost import measured_model

            # measured once per process and set of GPUs, not per program
            key = tuple(p.memory.device.index for p in self.runtime.peers)
            if key not in _DEVICE_MODELS:
                _DEVICE_MODELS[key] = measured_model(self.runtime)
            self.runtime.device_model = _DEVICE_MODELS[key]
            runtime = self.runtime
            self.runtime.resident = ResidentRows(lambda block, entry: send_back(runtime, block, entry)) if residency_wanted() else None


def _kernels(cache, cuda_source: str, host, memory) -> dict[str, object]:
    """The program's kernels, loaded by `cache` in the current context, by name."""
    from soacc.runtime.gpu.kernels import Kernel

    if not host.kernel_formats:
        return {}
    loaded = cache.load(cuda_source, "the program's kernels")
    return {name: Kernel(loaded, name, fmt, memory.launches, "the program's kernels") for name, fmt in host.kernel_formats.items()}


def segment_graphs_wanted() -> bool:
    """Segment graphs are off unless SOACC_SEGMENT_GRAPHS=1 (with task graphs): on an
    H100 they made eager calls slower (runtime/gpu/segment_graphs.py)."""
    import os

    return os.environ.get("SOACC_SEGMENT_GRAPHS", "0") == "1"


def task_graphs_wanted() -> bool:
    """Task graphs are on unless SOACC_TASK_GRAPHS=0, and where cuda-bindings is installed."""
    import os

    if os.environ.get("SOACC_TASK_GRAPHS", "1") == "0":
        return False
    try:
        import cuda.bindings.driver  # noqa: F401
    except ImportError:
        return False
    return True


_DEVICE_MODELS: dict[tuple[int, ...], object] = {}
"""The husks' cost model of each set of GPUs (by index), with its peer bandwidth measured."""

_POOLS: dict[int, object] = {}


def _pool(device_index: int):
    """One memory pool per device, shared by every program of the process, so that
    memory one program frees serves the next."""
    from soacc.runtime.gpu.memory_pool import MemoryPool

    return _POOLS.setdefault(device_index, MemoryPool())


_PINNED_POOLS: dict[int, object] = {}


def pinned_pool(device_index: int):
    """One pool of page-locked result buffers per device, shared by every program of
    the process (pinned_results.py); None where SOACC_PINNED_BYTES=0."""
    import pycuda.driver as cuda

    from soacc.runtime.gpu.pinned_results import PinnedPool, capacity_from_environment

    try:
        capacity = capacity_from_environment()
    except ValueError as error:
        raise ProgramError(str(error)) from None
    if capacity == 0:
        return None
    if device_index not in _PINNED_POOLS:
        _PINNED_POOLS[device_index] = PinnedPool(lambda n: cuda.pagelocked_empty(n, np.uint8), capacity)
    return _PINNED_POOLS[device_index]


def _indexed_array_name(op: Operation) -> str:
    array = getattr(op, "view", None) or getattr(op, "source", None)
    return f" of %{array.name_hint}" if array is not None and array.name_hint else ""


def _host_view(array: np.ndarray, data: np.ndarray) -> tuple[HostBlock, View]:
    block = HostBlock(data, None)  # the caller's memory: not counted as allocated
    return block, View(block, 0, array.shape, dense_strides(array.shape), array.dtype)


class _EntryLayout:
    """An entry point's source-level signature as a call needs it: which parameters
    are arrays, and each result's NumPy scalar type (None for an array)."""

    __slots__ = ("arrays", "scalar_results")

    def __init__(self, arrays: tuple[bool, ...], scalar_results: tuple):
        self.arrays = arrays
        self.scalar_results = scalar_results

    @staticmethod
    def of(signature) -> _EntryLayout:
        return _EntryLayout(
            array_parameters(signature.inputs.data),
            tuple(None if isinstance(t, TensorType) else numpy_dtype(t).type for t in signature.outputs.data),
        )
