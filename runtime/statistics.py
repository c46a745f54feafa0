"""What a run cost: the counters every backend keeps, per run.

Per memory space: allocations, bytes allocated, peak bytes live. Per direction
(host→device, device→host, device→device, host→host): copies and their bytes.
Synchronous device→host scalar reads, host→device scalar writes, and kernel launches.
On the GPU, also the seconds spent compiling the program's CUDA C and, where the call
was profiled, each kernel's device time and launches.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

_COUNTING = threading.RLock()
"""Blocks and copies may be counted from a husk device's own host thread
(runtime/gpu/husks.py, SOACC_HUSK_THREADS=1) and freed from any thread. Re-entrant:
a block's finalizer may run (and count it freed) while its thread holds the lock."""


@dataclass
class SpaceCounters:
    allocations: int = 0
    bytes_allocated: int = 0
    live_bytes: int = 0
    peak_bytes: int = 0


@dataclass
class TransferCounters:
    count: int = 0
    bytes: int = 0


DIRECTIONS = ("host->device", "device->host", "device->device", "host->host", "peer")
"""`peer`: between two devices (a husk's partitions, broadcasts and results)."""


@dataclass
class HuskRun:
    """One run of a husk: each device's (offset, size) of the rows, in device order,
    and each device's reduced values (before they were combined); for a scan husk at
    level 1, the carry each device's rows were combined with (None where none was:
    the first device with rows, and those before it)."""

    partitions: list[tuple[int, int]]
    partials: list[tuple]
    used: int = 0
    """The devices that had rows (the cost model's choice, runtime/husk_cost.py)."""
    reason: str = ""
    """Why that many."""
    kept: int = 0
    """Bytes the run did not send a device because it held them from an earlier run
    (runtime/husk_residency.py)."""


FEW_THREADS = 1 << 16
"""A launch with fewer threads than this (about a quarter of what an H100 or H200 keeps
resident) leaves most of the GPU idle: where its kernel runs nested combinators in
each thread, the statistics say so."""


@dataclass
class SequentialInside:
    """A kernel that ran combinators nested in its lambdas one element after another
    in each thread, launched with fewer than FEW_THREADS threads."""

    inside: str
    """What each thread ran (lowering/kernel_parallelism.py)."""
    launches: int = 0
    fewest_threads: int = 0


@dataclass
class Statistics:
    spaces: dict[str, SpaceCounters] = field(default_factory=dict)
    copies: dict[str, TransferCounters] = field(
        default_factory=lambda: {d: TransferCounters() for d in DIRECTIONS}
    )
    sync_reads: int = 0
    """Synchronous device→host reads of one element (the host waits for the device)."""
    scalar_writes: int = 0
    """Host→device writes of one element."""
    kernel_launches: int = 0
    husks: list[HuskRun] = field(default_factory=list)
    """Every husk the call ran, in order (the reference executor's record)."""
    host_kernels: int = 0
    """Kernels run on the CPU (place-kernels put them there): not among kernel_launches."""
    gpu_compile_seconds: float | None = None
    """Seconds spent compiling the program's CUDA C when it was compiled (0.0 when the
    disk cache had every binary; None on a backend that compiles none). The same for
    every call of a program."""
    task_graph: str | None = None
    """On the GPU, where the call's device work ran as a task graph
    (runtime/gpu/task_graphs.py): "captured" (on this call) or "replayed"; None where
    the host code ran it."""
    task_graph_forked: bool | None = None
    """Where the call ran as a task graph: whether the graph was the function's forked
    copy's (task graphs measure both and keep the faster), else None."""
    segment_graphs: int = 0
    """On the GPU, in a call the host code ran: stretches of its device work between
    host reads replayed as graphs (runtime/gpu/segment_graphs.py)."""
    segment_operations: int = 0
    """The kernel launches and device copies those replays did in one graph launch each."""
    sequential_inside: dict[str, SequentialInside] = field(default_factory=dict)
    """By kernel: launches of few threads (FEW_THREADS) whose threads each ran nested
    combinators sequentially, where flattening would have used the GPU (issue 21;
    `convert-mem-to-gpu{report=true}` says what every kernel shares out)."""
    kernel_time_s: dict[str, float] | None = None
    """Device time of each kernel, summed over its launches in the call (CUDA events
    around every launch), where the program was profiled (`program.profiling = True`,
    `soacc-run --profile`); None otherwise."""
    kernel_launch_counts: dict[str, int] | None = None
    """Launches of each kernel in the call, by the names kernel_time_s has, where the
    program was profiled; None otherwise. soacc's strided copy kernels
    (soacc_copy_strided_*) are among them, but not among kernel_launches, which counts
    the program's own launches."""

    def record_profile(self, launches: Iterable[tuple[str, float]]) -> None:
        """kernel_time_s and kernel_launch_counts from a profiled call's launches, each
        (kernel name, device seconds)."""
        seconds: dict[str, float] = {}
        counts: dict[str, int] = {}
        for name, duration in launches:
            seconds[name] = seconds.get(name, 0.0) + duration
            counts[name] = counts.get(name, 0) + 1
        self.kernel_time_s, self.kernel_launch_counts = seconds, counts

    def take_counters(self, other: Statistics) -> None:
        """This run's counters become `other`'s (a replayed task graph's are those of
        the call it captured); the compile time stays this run's."""
        self.spaces = {k: SpaceCounters(v.allocations, v.bytes_allocated, v.live_bytes, v.peak_bytes) for k, v in other.spaces.items()}
        self.copies = {k: TransferCounters(v.count, v.bytes) for k, v in other.copies.items()}
        self.sync_reads = other.sync_reads
        self.scalar_writes = other.scalar_writes
        self.kernel_launches = other.kernel_launches
        self.sequential_inside = {k: SequentialInside(v.inside, v.launches, v.fewest_threads) for k, v in other.sequential_inside.items()}
        self.husks = list(other.husks)
        self.host_kernels = other.host_kernels
        self.task_graph = other.task_graph
        self.task_graph_forked = other.task_graph_forked
        self.segment_graphs = other.segment_graphs
        self.segment_operations = other.segment_operations
        self.kernel_time_s = None if other.kernel_time_s is None else dict(other.kernel_time_s)
        self.kernel_launch_counts = None if other.kernel_launch_counts is None else dict(other.kernel_launch_counts)

    def ran_sequential_inside(self, kernel: str, inside: str, threads: int) -> None:
        """A launch of `threads` threads of `kernel`, whose threads each run `inside`."""
        if threads >= FEW_THREADS:
            return
        with _COUNTING:
            seen = self.sequential_inside.get(kernel)
            if seen is None:
                seen = self.sequential_inside[kernel] = SequentialInside(inside, 0, threads)
            seen.launches += 1
            seen.fewest_threads = min(seen.fewest_threads, threads)

    def space(self, name: str) -> SpaceCounters:
        counters = self.spaces.get(name)  # (hot: every allocation and free asks)
        if counters is None:
            counters = self.spaces[name] = SpaceCounters()
        return counters

    def allocated(self, space: str, nbytes: int) -> None:
        with _COUNTING:
            s = self.space(space)
            s.allocations += 1
            s.bytes_allocated += nbytes
            s.live_bytes += nbytes
            s.peak_bytes = max(s.peak_bytes, s.live_bytes)

    def freed(self, space: str, nbytes: int) -> None:
        with _COUNTING:
            self.space(space).live_bytes -= nbytes

    def copied(self, source_space: str, dest_space: str, nbytes: int) -> None:
        direction = _DIRECTION.get((source_space, dest_space))
        if direction is None:
            peer = source_space != dest_space and _kind(source_space) == _kind(dest_space) == "device"
            direction = "peer" if peer else f"{_kind(source_space)}->{_kind(dest_space)}"
        c = self.copies[direction]
        with _COUNTING:
            c.count += 1
            c.bytes += nbytes

    def add_counts(self, other: Statistics) -> None:
        """Adds `other`'s copies, reads, writes and launches to these (a husk device's
        thread counted them apart; its blocks count themselves in the shared spaces)."""
        for direction, c in other.copies.items():
            mine = self.copies[direction]
            mine.count += c.count
            mine.bytes += c.bytes
        self.sync_reads += other.sync_reads
        self.scalar_writes += other.scalar_writes
        self.kernel_launches += other.kernel_launches
        self.host_kernels += other.host_kernels
        for kernel, seen in other.sequential_inside.items():
            mine = self.sequential_inside.setdefault(kernel, SequentialInside(seen.inside, 0, seen.fewest_threads))
            mine.launches += seen.launches
            mine.fewest_threads = min(mine.fewest_threads, seen.fewest_threads)

    def as_dict(self) -> dict:
        return {
            "spaces": {k: vars(v).copy() for k, v in self.spaces.items()},
            "copies": {k: vars(v).copy() for k, v in self.copies.items()},
            "sync_reads": self.sync_reads,
            "scalar_writes": self.scalar_writes,
            "kernel_launches": self.kernel_launches,
            "sequential_inside": {k: vars(v).copy() for k, v in self.sequential_inside.items()},
            "host_kernels": self.host_kernels,
            "gpu_compile_seconds": self.gpu_compile_seconds,
            "kernel_time_s": None if self.kernel_time_s is None else dict(self.kernel_time_s),
            "kernel_launch_counts": None if self.kernel_launch_counts is None else dict(self.kernel_launch_counts),
        }

    def table(self) -> str:
        lines = ["space            allocations  bytes allocated  peak bytes live"]
        for name in sorted(self.spaces):
            s = self.spaces[name]
            lines.append(f"{name:16} {s.allocations:>11}  {s.bytes_allocated:>15}  {s.peak_bytes:>15}")
        lines.append("copies           count        bytes")
        for direction in DIRECTIONS:
            c = self.copies[direction]
            lines.append(f"{direction:16} {c.count:>5}  {c.bytes:>11}")
        lines.append(f"synchronous reads (device->host scalars): {self.sync_reads}")
        lines.append(f"scalar writes (host->device): {self.scalar_writes}")
        lines.append(f"kernel launches: {self.kernel_launches}")
        if self.host_kernels:
            lines.append(f"kernels run on the host: {self.host_kernels}")
        if self.sequential_inside:
            lines.append(f"nested parallelism run sequentially, in launches of fewer than {FEW_THREADS} threads:")
            for kernel, seen in sorted(self.sequential_inside.items()):
                lines.append(
                    f"  {kernel}: each thread runs {seen.inside}; {seen.launches} launch(es), "
                    f"{seen.fewest_threads} threads at fewest"
                )
        if self.husks:
            kept = sum(run.kept for run in self.husks)
            lines.append(f"husks run: {len(self.husks)}" + (f" ({kept} bytes not sent: devices held them)" if kept else ""))
            shown = self.husks if len(self.husks) <= 4 else [*self.husks[:3], self.husks[-1]]
            for run in shown:
                lines.append(f"  rows per device {[size for _, size in run.partitions]}" + (f": {run.reason}" if run.reason else ""))
        if self.gpu_compile_seconds is not None:
            lines.append(f"CUDA C compiled in: {self.gpu_compile_seconds:.2f} s (0 when cached)")
        if self.task_graph is not None:
            forked = " (the forked copy's)" if self.task_graph_forked else ""
            lines.append(f"task graph: {self.task_graph}{forked}")
        if self.segment_graphs:
            lines.append(f"segment graphs replayed: {self.segment_graphs} ({self.segment_operations} kernels and copies)")
        if self.kernel_time_s is not None:
            counts = self.kernel_launch_counts or {}
            lines.append("kernel           device time  launches")
            for name, seconds in sorted(self.kernel_time_s.items(), key=lambda item: -item[1]):
                lines.append(f"{name:16} {seconds * 1e3:>9.3f} ms  {counts.get(name, '-'):>8}")
        return "\n".join(lines)


def _kind(space: str) -> str:
    return "host" if space == "host" else "device"


_DIRECTION = {(a, b): f"{_kind(a)}->{_kind(b)}" for a in ("host", "device") for b in ("host", "device")}
"""The direction of a copy between the two spaces every program has (made once: every
copy asks)."""
