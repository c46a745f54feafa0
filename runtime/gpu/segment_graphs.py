"""Segment graphs: an eager call's device work between the points where the host needs
the device, replayed as CUDA graphs where it repeats.

A call whose host code reads a device value runs eagerly (task_graphs.py cannot capture
it), and pays a Python launch of about 5 µs for every kernel. But the device work
between two such points (a host loop's iteration whose condition is read on the host,
the body of a function up to its first read) is often exactly what an earlier stretch
did: the same kernels with the same grids and parameter bytes, addresses included (the
memory pool hands the same blocks out again), and the same copies. So in an eager call
the kernel launches and device-to-device copies are *recorded*, not issued, into a
**segment**, which ends where the host needs the device (any other operation: a read,
a write, a fork, a synchronisation, the call's end), at a host loop's iteration once it
holds `BATCH` operations (`HostRuntime.next_iteration`, emitted at the start of every
host loop body that launches kernels), or at `LONGEST` operations (beyond that the
device would idle while the host records). Then:

- a segment shorter than `SHORTEST` is issued as it is;
- one whose record was seen before (`SEEN` remembered) is captured once as a graph,
  kept (`CAPACITY` per program, the least recently used dropped) and replayed: one
  graph launch for the whole segment;
- any other is issued as it is, and its record remembered.

**Why a replay is the eager run.** The record is the segment's whole device work, bit
for bit: each kernel and its grid, block, shared memory and packed parameter bytes, each
copy's addresses and size. A replay launches those very operations in that order, on
the graph stream, which is ordered after the default stream's earlier work and before
its later work (both are blocking streams). Nothing a graph holds outlives the addresses
in its record: a replay happens only when the call just issued the same record, so its
blocks are live. Whatever the program, a replay does what issuing the segment would.

Counters and results do not change: the host code still runs every operation (only
where the device is told to do it moves), so the Statistics are the eager call's;
`segment_graphs` and `segment_operations` count the replays and what they covered.

A program whose segments never repeat pays for recording (about a microsecond an
operation, less than the launch it then issues); after `GIVE_UP` segments with no
replay, a function's calls stop recording.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from soacc.runtime.errors import ExecutionError

SHORTEST = 2
"""Operations a segment needs to be worth a graph (a graph launch costs about as much as
one kernel launch)."""

BATCH = 8
"""Operations a segment holds before a host loop's next iteration may end it: a loop of
small bodies makes segments of several iterations, always whole ones."""

LONGEST = 64
"""Operations after which a segment ends wherever it is (the device waits for a segment
to end before it runs any of it: about 64 µs of recording, where eager launches would
have kept it busy)."""

CAPACITY = 64
"""Graphs kept per program."""

SEEN = 1024
"""Records of segments remembered (a record seen again is captured)."""

GIVE_UP = 256
"""Segments of a function with no replay after which its calls stop recording."""


class SegmentGraphs:
    """The segments of one program's eager calls. `memory` is the device memory
    (runtime/gpu/cuda_memory.CudaMemory, or the tests' simulated device), which makes
    the records (`launch_record`, `copy_record`, `copy_strided_record`), issues them
    (`issue`), captures them (`graph_of`) and replays a graph (`replay`)."""

    def __init__(self, memory: Any) -> None:
        self.memory = memory
        self.graphs: OrderedDict[tuple, Any] = OrderedDict()
        self.seen: OrderedDict[tuple, None] = OrderedDict()
        self.replays = 0
        self.captures = 0
        self.refused: OrderedDict[tuple, str] = OrderedDict()
        """Records the driver would not capture, and why (they are issued as they are)."""
        self._hopeless: set[str] = set()
        self._misses: dict[str, int] = {}
        self._replayed: set[str] = set()
        self.active: SegmentRecorder | None = None
        """The recorder of the eager call running now, if any."""
        pool = getattr(memory, "pool", None)
        if pool is not None and hasattr(pool, "add_reliever"):
            # a device out of memory gives held blocks back to the driver, which the
            # segment being recorded may use: it is issued first, and the graphs go
            pool.add_reliever(self.relieve)

    def call(self, function: str, python, runtime, args) -> tuple:
        """Runs `python` (the host code of `function`) on `runtime` and `args`, its
        device work recorded into segments; returns its results."""
        if function in self._hopeless:
            return python(runtime, *args)
        recorder = self.active = SegmentRecorder(self, function, runtime.statistics)
        memory, runtime.memory = runtime.memory, recorder
        try:
            results = python(runtime, *args)
            recorder.close()
        except BaseException:
            recorder.close(failed=True)
            raise
        finally:
            runtime.memory = memory
        return results

    def run(self, records: list, function: str, statistics) -> None:
        """A segment ends: replayed, captured and replayed, or issued."""
        memory = self.memory
        if len(records) < SHORTEST:
            memory.issue(records)
            return
        key = tuple(records)
        graph = self.graphs.get(key)
        if graph is None and key in self.seen and key not in self.refused:
            graph = self._capture(key, records)
        if graph is None:
            memory.issue(records)
            self.seen[key] = None
            self.seen.move_to_end(key)
            if len(self.seen) > SEEN:
                self.seen.popitem(last=False)
            if function not in self._replayed:
                misses = self._misses[function] = self._misses.get(function, 0) + 1
                if misses >= GIVE_UP:
                    self._hopeless.add(function)
            return
        self.graphs.move_to_end(key)
        memory.replay(graph, records)
        self.replays += 1
        self._replayed.add(function)
        statistics.segment_graphs += 1
        statistics.segment_operations += len(records)

    def _capture(self, key: tuple, records: list) -> Any:
        try:
            graph = self.memory.graph_of(records)
        except ExecutionError as error:  # (issued as they are, and never tried again)
            self.refused[key] = str(error)
            if len(self.refused) > SEEN:
                self.refused.popitem(last=False)
            return None
        self.captures += 1
        self.graphs[key] = graph
        while len(self.graphs) > CAPACITY:
            _, dropped = self.graphs.popitem(last=False)
            dropped.release()
        return graph

    def relieve(self) -> None:
        """The device is out of memory: the segment being recorded is issued (the
        blocks it uses may be given back to the driver next) and the graphs dropped."""
        if self.active is not None:
            self.active.finish()
        self.release()

    def release(self) -> None:
        """Every graph (the device memory is running out, or graphs are turned off)."""
        for graph in self.graphs.values():
            graph.release()
        self.graphs.clear()


class SegmentRecorder:
    """The device memory of one eager call while its segments are recorded: launches and
    device copies join the current segment; any other operation ends it first, then
    goes to the memory as it is (`__getattr__`), so the device sees every operation in
    the host code's order. `finish` ends the last segment (the call's end)."""

    def __init__(self, segments: SegmentGraphs, function: str, statistics) -> None:
        self._segments = segments
        self._memory = segments.memory
        self._function = function
        self._statistics = statistics
        self._records: list = []
        self._forked = 0
        """Fork threads open: their work goes to the memory as it comes (a thread's
        stream is not the graph's)."""

    # --- what is recorded --------------------------------------------------------------

    def launch(self, kernel, grid: tuple, block: tuple, args: tuple, shared: int) -> None:
        if self._forked:
            self._memory.launch(kernel, grid, block, args, shared)
            return
        records = self._records
        records.append(self._memory.launch_record(kernel, grid, block, args, shared))
        if len(records) >= LONGEST:
            self.finish()

    def copy(self, destination: int, source: int, nbytes: int) -> None:
        if self._forked or not nbytes:
            self._memory.copy(destination, source, nbytes)
            return
        self._records.append(self._memory.copy_record(destination, source, nbytes))
        if len(self._records) >= LONGEST:
            self.finish()

    def copy_strided(self, itemsize, destination, destination_strides, source, source_strides, shape) -> None:
        if self._forked:
            self._memory.copy_strided(itemsize, destination, destination_strides, source, source_strides, shape)
            return
        self._records.append(
            self._memory.copy_strided_record(itemsize, destination, destination_strides, source, source_strides, shape)
        )
        if len(self._records) >= LONGEST:
            self.finish()

    def next_iteration(self) -> None:
        """A host loop's iteration begins: the segment ends here if it holds a batch."""
        if len(self._records) >= BATCH:
            self.finish()

    def finish(self) -> None:
        """The current segment ends (issued or replayed)."""
        records = self._records
        if records:
            self._records = []
            self._segments.run(records, self._function, self._statistics)

    def close(self, failed: bool = False) -> None:
        """The call ends: its last segment is issued or replayed. Where the call
        `failed`, what it recorded is issued as the eager call would have issued it,
        unless that fails too (the call's own error is what it reports)."""
        try:
            self.finish()
        except Exception:
            if not failed:
                raise
            self._records = []
        finally:
            if self._segments.active is self:
                self._segments.active = None

    # --- what ends a segment -------------------------------------------------------------

    def allocate(self, nbytes: int):
        # (no device work: a block freed and taken again is reused in stream order,
        # and the recorded operations that used it come first on the stream)
        return self._memory.allocate(nbytes)

    def host_buffer(self, nbytes: int):
        lend = getattr(self._memory, "host_buffer", None)
        return None if lend is None else lend(nbytes)

    def fork(self) -> None:
        self.finish()
        self._forked += 1
        self._memory.fork()

    def end_fork(self) -> None:
        self._memory.end_fork()
        self._forked -= 1

    def __getattr__(self, name: str):
        attribute = getattr(self._memory, name)
        if not callable(attribute):
            return attribute

        def after_the_segment(*args, **kwargs):
            self.finish()
            return attribute(*args, **kwargs)

        return after_the_segment
