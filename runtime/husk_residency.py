"""Which bytes of device 0's arrays the other devices still hold after a husk run, so
that a later run that needs the same rows there uses them instead of copying them
again (past Larsen, *Multi-GPU Futhark Using Parallel Streams*, whose husks sent every
partition and broadcast afresh each time: its CFD, 36,002 peer copies, ran at 0.22x).

An entry says: device `d` holds, in `piece` (its own memory, dense), a copy of the
bytes [start, start + nbytes) of a block of device 0's, as they are now; or, *dirty*,
the only current copy of them (rows the device computed, not yet sent back: device
0's bytes are older). Entries are made by the husk runs themselves (what they sent a
device, and the rows it computed). A dirty piece is sent back (`send_back`, the
runtime's copy) before anything on device 0 reads or partly overwrites those bytes:
host code reading or writing the block (`reading`, `touched`), a run reading them on
device 0 or sending them to another device, a run whose out covers them in part.
Entries die:

- when host code outside a husk may **write** the block (a copy into it, a store, an
  array literal, a kernel that may write it: passes/analysis/kernel_writes.py, the
  same in the reference executor and in the GPU runtime's emitted host code);
- when a husk run writes bytes of the block (its outs and slots, on every device):
  the runs record their out rows again afterwards;
- when the block dies (its bytes may be another array's next);
- at the end of each call (`clear`).

The directory is the same for the reference executor (blocks are the NumPy buffers
of device 0's memory, pieces NumPy arrays of a device's space) and the GPU runtime
(DeviceBlocks and Views), which make and copy the pieces; so both send the same
copies.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any


RESIDENT_ENVIRONMENT = "SOACC_HUSK_RESIDENT"
"""`off`: every husk run sends each device everything afresh (the thesis's husks; for
measuring what holding saves)."""


def residency_wanted() -> bool:
    return os.environ.get(RESIDENT_ENVIRONMENT, "on") != "off"


@dataclass(frozen=True)
class Entry:
    device: int
    start: int
    nbytes: int
    piece: Any
    """The device's copy (dense; its byte 0 is byte `start` of the block)."""
    dirty: bool = False
    """Device 0's bytes are older: the device computed these (a husk's rows) and has
    not sent them back yet."""

    @property
    def end(self) -> int:
        return self.start + self.nbytes


@dataclass(frozen=True)
class Segment:
    """Part of a range a device needs: `nbytes` at `offset` (from the range's start),
    held by the device in `piece` at `piece_offset`, or (piece None) to be sent."""

    offset: int
    nbytes: int
    piece: Any = None
    piece_offset: int = 0


class ResidentRows:
    """The directory of a program's devices past the first (see the module)."""

    def __init__(self, send_back: Callable[[object, Entry], None] | None = None) -> None:
        self._send_back = send_back
        """The runtime's copy of a dirty entry's piece into device 0's block (given the
        block and the entry)."""
        self._entries: dict[int, list[Entry]] = {}
        self._blocks: dict[int, weakref.ref] = {}
        self._finalizers: dict[int, weakref.finalize] = {}
        self._dead: list[int] = []
        """Blocks that died (their finalizers only note it, taking no lock: a block may
        die in any thread, inside any lock); forgotten before the next question."""
        self._paused = 0
        self._lock = threading.RLock()  # (devices' threads may ask and keep at once)
        self.kept_bytes = 0
        """Bytes that husk runs did not send because the device held them."""

    def __bool__(self) -> bool:
        return bool(self._entries)

    # --- asking -------------------------------------------------------------------------

    def held(self, device: int, block: object, start: int, nbytes: int) -> Segment | None:
        """One piece of `device`'s that holds every byte of the range, if any."""
        with self._lock:
            self._forget_dead()
            for entry in self._entries.get(id(block), ()):
                if entry.device == device and entry.start <= start and start + nbytes <= entry.end:
                    return Segment(0, nbytes, entry.piece, start - entry.start)
            return None

    def segments(self, device: int, block: object, start: int, nbytes: int) -> list[Segment]:
        """The range cut into what `device` holds (pieces) and what it lacks (gaps), in
        order; one gap where it holds nothing of it."""
        with self._lock:
            self._forget_dead()
            end = start + nbytes
            mine = sorted(
                (e for e in self._entries.get(id(block), ()) if e.device == device and e.start < end and start < e.end),
                key=lambda e: e.start,
            )
            out: list[Segment] = []
            at = start
            for entry in mine:
                if entry.end <= at:
                    continue
                if entry.start > at:
                    out.append(Segment(at - start, entry.start - at))
                    at = entry.start
                upto = min(entry.end, end)
                out.append(Segment(at - start, upto - at, entry.piece, at - entry.start))
                at = upto
                if at >= end:
                    break
            if at < end:
                out.append(Segment(at - start, end - at))
            return out

    def missing(self, device: int, block: object | None, start: int, nbytes: int) -> tuple[int, int]:
        """The bytes and copies it takes to give `device` the range (the cost model's
        view): every gap is one copy."""
        if block is None or id(block) not in self._entries:
            return nbytes, 1
        gaps = [s for s in self.segments(device, block, start, nbytes) if s.piece is None]
        return sum(s.nbytes for s in gaps), len(gaps)

    def held_bytes(self, device: int, ranges) -> tuple[int, int]:
        """The bytes and copies of `ranges` ((block, start, nbytes), block None for
        what no device can hold) that `device` need not be sent (the cost model's
        `held`)."""
        nbytes = copies = 0
        if self._entries:
            for block, start, size in ranges:
                if block is not None and size:
                    missing, gaps = self.missing(device, block, start, size)
                    nbytes += size - missing
                    copies += 1 - gaps
        return nbytes, copies

    # --- recording ----------------------------------------------------------------------

    def keep(self, device: int, block: object, start: int, nbytes: int, piece: Any, dirty: bool = False) -> None:
        """`device` holds the range in `piece` from now on (earlier pieces of it it held
        are dropped: they may differ from now on); `dirty`: only there (device 0's
        bytes are older). The piece is made of what the device held of the range (as
        `segments` gave it), so a dirty piece inside it makes it dirty, and a dirty
        piece reaching past it is sent back first."""
        with self._lock:
            self._forget_dead()
            if device == 0 or nbytes == 0:
                return
            key = id(block)
            entries = self._entries.get(key)
            if entries is None:
                entries = self._entries[key] = []
                self._blocks[key] = weakref.ref(block)
                self._finalizers[key] = weakref.finalize(block, self._dead.append, key)
            end = start + nbytes
            mine = [e for e in entries if e.device == device and e.start < end and start < e.end]
            for e in mine:
                if e.dirty and start <= e.start and e.end <= end:
                    dirty = True  # (its bytes are in the new piece, which takes them over)
                elif e.dirty:  # (bytes past the new piece: back to device 0 first)
                    self._send_back(block, e)
            entries[:] = [e for e in entries if not any(e is m for m in mine)]
            entries.append(Entry(device, start, nbytes, piece, dirty))

    def send_back(self, block: object, start: int = 0, nbytes: int | None = None, but: int | None = None, outside: bool = False) -> None:
        """Makes device 0's bytes of the range (all of the block where `nbytes` is None)
        current: every dirty piece overlapping it (but device `but`'s) is sent back and
        stays held, clean. `outside`: only pieces that reach past the range (the run
        about to write the range overwrites the rest)."""
        with self._lock:
            self._forget_dead()
            entries = self._entries.get(id(block))
            if not entries:
                return
            end = start + nbytes if nbytes is not None else None
            for i, e in enumerate(entries):
                if not e.dirty or e.device == but:
                    continue
                if end is not None and not (e.start < end and start < e.end):
                    continue
                if outside and end is not None and start <= e.start and e.end <= end:
                    continue
                self._send_back(block, e)
                entries[i] = replace(e, dirty=False)

    def send_back_all(self) -> None:
        """Every dirty piece sent back (a call's end: its results are device 0's)."""
        with self._lock:
            for key in list(self._entries):
                block = self._blocks[key]()
                if block is not None:
                    self.send_back(block)

    def written(self, block: object, start: int = 0, nbytes: int | None = None) -> None:
        """Bytes of `block` have changed on device 0 (all of it where `nbytes` is None):
        no device holds them any more."""
        with self._lock:
            self._forget_dead()
            key = id(block)
            entries = self._entries.get(key)
            if entries is None:
                return
            if nbytes is not None:  # (dirty pieces in it: the write supersedes them)
                end = start + nbytes
                entries[:] = [e for e in entries if not (e.start < end and start < e.end)]
            if nbytes is None or not entries:
                self._drop(key)

    def touched(self, *blocks: object) -> None:
        """Host code outside a husk is about to write these blocks: what devices computed
        of them is sent back first, then no device holds them."""
        self._before_host_code(blocks, forget=True)

    def reading(self, *blocks: object) -> None:
        """Host code outside a husk is about to read these blocks: what devices computed
        of them is sent back first (and stays held)."""
        self._before_host_code(blocks, forget=False)

    def _before_host_code(self, blocks, forget: bool) -> None:
        if self._paused or not self._entries:
            return
        with self._lock:
            self._forget_dead()
            for block in blocks:
                if id(block) in self._entries:
                    self.send_back(block)
                    if forget:
                        self._drop(id(block))

    @contextmanager
    def in_husk(self) -> Iterator[None]:
        """What the runtime does while a husk runs keeps to the husk's own accounting."""
        self._paused += 1
        try:
            yield
        finally:
            self._paused -= 1

    def clear(self) -> None:
        with self._lock:
            self._dead.clear()
            for key in list(self._entries):
                self._drop(key)

    def count_kept(self, nbytes: int) -> None:
        """A run did not send `nbytes`: the device held them."""
        with self._lock:
            self.kept_bytes += nbytes

    def _forget_dead(self) -> None:
        while self._dead:
            self._drop(self._dead.pop())

    def _drop(self, key: int) -> None:
        with self._lock:
            self._entries.pop(key, None)
            self._blocks.pop(key, None)
            finalizer = self._finalizers.pop(key, None)
        if finalizer is not None:
            finalizer.detach()
