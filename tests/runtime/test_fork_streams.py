"""Fork threads on streams (runtime/gpu/fork_streams.py) against a model of CUDA's
ordering: random fork programs, issued by the host in program order, put their work on
fake streams; a work item must then happen after every work item its thread knows of
(its own earlier work, and through each signal it waited for, what the resolver knew),
by stream order, event waits and the default stream's implicit synchronisation. And
however long the chain of signals (a loop carries them), a thread waits at most once
per stream."""

from __future__ import annotations

import random

import pytest

from soacc.runtime.gpu.fork_streams import ForkStreams

LEGACY = "legacy"


class Device:
    """Every entry issued, in issue order: (stream, kind, payload)."""

    def __init__(self) -> None:
        self.entries: list[tuple[object, str, object]] = []
        self.streams: list[Stream] = []
        self.waits = 0

    def stream(self) -> Stream:
        s = Stream(self, len(self.streams))
        self.streams.append(s)
        return s

    def event(self) -> Event:
        return Event(self)

    def work(self, stream, item: int) -> int:
        self.entries.append((stream if stream is not None else LEGACY, "work", item))
        return len(self.entries) - 1

    def happens_before(self) -> list[set[int]]:
        """For each entry, the entries that happen before it."""
        before: list[set[int]] = []
        last_on: dict[object, int] = {}
        last_legacy: int | None = None
        for i, (stream, kind, payload) in enumerate(self.entries):
            deps: set[int] = set()
            if stream is LEGACY:
                deps.update(range(i))  # the default stream waits for everything before it
            else:
                if stream in last_on:
                    deps.add(last_on[stream])
                if last_legacy is not None:
                    deps.add(last_legacy)  # blocking streams wait for the default stream
                if kind == "wait":
                    recorded = payload.recorded_at
                    if recorded is not None:
                        deps.add(recorded)
            closure = set(deps)
            for d in deps:
                closure |= before[d]
            before.append(closure)
            last_on[stream] = i
            if stream is LEGACY:
                last_legacy = i
        return before


class Stream:
    def __init__(self, device: Device, key: int):
        self.device = device
        self.key = key

    def wait_for_event(self, event: Event) -> None:
        self.device.waits += 1
        self.device.entries.append((self, "wait", event))


class Event:
    def __init__(self, device: Device):
        self.device = device
        self.recorded_at: int | None = None

    def record(self, stream) -> None:
        assert stream is not None, "an event recorded on the default stream (never needed)"
        self.device.entries.append((stream, "record", self))
        self.recorded_at = len(self.device.entries) - 1


class Signal:
    def __init__(self) -> None:
        self.events = None
        self.knows: set[int] = set()


def run_program(seed: int, steps: int = 300, capture: bool = False, streams: int = 3):
    """A random fork program issued in program order. Returns (device, checks): each
    check is (entry of a work item, the work items it must come after)."""
    rng = random.Random(seed)
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=streams)
    forks.eager_streams = True
    if capture:
        forks.begin_capture(device.stream())
    knows: list[set[int]] = [set()]  # per open thread: the work items it knows of
    resolved: list[Signal] = []
    work_entry: dict[int, int] = {}
    checks = []
    item = 0
    for _ in range(steps):
        choice = rng.random()
        if choice < 0.2 and len(knows) < 4:
            forks.fork()
            knows.append(set())
        elif choice < 0.3 and len(knows) > 1:
            forks.end_fork()
            knows.pop()
        elif choice < 0.55:
            entry = device.work(forks.current(), item)
            work_entry[item] = entry
            checks.append((entry, set(knows[-1])))
            knows[-1].add(item)
            item += 1
        elif choice < 0.75:
            signal = Signal()
            signal.events = forks.resolve()
            signal.knows = set(knows[-1])
            resolved.append(signal)
        elif resolved:
            signal = rng.choice(resolved[-8:])
            forks.wait(signal.events)
            knows[-1] |= signal.knows
    if capture:
        forks.join_capture()
    return device, [(entry, {work_entry[w] for w in needed}) for entry, needed in checks]


@pytest.mark.parametrize("capture", [False, True], ids=["eager", "capture"])
@pytest.mark.parametrize("seed", range(40))
def test_every_work_item_follows_what_its_thread_knows(seed, capture):
    device, checks = run_program(seed, capture=capture)
    before = device.happens_before()
    for entry, needed in checks:
        missing = needed - before[entry]
        assert not missing, f"entry {entry} does not follow {sorted(missing)}"


def test_under_capture_every_stream_joins_the_capture_and_its_end():
    device, _ = run_program(3, capture=True)
    before = device.happens_before()
    main = device.streams[0]
    last = max(i for i, (s, _, _) in enumerate(device.entries) if s is main)
    works = [i for i, (_, kind, _) in enumerate(device.entries) if kind == "work"]
    assert all(w in before[last] for w in works), "a thread's work is not before the capture's end"


def test_a_long_chain_of_signals_waits_once_per_stream():
    """A loop's iterations carry signals: each iteration a thread waits for the last
    signal, works and resolves the next (a lazy thread in between passes it on)."""
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=4)
    forks.eager_streams = True
    signal = forks.resolve()
    for _ in range(500):
        forks.fork()  # a thread with no device work: it passes the signal on
        forks.wait(signal)
        passed = forks.resolve()
        forks.end_fork()
        forks.fork()
        forks.wait(passed)
        device.work(forks.current(), 0)
        signal = forks.resolve()
        forks.end_fork()
        assert len(signal) == 1 and len(passed) <= 4
    # each link goes on the stream of the one before: no event between them
    assert device.waits == 0 and len(device.streams) == 4


def test_threads_that_wait_for_the_same_thread_go_on_different_streams():
    """A fan-out: four threads wait for one; one of them may follow it on its stream,
    the others go on streams of their own, so that the four overlap."""
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=8)
    forks.eager_streams = True
    forks.fork()
    device.work(forks.current(), 0)
    done = forks.resolve()
    forks.end_fork()
    used = set()
    for i in range(4):
        forks.fork()
        forks.wait(done)
        stream = forks.current()
        device.work(stream, i + 1)
        used.add(stream.key)
        forks.end_fork()
    assert len(used) == 4


def test_a_stream_whose_thread_is_still_open_is_not_chained_onto():
    """The parent resolves, then forks a child that waits for it: the parent goes on
    afterwards, so the child takes another stream (else the parent's later work would
    wait for the child's)."""
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=8)
    forks.eager_streams = True
    forks.fork()
    parent = forks.current()
    ready = forks.resolve()
    forks.fork()
    forks.wait(ready)
    assert forks.current() is not parent


def test_threads_without_device_work_take_no_stream():
    device = Device()
    forks = ForkStreams(device.stream, device.event)
    for _ in range(10):
        forks.fork()
        forks.resolve()
        forks.end_fork()
    assert device.streams == [] and device.entries == []


def test_by_default_an_eager_call_puts_every_thread_on_its_own_stream_in_program_order():
    """Streams only under a capture (unless asked for): eagerly, every thread's work goes
    on the call's stream, in program order, with no event and no stream made."""
    device = Device()
    forks = ForkStreams(device.stream, device.event)
    forks.fork()
    device.work(forks.current(), 0)
    signal = forks.resolve()
    forks.end_fork()
    forks.fork()
    forks.wait(signal)
    device.work(forks.current(), 1)
    forks.end_fork()
    assert device.streams == [] and [e[0] for e in device.entries] == [LEGACY, LEGACY]
    capture = device.stream()
    forks.begin_capture(capture)
    forks.fork()
    assert forks.current() is not capture and forks.current() is not None


def capturing() -> tuple[Device, ForkStreams]:
    """A device and fork streams (8 for eager calls) under a capture."""
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=8)
    forks.begin_capture(device.stream())
    return device, forks


def test_under_capture_a_thread_forked_after_the_call_waited_does_not_wait_too():
    """Four forked loops in turn (chains): the call's thread waits for the first loop's
    last iteration before it forks the second's; the second's stream joins the capture
    where it began, so the two loops' kernels stay independent (a stream that joined by
    an event recorded then would follow the first loop entirely)."""
    device, forks = capturing()
    entries = []
    for loop in range(2):
        forks.fork()
        entries.append(device.work(forks.current(), loop))
        done = forks.resolve()
        forks.end_fork()
        forks.wait(done)  # the call's thread: the loop's result
    forks.join_capture()
    before = device.happens_before()
    assert entries[0] not in before[entries[1]]
    end = max(i for i, (s, _, _) in enumerate(device.entries) if s is device.streams[0])
    assert set(entries) <= before[end]


def test_under_capture_a_stream_that_joins_after_a_device_loop_follows_the_loop():
    """A signal resolved in a device loop's body stands for nothing (one stream there):
    a stream that joins after the loop waits for the loop's node."""
    device = Device()
    forks = ForkStreams(device.stream, device.event, count=8)
    capture = device.stream()
    forks.begin_capture(capture)
    parent = forks.loop_parent()
    loop_node = device.work(parent, "loop")  # the conditional node, added on the parent
    forks.enter_loop(device.stream())  # (its body is captured into the node's own graph)
    forks.fork()
    device.work(forks.current(), 0)
    signal = forks.resolve()
    forks.end_fork()
    forks.exit_loop()
    forks.fork()
    forks.wait(signal)
    after = device.work(forks.current(), 1)
    forks.end_fork()
    assert signal == {} and loop_node in device.happens_before()[after]


def test_under_capture_independent_threads_never_share_a_stream():
    """Under a capture a stream costs nothing at replay: 20 threads that wait for
    nothing are 20 branches, none after another (eagerly, 8 streams are shared)."""
    device, forks = capturing()
    entries = []
    for i in range(20):
        forks.fork()
        entries.append(device.work(forks.current(), i))
        device.work(forks.current(), i)  # (work after its last event too)
        forks.resolve()
        forks.end_fork()
    forks.join_capture()
    before = device.happens_before()
    assert not any(a in before[b] for a in entries for b in entries)
    assert len(device.streams) == 1 + 20
