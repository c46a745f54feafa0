"""Transfer fusion past the study: a device-memory limit, and messages fused across
small gaps (Christoph Kessler, *Global optimization of operand transfer fusion in
heterogeneous computing*, §8 names both as limits of its method: "unbounded device
memory", "gaps between operands are ignored").

Both refine a schedule that `transfer_layout.analyse` made, for the same layout; like
it they never change IR and work on the abstract kernel–vector graph.

**Device residency.** A vector occupies device memory over an inclusive range of
kernel slots: an uploaded vector from its message's slot (sent before that kernel) to
its last device reader; a vector a device kernel wrote from that kernel to its last
device reader or its download (sent after that kernel), whichever is later. A
vector's size is the graph's (1 where not given). The footprint of a slot is the sum
of the sizes resident there. Moving an upload later or a download earlier only
shortens ranges, so the least footprint any schedule can have in each slot (the
*floor*) is that of every upload at its latest slot and every download at its
earliest, each its own message.

**The limit** (`limit_device_memory`). While some slot's footprint is above the
limit, the earliest such slot `s` is repaired: of the messages holding vectors there
only because of their timing (an upload sent at or before `s` but first read after
it; a download sent at or after `s` of a vector done on the device before it), the
one with the most such bytes is split. Its movable members, in memory-contiguous
runs, go as late (uploads: the run's smallest latest slot) or as early (downloads:
the run's largest earliest slot) as they all allow, which is past `s`; the others
keep their slot. The footprint at `s` falls and no slot's rises, so this ends, and it
meets the limit exactly when the floor does (otherwise it stops at the floor in the
slots over the limit, and says so).

**Gaps** (`fuse_across_gaps`). Two messages of one direction whose members' common
intervals share a slot, with at most `gap_limit` of size between them in memory, can
go as one copy over the span, the vectors between (the gap) moved along. The study's
cost model prices a message `a·n + b`, so fusing pays when `a·gap < b`:
`gap_limit = b / a` (`break_even_gap` from a startup and a bandwidth). Moving a gap
is harmless under single assignment: if the gap vector's source copy is already
written at that slot, its destination gets the value it will have; if not, its
destination is not live yet either (an upload's device copy lives from its own
message, a download's host copy from its own), and its own message still comes. So
only sizes and slots decide. Messages are taken in memory order; each that no earlier
one took extends over the later ones it can reach (the gap to each within the limit,
a slot they all share), skipping those it cannot; the merged message goes at the
slot its mode prefers (greedy: earliest; tight: latest for uploads), within the
device limit if one is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from soacc.passes.analysis.transfer_layout import (
    DEVICE,
    DOWNLOAD,
    UPLOAD,
    Intervals,
    KernelGraph,
    Layout,
    Message,
    TransferLayout,
    Vector,
)

__all__ = [
    "Residency",
    "device_residency",
    "residency_floor",
    "LimitedSchedule",
    "limit_device_memory",
    "break_even_gap",
    "GapFusion",
    "fuse_across_gaps",
    "refine",
]

Range = tuple[int, int]


# --------------------------------------------------------------------------- residency


@dataclass(frozen=True)
class Residency:
    """Each device-resident vector's range of slots, and the footprint per slot."""

    ranges: dict[Vector, Range]
    footprint: tuple[int, ...]

    @property
    def peak(self) -> int:
        return max(self.footprint, default=0)


def _last_device_reads(graph: KernelGraph) -> dict[Vector, int]:
    last: dict[Vector, int] = {}
    for i, k in enumerate(graph.kernels):
        if k.on == DEVICE:
            for v in k.reads:
                last[v] = i
    return last


def _residency(graph: KernelGraph, intervals: Intervals, times: dict[Vector, int]) -> Residency:
    """`times`: each transferred vector's slot (upload: before it; download: after)."""
    last_read = _last_device_reads(graph)
    ranges: dict[Vector, Range] = {}
    for v in graph.vectors:
        if v in intervals.uploads:
            ranges[v] = (times[v], last_read[v])
        elif (p := graph.producer.get(v)) is not None and graph.kernels[p].on == DEVICE:
            end = max(p, last_read.get(v, p), times.get(v, p))
            ranges[v] = (p, end)
    footprint = [0] * len(graph.kernels)
    for v, (start, end) in ranges.items():
        for s in range(start, end + 1):
            footprint[s] += graph.size(v)
    return Residency(ranges, tuple(footprint))


def _times(messages: Sequence[Message]) -> dict[Vector, int]:
    return {v: m.time for m in messages for v in m.vectors}


def device_residency(graph: KernelGraph, intervals: Intervals, messages: Sequence[Message]) -> Residency:
    """The device memory a schedule occupies, slot by slot."""
    return _residency(graph, intervals, _times(messages))


def residency_floor(graph: KernelGraph, intervals: Intervals) -> Residency:
    """The least footprint any schedule can have in each slot: every upload at its
    latest slot, every download at its earliest."""
    times = {v: hi for v, (_, hi) in intervals.uploads.items()}
    times.update({v: lo for v, (lo, _) in intervals.downloads.items()})
    return _residency(graph, intervals, times)


# --------------------------------------------------------------------------- the limit


@dataclass(frozen=True)
class LimitedSchedule:
    """A schedule repaired to a device-memory limit."""

    messages: tuple[Message, ...]
    limit: int
    peak_before: int
    peak: int
    floor: int
    splits: int

    @property
    def met(self) -> bool:
        return self.peak <= self.limit


def _split(m: Message, movable: set[Vector], intervals: Intervals) -> list[Message]:
    """m's members in memory-contiguous runs of one kind; the movable runs retimed as
    late (uploads) or as early (downloads) as they all allow."""
    runs: list[list[Vector]] = []
    for v in m.vectors:
        if runs and (runs[-1][0] in movable) == (v in movable):
            runs[-1].append(v)
        else:
            runs.append([v])
    out = []
    for run in runs:
        if run[0] not in movable:
            out.append(Message(m.direction, m.time, tuple(run)))
        elif m.direction == UPLOAD:
            out.append(Message(m.direction, min(intervals.uploads[v][1] for v in run), tuple(run)))
        else:
            out.append(Message(m.direction, max(intervals.downloads[v][0] for v in run), tuple(run)))
    return out


def limit_device_memory(
    graph: KernelGraph, intervals: Intervals, messages: Sequence[Message], limit: int
) -> LimitedSchedule:
    """Splits messages until no slot's footprint is above `limit`, or the floor is
    reached in every slot that is (see the module's docstring). Messages keep the
    order of `messages`, a split one's runs in its place."""
    if limit < 0:
        raise ValueError(f"the device-memory limit must not be negative, got {limit}")
    if any(m.gaps for m in messages):
        raise ValueError("limit device memory before fusing across gaps")
    current = list(messages)
    before = device_residency(graph, intervals, current).peak
    floor = residency_floor(graph, intervals)
    last_read = _last_device_reads(graph)
    splits = 0
    while True:
        residency = device_residency(graph, intervals, current)
        repaired = False
        for s, used in enumerate(residency.footprint):
            if used <= limit or used == floor.footprint[s]:
                continue
            best: tuple[int, int, set[Vector]] | None = None
            for i, m in enumerate(current):
                movable = {v for v in m.vectors if _occupies_by_timing(m, v, s, intervals, residency, last_read, graph)}
                freed = sum(graph.size(v) for v in movable)
                if movable and (best is None or freed > best[0]):
                    best = (freed, i, movable)
            assert best is not None, "a slot above its floor has a vector there by timing"
            _, i, movable = best
            current[i : i + 1] = _split(current[i], movable, intervals)
            splits += 1
            repaired = True
            break
        if not repaired:
            return LimitedSchedule(tuple(current), limit, before, residency.peak, floor.peak, splits)


def _occupies_by_timing(
    m: Message,
    v: Vector,
    s: int,
    intervals: Intervals,
    residency: Residency,
    last_read: dict[Vector, int],
    graph: KernelGraph,
) -> bool:
    """v is on the device at slot s only because of when m sends it."""
    start, end = residency.ranges[v]
    if not start <= s <= end:
        return False
    if m.direction == UPLOAD:
        return intervals.uploads[v][1] > s  # first read after s: it could come later
    done = max(graph.producer[v], last_read.get(v, graph.producer[v]))
    return done < s  # done on the device before s: it could go sooner


# --------------------------------------------------------------------------- gaps


def break_even_gap(startup_seconds: float, bytes_per_second: float) -> int:
    """The study's `b / a`: the most bytes a gap may have for one message over it to
    cost less than two."""
    if startup_seconds < 0 or bytes_per_second <= 0:
        raise ValueError("a startup must not be negative and a bandwidth must be positive")
    return int(startup_seconds * bytes_per_second)


@dataclass(frozen=True)
class GapFusion:
    """A schedule after fusing across gaps."""

    messages: tuple[Message, ...]
    merged: int
    gap_size: int
    """The extra size moved: the gaps' sizes summed over the messages."""


def _common(intervals: Intervals, m: Message) -> Range:
    iv = intervals.uploads if m.direction == UPLOAD else intervals.downloads
    return (max(iv[v][0] for v in m.vectors), min(iv[v][1] for v in m.vectors))


def fuse_across_gaps(
    graph: KernelGraph,
    intervals: Intervals,
    layout: Layout,
    messages: Sequence[Message],
    gap_limit: int,
    *,
    mode: str = "greedy",
    device_limit: int | None = None,
) -> GapFusion:
    """Merges messages of one direction across gaps of at most `gap_limit` (see the
    module's docstring). A gap holds only vectors sent the same way (the study's
    layout puts each direction's vectors together). With `device_limit`, a merge is
    kept only where the peak footprint stays within it (or no higher, if it was above)."""
    if gap_limit < 0:
        raise ValueError(f"the gap limit must not be negative, got {gap_limit}")
    loc = layout.location
    current = list(messages)  # the schedule as merges change it
    merged = 0
    for direction in (UPLOAD, DOWNLOAD):
        iv = intervals.uploads if direction == UPLOAD else intervals.downloads
        todo = sorted((m for m in messages if m.direction == direction), key=lambda m: loc[m.vectors[0]])
        taken = [False] * len(todo)
        for i in range(len(todo)):
            if taken[i]:
                continue
            taken[i] = True
            cur = todo[i]
            common = _common(intervals, cur)
            for j in range(i + 1, len(todo)):
                if taken[j]:
                    continue
                nxt = todo[j]
                between = layout.order[loc[cur.vectors[-1]] + 1 : loc[nxt.vectors[0]]]
                if not between:
                    continue  # adjacent: the schedule kept them apart on purpose
                if sum(graph.size(v) for v in between) > gap_limit:
                    break  # the messages after it lie further still
                if not all(v in iv for v in between):
                    continue  # a vector sent the other way: moving it could clobber it
                both = _common(intervals, nxt)
                shared = (max(common[0], both[0]), min(common[1], both[1]))
                if shared[0] > shared[1]:
                    continue
                members = cur.vectors + nxt.vectors
                inside = set(members)
                gaps = tuple(v for v in layout.order[loc[members[0]] : loc[members[-1]] + 1] if v not in inside)
                late = mode == "tight" and direction == UPLOAD
                for t in range(shared[1], shared[0] - 1, -1) if late else range(shared[0], shared[1] + 1):
                    candidate = Message(direction, t, members, gaps)
                    trial = [m for m in current if m is not cur and m is not nxt] + [candidate]
                    if device_limit is None or device_residency(graph, intervals, trial).peak <= max(
                        device_limit, device_residency(graph, intervals, current).peak
                    ):
                        current, cur, common, taken[j] = trial, candidate, shared, True
                        merged += 1
                        break
    order = {id(m): k for k, m in enumerate(current)}
    ordered = sorted(current, key=lambda m: (m.direction != UPLOAD, loc[m.vectors[0]], order[id(m)]))
    return GapFusion(tuple(ordered), merged, sum(graph.size(v) for m in ordered for v in m.gaps))


# --------------------------------------------------------------------------- both


def refine(
    analysis: TransferLayout, *, device_limit: int | None = None, gap_limit: int | None = None
) -> TransferLayout:
    """The analysis with its messages limited to `device_limit` and then fused across
    gaps of at most `gap_limit` (either left out: not applied)."""
    messages = analysis.messages
    if device_limit is not None:
        messages = limit_device_memory(analysis.graph, analysis.intervals, messages, device_limit).messages
    if gap_limit is not None:
        messages = fuse_across_gaps(
            analysis.graph, analysis.intervals, analysis.layout, messages, gap_limit, mode=analysis.mode, device_limit=device_limit
        ).messages
    return replace(analysis, messages=tuple(messages))
