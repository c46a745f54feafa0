"""Transfer fusion past the study (passes/analysis/transfer_refinement.py, and the joint
early downloads of passes/analysis/transfer_layout.py), on abstract kernel graphs.

Every schedule here is also run on a model of the two memories (`simulate`): each
vector a token written once, messages copying their whole span (gaps included) at
their slot, kernels checking that what they read is the token its producer wrote. So
a schedule that clobbers a live copy, or reads before a transfer, fails, whatever the
analysis claims."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from soacc.passes.analysis.transfer_layout import (
    DEVICE,
    HOST,
    Intervals,
    Kernel,
    KernelGraph,
    Layout,
    Message,
    affinity_graph,
    analyse,
    schedule,
    transfer_intervals,
)
from soacc.passes.analysis.transfer_refinement import (
    break_even_gap,
    device_residency,
    fuse_across_gaps,
    limit_device_memory,
    refine,
    residency_floor,
)

from tests.support.kernel_graphs import figure2, random_program


def sized_random_program(rng: random.Random) -> KernelGraph:
    g = random_program(rng, rng.randint(2, 9), rng.randint(1, 5), (1, 3), (1, 3))
    return KernelGraph.build(g.kernels, g.live_on_exit, {v: rng.randint(1, 8) for v in g.vectors})


# ----------------------------------------------------------------------------- the model


def simulate(layout_result, messages) -> None:
    """Runs the kernels and messages on two memories laid out alike; fails on a read
    of anything but the value the vector's producer wrote."""
    graph = layout_result.graph
    order = layout_result.layout.order
    loc = layout_result.layout.location
    host: dict = {v: v for v in graph.vectors if v not in graph.producer}  # live on entry
    device: dict = {}

    def send(m: Message, source: dict, dest: dict) -> None:
        span = order[loc[m.vectors[0]] : loc[m.vectors[-1]] + 1]
        assert set(span) == set(m.vectors) | set(m.gaps), "a message's members and gaps fill its span"
        for v in span:
            if v in source:
                dest[v] = source[v]
            else:
                dest.pop(v, None)  # garbage
    by_slot: dict = {}
    for m in messages:
        by_slot.setdefault((m.direction, m.time), []).append(m)
    for s, k in enumerate(graph.kernels):
        for m in by_slot.get(("upload", s), []):
            send(m, host, device)
        memory = device if k.on == DEVICE else host
        for v in k.reads:
            assert memory.get(v) == v, f"kernel {s} reads {v!r} before it arrived, or after it was clobbered"
        for w in k.writes:
            memory[w] = w
        for m in by_slot.get(("download", s), []):
            send(m, device, host)
    for v in graph.live_on_exit:
        assert host.get(v) == v, f"{v!r} is not on the host at the exit"


def check_schedule(r, messages) -> None:
    """Each transfer sent once as a member, at a slot inside its interval; members in
    memory order; gaps only of the same direction."""
    iv = r.intervals
    members = [v for m in messages for v in m.vectors]
    assert sorted(members, key=repr) == sorted([*iv.uploads, *iv.downloads], key=repr)
    for m in messages:
        own = iv.uploads if m.direction == "upload" else iv.downloads
        assert [r.layout.location[v] for v in m.vectors] == sorted(r.layout.location[v] for v in m.vectors)
        for v in m.vectors:
            assert own[v][0] <= m.time <= own[v][1]
        assert all(v in own for v in m.gaps)
    simulate(r, messages)


# ----------------------------------------------------------------------------- early downloads


def co_written_and_co_read() -> KernelGraph:
    """D1 and D2 written by one kernel; D2 and D3 read by one host kernel: the study's ε
    joins both pairs, joint early downloads only the first."""
    return KernelGraph.build(
        [
            Kernel(("A",), ("D1", "D2"), DEVICE),
            Kernel(("A",), ("D3",), DEVICE),
            Kernel(("D2", "D3"), ("H",), HOST),
        ],
        live_on_exit=["D1", "H"],
    )


def test_early_downloads_give_epsilon_to_vectors_written_together():
    g = co_written_and_co_read()
    iv = transfer_intervals(g)
    study = affinity_graph(g, iv)
    early = affinity_graph(g, iv, early_downloads=True)
    pair = frozenset
    assert study.bonus == {pair(("D1", "D2")), pair(("D2", "D3"))}
    assert early.bonus == {pair(("D1", "D2"))}
    assert study.overlaps == early.overlaps  # only ε changes


def test_early_downloads_leave_uploads_as_the_study_has_them():
    for mode in ("greedy", "tight"):
        study = analyse(figure2(), mode=mode)
        early = analyse(figure2(), mode=mode, early_downloads=True)
        up = lambda r: [m for m in r.messages if m.direction == "upload"]  # noqa: E731
        assert up(study) == up(early)
        assert early.affinity.bonus - study.affinity.bonus == frozenset()


def test_tight_early_downloads_mirror_tight_uploads():
    """Downloads A [0, 2], B [1, 3], C [2, 4] in that order: greedy sends one message
    at 2; tight with early downloads sends A and B at 1 and C at 2 (each as early as
    a neighbour allows), the mirror of tight's late uploads."""
    iv = Intervals({}, {"A": (0, 2), "B": (1, 3), "C": (2, 4)}, (), ())
    layout = Layout.of("ABC")
    assert schedule(iv, layout, "greedy") == [Message("download", 2, ("A", "B", "C"))]
    assert schedule(iv, layout, "tight") == [Message("download", 2, ("A", "B", "C"))]
    assert schedule(iv, layout, "tight", early_downloads=True) == [
        Message("download", 1, ("A", "B")),
        Message("download", 2, ("C",)),
    ]
    mirrored = Intervals({"A": (0, 2), "B": (1, 3), "C": (2, 4)}, {}, (), ())
    assert [(m.time, m.vectors) for m in schedule(mirrored, layout, "tight")] == [(2, ("A",)), (3, ("B", "C"))]


@pytest.mark.parametrize("mode", ["greedy", "tight"])
def test_early_downloads_keep_every_schedule_valid(mode):
    rng = random.Random(21)
    for _ in range(150):
        g = sized_random_program(rng)
        r = analyse(g, mode=mode, seed=rng.randrange(50), early_downloads=True)
        check_schedule(r, r.messages)
        # for the same layout, greedy's messages are the fewest (tight, early or not, never fewer)
        greedy = schedule(r.intervals, r.layout, "greedy")
        assert len(r.messages) >= len(greedy)


# ----------------------------------------------------------------------------- residency


def limited_example(b: int = 10) -> KernelGraph:
    """A read at kernel 0, B (size b) first read at kernel 2: greedy sends both before
    kernel 0, so B sits on the device two kernels early."""
    return KernelGraph.build(
        [
            Kernel(("A",), ("X",), DEVICE),
            Kernel(("X",), ("Y",), DEVICE),
            Kernel(("B", "Y"), ("Z",), DEVICE),
        ],
        live_on_exit=["Z"],
        sizes={"A": 1, "B": b, "X": 1, "Y": 1, "Z": 1},
    )


def test_residency_of_a_schedule_and_its_floor():
    r = analyse(limited_example())
    assert [(m.direction, m.time, set(m.vectors)) for m in r.messages] == [
        ("upload", 0, {"A", "B"}),
        ("download", 2, {"Z"}),
    ]
    res = device_residency(r.graph, r.intervals, r.messages)
    assert res.ranges == {"A": (0, 0), "B": (0, 2), "X": (0, 1), "Y": (1, 2), "Z": (2, 2)}
    assert res.footprint == (12, 12, 12)
    floor = residency_floor(r.graph, r.intervals)
    assert floor.footprint == (2, 2, 12) and floor.peak == 12


def test_limit_splits_a_message_to_meet_it():
    r = analyse(limited_example())
    assert limit_device_memory(r.graph, r.intervals, r.messages, 12).messages == r.messages  # met already
    limited = limit_device_memory(r.graph, r.intervals, r.messages, 11)
    assert limited.met is False and limited.peak == 12 == limited.floor  # slot 2 needs 12
    roomy = KernelGraph.build(r.graph.kernels, r.graph.live_on_exit, {**r.graph.sizes, "Z": 0, "Y": 0})
    rr = analyse(roomy)
    limited = limit_device_memory(rr.graph, rr.intervals, rr.messages, 10)
    assert limited.met and limited.peak_before == 12 and limited.peak == 10 and limited.splits == 1
    assert {(m.time, m.vectors) for m in limited.messages if m.direction == "upload"} == {(0, ("A",)), (2, ("B",))}
    check_schedule(rr, limited.messages)


def test_limit_on_downloads_sends_them_sooner():
    """D written by kernel 0 and E by kernel 2, both live on exit: greedy downloads
    them together after kernel 2, keeping D (size 10) on the device two kernels
    longer than its work needs."""
    g = KernelGraph.build(
        [Kernel(("A",), ("D",), DEVICE), Kernel(("A",), ("X",), DEVICE), Kernel(("X",), ("E",), DEVICE)],
        live_on_exit=["D", "E"],
        sizes={"A": 1, "D": 10, "X": 1, "E": 1},
    )
    r = analyse(g)
    assert [(m.time, set(m.vectors)) for m in r.messages if m.direction == "download"] == [(2, {"D", "E"})]
    assert device_residency(g, r.intervals, r.messages).footprint == (11, 12, 12)
    limited = limit_device_memory(g, r.intervals, r.messages, 11)
    downloads = sorted((m.time, m.vectors) for m in limited.messages if m.direction == "download")
    assert downloads == [(0, ("D",)), (2, ("E",))]
    assert limited.met and limited.peak == residency_floor(g, r.intervals).peak == 11
    check_schedule(r, limited.messages)


@pytest.mark.parametrize("mode", ["greedy", "tight"])
def test_limit_is_met_exactly_when_the_floor_allows(mode):
    rng = random.Random(7)
    checked = 0
    for _ in range(200):
        g = sized_random_program(rng)
        r = analyse(g, mode=mode, seed=rng.randrange(50), early_downloads=rng.random() < 0.5)
        before = device_residency(g, r.intervals, r.messages)
        floor = residency_floor(g, r.intervals)
        limit = rng.randint(0, before.peak)
        limited = limit_device_memory(g, r.intervals, r.messages, limit)
        after = device_residency(g, r.intervals, limited.messages)
        assert limited.peak == after.peak and limited.peak_before == before.peak
        assert limited.met == (floor.peak <= limit)
        assert all(a <= b for a, b in zip(after.footprint, before.footprint))  # never worse anywhere
        for s, used in enumerate(after.footprint):
            assert used <= limit or used == floor.footprint[s]
        assert len(limited.messages) >= len(r.messages)  # (a split may only retime a whole message)
        check_schedule(r, limited.messages)
        checked += limited.splits > 0
    assert checked > 20  # the repair was exercised


def test_limit_refuses_bad_input():
    r = analyse(limited_example())
    with pytest.raises(ValueError, match="negative"):
        limit_device_memory(r.graph, r.intervals, r.messages, -1)
    gapped = [Message("upload", 0, ("A",), ("B",))]
    with pytest.raises(ValueError, match="before fusing across gaps"):
        limit_device_memory(r.graph, r.intervals, gapped, 5)


# ----------------------------------------------------------------------------- gaps


def three_uploads() -> KernelGraph:
    """A and C first read by kernel 0, B written on the host by kernel 1 and read by
    kernel 2; a layout A, B, C sends A and C apart, B between them."""
    return KernelGraph.build(
        [
            Kernel(("A", "C"), ("X",), DEVICE),
            Kernel(("X2",), ("B",), HOST),
            Kernel(("B", "X"), ("Z",), DEVICE),
        ],
        live_on_exit=["Z"],
        sizes={"A": 4, "B": 3, "C": 4, "X": 1, "X2": 1, "Z": 1},
    )


def test_a_gap_under_the_limit_is_moved_along():
    g = three_uploads()
    iv = transfer_intervals(g)
    layout = Layout.of(["A", "B", "C", "X2", "X", "Z"], g)
    messages = [Message("upload", 0, ("A",)), Message("upload", 2, ("B",)), Message("upload", 0, ("C",)), Message("download", 2, ("Z",))]
    fused = fuse_across_gaps(g, iv, layout, messages, gap_limit=3)
    assert fused.merged == 1 and fused.gap_size == 3
    assert Message("upload", 0, ("A", "C"), ("B",)) in fused.messages
    assert Message("upload", 2, ("B",)) in fused.messages
    assert len(fused.messages) == 3
    apart = fuse_across_gaps(g, iv, layout, messages, gap_limit=2)
    assert apart.merged == 0 and list(apart.messages) == messages
    r = analyse(g)
    r = type(r)(r.graph, r.intervals, r.affinity, r.paths, layout, r.mode, tuple(messages))
    check_schedule(r, fused.messages)  # B's garbage before kernel 1 is overwritten at 2


def test_break_even_gap_is_startup_times_bandwidth():
    assert break_even_gap(3.4e-6, 55e9) == 187_000
    with pytest.raises(ValueError):
        break_even_gap(1e-6, 0)


@pytest.mark.parametrize("mode", ["greedy", "tight"])
def test_gaps_on_random_programs_keep_meaning_and_never_add_messages(mode):
    rng = random.Random(5)
    merged = 0
    for _ in range(200):
        g = sized_random_program(rng)
        r = analyse(g, mode=mode, seed=rng.randrange(50))
        # a shuffled layout within each direction makes gaps the study's layout avoids
        ups = [v for v in r.layout.order if v in r.intervals.uploads]
        downs = [v for v in r.layout.order if v in r.intervals.downloads]
        rest = [v for v in r.layout.order if v not in r.intervals.uploads and v not in r.intervals.downloads]
        rng.shuffle(ups)
        rng.shuffle(downs)
        layout = Layout.of(ups + downs + rest, g)
        messages = schedule(r.intervals, layout, mode)
        base = type(r)(r.graph, r.intervals, r.affinity, r.paths, layout, mode, tuple(messages))
        limit = rng.randint(0, 20)
        fused = fuse_across_gaps(g, r.intervals, layout, messages, limit, mode=mode)
        assert len(fused.messages) == len(messages) - fused.merged
        for m in fused.messages:
            assert sum(g.size(v) for v in m.gaps) <= limit * max(1, len(m.vectors))
        check_schedule(base, fused.messages)
        merged += fused.merged
    assert merged > 30


def test_gaps_within_a_device_limit():
    rng = random.Random(3)
    for _ in range(100):
        g = sized_random_program(rng)
        r = analyse(g, mode="tight", seed=1)
        floor = residency_floor(g, r.intervals).peak
        limit = rng.randint(floor, max(floor, device_residency(g, r.intervals, r.messages).peak))
        refined = refine(r, device_limit=limit, gap_limit=rng.randint(0, 30))
        assert device_residency(g, r.intervals, refined.messages).peak <= limit
        check_schedule(r, refined.messages)


def test_refine_without_options_is_the_analysis():
    r = analyse(figure2())
    assert refine(r) == r
    assert refine(r, gap_limit=0).messages == r.messages  # the study's layout has no gaps of size 0
    assert Fraction(1, 13) == r.affinity.epsilon
