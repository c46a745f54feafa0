"""Husks at run time (`rt.husk_run` of the emitted host code; Larsen, *Multi-GPU
Futhark Using Parallel Streams*, §5 and §6): a husk's body runs once per device, on
that device's runtime (its context, module, memory pool and stream), over its rows.

- **Device 0** (the program's own runtime) runs its body on views of the sources,
  outs and slots themselves: nothing is copied for it (the thesis's §6.1 references).
- **Device i > 0**: its partition's rows and every device array the body uses from
  above (the broadcasts) are copied from device 0 into its memory, peer to peer; its
  body writes its out rows and slot in its own memory, which are then copied back into
  the outs and the slot arrays on device 0.
- **One host thread** drives every device: all of it is asynchronous (copies, launches,
  and the order between devices through events: device i starts after what device 0
  did before the husk; device 0's body starts once every device has its copies, since
  its outs may share memory with what they were sent; and device 0 goes on after what
  every device did), so the devices overlap without threads. `SOACC_HUSK_THREADS=1`
  gives each device past the first a host thread of its own instead (the thesis's
  design), for measuring one against the other. A body that reads a device value on the host waits
  for its own device only. With one device the body is simply called: no copy, no
  event, no thread.

Views that are not dense are gathered on device 0 into dense memory first (one strided
copy), so that every peer copy is one contiguous byte range: a device is sent its rows
only, whatever the source's layout.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

import numpy as np

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import View, dense_strides
from soacc.runtime.husk_cost import bytes_moved, check_rows, choose_split, continued_split
from soacc.runtime.statistics import HuskRun, Statistics


def run_husk(
    home, body: Callable, rows, sources: Sequence[View], outs: Sequence[View], slots: Sequence[View],
    broadcast: Sequence[View], work_per_row: int = 1, used=None,
) -> np.int64:
    """Runs `body(rt, device, offset, size, *parts, *out_rows, *slot_rows, *broadcast)`
    once per device of `home` (a HostRuntime; `home.peers[i]` is device i's) that the
    cost model gives rows (runtime/husk_cost.py), or the first `used` devices (a run
    that continues another, `husk.run devices(%k)`); returns how many had rows."""
    devices = home.peers
    n = len(devices)
    rows = int(rows)
    check_rows(rows, n, *([v.shape[0] for v in group] for group in (sources, outs, slots)))

    def on_device_0(offset: int, size: int) -> None:
        """Device 0's body, on the arrays themselves (views of its rows)."""
        if (offset, size) == (0, rows):  # (every row: the views as they are)
            mine = [*sources, *outs]
        else:
            mine = [v.slice([(offset, size)]) for v in (*sources, *outs)]
        body(home, np.int64(0), np.int64(offset), np.int64(size), *mine, *(s.slice([0]) for s in slots), *broadcast)

    if n == 1:
        home.statistics.husks.append(HuskRun([(0, rows)], [], 1 if rows else 0, "one device"))
        on_device_0(0, rows)
        return np.int64(1 if rows else 0)
    resident = home.resident

    def held(device: int, offset: int, size: int) -> tuple[int, int]:
        if resident is None:
            return 0, 0
        wanted = [v.slice([(offset, size)]) for v in sources] + list(broadcast)
        return resident.held_bytes(device, [(_key(v), v.byte_offset, v.nbytes) for v in wanted])

    if used is not None:
        split = continued_split(rows, n, int(used))
    else:
        split = choose_split(
            rows, n, int(work_per_row),
            lambda t: bytes_moved(t, [_row_bytes(v) for v in sources], [_row_bytes(v) for v in outs], [v.nbytes for v in broadcast], [_row_bytes(v) for v in slots], held),
            home.device_model,
        )
    table = split.partitions
    busy = sum(1 for _, size in table if size)
    run = HuskRun(table, [], busy, split.reason)
    home.statistics.husks.append(run)
    if resident is not None:
        home.sent_back = []
        _make_current(resident, table[0], sources, outs, broadcast)
    if busy <= 1:  # all rows on device 0 (or none): nothing to send
        on_device_0(*table[0])
        if resident is not None:
            _written(resident, outs, slots, [])
        return np.int64(busy)
    kept_before = resident.kept_bytes if resident is not None else 0
    # device 0's stream: dense copies of what is not, then an event every device waits for
    dense_sources = [_dense(home, v) for v in sources]
    dense_broadcast = [_dense(home, v) for v in broadcast]
    ready = home.memory.record()
    shared = [_index(sources, o) for o in outs]

    def issue(device: int) -> _Issued:
        """Device `device`'s share, issued on its stream: its copies there, its body,
        its rows back."""
        offset, size = table[device]
        peer = devices[device]
        issued = _Issued()
        with peer.memory.current(), _on_device(device, n):
            peer.memory.wait_for(ready)
            parts = [_obtain(home, peer, device, d.slice([(offset, size)]), d is v) for d, v in zip(dense_sources, sources)]
            # an out of a source's elements: its rows are the ones just sent
            out_rows = [parts[j] if j is not None else _fresh(peer, (size, *o.shape[1:]), o.dtype) for j, o in zip(shared, outs)]
            slot_rows = [_fresh(peer, s.shape[1:], s.dtype) for s in slots]
            copies = [_obtain(home, peer, device, d, d is v) for d, v in zip(dense_broadcast, broadcast)]
            issued.sent = peer.memory.record()
            body(peer, np.int64(device), np.int64(offset), np.int64(size), *parts, *out_rows, *slot_rows, *copies)
            for out, piece in zip(outs, out_rows):
                rows_there = out.slice([(offset, size)])
                if resident is not None and _key(rows_there) is not None:
                    issued.computed.append((device, piece, rows_there))  # sent back when needed
                else:
                    issued.pending += _receive(home, peer, piece, rows_there)
            for slot_array, piece in zip(slots, slot_rows):
                issued.pending += _receive(home, peer, piece, slot_array.slice([device]))
            issued.finished = peer.memory.record()
            del parts, out_rows, slot_rows, copies  # freed in the device's stream order
        return issued

    if home.threads_per_device:
        every = _issue_in_threads(home, issue, range(1, busy))
    else:
        for device in range(1, busy):
            devices[device].statistics = home.statistics
        every = [issue(device) for device in range(1, busy)]
    sent = [i.sent for i in every]
    finished = [i.finished for i in every]
    pending = [p for i in every for p in i.pending]
    computed = [c for i in every for c in i.computed]
    # device 0 writes its outs in place only once every device has its copies: an out
    # may share memory with what the others were sent (an array updated in place)
    for event in sent:
        home.memory.wait_for(event)
    on_device_0(*table[0])
    for event in finished:
        home.memory.wait_for(event)
    for staged, target in pending:  # rows that landed in dense memory of device 0's
        home._move(staged, target)
    if resident is not None:
        _written(resident, outs, slots, computed)
        run.kept = resident.kept_bytes - kept_before
    return np.int64(busy)


THREADS_ENVIRONMENT = "SOACC_HUSK_THREADS"
"""`1`: each device past the first has a host thread of its own that issues its share
of every husk run (the thesis's design), instead of one thread issuing every device's
(the default); for measuring the two against each other. Read when a runtime is made
(HostRuntime.threads_per_device)."""


def threads_wanted() -> bool:
    return os.environ.get(THREADS_ENVIRONMENT, "0") == "1"


class _Issued:
    """What a device's share left to wait for: the events after its copies there and
    after its rows back, rows staged on device 0, and the rows it computed."""

    __slots__ = ("sent", "finished", "pending", "computed")

    def __init__(self) -> None:
        self.sent = self.finished = None
        self.pending: list = []
        self.computed: list = []


def _issue_in_threads(home, issue: Callable[[int], _Issued], devices: range) -> list[_Issued]:
    """Each device's share issued by a host thread of its own (one per device, kept
    by `home` from run to run), in parallel; each counts its copies and launches
    apart, added to the run's when all are done. The first error of a device is
    raised once every thread has finished (nothing is left running)."""
    pool = getattr(home, "_husk_threads", None)
    if pool is None:
        pool = home._husk_threads = ThreadPoolExecutor(max_workers=len(home.peers) - 1, thread_name_prefix="husk-device")
    counts = {}
    for device in devices:
        peer = home.peers[device]
        counts[device] = peer.statistics = Statistics(spaces=home.statistics.spaces)
    futures = [pool.submit(issue, device) for device in devices]
    wait(futures)
    for device in devices:
        home.statistics.add_counts(counts[device])
        home.peers[device].statistics = home.statistics
    return [future.result() for future in futures]


@contextmanager
def _on_device(device: int, devices: int) -> Iterator[None]:
    """An error of device `device`'s share names it (out of its memory, say); what it
    allocated is freed as the error unwinds (its blocks die with their views)."""
    try:
        yield
    except ExecutionError as error:
        raise ExecutionError(f"on husk device {device} of {devices}: {error}") from None


def _row_bytes(view: View) -> int:
    count = 1
    for d in view.shape[1:]:
        count *= d
    return count * view.dtype.itemsize


def _index(views: Sequence[View], view: View) -> int | None:
    """Where a view of the same elements as `view` is among `views` (an out whose rows
    a source's are: an array updated in place)."""
    for i, v in enumerate(views):
        if v is view or (
            v.block is view.block and v.byte_offset == view.byte_offset and v.shape == view.shape
            and v.strides == view.strides and v.dtype == view.dtype
        ):
            return i
    return None


def _fresh(rt, shape: tuple, dtype: np.dtype) -> View:
    """A dense array in new memory of `rt`'s device."""
    count = 1
    for d in shape:
        count *= int(d)
    return rt.alloc_device(count * dtype.itemsize).view(0, shape, None, dtype)


def _dense(home, view: View) -> View:
    """`view` itself where it is dense, else a dense copy of it on device 0."""
    if view.is_dense():
        return view
    copy = _fresh(home, view.shape, view.dtype)
    home.copy(view, copy)
    return copy


def _make_current(resident, rows_of_0: tuple[int, int], sources, outs, broadcast) -> None:
    """Before a run: device 0's bytes that its own body reads (its rows of the sources,
    the broadcasts, and whatever is gathered into dense memory) are made current, and so
    are those of dirty pieces an out only partly covers (the run overwrites the rest)."""
    offset, size = rows_of_0
    for view in outs:
        if view.count:
            if view.is_dense():
                resident.send_back(view.block, view.byte_offset, view.nbytes, outside=True)
            else:
                resident.send_back(view.block)
    for view in [v.slice([(offset, size)]) for v in sources] + list(broadcast):
        if view.count:
            if view.is_dense():
                resident.send_back(view.block, view.byte_offset, view.nbytes)
            else:
                resident.send_back(view.block)
    for view in (*sources, *broadcast):
        if view.count and not view.is_dense():  # (gathered whole on device 0)
            resident.send_back(view.block)


def _written(resident, outs, slots, computed) -> None:
    """After a run: it wrote its outs and slots on every device, so what the devices
    held of them is gone, but for the rows each computed, which it now holds, and only
    it (device 0 gets them where host code or another run needs them)."""
    for view in (*outs, *slots):
        if not view.count:
            continue
        if view.is_dense():
            resident.written(view.block, view.byte_offset, view.nbytes)
        else:
            resident.written(view.block)
    for device, piece, rows_there in computed:
        resident.keep(device, rows_there.block, rows_there.byte_offset, rows_there.nbytes, piece, dirty=True)


def send_back(home, block, entry) -> None:
    """A device's dirty piece copied into device 0's block, in the device's stream
    after what wrote it; device 0 waits for it (the directory's `send_back`)."""
    peer = home.peers[entry.device]
    with peer.memory.current():
        peer.memory.peer_copy(home.memory, block.address + entry.start, peer.memory, entry.piece.address, entry.nbytes)
        done = peer.memory.record()
    home.memory.wait_for(done)
    home.sent_back.append(done)
    peer.statistics.copied(peer.space, home.space, entry.nbytes)


def _key(view: View):
    """The block a dense, non-empty view of device memory is in (what a device may hold
    a copy of); None for any other."""
    return view.block if view.count and view.is_dense() and view.on_device else None


def _obtain(home, peer, device: int, view: View, keyed: bool) -> View:
    """Device `device`'s copy of the dense `view` (device 0's): the piece it holds of
    it from an earlier run, else new memory of its with what it holds of it copied
    there (within the device) and the rest sent. `keyed`: `view` is the program's
    array (not a gathered copy), so the device may hold it."""
    resident = home.resident
    block = _key(view) if keyed and resident is not None else None
    if block is None:
        return _send(home, peer, view)
    start, nbytes = view.byte_offset, view.nbytes
    held = resident.held(device, block, start, nbytes)
    if held is not None:
        resident.count_kept(nbytes)
        piece = held.piece
        return View(piece.block, piece.byte_offset + held.piece_offset, view.shape, dense_strides(view.shape), view.dtype)
    copy = _fresh(peer, view.shape, view.dtype)
    for segment in resident.segments(device, block, start, nbytes):
        if segment.piece is None:
            came_back = len(home.sent_back)
            resident.send_back(block, start + segment.offset, segment.nbytes, but=device)
            for event in home.sent_back[came_back:]:  # (what other devices sent back lands first)
                peer.memory.wait_for(event)
            peer.memory.peer_copy(peer.memory, copy.address + segment.offset, home.memory, view.address + segment.offset, segment.nbytes)
            peer.statistics.copied(home.space, peer.space, segment.nbytes)
        else:
            peer.memory.copy(copy.address + segment.offset, segment.piece.address + segment.piece_offset, segment.nbytes)
            peer.statistics.copied(peer.space, peer.space, segment.nbytes)
            resident.count_kept(segment.nbytes)
    resident.keep(device, block, start, nbytes, copy)
    return copy


def _send(home, peer, view: View) -> View:
    """A copy of the dense `view` (device 0's) in new memory of `peer`'s device."""
    copy = _fresh(peer, view.shape, view.dtype)
    if view.count:
        peer.memory.peer_copy(peer.memory, copy.address, home.memory, view.address, view.nbytes)
    peer.statistics.copied(home.space, peer.space, view.nbytes)
    return copy


def _receive(home, peer, piece: View, target: View) -> list[tuple[View, View]]:
    """Copies `piece` (dense, `peer`'s) into `target` (device 0's), in `peer`'s stream;
    where `target` is not dense, into dense memory of device 0's, which is moved into
    it once device 0 has waited for `peer` (returned as (staged, target))."""
    peer.statistics.copied(peer.space, home.space, piece.nbytes)
    if not piece.count:
        return []
    # in the device's order, after its body
    if target.is_dense():
        peer.memory.peer_copy(home.memory, target.address, peer.memory, piece.address, piece.nbytes)
        return []
    staged = _fresh(home, target.shape, target.dtype)
    peer.memory.peer_copy(home.memory, staged.address, peer.memory, piece.address, piece.nbytes)
    return [(staged, target)]
