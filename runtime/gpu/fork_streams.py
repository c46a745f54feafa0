"""Fork threads on streams: which stream each thread's device work goes on, and which
events it must wait for (convert-fork-to-gpu's runtime half; the device calls are made
through the `stream` and `event` factories, so this bookkeeping runs without a GPU in
the tests).

The host runs every thread where it is forked (program order is a schedule). A thread
gets a stream from a small pool at its first device work, so threads that do not wait
for each other overlap on the device. A signal stands for the device work its resolver
did or waited for: at most one event per stream, the latest, since an event covers
everything its stream did before it. So however long a chain of threads and signals
(a loop's iterations carry them), a wait is at most one stream wait per stream, and
none for the waiter's own stream or for what it already waited for.

The call's own thread works on the default stream, which waits for every other
stream's earlier work by itself (so it needs no waits, and its signals stand for what
it waited for); under a task graph's capture it works on the capture stream, which
waits like any other, and a thread's stream joins the capture by waiting for an event
recorded where the capture began (or where its last device loop ended), so that it
waits for nothing its thread does not wait for.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

FORK_STREAMS = 8
"""Streams the threads take turns on (threads beyond that share them, in program order)."""

CAPTURE_STREAMS = 64
"""Streams a capture may use (threads beyond that share them, in turn)."""

Marks = dict[int, tuple[int, Any]]
"""stream key -> (sequence number, event): the latest event of each stream to wait for."""


def merge(into: Marks, marks: Marks) -> None:
    """`into` covers what `marks` covers too (the later event of each stream)."""
    for key, mark in marks.items():
        held = into.get(key)
        if held is None or held[0] < mark[0]:
            into[key] = mark


class _Thread:
    __slots__ = ("stream", "key", "waits")

    def __init__(self, stream: Any = None, key: int | None = None):
        self.stream = stream
        self.key = key
        self.waits: Marks = {}
        """Before the thread has a stream: what its first device work must wait for;
        after: what its stream already waited for."""


class ForkStreams:
    """`stream()` makes a pool stream, `event()` an event with `record(stream)`; a
    stream has `wait_for_event(event)`."""

    def __init__(
        self, stream: Callable[[], Any], event: Callable[[], Any], count: int = FORK_STREAMS,
        placed: Callable[[], None] | None = None,
    ):
        """`placed` is called when a thread gets a stream (the memory pool then holds
        freed blocks back until the device is waited for)."""
        self._new_stream = stream
        self._new_event = event
        self._placed = placed
        self._count = count
        self._pool: list[Any] = []
        self._next = 0
        self._owner: dict[int, _Thread] = {}
        """The thread each pool stream was last given to."""
        self._latest: dict[int, int] = {}
        """Pool stream -> the sequence number of its latest event."""
        self._sequence = itertools.count()
        self.main_stream: Any = None
        """The call's own thread's stream: None (the default stream) or the capture's."""
        self._threads: list[_Thread] = [_Thread()]
        self._loops: list[Any] = []
        """The streams a device loop's body is captured on, innermost last (enter_loop)."""
        self.joined: set[int] = set()
        """Keys of the pool streams that had work since `begin_capture`."""
        self._join_point: Any = None
        """Under a capture: the event a pool stream waits for to join it."""
        self.capturing = False
        self.eager_streams = False
        """Whether threads take streams outside a capture too. Off (the default), an
        eager call issues every thread's work on the call's own stream, in program
        order (a schedule), with no events: launched from Python, streams cost more
        than they overlap (benchmarks/forks.py); under a capture they are the graph's
        branches, which cost nothing at replay."""

    # --- what the current thread's device work goes on ---------------------------------

    @property
    def active(self) -> bool:
        """Whether threads go on streams of their own now."""
        return (self.capturing or self.eager_streams) and not self._loops

    def current(self) -> Any:
        """The stream of the current thread's device work (placing it if it has none)."""
        if self._loops:
            return self._loops[-1]
        if len(self._threads) == 1 or not (self.capturing or self.eager_streams):
            return self.main_stream
        thread = self._threads[-1]
        if thread.stream is None:
            self._place(thread)
        else:
            self._latest.pop(thread.key, None)  # work after its latest event: not covered by it
        return thread.stream

    def pool_stream(self, key: int) -> Any:
        return self._pool[key]

    def _place(self, thread: _Thread) -> None:
        if not self._pool:
            self._pool = [self._new_stream() for _ in range(self._count)]
        key = self._choose(thread)
        self._owner[key] = thread
        self._latest.pop(key, None)  # its latest event is no longer its last work
        stream = self._pool[key]
        if self.capturing and key not in self.joined:
            # a stream joins the capture by waiting for an event of a capturing stream:
            # the one recorded where the capture began (or its last device loop ended),
            # not one recorded now, which would make the thread wait for everything the
            # call's own thread did or waited for so far (four independent forked loops
            # were one chain of kernels so)
            stream.wait_for_event(self._join_point)
            self.joined.add(key)
        pending, thread.waits = thread.waits, {}
        thread.stream, thread.key = stream, key
        for other, (_, event) in pending.items():
            if other != key:
                stream.wait_for_event(event)
        thread.waits = pending
        if self._placed is not None:
            self._placed()

    def _choose(self, thread: _Thread) -> int:
        """A stream for the thread: the stream of the latest work it waits for, when
        that work was the stream's last and the thread that did it has ended (a chain
        of threads then stays on one stream, with no event between its links);
        otherwise the next stream whose thread has ended, in turn. Under a capture a
        stream is a graph's branch and costs nothing at replay, but sharing one makes
        the thread follow the stream's earlier work (an edge it did not ask for: a
        forked loop's iterations after another loop's): there the thread takes a
        stream no thread of the capture used, a new one if need be, up to
        CAPTURE_STREAMS."""
        open_threads = self._threads
        chained = [
            (seq, key)
            for key, (seq, _) in thread.waits.items()
            if key >= 0 and self._latest.get(key) == seq and self._owner.get(key) not in open_threads
        ]
        if chained:
            return max(chained)[1]
        if self.capturing:
            unused = next((key for key in range(len(self._pool)) if key not in self.joined), None)
            if unused is not None:
                return unused
            if len(self._pool) < CAPTURE_STREAMS:
                self._pool.append(self._new_stream())
                return len(self._pool) - 1
        count = len(self._pool)
        for _ in range(count):
            key = self._next % count
            self._next += 1
            if self._owner.get(key) not in open_threads:
                return key
        return self._next % count  # every stream's thread is open: share

    # --- threads and signals ---------------------------------------------------------

    def fork(self) -> None:
        self._threads.append(_Thread())

    def end_fork(self) -> None:
        if len(self._threads) < 2:
            raise RuntimeError("ends a fork that was never started")
        self._threads.pop()

    def resolve(self) -> Marks:
        """What a signal the current thread resolves now stands for."""
        if not self.active:
            return {}  # one stream: its order is the program's
        thread = self._threads[-1]
        stream = thread.stream if len(self._threads) > 1 else self.main_stream
        if stream is None:  # no device work of its own, or the default stream
            return dict(thread.waits)
        key = thread.key if len(self._threads) > 1 else -1
        seq = next(self._sequence)
        if key >= 0:
            self._latest[key] = seq
        return {key: (seq, self._record(stream))}

    def wait(self, marks: Marks) -> None:
        """The current thread's later device work runs after what `marks` stands for."""
        if not marks or self._loops:
            return  # (in a loop's body: loop_parent joined everything before the loop)
        thread = self._threads[-1]
        main = len(self._threads) == 1
        stream = self.main_stream if main else thread.stream
        if stream is None:
            merge(thread.waits, marks)
            return
        own = -1 if main else thread.key
        for key, mark in marks.items():
            held = thread.waits.get(key)
            if key == own or (held is not None and held[0] >= mark[0]):
                continue  # its own stream's order, or waited for already
            stream.wait_for_event(mark[1])
            thread.waits[key] = mark

    def _record(self, stream: Any) -> Any:
        event = self._new_event()
        event.record(stream)
        return event

    # --- calls and captures ----------------------------------------------------------

    def reset(self) -> None:
        """After a call (or a failed one): back to the call's own thread."""
        del self._threads[1:]
        self._threads[0].waits = {}
        self._owner.clear()
        self._latest.clear()

    def begin_capture(self, stream: Any) -> None:
        self.reset()
        self.main_stream, self.capturing, self.joined = stream, True, set()
        self._join_point = self._record(stream)

    def join_capture(self) -> None:
        """Every stream that joined the capture joins its end (else the capture cannot
        end, and those streams stay capturing)."""
        for key in sorted(self.joined):
            self.main_stream.wait_for_event(self._record(self._pool[key]))

    def loop_parent(self) -> Any:
        """The stream a device loop's node is added on: the capture's own stream (every
        stream that joined the capture joined it first, so the loop comes after all the
        work before it) or the enclosing loop's body's."""
        if self._loops:
            return self._loops[-1]
        self.join_capture()
        return self.main_stream

    def enter_loop(self, stream: Any) -> None:
        """The loop's body is captured on `stream` from now on: every thread's work goes
        there, in program order (a conditional node's body is one stream)."""
        self._loops.append(stream)

    def exit_loop(self) -> None:
        """The body ends; after the outermost loop every stream that joined the capture
        waits for the loop's node before its later work."""
        self._loops.pop()
        if not self._loops:
            # a signal resolved in the body stands for nothing (one stream there): what
            # comes after the loop waits for its node, streams that join later too
            event = self._record(self.main_stream)
            for key in sorted(self.joined):
                self._pool[key].wait_for_event(event)
            self._join_point = event

    def end_capture(self) -> None:
        self._loops.clear()
        self.reset()
        self.main_stream, self.capturing, self.joined = None, False, set()
