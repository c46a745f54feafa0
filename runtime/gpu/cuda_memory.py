"""The device as the host code uses it, on PyCUDA: allocations from the memory pool,
transfers, soacc's strided copy kernel and kernel launches, all on the context's
default stream, so each runs after the ones before it.

Launches and device-to-device copies are asynchronous; a failing kernel is reported by
the next operation that waits for the device (a read into host memory, or the
synchronisation at the end of a call), naming the kernels launched since the host last
waited. PyCUDA is imported when an instance is made, never by importing this module.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.pinned_results import POOLED_FROM, PinnedPool
from soacc.runtime.gpu.staged_copies import CudaStaging, StagedCopies, staged

MAX_COPY_RANK = 8
"""The most dimensions the strided copy kernel takes (after merging dimensions)."""

STRIDED_COPY_SOURCE = r"""// soacc's strided copy between two device views (runtime/gpu/cuda_memory.py).
#define SOACC_MAX_COPY_RANK 8

// The shape and the element strides of both sides; passed by value.
struct soacc_copy_shape {
  long long rank;
  long long size[SOACC_MAX_COPY_RANK];
  long long source_stride[SOACC_MAX_COPY_RANK];
  long long destination_stride[SOACC_MAX_COPY_RANK];
};

// Grid-stride over the elements in row-major order; any grid covers any count.
template <typename T>
__device__ __forceinline__ void soacc_copy_strided(T* destination, const T* source, long long count,
                                                   const soacc_copy_shape& s) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    long long rest = i, from = 0, to = 0;
    for (long long d = s.rank - 1; d >= 0; --d) {
      long long c = rest % s.size[d];
      rest /= s.size[d];
      from += c * s.source_stride[d];
      to += c * s.destination_stride[d];
    }
    destination[to] = source[from];
  }
}

extern "C" __global__ void soacc_copy_strided_1(unsigned char* d, const unsigned char* s, long long n, soacc_copy_shape shape) { soacc_copy_strided(d, s, n, shape); }
extern "C" __global__ void soacc_copy_strided_2(unsigned short* d, const unsigned short* s, long long n, soacc_copy_shape shape) { soacc_copy_strided(d, s, n, shape); }
extern "C" __global__ void soacc_copy_strided_4(unsigned int* d, const unsigned int* s, long long n, soacc_copy_shape shape) { soacc_copy_strided(d, s, n, shape); }
extern "C" __global__ void soacc_copy_strided_8(unsigned long long* d, const unsigned long long* s, long long n, soacc_copy_shape shape) { soacc_copy_strided(d, s, n, shape); }
"""

SET_CONDITION_SOURCE = r"""// soacc's device loops (runtime/gpu/cuda_memory.py): a conditional node's condition
// from the loop's flag in device memory; linked with cudadevrt.
extern "C" __global__ void soacc_set_condition(cudaGraphConditionalHandle handle, const unsigned char* flag) {
  cudaGraphSetConditional(handle, *flag ? 1u : 0u);
}
"""

STRIDED_COPY_FORMAT = "PPq" + "q" * (1 + 3 * MAX_COPY_RANK)
"""destination, source, count, then the struct: rank, sizes, source and destination strides."""

_THREADS = 256
_MAX_BLOCKS = 65536


def strided_copy_arguments(
    destination: int, destination_strides: Sequence[int], source: int, source_strides: Sequence[int], shape: Sequence[int]
) -> tuple:
    """The strided copy kernel's arguments, in STRIDED_COPY_FORMAT's order."""
    rank = len(shape)
    if rank > MAX_COPY_RANK:
        raise ExecutionError(f"a copy between views of {rank} dimensions that cannot be merged; at most {MAX_COPY_RANK} are supported")
    pad = [0] * (MAX_COPY_RANK - rank)
    count = 1
    for n in shape:
        count *= n
    return (
        destination, source, count, rank,
        *shape, *pad, *source_strides, *pad, *destination_strides, *pad,
    )


class CudaMemory:
    """The PyCUDA implementation of host_runtime.DeviceMemory, and of the capture of
    task graphs (runtime/gpu/task_graphs.py; CUDA graphs through NVIDIA's
    cuda-bindings): between begin_capture and end_capture every launch and device copy
    goes to a capture stream instead of running, and allocations come from the graph's
    arena."""

    def __init__(self, device, pool, module_cache, pinned_pool: PinnedPool | None = None):
        import pycuda.driver as cuda

        from soacc.runtime.gpu.fork_streams import ForkStreams
        from soacc.runtime.gpu.kernels import Kernel, LaunchCounters

        self._cuda = cuda
        self.device = device
        self.pool = pool
        self.pinned_pool = pinned_pool
        """Page-locked host buffers for results (pinned_results.py), or None."""
        self.launches = LaunchCounters()
        self._recent: deque[str] = deque(maxlen=4)
        self._since_wait = 0
        self._profile: list[tuple[str, Any, Any]] | None = None
        """(kernel name, start event, end event) of every launch while profiling."""
        self._allocator = pool
        """The pool, or a task graph's arena while one is captured."""
        self._capture: _Capture | None = None
        self._graph_stream = None
        cuda = self._cuda
        self._forks = ForkStreams(
            cuda.Stream, lambda: cuda.Event(cuda.event_flags.DISABLE_TIMING), placed=self._hold_frees
        )
        """Fork threads' streams and events (convert-fork-to-gpu)."""
        self._forks.eager_streams = os.environ.get("SOACC_FORK_STREAMS", "capture") == "always"
        self._module_cache = module_cache
        self._staged: StagedCopies | None = None
        self.staging_on = os.environ.get("SOACC_STAGED_COPIES", "1") != "0"
        """Copies of 12 MB and more between pageable host memory and the device go
        through page-locked chunks (runtime/gpu/staged_copies.py); SOACC_STAGED_COPIES=0:
        the driver's own way."""
        self._set_condition = None
        """soacc_set_condition, compiled at the first device loop."""
        self._loop_streams: list = []
        """A stream per depth of nested device loops, each body captured on its own."""
        copies = module_cache.load(STRIDED_COPY_SOURCE, "soacc's strided copy kernels")
        self._copy_kernels = {
            size: Kernel(copies, f"soacc_copy_strided_{size}", STRIDED_COPY_FORMAT, self.launches, "soacc's strided copy kernels")
            for size in (1, 2, 4, 8)
        }

    def allocate(self, nbytes: int) -> Any:
        return self._allocator.allocate(nbytes)

    def write(self, address: int, source: np.ndarray) -> None:
        if self._capture is not None:
            raise ExecutionError("a synchronous write to the device while a task graph is captured (a bug in soacc)")
        if self._pinned(source):
            self._do(self._cuda.memcpy_htod, address, source)
        elif staged(source.nbytes) and self.staging_on:
            self._do(self._staging().write, address, source)
        elif source.nbytes:
            self._do(self._cuda.memcpy_htod, address, source)

    def host_buffer(self, nbytes: int) -> np.ndarray | None:
        """Page-locked host bytes from the results' pool (pinned_results.py), or None
        where it lends none (small, off, or full)."""
        return self.pinned_pool.take(nbytes) if self.pinned_pool is not None else None

    def _pinned(self, array: np.ndarray) -> bool:
        return self.pinned_pool is not None and array.nbytes >= POOLED_FROM and self.pinned_pool.is_pinned(array)

    def read(self, destination: np.ndarray, address: int) -> None:
        if self._capture is not None:
            raise ExecutionError("a synchronous read from the device while a task graph is captured (a bug in soacc)")
        if self._pinned(destination):  # one DMA, no staging
            self._do(self._cuda.memcpy_dtoh, destination, address)
        elif staged(destination.nbytes) and self.staging_on:
            self._do(self._staging().read, destination, address)
        elif destination.nbytes:
            self._do(self._cuda.memcpy_dtoh, destination, address)
        self._waited()

    def _staging(self) -> StagedCopies:
        """Large copies of pageable memory through page-locked chunks, made at the first."""
        if self._staged is None:
            self._staged = StagedCopies(CudaStaging(self._cuda, self._cuda.Stream(), self.pinned))
        return self._staged

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        # asynchronous on the current stream (the default one outside forks): the
        # synchronous cuMemcpyDtoD made the host wait for the device, 2 ms a copy in a
        # loop of husks whose devices complete broadcasts from rows they hold
        if nbytes:
            self._do(self._cuda.memcpy_dtod_async, destination, source, nbytes, self._forks.current())

    def copy_strided(self, itemsize, destination, destination_strides, source, source_strides, shape) -> None:
        self.launch(*self._strided_launch(itemsize, destination, destination_strides, source, source_strides, shape))

    def _strided_launch(self, itemsize, destination, destination_strides, source, source_strides, shape) -> tuple:
        """The launch of the strided copy kernel that does a copy_strided."""
        args = strided_copy_arguments(destination, destination_strides, source, source_strides, shape)
        blocks = max(1, min((args[2] + _THREADS - 1) // _THREADS, _MAX_BLOCKS))
        return self._copy_kernels[itemsize], (blocks, 1, 1), (_THREADS, 1, 1), args, 0

    def launch(self, kernel, grid: tuple, block: tuple, args: tuple, shared: int) -> None:
        if self._profile is not None:
            start, end = self._cuda.Event(), self._cuda.Event()
            start.record()
            kernel.launch(grid, block, args, shared)
            end.record()
            self._profile.append((kernel.name, start, end))
        else:
            kernel.launch(grid, block, args, shared, self._forks.current())
        self._recent.append(kernel.name)
        self._since_wait += 1

    # --- segment graphs (runtime/gpu/segment_graphs.py) ---------------------------------

    def launch_record(self, kernel, grid: tuple, block: tuple, args: tuple, shared: int) -> tuple:
        """A launch as a segment records it: its parameters packed (exact bits)."""
        return (kernel, grid, block, shared, kernel.pack(args))

    def copy_record(self, destination: int, source: int, nbytes: int) -> tuple:
        return (None, destination, source, nbytes, None)

    def copy_strided_record(self, itemsize, destination, destination_strides, source, source_strides, shape) -> tuple:
        return self.launch_record(*self._strided_launch(itemsize, destination, destination_strides, source, source_strides, shape))

    def issue(self, records: list) -> None:
        """The recorded operations, issued now on the current stream."""
        self._issue(records, self._forks.current())
        for record in records[-4:]:
            self._recent.append("a device copy" if record[0] is None else record[0].name)
        self._since_wait += len(records)

    def _issue(self, records: list, stream) -> None:
        memcpy = self._cuda.memcpy_dtod_async
        for kernel, a, b, c, packed in records:
            if kernel is None:
                self._do(memcpy, a, b, c, stream)
            else:
                kernel.launch_packed(a, b, packed, c, stream)

    def graph_of(self, records: list) -> CudaGraph:
        """The recorded operations captured as a graph, not run. It launches on the
        graph stream, a blocking one: after the default stream's work before it, and
        before the default stream's work after it."""
        if self._capture is not None:
            raise ExecutionError("a segment graph is captured inside a task graph's capture (a bug in soacc)")
        driver = _cuda_graphs()
        if self._graph_stream is None:
            self._graph_stream = self._cuda.Stream()
        stream = driver.CUstream(self._graph_stream.handle)
        _check(driver.cuStreamBeginCapture(stream, driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED), "beginning a segment's capture")
        try:
            self._issue(records, self._graph_stream)
        except Exception:
            error, graph = driver.cuStreamEndCapture(stream)
            if error == driver.CUresult.CUDA_SUCCESS and graph is not None:
                driver.cuGraphDestroy(graph)
            raise
        error, graph = driver.cuStreamEndCapture(stream)
        _check((error,), "ending a segment's capture")
        error, executable = driver.cuGraphInstantiate(graph, 0)
        if error != driver.CUresult.CUDA_SUCCESS:
            driver.cuGraphDestroy(graph)
            _check((error,), "instantiating a segment's graph")
        return CudaGraph(graph, executable, stream, None)

    def replay(self, graph: CudaGraph, records: list) -> None:
        """A segment's graph launched in place of its records."""
        graph.launch()
        self._recent.append(f"a segment graph of {len(records)} kernels and copies")
        self._since_wait += len(records)

    # --- forks (runtime/gpu/fork_streams.py) -------------------------------------------

    def fork(self) -> None:
        self._forks.fork()

    def end_fork(self) -> None:
        try:
            self._forks.end_fork()
        except RuntimeError as error:
            raise ExecutionError(f"{error} (a bug in the host code)") from None

    def resolve(self, signal) -> None:
        signal.events = self._forks.resolve()

    def wait(self, signal) -> None:
        self._forks.wait(signal.events)

    def eager_fork_streams(self, on: bool) -> None:
        """Whether fork threads take streams of their own in eager calls too (off by
        default: only under a task graph's capture; SOACC_FORK_STREAMS=always)."""
        self._forks.eager_streams = bool(on)

    def reset_forks(self) -> None:
        """After a call that failed inside a thread: back to the call's own."""
        self._forks.reset()

    def _hold_frees(self) -> None:
        # a block freed from now on may still be used by a fork stream's work
        self._allocator.defer_frees()

    # --- task graphs -----------------------------------------------------------------

    def begin_capture(self) -> None:
        """From now on, launches and device copies are recorded into a graph on the
        capture stream, not run; allocations come from a new arena."""
        from soacc.runtime.gpu.memory_pool import GraphArena

        if self._capture is not None or self._profile is not None:
            raise ExecutionError("a task graph is captured inside another, or while profiling (a bug in soacc)")
        driver = _cuda_graphs()
        if self._graph_stream is None:
            # a blocking stream: a graph launched on it runs after the default stream's
            # uploads before it (a pageable upload may return before its DMA is done)
            self._graph_stream = self._cuda.Stream()
        stream = driver.CUstream(self._graph_stream.handle)
        # everything before runs first: the graph's pre-uploads and the last call
        self.synchronize()
        _check(driver.cuStreamBeginCapture(stream, driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED), "beginning a graph's capture")
        self._capture = _Capture(GraphArena(self.pool), stream)
        self._allocator = self._capture.arena
        self._forks.begin_capture(self._graph_stream)

    def end_capture(self) -> CudaGraph:
        """The captured graph, instantiated and ready to launch."""
        self._forks.join_capture()
        capture = self._stop_capture()
        driver = _cuda_graphs()
        error, graph = driver.cuStreamEndCapture(capture.stream)
        if error != driver.CUresult.CUDA_SUCCESS:
            capture.arena.release()
            _check((error,), "ending a graph's capture")
        error, executable = driver.cuGraphInstantiate(graph, 0)
        if error != driver.CUresult.CUDA_SUCCESS:
            driver.cuGraphDestroy(graph)
            capture.arena.release()
            _check((error,), "instantiating a task graph")
        return CudaGraph(graph, executable, capture.stream, capture.arena)

    # --- device loops: conditional nodes ---------------------------------------------

    def begin_loop(self, condition: int) -> Any:
        """The device work from now on is the body of a while-type conditional node, run
        while the byte at `condition` is not zero: a kernel before the node sets the
        node's condition from it, and end_loop's at the end of the body. The body is
        captured into the node's graph on a stream of its own."""
        from soacc.runtime.gpu.kernels import Kernel

        capture = self._capture
        if capture is None:
            raise ExecutionError("a device loop outside a task graph's capture (a bug in soacc)")
        driver = _cuda_graphs()
        if self._set_condition is None:
            module = self._module_cache.load(SET_CONDITION_SOURCE, "soacc's device loops", ("cudadevrt",))
            self._set_condition = Kernel(module, "soacc_set_condition", "QP", self.launches, "soacc's device loops")
        parent = self._forks.loop_parent()
        handle_parent = driver.CUstream(parent.handle)
        status = driver.cuStreamGetCaptureInfo(handle_parent)
        _check(status, "asking for a capture's graph")
        graph = status[3]
        error, context = driver.cuCtxGetCurrent()
        _check((error,), "asking for the context")
        error, handle = driver.cuGraphConditionalHandleCreate(graph, context, 0, 0)
        _check((error,), "making a device loop's condition")
        self._set_condition.launch((1, 1, 1), (1, 1, 1), (int(handle), condition), 0, parent)
        status = driver.cuStreamGetCaptureInfo(handle_parent)
        _check(status, "asking for a capture's dependencies")
        dependencies, edges, count = status[4], status[5], status[6]
        params = driver.CUgraphNodeParams()
        params.type = driver.CUgraphNodeType.CU_GRAPH_NODE_TYPE_CONDITIONAL
        params.conditional.handle = handle
        params.conditional.type = driver.CUgraphConditionalNodeType.CU_GRAPH_COND_TYPE_WHILE
        params.conditional.size = 1
        params.conditional.ctx = context
        error, node = driver.cuGraphAddNode(graph, dependencies, edges, count, params)
        _check((error,), "adding a device loop's node")
        body = params.conditional.phGraph_out[0]
        _check(
            driver.cuStreamUpdateCaptureDependencies(
                handle_parent, [node], None, 1, driver.CUstreamUpdateCaptureDependencies_flags.CU_STREAM_SET_CAPTURE_DEPENDENCIES
            ),
            "ordering the work after a device loop",
        )
        depth = len(capture.loops)
        while len(self._loop_streams) <= depth:
            self._loop_streams.append(self._cuda.Stream())
        stream = self._loop_streams[depth]
        _check(
            driver.cuStreamBeginCaptureToGraph(
                driver.CUstream(stream.handle), body, None, None, 0, driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED
            ),
            "capturing a device loop's body",
        )
        capture.loops.append(stream)
        self._forks.enter_loop(stream)
        return handle

    def end_loop(self, loop: Any, condition: int) -> None:
        """The body ends by setting the node's condition from the byte at `condition`."""
        capture = self._capture
        if capture is None or not capture.loops:
            raise ExecutionError("ends a device loop that was never begun (a bug in soacc)")
        stream = capture.loops[-1]
        self._set_condition.launch((1, 1, 1), (1, 1, 1), (int(loop), condition), 0, stream)
        self._end_loop_capture(capture)

    def _end_loop_capture(self, capture: _Capture) -> None:
        stream = capture.loops.pop()
        self._forks.exit_loop()
        driver = _cuda_graphs()
        _check(driver.cuStreamEndCapture(driver.CUstream(stream.handle)), "ending a device loop's body")

    def abort_capture(self) -> None:
        """Ends a capture that failed: the graph and its memory are dropped."""
        if self._capture is None:
            return
        while self._capture.loops:
            try:
                self._end_loop_capture(self._capture)
            except Exception:  # (ending the whole capture below says what failed)
                pass
        try:
            self._forks.join_capture()
        except Exception:  # (a capture already invalidated: ending it below says so)
            pass
        capture = self._stop_capture()
        driver = _cuda_graphs()
        error, graph = driver.cuStreamEndCapture(capture.stream)
        if error == driver.CUresult.CUDA_SUCCESS and graph is not None:
            driver.cuGraphDestroy(graph)
        capture.arena.release()

    def _stop_capture(self) -> _Capture:
        capture, self._capture = self._capture, None
        if capture is None:
            raise ExecutionError("ends a task graph's capture that was never begun (a bug in soacc)")
        capture.arena.flush_deferred()  # nothing of the graph runs before it is launched
        self._allocator = self.pool
        self._forks.end_capture()
        return capture

    def pinned(self, nbytes: int) -> np.ndarray:
        """Page-locked host bytes, which a graph's copies may read and write."""
        return self._cuda.pagelocked_empty(max(nbytes, 1), np.uint8)[:nbytes]

    def write_async(self, address: int, source: np.ndarray) -> None:
        """Host to device from page-locked memory, on the capture stream."""
        if source.nbytes:
            self._do(self._cuda.memcpy_htod_async, address, source, self._forks.current())

    def read_async(self, destination: np.ndarray, address: int) -> None:
        """Device to page-locked host memory, on the capture stream."""
        if destination.nbytes:
            self._do(self._cuda.memcpy_dtoh_async, destination, address, self._forks.current())

    def start_profiling(self) -> None:
        """From now on, time every launch on the device (CUDA events around it)."""
        self._profile = []

    def stop_profiling(self) -> list[tuple[str, float]]:
        """(kernel name, device seconds) of every launch since start_profiling, in
        launch order (Statistics.record_profile sums them per kernel); waits for the
        device."""
        self.synchronize()
        launches, self._profile = self._profile or [], None
        return [(name, end.time_since(start) / 1e3) for name, start, end in launches]

    def discard_profile(self) -> None:
        """Stops profiling without waiting (after a failure)."""
        self._profile = None

    # --- several devices (husks: runtime/gpu/husks.py) ------------------------------

    @contextmanager
    def current(self) -> Iterator[None]:
        """This device's context is the thread's current one meanwhile (every PyCUDA
        call acts on the current context)."""
        self.device.context.push()
        try:
            yield
        finally:
            self._cuda.Context.pop()

    def _stream_handle(self) -> int:
        stream = self._forks.current()
        return 0 if stream is None else stream.handle

    def record(self) -> Any:
        """An event of everything issued on this device so far."""
        from cuda.bindings import driver

        with self.current():
            event = _Event(_checked(driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING), "making an event")[1])
            _check(driver.cuEventRecord(event.handle, driver.CUstream(self._stream_handle())), "recording an event")
        return event

    def wait_for(self, event: Any) -> None:
        """What is issued on this device from now on runs after `event` (of any device)."""
        from cuda.bindings import driver

        with self.current():
            _check(driver.cuStreamWaitEvent(driver.CUstream(self._stream_handle()), event.handle, 0), "waiting for an event")

    def peer_copy(self, destination_memory: CudaMemory, destination: int, source_memory: CudaMemory, source: int, nbytes: int) -> None:
        """Copies `nbytes` between two devices' memories (this one is one of them), in
        this device's order: after what it was given before, before what comes after.
        Through cuda-bindings' cuMemcpyPeerAsync (PyCUDA's memcpy_peer checks its
        contexts the wrong way round)."""
        from cuda.bindings import driver

        if not nbytes:
            return
        with self.current():
            _check(
                driver.cuMemcpyPeerAsync(
                    driver.CUdeviceptr(destination), driver.CUcontext(destination_memory.device.context.handle),
                    driver.CUdeviceptr(source), driver.CUcontext(source_memory.device.context.handle),
                    nbytes, driver.CUstream(self._stream_handle()),
                ),
                "copying between devices",
            )

    def synchronize(self) -> None:
        self._do(self.device.synchronize)
        self._waited()
        if self._capture is None:
            self._forks.reset()
            if self.pool.deferring:
                self.pool.flush_deferred()

    def _do(self, operation, *args) -> None:
        try:
            operation(*args)
        except self._cuda.Error as error:
            launched = self._launched_since_wait()
            sticky = (
                "; a kernel failed (an access out of bounds, or a run-time check, cf.assert, "
                "that failed in a kernel and trapped); CUDA keeps an error a kernel made until "
                "the process ends, so this process cannot use the GPU again"
                if launched and "out of memory" not in str(error)
                else ""
            )
            raise ExecutionError(f"the GPU reported an error: {error}{launched}{sticky}") from None

    def _waited(self) -> None:
        self._recent.clear()
        self._since_wait = 0

    def _launched_since_wait(self) -> str:
        if not self._since_wait:
            return ""
        names = ", ".join(self._recent)
        return (
            f" (after {self._since_wait} kernel launch(es) since the host last waited for the GPU; "
            f"the last: {names})"
        )


class _Event:
    """A cuda-bindings event, destroyed with this object."""

    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = handle

    def __del__(self) -> None:
        try:
            from cuda.bindings import driver

            driver.cuEventDestroy(self.handle)
        except Exception:  # at exit the driver may be gone
            pass


class _Capture:
    __slots__ = ("arena", "stream", "loops")

    def __init__(self, arena, stream):
        self.arena = arena
        self.stream = stream
        self.loops: list = []
        """The streams of the device loops' bodies being captured, innermost last."""


class CudaGraph:
    """An instantiated CUDA graph with the arena its nodes' memory lives in (None for a
    segment's graph, whose nodes use the eager call's blocks)."""

    def __init__(self, graph, executable, stream, arena):
        self._graph = graph
        self._executable = executable
        self._stream = stream
        self.arena = arena

    def launch(self) -> None:
        """Runs the graph after everything before it (the host waits at the next
        synchronize)."""
        driver = _cuda_graphs()
        error = driver.cuGraphLaunch(self._executable, self._stream)[0]
        if error != driver.CUresult.CUDA_SUCCESS:
            raise ExecutionError(f"the GPU reported an error launching a task graph: {_error_name(error)}")

    def structure(self) -> dict[str, int]:
        """Its nodes, its kernel nodes and the longest chain of kernel nodes each after
        the one before (kernels that cannot overlap however many branches there are):
        kernels / chain is how many the graph allows in flight on average. A device
        loop's conditional node counts as one node, its body unseen."""
        driver = _cuda_graphs()
        _, _, count = _checked(driver.cuGraphGetNodes(self._graph, 0), "counting a graph's nodes")
        _, nodes, count = _checked(driver.cuGraphGetNodes(self._graph, count), "listing a graph's nodes")
        edges = _checked(driver.cuGraphGetEdges(self._graph, 0), "counting a graph's edges")
        edges = _checked(driver.cuGraphGetEdges(self._graph, edges[-1]), "listing a graph's edges")
        sources, targets = edges[1], edges[2]  # (cuda-bindings 13 adds the edges' data after them)
        kernel = driver.CUgraphNodeType.CU_GRAPH_NODE_TYPE_KERNEL
        is_kernel = {int(n): _checked(driver.cuGraphNodeGetType(n), "a node's type")[1] == kernel for n in nodes[:count]}
        after: dict[int, list[int]] = {n: [] for n in is_kernel}
        waiting = dict.fromkeys(is_kernel, 0)
        for a, b in zip(sources, targets):
            after[int(a)].append(int(b))
            waiting[int(b)] += 1
        chain = {n: int(is_kernel[n]) for n in is_kernel}
        ready = [n for n, w in waiting.items() if w == 0]
        while ready:  # in dependency order: the longest chain of kernels ending at each node
            n = ready.pop()
            for m in after[n]:
                chain[m] = max(chain[m], chain[n] + int(is_kernel[m]))
                waiting[m] -= 1
                if waiting[m] == 0:
                    ready.append(m)
        return {"nodes": count, "kernels": sum(is_kernel.values()), "longest_kernel_chain": max(chain.values(), default=0)}

    def release(self) -> None:
        if self._executable is None:
            return
        driver = _cuda_graphs()
        driver.cuGraphExecDestroy(self._executable)
        driver.cuGraphDestroy(self._graph)
        self._executable = self._graph = None
        if self.arena is not None:
            self.arena.release()

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass  # at interpreter exit the driver may be gone


_DRIVER = None


def _cuda_graphs():
    """NVIDIA's driver bindings (the `cuda` extra's cuda-bindings), for graphs: PyCUDA
    has no graph API. Imported on the first capture."""
    global _DRIVER
    if _DRIVER is None:
        try:
            from cuda.bindings import driver
        except ImportError:
            raise ExecutionError(
                "task graphs need NVIDIA's cuda-bindings (pip install 'soacc[cuda]'), which is not installed"
            ) from None
        _check(driver.cuInit(0), "initialising cuda-bindings")
        _DRIVER = driver
    return _DRIVER


def _error_name(error) -> str:
    try:
        from cuda.bindings import driver

        name = driver.cuGetErrorName(error)[1]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception:
        return str(error)


def _checked(result, doing: str):
    """The results of a cuda-bindings call, once _check finds no error in them."""
    _check(result, doing)
    return result


def _check(result, doing: str) -> None:
    """Raises the error a cuda-bindings call returned (its first result)."""
    from cuda.bindings import driver

    error = result[0]
    if error != driver.CUresult.CUDA_SUCCESS:
        raise ExecutionError(f"the GPU reported an error {doing}: {_error_name(error)}")
