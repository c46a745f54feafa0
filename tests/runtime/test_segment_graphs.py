"""Segment graphs (runtime/gpu/segment_graphs.py) on the simulated device: host code
written here, with kernels as Python functions, run eagerly with its device work
recorded into segments. Every test checks results against NumPy, and the device's
own counts say what was issued, captured and replayed. tests/runtime/test_host_code.py
runs every emitted program of its own with segment graphs too, and the GPU tests the
real graphs (tests/runtime/gpu/test_task_graphs_gpu.py)."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu import segment_graphs
from soacc.runtime.gpu.host_runtime import HostRuntime
from soacc.runtime.gpu.segment_graphs import SegmentGraphs
from soacc.runtime.statistics import Statistics

from tests.runtime.test_task_graphs import KERNELS, host_array
from tests.support.simulated_device import SimulatedDevice


def scale(device, grid, block, args):
    """x[i] *= f: args (x, f, n)."""
    x, f, n = args
    device.elements(x, n, np.float32)[:] *= np.float32(f)


def fail(device, grid, block, args):
    raise ExecutionError("the kernel failed")


ALL_KERNELS = {**KERNELS, "scale": scale, "fail": fail}


class Harness:
    """A device that reuses addresses (as the memory pool does) and the segments of
    one program on it."""

    def __init__(self, reuse: bool = True):
        self.device = SimulatedDevice(reuse=reuse)
        self.segments = SegmentGraphs(self.device)
        self.statistics = Statistics()

    def call(self, python, *args):
        self.statistics = Statistics()
        runtime = HostRuntime(self.device, ALL_KERNELS)
        runtime.statistics = self.statistics
        return self.segments.call(python.__name__, python, runtime, args)


def on_device(rt, x_host):
    """The host argument's copy in a device block of its own."""
    n = x_host.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(x_host, x)
    return x, n


def halve_until_small(rt, x_host_mem, x_host, limit):
    """x halved (two kernels an iteration: x += 0, x *= 0.5) while x[0] > limit, read on
    the host each iteration; returns x and the iterations."""
    x, n = on_device(rt, x_host)
    iterations = 0
    while rt.load(x, (0,)) > limit:
        rt.next_iteration()
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(0.0), n)
        rt.launch("scale", (1, 1, 1), (1, 1, 1), x.address, np.float32(0.5), n)
        iterations += 1
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return out, iterations


def _halved(x: np.ndarray, limit: float) -> tuple[np.ndarray, int]:
    x, k = x.copy(), 0
    while x[0] > limit:
        x = (x + np.float32(0)) * np.float32(0.5)
        k += 1
    return x, k


def test_a_host_loop_whose_condition_is_read_replays_its_iterations():
    """Each iteration's two launches are a segment (the read ends it): the first seen,
    the second captured, the rest replayed, within the first call."""
    h = Harness()
    x = np.full(8, 1000.0, np.float32)
    out, iterations = h.call(halve_until_small, *host_array(x), np.float32(1.0))
    want, k = _halved(x, 1.0)
    np.testing.assert_array_equal(out.array, want)
    assert iterations == k == 10
    assert h.device.segment_captures == 1
    assert h.statistics.segment_graphs == k - 1  # every iteration's but the first
    assert h.statistics.segment_operations == 2 * (k - 1)
    assert h.statistics.kernel_launches == 2 * k  # counted as the eager call counts them


def test_a_second_call_replays_from_its_first_iteration():
    h = Harness()
    x = np.full(4, 64.0, np.float32)
    h.call(halve_until_small, *host_array(x), np.float32(1.0))
    out, iterations = h.call(halve_until_small, *host_array(x * 2), np.float32(1.0))
    want, k = _halved(x * 2, 1.0)
    np.testing.assert_array_equal(out.array, want)
    assert h.statistics.segment_graphs == k
    assert h.device.segment_captures == 1


def test_without_reused_addresses_only_a_calls_own_iterations_repeat():
    """Each call's blocks at new addresses: no segment of one call is another's, so each
    call captures its own (its iterations reuse its one block, so they still repeat)."""
    h = Harness(reuse=False)
    for scale_by in (1, 2):
        x = np.full(4, 64.0 * scale_by, np.float32)
        out, _ = h.call(halve_until_small, *host_array(x), np.float32(1.0))
        np.testing.assert_array_equal(out.array, _halved(x, 1.0)[0])
    assert h.device.segment_captures == 2


def steps_with_parameter(rt, x_host_mem, x_host, values):
    """x += v for each v, one launch each, in a loop of host iterations, then read."""
    x, n = on_device(rt, x_host)
    for v in values:
        rt.next_iteration()
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, n)
    return rt.load(x, (0,))


def test_the_record_tells_parameters_apart_by_their_bits():
    """+0.0 and -0.0 are equal floats but different parameters: a segment that adds -0.0
    is not the one that adds +0.0 (-0.0 + -0.0 is -0.0; -0.0 + 0.0 is +0.0)."""
    h = Harness()
    minus = np.full(1, -0.0, np.float32)
    for _ in range(3):
        got = h.call(steps_with_parameter, *host_array(minus), [np.float32(-0.0)] * 8)
        assert np.signbit(got)
    got = h.call(steps_with_parameter, *host_array(minus), [np.float32(0.0)] * 8)
    assert not np.signbit(got)
    assert h.device.segment_captures == 1


def test_a_loop_of_small_bodies_makes_segments_of_whole_iterations():
    """One launch an iteration: a segment ends at the first iteration after it holds
    BATCH launches, so 24 iterations are three segments of 8, the same three times."""
    h = Harness()
    x = np.zeros(4, np.float32)
    for _ in range(2):
        got = h.call(steps_with_parameter, *host_array(x), [np.float32(1.0)] * 24)
        assert got == 24
    assert segment_graphs.BATCH == 8
    assert h.device.segment_captures == 1
    assert h.statistics.segment_graphs == 3 and h.statistics.segment_operations == 24


def test_a_segment_ends_at_the_longest():
    h = Harness()
    x = np.zeros(4, np.float32)
    values = [np.float32(1.0)] * (2 * segment_graphs.LONGEST)

    def no_iterations(rt, x_host_mem, x_host, values):
        x, n = on_device(rt, x_host)
        for v in values:
            rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, n)
        return rt.load(x, (0,))

    assert h.call(no_iterations, *host_array(x), values) == len(values)
    assert h.device.segment_captures == 1 and h.statistics.segment_graphs == 1


def test_a_failing_call_issues_what_it_recorded_and_fails_as_eagerly():
    """A check fails after launches were recorded: they run (as they did eagerly) and
    the call's error is the check's."""
    h = Harness()

    def checks_after_launches(rt, x_host_mem, x_host):
        x, n = on_device(rt, x_host)
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        rt.check(False, "the check failed")

    issued = h.device.issued_records
    with pytest.raises(ExecutionError, match="the check failed"):
        h.call(checks_after_launches, *host_array(np.zeros(4, np.float32)))
    assert h.device.issued_records == issued + 2
    assert h.segments.active is None


def test_a_failing_kernel_fails_the_call():
    h = Harness()

    def launches_a_failing_kernel(rt, x_host_mem, x_host):
        x, n = on_device(rt, x_host)
        rt.launch("fail", (1, 1, 1), (1, 1, 1), x.address, n)
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        return rt.load(x, (0,))

    with pytest.raises(ExecutionError, match="the kernel failed"):
        h.call(launches_a_failing_kernel, *host_array(np.zeros(4, np.float32)))


def test_fork_threads_issue_as_they_come():
    """A fork thread's work is its stream's, not the graph stream's: a segment ends at
    the fork, and the thread's launches are issued, not recorded."""
    h = Harness()

    def forked(rt, x_host_mem, x_host):
        x, n = on_device(rt, x_host)
        for _ in range(3):
            rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        rt.fork()
        issued = h.device.issued_records
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        assert h.device.issued_records == issued  # (issued as it came: not a record)
        rt.end_fork()
        return rt.load(x, (0,))

    for _ in range(2):
        assert h.call(forked, *host_array(np.zeros(4, np.float32))) == 4
    assert h.device.segment_captures == 1


def test_a_function_whose_segments_never_repeat_stops_recording(monkeypatch):
    monkeypatch.setattr(segment_graphs, "GIVE_UP", 3)
    h = Harness()
    x = np.zeros(4, np.float32)
    for k in range(1, 6):
        # (each call's parameters are new: no segment is ever seen twice)
        assert h.call(steps_with_parameter, *host_array(x), [np.float32(k)] * 2) == 2 * k
    assert h.segments.replays == 0
    assert "steps_with_parameter" in h.segments._hopeless


def test_the_driver_refusing_a_segment_issues_it(monkeypatch):
    h = Harness()

    def refuse(records):
        raise ExecutionError("the driver would not capture it")

    monkeypatch.setattr(h.device, "graph_of", refuse)
    x = np.full(8, 1000.0, np.float32)
    out, _ = h.call(halve_until_small, *host_array(x), np.float32(1.0))
    np.testing.assert_array_equal(out.array, _halved(x, 1.0)[0])
    assert h.segments.replays == 0 and len(h.segments.refused) == 1


def test_the_least_recently_used_graph_is_dropped(monkeypatch):
    monkeypatch.setattr(segment_graphs, "CAPACITY", 2)
    h = Harness()
    x = np.zeros(4, np.float32)
    for v in (1.0, 2.0, 3.0):
        for _ in range(2):
            h.call(steps_with_parameter, *host_array(x), [np.float32(v)] * 4)
    assert len(h.segments.graphs) == 2 and h.segments.captures == 3


def test_out_of_memory_issues_the_segment_and_drops_the_graphs():
    h = Harness()
    seen = []

    def relieved(rt, x_host_mem, x_host):
        x, n = on_device(rt, x_host)
        for _ in range(3):
            rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, np.float32(1.0), n)
        done = h.device.executed
        h.segments.relieve()  # (what the memory pool calls when the device is full)
        seen.append((h.device.executed - done, len(h.segments.graphs)))
        return rt.load(x, (0,))

    for _ in range(2):
        assert h.call(relieved, *host_array(np.zeros(4, np.float32))) == 3
    # the three launches ran at the relief (issued, then replayed), and no graph is kept
    assert seen == [(3, 0), (3, 0)]


def test_task_graphs_turned_on_keep_segment_graphs_as_set_and_turned_off_end_them(monkeypatch):
    from soacc.backends import host_code_executor
    from soacc.program import apply_pipeline, parse_program

    monkeypatch.delenv("SOACC_SEGMENT_GRAPHS", raising=False)
    module = parse_program("func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n  %c = soac.copy %a : tensor<?xf32>\n  func.return %c : tensor<?xf32>\n}")
    apply_pipeline(module, "soacc-pipeline{syncs=false}")
    executor = host_code_executor(module, SimulatedDevice(), {})
    executor.use_task_graphs(True)
    assert executor.segment_graphs is None  # (off by default)
    executor.use_segment_graphs(True)
    executor.use_task_graphs(True)
    assert executor.segment_graphs is not None
    executor.use_task_graphs(False)
    assert executor.segment_graphs is None
