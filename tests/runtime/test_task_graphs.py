"""Task graphs (runtime/gpu/task_graphs.py) on the simulated device: host code written
here, with kernels as Python functions, captured on its second call and replayed on
later ones. Each test checks results against NumPy on every call, so a replay that
reused a stale upload, a download that read overwritten memory, or a key that mixed
two calls' work would fail. tests/runtime/test_host_code.py runs every emitted program
of its own through capture and replay as well, and the GPU tests the real graphs."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import HostBlock, View, dense_strides
from soacc.runtime.gpu.host_runtime import HostRuntime
from soacc.runtime.gpu.task_graphs import GraphUnsupported, TaskGraphs, graph_key
from soacc.runtime.statistics import Statistics

from tests.support.simulated_device import SimulatedDevice


def add_scalar(device, grid, block, args):
    """x[i] += v for i < n: args (x pointer, v, n)."""
    x, v, n = args
    device.elements(x, n, np.float32)[:] += np.float32(v)


def double_into(device, grid, block, args):
    """y[i] = 2 * x[i]: args (y, x, n)."""
    y, x, n = args
    device.elements(y, n, np.float32)[:] = 2 * device.elements(x, n, np.float32)


KERNELS = {"add": add_scalar, "double": double_into}


def host_array(values: np.ndarray) -> tuple[HostBlock, View]:
    values = np.ascontiguousarray(values)
    block = HostBlock(values.reshape(-1).view(np.uint8), None)
    return block, View(block, 0, values.shape, dense_strides(values.shape), values.dtype)


class Harness:
    """A device, a TaskGraphs on it, and the host functions' runs counted."""

    def __init__(self, min_nodes: int = 1, capacity: int = 8, kernels: dict | None = None):
        self.device = SimulatedDevice()
        self.kernels = KERNELS if kernels is None else kernels
        self.graphs = TaskGraphs(self.device, self.kernels, min_nodes=min_nodes, capacity=capacity)
        self.host_runs = 0
        self.statistics = Statistics()

    def call(self, python, *args):
        self.statistics = Statistics()
        runtime = HostRuntime(self.device, self.kernels)
        runtime.statistics = self.statistics

        def counted(rt, *a):
            self.host_runs += 1
            return python(rt, *a)

        return self.graphs.call(python.__name__, counted, list(args), self.statistics, lambda: counted(runtime, *args))


def loop_of_kernels(rt, x_host_mem, x_host, v, steps):
    """x + steps * v, one launch per step, then doubled."""
    n = x_host.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(x_host, x)
    add_steps(rt, x, v, steps)
    y = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.launch("double", (1, 1, 1), (1, 1, 1), y.address, x.address, n)
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(y, out)
    return (out_mem, out)


def test_second_call_is_captured_and_later_calls_replay_without_host_code():
    h = Harness()
    rng = np.random.default_rng(0)
    for call in range(5):
        x = rng.standard_normal(16).astype(np.float32)
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(0.5), np.int64(10))
        np.testing.assert_array_equal(out.array, 2 * _added(x, 0.5, 10))
        assert h.statistics.kernel_launches == 11
        assert h.statistics.task_graph == [None, "captured", "replayed", "replayed", "replayed"][call]
    assert h.host_runs == 2  # the eager call and the capture; replays run no host code
    assert h.device.captures == 1


def add_steps(rt, x, v, steps) -> None:
    """x += v, one launch per step."""
    for _ in range(int(steps)):
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, x.shape[0])


def download(rt, x):
    """x in a host block of its own: (block, view)."""
    n = x.shape[0]
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


def _added(x: np.ndarray, v: float, steps: int) -> np.ndarray:
    out = x.copy()
    for _ in range(steps):
        out += np.float32(v)
    return out


def test_a_replay_uses_each_calls_own_argument_data():
    h = Harness()
    for seed in range(4):
        x = np.random.default_rng(seed).standard_normal(8).astype(np.float32)
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(1.0), np.int64(3))
        np.testing.assert_array_equal(out.array, 2 * _added(x, 1.0, 3))


def test_scalars_and_shapes_are_the_key():
    h = Harness()
    x = np.arange(8, dtype=np.float32)
    for v, steps, n in [(1.0, 3, 8), (1.0, 3, 8), (2.0, 3, 8), (2.0, 3, 8), (1.0, 4, 8), (1.0, 4, 8), (1.0, 3, 4), (1.0, 3, 4)]:
        _, out = h.call(loop_of_kernels, *host_array(x[:n]), np.float32(v), np.int64(steps))
        np.testing.assert_array_equal(out.array, 2 * _added(x[:n], v, steps))
    assert h.device.captures == 4
    for v in (1.0, 2.0):
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(v), np.int64(3))
        assert h.statistics.task_graph == "replayed"
        np.testing.assert_array_equal(out.array, 2 * _added(x, v, 3))


def test_the_key_tells_floats_apart_by_their_bits():
    x = host_array(np.zeros(2, np.float32))
    assert graph_key("f", [*x, np.float32(0.0)]) != graph_key("f", [*x, np.float32(-0.0)])
    assert graph_key("f", [*x, np.float32(0.0)]) != graph_key("f", [*x, np.float64(0.0)])
    assert graph_key("f", [*x, np.float32("nan")]) == graph_key("f", [*x, np.float32("nan")])


def test_the_least_recently_used_graph_is_dropped_with_its_memory():
    h = Harness(capacity=2)
    x = np.ones(4, np.float32)
    for steps in (1, 1, 2, 2, 3, 3):
        h.call(loop_of_kernels, *host_array(x), np.float32(1.0), np.int64(steps))
    assert len(h.graphs.graphs) == 2
    assert h.device.captures == 3
    _, out = h.call(loop_of_kernels, *host_array(x), np.float32(1.0), np.int64(1))
    assert h.statistics.task_graph == "captured"  # dropped, so captured again
    np.testing.assert_array_equal(out.array, 2 * _added(x, 1.0, 1))


def test_a_call_with_too_little_device_work_never_becomes_a_graph():
    h = Harness(min_nodes=5)
    x = np.ones(4, np.float32)
    for _ in range(3):
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(1.0), np.int64(2))  # 3 launches
        assert h.statistics.task_graph is None
    assert h.device.captures == 0 and h.host_runs == 3


def upload_after_a_kernel(rt, a_mem, a, b_mem, b):
    """a doubled, then b uploaded (after a node: staged) and added to it element-wise
    by a kernel reading both (here: double b into the result's second half)."""
    n = a.shape[0]
    x = rt.alloc_device(8 * n).view(0, (2 * n,), None, np.float32)
    a_dev = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, a_dev)
    rt.launch("double", (1, 1, 1), (1, 1, 1), x.address, a_dev.address, n)
    b_dev = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(b, b_dev)
    rt.launch("double", (1, 1, 1), (1, 1, 1), x.slice([(n, n)]).address, b_dev.address, n)
    out_mem = rt.alloc_host(8 * n)
    out = out_mem.view(0, (2 * n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


def test_an_upload_after_a_node_is_staged_and_refilled_per_call():
    h = Harness()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        a, b = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
        _, out = h.call(upload_after_a_kernel, *host_array(a), *host_array(b))
        np.testing.assert_array_equal(out.array, np.concatenate([2 * a, 2 * b]))
    assert h.statistics.task_graph == "replayed"
    graph = next(iter(h.graphs.graphs.values()))
    assert [u.staging is None for u in graph.uploads] == [True, False]


def download_then_overwrite(rt, a_mem, a):
    """The input doubled is downloaded, then a kernel overwrites the device array
    (the download must see the value before), and the sum downloaded again."""
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
    first_mem = rt.alloc_host(4 * n)
    first = first_mem.view(0, (n,), None, np.float32)
    rt.copy(x, first)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 10.0, n)
    second_mem = rt.alloc_host(4 * n)
    second = second_mem.view(0, (n,), None, np.float32)
    rt.copy(x, second)
    return (first_mem, first, second_mem, second)


def test_a_download_that_a_node_follows_is_captured_before_it():
    h = Harness()
    for seed in range(4):
        a = np.random.default_rng(seed).standard_normal(4).astype(np.float32)
        _, first, _, second = h.call(download_then_overwrite, *host_array(a))
        np.testing.assert_array_equal(first.array, a + np.float32(1))
        np.testing.assert_array_equal(second.array, a + np.float32(1) + np.float32(10))
    graph = next(iter(h.graphs.graphs.values()))
    assert [d.staging is not None for d in graph.downloads] == [True, False]


def strided_upload(rt, a_mem, a):
    """The argument into every other element of a device array (a staged strided copy
    whichever side of a node it is), read back whole."""
    n = a.shape[0]
    x = rt.alloc_device(8 * n).view(0, (2 * n,), None, np.float32)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 0.0, 0)
    rt.array([np.float32(7)] * (2 * n), x)
    odd = x.slice([(1, n, 2)])
    rt.copy(a, odd)
    out_mem = rt.alloc_host(8 * n)
    out = out_mem.view(0, (2 * n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


def test_uploads_into_strided_views_and_array_literals():
    h = Harness()
    for seed in range(4):
        a = np.random.default_rng(seed).standard_normal(3).astype(np.float32)
        _, out = h.call(strided_upload, *host_array(a))
        want = np.full(6, 7, np.float32)
        want[1::2] = a
        np.testing.assert_array_equal(out.array, want)
    assert h.statistics.task_graph == "replayed"


def reads_a_device_value(rt, a_mem, a):
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
    first = rt.load(x, (0,))
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, float(first), n)
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


def reads_an_argument_on_the_host(rt, a_mem, a):
    steps = int(rt.load(a, (0,)))
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    for _ in range(steps):
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


@pytest.mark.parametrize(
    "python, want, why",
    [
        (reads_a_device_value, lambda a: a + 1 + (a[0] + 1), "uses a device value the host read (a graph reads it after it ran)"),
        (reads_an_argument_on_the_host, lambda a: a + np.float32(int(a[0])), "reads an argument's data on the host"),
    ],
)
def test_host_code_that_needs_data_on_the_host_runs_eagerly(python, want, why):
    h = Harness()
    for first in (3.0, 1.0, 2.0, 5.0):
        a = np.array([first, 0.5, -1.0], np.float32)
        _, out = h.call(python, *host_array(a))
        np.testing.assert_array_equal(out.array, want(a).astype(np.float32))
        assert h.statistics.task_graph is None
    assert list(h.graphs.unsupported.values()) == [why]
    assert h.host_runs == 5  # one capture tried, which ran no device work


def returns_its_argument(rt, a_mem, a, v):
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, n)
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return (a_mem, a.slice([(1, n - 1)]), out_mem, out, v * 2)


def test_results_that_are_arguments_and_scalars():
    h = Harness()
    for seed in range(4):
        a = np.random.default_rng(seed).standard_normal(5).astype(np.float32)
        block, view = host_array(a)
        _, tail, _, out, doubled = h.call(returns_its_argument, block, view, np.float32(3))
        assert tail.block is block
        np.testing.assert_array_equal(tail.array, a[1:])
        np.testing.assert_array_equal(out.array, a + np.float32(3))
        assert doubled == np.float32(6)


def fails_a_check(rt, a_mem, a):
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
    rt.check(n < 4, "n must be below 4")
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(x, out)
    return (out_mem, out)


def test_a_call_that_fails_fails_as_an_eager_call_and_is_never_captured():
    h = Harness()
    a = np.ones(6, np.float32)
    for _ in range(3):
        with pytest.raises(ExecutionError, match="n must be below 4"):
            h.call(fails_a_check, *host_array(a))
    assert h.device.captures == 0
    _, out = h.call(fails_a_check, *host_array(np.ones(2, np.float32)))
    np.testing.assert_array_equal(out.array, [2, 2])


def test_a_device_argument_is_not_a_key():
    from soacc.runtime.gpu.arrays import DeviceBlock

    device = SimulatedDevice()
    block = DeviceBlock(device.allocate(8), 8, Statistics())
    with pytest.raises(GraphUnsupported):
        graph_key("f", [block])


def test_a_scalar_that_changes_every_call_is_remembered_only_so_far(monkeypatch):
    import soacc.runtime.gpu.task_graphs as task_graphs

    monkeypatch.setattr(task_graphs, "KEYS_REMEMBERED", 4)
    h = Harness()
    x = np.ones(2, np.float32)
    for v in range(10):
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(v), np.int64(1))
        np.testing.assert_array_equal(out.array, 2 * _added(x, v, 1))
    assert len(h.graphs.first_calls) == 4 and h.device.captures == 0


def test_a_device_out_of_memory_drops_the_graphs_before_it_fails(monkeypatch):
    """The pool asks the graphs for their arenas back when cuMemAlloc fails (a fake
    driver here: the first allocation after a graph was captured fails once)."""
    import sys
    import types

    from soacc.runtime.gpu.memory_pool import GraphArena, MemoryPool

    class Allocation(int):
        def free(self) -> None:
            freed.append(int(self))

    fails = []
    freed: list[int] = []
    driver = types.SimpleNamespace(MemoryError=MemoryError, LogicError=RuntimeError, mem_get_info=lambda: (0, 0))

    def mem_alloc(n):
        if fails:
            fails.pop()
            raise MemoryError("out of memory")
        return Allocation(len(freed) + 1000 + n)

    driver.mem_alloc = mem_alloc
    monkeypatch.setitem(sys.modules, "pycuda.driver", driver)
    monkeypatch.setitem(sys.modules, "pycuda", types.SimpleNamespace(driver=driver))

    pool = MemoryPool()

    class Memory:
        def __init__(self):
            self.pool = pool

    graphs = TaskGraphs(Memory(), {})
    arena = GraphArena(pool)
    arena.allocate(1 << 20)

    class Graph:
        def __init__(self):
            self.arena = arena

        def release(self):
            self.arena.release()

    entry = types.SimpleNamespace(graph=Graph())
    graphs.graphs["key"] = entry
    fails.append(True)
    block = pool.allocate(1 << 20)
    assert block.ptr and not graphs.graphs  # the graph was dropped, its block returned, then freed
    assert freed, "the arena's block went back to the driver"


def test_take_counters_takes_every_counter_but_the_compile_time():
    """A replay's statistics are its captured call's: every field of Statistics, so that a
    field added later is not silently left out of replays."""
    import dataclasses

    source = Statistics(
        gpu_compile_seconds=1.0, task_graph="captured", kernel_time_s={"k": 1.0}, kernel_launch_counts={"k": 2}
    )
    source.allocated("device", 8)
    source.copied("host", "device", 8)
    source.sync_reads, source.scalar_writes, source.kernel_launches = 1, 2, 3
    copy = Statistics(gpu_compile_seconds=2.0)
    copy.take_counters(source)
    for f in dataclasses.fields(Statistics):
        if f.name != "gpu_compile_seconds":
            assert getattr(copy, f.name) == getattr(source, f.name), f.name
    assert copy.gpu_compile_seconds == 2.0
    source.space("device").live_bytes = 0
    assert copy.space("device").live_bytes == 8  # copied, not shared


def test_a_graph_the_driver_will_not_end_runs_eagerly(monkeypatch):
    h = Harness()
    x = np.ones(4, np.float32)

    def refuse():
        h.device.abort_capture()
        raise ExecutionError("the GPU reported an error instantiating a task graph: CUDA_ERROR_X")

    monkeypatch.setattr(h.device, "end_capture", refuse)
    for _ in range(3):
        _, out = h.call(loop_of_kernels, *host_array(x), np.float32(1.0), np.int64(2))
        np.testing.assert_array_equal(out.array, 2 * _added(x, 1.0, 2))
        assert h.statistics.task_graph is None
    assert list(h.graphs.unsupported.values()) == ["the GPU reported an error instantiating a task graph: CUDA_ERROR_X"]


# --- device loops: while loops whose condition is on the device (conditional nodes) ----


def halve_step(device, grid, block, args):
    """y = x / 2, flag = max(|y|) > limit, count += 1: args (y, x, n, flag, limit, count)."""
    y, x, n, flag, limit, count = args
    out = device.elements(y, n, np.float32)
    out[:] = device.elements(x, n, np.float32) / np.float32(2)
    device.element(flag, np.bool_)[0] = np.abs(out).max() > limit
    device.element(count, np.int64)[0] += 1


def check_above(device, grid, block, args):
    """flag = max(|x|) > limit: args (flag, x, n, limit)."""
    flag, x, n, limit = args
    device.element(flag, np.bool_)[0] = np.abs(device.elements(x, n, np.float32)).max() > limit


LOOP_KERNELS = {**KERNELS, "halve": halve_step, "check": check_above}


def LoopHarness() -> Harness:
    return Harness(kernels=LOOP_KERNELS)


def _on_device_and_checked(rt, a, limit):
    """`a` copied to the device, and the flag `max(|a|) > limit` beside it."""
    n = a.shape[0]
    x_mem = rt.alloc_device(4 * n)
    x = x_mem.view(0, (n,), None, np.float32)
    rt.copy(a, x)
    flag_mem = rt.alloc_device(1)
    flag = flag_mem.view(0, (1,), None, np.bool_)
    rt.launch("check", (1, 1, 1), (1, 1, 1), flag.address, x.address, n, limit)
    return x_mem, x, flag_mem, flag


def halve_until_small(rt, a_mem, a, limit):
    """Halves the array until every |element| is at most `limit`: a device loop whose
    state is (flag block, flag, array block, array, count); returns the array, the
    input doubled (the input's device copy is used after the loop) and the count."""
    n = a.shape[0]
    x_mem, x, flag_mem, flag = _on_device_and_checked(rt, a, limit)
    count_mem = rt.alloc_device(8)
    count = count_mem.view(0, (1,), None, np.int64)
    rt.store(np.int64(0), count, (0,))

    def body(state):
        (x_mem_1, x_1, count_1) = state
        y_mem = rt.alloc_device(4 * n)
        y = y_mem.view(0, (n,), None, np.float32)
        next_flag_mem = rt.alloc_device(1)
        next_flag = next_flag_mem.view(0, (1,), None, np.bool_)
        rt.launch("halve", (1, 1, 1), (1, 1, 1), y.address, x_1.address, n, next_flag.address, limit, count_1.address)
        return [next_flag_mem, next_flag, y_mem, y, count_1]

    (y_mem, y, count_1) = rt.device_while(body, [flag_mem, flag, x_mem, x, count], 1, (0,), (2, 3, 4), (0, 1, 2, 3))
    doubled = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.launch("double", (1, 1, 1), (1, 1, 1), doubled.address, x.address, n)
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(y, out)
    twice_mem = rt.alloc_host(4 * n)
    twice = twice_mem.view(0, (n,), None, np.float32)
    rt.copy(doubled, twice)
    steps = rt.load(count_1, (0,))
    return (out_mem, out, twice_mem, twice, steps)


def _halved(a: np.ndarray, limit: float) -> tuple[np.ndarray, int]:
    x, steps = a.copy(), 0
    while np.abs(x).max() > limit:
        x, steps = x / np.float32(2), steps + 1
    return x, steps


def test_a_device_loop_is_one_conditional_node_that_runs_as_long_as_each_input_needs():
    h = LoopHarness()
    rng = np.random.default_rng(1)
    states = []
    for call, scale in enumerate([8.0, 100.0, 0.5, 3000.0, 1.0]):
        a = (scale * rng.standard_normal(16)).astype(np.float32)
        _, out, _, twice, steps = h.call(halve_until_small, *host_array(a), np.float32(1.0))
        want, want_steps = _halved(a, 1.0)
        np.testing.assert_array_equal(out.array, want)
        np.testing.assert_array_equal(twice.array, 2 * a)  # the loop's input is intact
        assert steps == want_steps and isinstance(steps, np.int64)
        states.append(h.statistics.task_graph)
        assert h.statistics.sync_reads == (want_steps + 2 if call == 0 else 1)
    assert states == [None, "captured", "replayed", "replayed", "replayed"]
    assert h.device.loops == 1 and h.host_runs == 2
    assert not h.graphs.unsupported


def counts_on_the_host(rt, a_mem, a, limit):
    """A loop whose host value (a counter) changes every iteration: no device loop."""
    n = a.shape[0]
    x_mem, x, flag_mem, flag = _on_device_and_checked(rt, a, limit)
    scratch = rt.alloc_device(8).view(0, (1,), None, np.int64)

    def body(state):
        (x_1, steps) = state
        y_mem = rt.alloc_device(4 * n)
        y = y_mem.view(0, (n,), None, np.float32)
        next_flag = rt.alloc_device(1).view(0, (1,), None, np.bool_)
        rt.launch("halve", (1, 1, 1), (1, 1, 1), y.address, x_1.address, n, next_flag.address, limit, scratch.address)
        return [next_flag, y, steps + 1]

    (y, steps) = rt.device_while(body, [flag, x, np.int64(0)], 0, (0,), (1, 2), (0, 1, 2))
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(y, out)
    return (out_mem, out, steps)


def test_a_loop_whose_host_values_change_runs_eagerly_and_says_why():
    h = LoopHarness()
    for scale in (8.0, 100.0, 0.5):
        a = (scale * np.random.default_rng(2).standard_normal(8)).astype(np.float32)
        _, out, steps = h.call(counts_on_the_host, *host_array(a), np.float32(1.0))
        want, want_steps = _halved(a, 1.0)
        np.testing.assert_array_equal(out.array, want)
        assert steps == want_steps
        assert h.statistics.task_graph is None
    assert list(h.graphs.unsupported.values()) == ["a loop whose host values change from one iteration to the next"]


def nested_loops(rt, a_mem, a, limit, rounds):
    """`rounds` times: halve until small, then multiply by 1000 (a loop in a loop);
    the outer loop counts its rounds on the device."""
    n = a.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(a, x)
    left = rt.alloc_device(8).view(0, (1,), None, np.int64)
    rt.store(rounds, left, (0,))
    go = rt.alloc_device(1).view(0, (1,), None, np.bool_)
    rt.launch("positive", (1, 1, 1), (1, 1, 1), go.address, left.address)
    scratch = rt.alloc_device(8).view(0, (1,), None, np.int64)

    def inner(state):
        (x_1,) = state
        y = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
        flag = rt.alloc_device(1).view(0, (1,), None, np.bool_)
        rt.launch("halve", (1, 1, 1), (1, 1, 1), y.address, x_1.address, n, flag.address, limit, scratch.address)
        return [flag, y]

    def outer(state):
        (x_1, left_1) = state
        flag = rt.alloc_device(1).view(0, (1,), None, np.bool_)
        rt.launch("check", (1, 1, 1), (1, 1, 1), flag.address, x_1.address, n, limit)
        (small,) = rt.device_while(inner, [flag, x_1], 0, (0,), (1,), (0, 1))
        big = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
        rt.launch("scale", (1, 1, 1), (1, 1, 1), big.address, small.address, n)
        next_go = rt.alloc_device(1).view(0, (1,), None, np.bool_)
        rt.launch("count_down", (1, 1, 1), (1, 1, 1), left_1.address, next_go.address)
        return [next_go, big, left_1]

    (y, _) = rt.device_while(outer, [go, x, left], 0, (0,), (1, 2), (0, 1))
    out_mem = rt.alloc_host(4 * n)
    out = out_mem.view(0, (n,), None, np.float32)
    rt.copy(y, out)
    return (out_mem, out)


def positive(device, grid, block, args):
    go, left = args
    device.element(go, np.bool_)[0] = device.element(left, np.int64)[0] > 0


def count_down(device, grid, block, args):
    left, go = args
    device.element(left, np.int64)[0] -= 1
    device.element(go, np.bool_)[0] = device.element(left, np.int64)[0] > 0


def scale_up(device, grid, block, args):
    y, x, n = args
    device.elements(y, n, np.float32)[:] = np.float32(1000) * device.elements(x, n, np.float32)


def test_nested_device_loops():
    LOOP_KERNELS.update(positive=positive, count_down=count_down, scale=scale_up)
    h = LoopHarness()
    for rounds in (3, 3, 3, 0):
        a = (50 * np.random.default_rng(3).standard_normal(8)).astype(np.float32)
        _, out = h.call(nested_loops, *host_array(a), np.float32(1.0), np.int64(rounds))
        want = a.copy()
        for _ in range(rounds):
            want = np.float32(1000) * _halved(want, 1.0)[0]
        np.testing.assert_array_equal(out.array, want)
    assert not h.graphs.unsupported
    assert h.device.loops == 2  # captured once each (rounds = 0 is another key, whose first call is eager)


def test_a_value_read_after_the_graph_may_only_be_returned():
    from soacc.runtime.gpu.task_graphs import DeviceScalar

    with pytest.raises(GraphUnsupported, match="uses a device value"):
        DeviceScalar(None, ()) + 1  # type: ignore[arg-type]
    with pytest.raises(GraphUnsupported):
        bool(DeviceScalar(None, ()))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        np.add(DeviceScalar(None, ()), 1)  # type: ignore[arg-type]


def count_both(device, grid, block, args):
    """a2 = a + 1, b2 = b + 2, flag = a2 < limit: args (a2, b2, a, b, flag, limit)."""
    a2, b2, a, b, flag, limit = args
    device.element(a2, np.int64)[0] = device.element(a, np.int64)[0] + 1
    device.element(b2, np.int64)[0] = device.element(b, np.int64)[0] + 2
    device.element(flag, np.bool_)[0] = device.element(a2, np.int64)[0] < limit


def two_counters_from_one_constant(rt, limit):
    """Two loop values whose initial value is the same device cell (a constant made
    once): each must get a slot of its own."""
    zero = rt.alloc_device(8).view(0, (1,), None, np.int64)
    rt.store(np.int64(0), zero, (0,))
    go = rt.alloc_device(1).view(0, (1,), None, np.bool_)
    cell = _limit_cell(rt, limit)
    rt.launch("positive", (1, 1, 1), (1, 1, 1), go.address, cell.address)

    def body(state):
        (a, b) = state
        a2 = rt.alloc_device(8).view(0, (1,), None, np.int64)
        b2 = rt.alloc_device(8).view(0, (1,), None, np.int64)
        flag = rt.alloc_device(1).view(0, (1,), None, np.bool_)
        rt.launch("count_both", (1, 1, 1), (1, 1, 1), a2.address, b2.address, a.address, b.address, flag.address, limit)
        return [flag, a2, b2]

    (a, b) = rt.device_while(body, [go, zero, zero], 0, (0,), (1, 2), (0, 1, 2))
    return (rt.load(a, (0,)), rt.load(b, (0,)))


def _limit_cell(rt, limit):
    cell = rt.alloc_device(8).view(0, (1,), None, np.int64)
    rt.store(limit, cell, (0,))
    return cell


def test_loop_values_that_start_in_one_cell_get_a_slot_each():
    LOOP_KERNELS.update(positive=positive, count_both=count_both)
    h = LoopHarness()
    for limit in (5, 5, 5):
        a, b = h.call(two_counters_from_one_constant, np.int64(limit))
        assert (a, b) == (limit, 2 * limit)
    assert h.statistics.task_graph == "replayed"


# --- a function's forked copy, measured against it --------------------------------------


class Clock:
    """Time as the kernels say it passes: a `tick` launch advances it by its argument."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def ticking(cost: float):
    """Host code of loop_of_kernels that also launches a kernel taking `cost` seconds."""

    def python(rt, x_host_mem, x_host, v, steps):
        rt.launch("tick", (1, 1, 1), (1, 1, 1), cost)
        return loop_of_kernels(rt, x_host_mem, x_host, v, steps)

    python.__name__ = "loop_of_kernels"
    return python


def contest_harness(clock: Clock) -> Harness:
    def tick(device, grid, block, args):
        clock.now += args[0]

    h = Harness(kernels={**KERNELS, "tick": tick})
    h.graphs.clock = clock
    return h


def call_with_copy(h: Harness, python, forked, runs: dict, *args):
    def counted(name, host):
        def run(rt, *a):
            runs[name] += 1
            return host(rt, *a)

        return run

    h.statistics = Statistics()
    runtime = HostRuntime(h.device, h.kernels)
    runtime.statistics = h.statistics
    plain = counted("function", python)
    return h.graphs.call("f", plain, list(args), h.statistics, lambda: plain(runtime, *args), forked=counted("forked", forked))


@pytest.mark.parametrize(
    "costs, kept",
    [((5.0, 1.0), "forked"), ((1.0, 5.0), "function"), ((2.0, 2.0), "function"), ((100.0, 99.0), "function"), ((100.0, 97.0), "forked")],
)
def test_a_forked_copy_is_captured_beside_the_function_and_the_faster_graph_kept(costs, kept):
    from soacc.runtime.gpu.task_graphs import CONTEST_ROUNDS

    clock = Clock()
    h = contest_harness(clock)
    runs = {"function": 0, "forked": 0}
    x = np.arange(8, dtype=np.float32)
    # the eager call, the capture (the function's graph runs), then the forked copy's
    # first replay (not timed: it uploads the graph), then both in turn, timed
    calls = 3 + 2 * CONTEST_ROUNDS
    forked_replays = []
    for call in range(calls + 3):
        _, out = call_with_copy(h, ticking(costs[0]), ticking(costs[1]), runs, *host_array(x), np.float32(1.0), np.int64(3))
        np.testing.assert_array_equal(out.array, 2 * _added(x, 1.0, 3))
        assert h.statistics.kernel_launches == 5  # the tick, three adds, the double
        forked_replays.append(h.statistics.task_graph_forked)
        if call == 1:
            (key, contest), = h.graphs.graphs.items()
            graphs = dict(zip(["function", "forked"], contest.graphs))
    # the eager call ran the function's host code, the capture both; replays run none
    assert runs == {"function": 2, "forked": 1}
    assert h.device.captures == 2
    assert h.graphs.chosen == {key: kept}
    assert forked_replays[:2] == [None, False]
    assert forked_replays[2:calls] == [True] + [False, True] * CONTEST_ROUNDS
    assert forked_replays[calls:] == [kept == "forked"] * 3
    assert h.graphs.graphs[key] is graphs[kept]
    assert [g.graph.released for g in graphs.values()] == [kept == "forked", kept == "function"]


def test_a_forked_copy_that_cannot_be_captured_leaves_the_function_its_graph():
    clock = Clock()
    h = contest_harness(clock)
    runs = {"function": 0, "forked": 0}

    def reads_on_the_host(rt, x_host_mem, x_host, v, steps):
        n = x_host.shape[0]
        x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
        rt.copy(x_host, x)
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, n)
        if rt.load(x, (0,)) > np.float32(1e30):  # a read after a node, used: no graph
            raise AssertionError("unreachable")
        return loop_of_kernels(rt, x_host_mem, x_host, v, steps)

    x = np.arange(8, dtype=np.float32)
    for _ in range(4):
        _, out = call_with_copy(h, ticking(1.0), reads_on_the_host, runs, *host_array(x), np.float32(1.0), np.int64(3))
        np.testing.assert_array_equal(out.array, 2 * _added(x, 1.0, 3))
    assert h.statistics.task_graph == "replayed" and h.statistics.task_graph_forked is False
    assert h.graphs.chosen == {} and not h.graphs.unsupported
    assert ["uses a device value" in why for why in h.graphs.forked_unsupported.values()] == [True]


# --- reads of an argument's device copy before any node: guards ------------------------


def steps_from_an_argument(rt, x_host_mem, x_host, cfg_host_mem, cfg_host):
    """x + steps, one launch per step, steps read from the device copy of the
    argument cfg before any kernel (as the convergence loop reads its bounds)."""
    n = x_host.shape[0]
    cfg = rt.alloc_device(8).view(0, (1,), None, np.int64)
    rt.copy(cfg_host, cfg)
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(x_host, x)
    add_steps(rt, x, 1.0, rt.load(cfg, (0,)))
    return download(rt, x)


def test_a_read_of_an_arguments_device_copy_before_any_node_is_a_guard_of_the_graph():
    from soacc.runtime.gpu.task_graphs import GUARD_MISSES

    h = Harness()
    x = np.arange(8, dtype=np.float32)
    states = []
    for steps in [3, 3, 3, 3, 5, 5, 5]:
        _, out = h.call(steps_from_an_argument, *host_array(x), *host_array(np.array([steps], np.int64)))
        np.testing.assert_array_equal(out.array, x + steps)
        states.append(h.statistics.task_graph)
    # captured on the second call, replayed while cfg holds 3; 5 is captured anew
    assert states == [None, "captured", "replayed", "replayed", "captured", "replayed", "replayed"]
    assert h.graphs.guard_misses == 1 and h.host_runs == 3
    (graph,) = h.graphs.graphs.values()
    assert [(g.argument, g.index) for g in graph.guards] == [(2, 0)]  # (cfg's block, its element 0)
    # values that keep changing: after GUARD_MISSES more misses the key runs eagerly
    for steps in [1, 2, 3, 4, 6]:
        _, out = h.call(steps_from_an_argument, *host_array(x), *host_array(np.array([steps], np.int64)))
        np.testing.assert_array_equal(out.array, x + steps)
    assert h.graphs.guard_misses == GUARD_MISSES + 1 and h.statistics.task_graph is None
    assert "keep changing" in next(iter(h.graphs.unsupported.values()))


def test_a_read_of_an_arguments_device_copy_after_a_node_is_still_no_graph():
    def after_a_kernel(rt, x_host_mem, x_host, cfg_host_mem, cfg_host):
        n = x_host.shape[0]
        cfg = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
        rt.copy(x_host, cfg)
        rt.launch("add", (1, 1, 1), (1, 1, 1), cfg.address, 1.0, n)  # it may change what is read
        value = rt.load(cfg, (0,))
        for _ in range(int(value)):
            rt.launch("add", (1, 1, 1), (1, 1, 1), cfg.address, 1.0, n)
        return (value,)

    h = Harness()
    x = np.full(4, 2, np.float32)
    for _ in range(3):
        (value,) = h.call(after_a_kernel, *host_array(x), *host_array(np.zeros(1, np.int64)))
        assert value == 3
    assert h.statistics.task_graph is None and h.graphs.unsupported


def read_then_overwritten(rt, x_host_mem, x_host):
    """Each element's value before and after an add: the first read is followed by a
    kernel that overwrites the element, so the graph copies it at its place."""
    n = x_host.shape[0]
    x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
    rt.copy(x_host, x)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
    before = rt.load(x, (0,))
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 10.0, n)
    rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 100.0, n)
    after = rt.load(x, (n - 1,))
    return (before, after)


def test_a_device_value_the_host_only_returns_is_copied_at_its_place_where_work_follows():
    h = Harness()
    for seed in range(4):
        x = np.random.default_rng(seed).standard_normal(6).astype(np.float32)
        before, after = h.call(read_then_overwritten, *host_array(x))
        assert before == x[0] + np.float32(1) and after == x[-1] + np.float32(1) + np.float32(10) + np.float32(100)
    assert h.statistics.task_graph == "replayed" and not h.graphs.unsupported
    assert h.statistics.sync_reads == 2


def test_an_arguments_copy_overwritten_before_the_read_is_not_read_from_the_argument():
    def overwritten(rt, x_host_mem, x_host, cfg_host_mem, cfg_host):
        cfg = rt.alloc_device(8).view(0, (1,), None, np.int64)
        rt.copy(cfg_host, cfg)
        rt.store(np.int64(2), cfg, (0,))  # the copy is no longer the argument's
        value = rt.load(cfg, (0,))
        n = x_host.shape[0]
        x = rt.alloc_device(4 * n).view(0, (n,), None, np.float32)
        rt.copy(x_host, x)
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, 1.0, n)
        return (value,)

    h = Harness()
    x = np.arange(4, dtype=np.float32)
    for steps in [7, 7, 7, 9]:
        (value,) = h.call(overwritten, *host_array(x), *host_array(np.array([steps], np.int64)))
        assert value == 2
    assert h.statistics.task_graph == "replayed" and h.graphs.guard_misses == 0


def packed_uploads(rt, a_mem, a, b_mem, b, late):
    """As fuse-transfers emits a message: a and b packed into a host staging block
    (host-to-host copies) and its bytes sent in one copy into a device arena; `late`:
    the message after a kernel (staged), else before any."""
    n = a.shape[0]
    arena = rt.alloc_device(8 * n)
    a_dev, b_dev = arena.view(0, (n,), None, np.float32), arena.view(4 * n, (n,), None, np.float32)
    x = rt.alloc_device(8 * n).view(0, (2 * n,), None, np.float32)
    if late:
        rt.launch("double", (1, 1, 1), (1, 1, 1), x.address, x.address, 2 * n)
    staging = rt.alloc_host(8 * n)
    rt.copy(a, staging.view(0, (n,), None, np.float32))
    rt.copy(b, staging.view(4 * n, (n,), None, np.float32))
    rt.copy(staging.view(0, (8 * n,), None, np.bool_), arena.view(0, (8 * n,), None, np.bool_))
    rt.launch("double", (1, 1, 1), (1, 1, 1), x.address, a_dev.address, n)
    rt.launch("double", (1, 1, 1), (1, 1, 1), x.slice([(n, n)]).address, b_dev.address, n)
    return download(rt, x)


@pytest.mark.parametrize("late", [False, True])
def test_arguments_packed_on_the_host_are_repacked_per_replay(late):
    """A graph remakes a block packed from arguments (fuse-transfers' staging) from
    each call's own arguments, rather than refusing the call (a read of arguments on
    the host) or replaying the captured call's values."""
    h = Harness()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        a, b = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
        _, out = h.call(packed_uploads, *host_array(a), *host_array(b), late)
        np.testing.assert_array_equal(out.array, np.concatenate([2 * a, 2 * b]))
    assert h.statistics.task_graph == "replayed" and not h.graphs.unsupported
    graph = next(iter(h.graphs.graphs.values()))
    assert [u.packing is not None for u in graph.uploads] == [True]
    assert (graph.uploads[0].staging is not None) == late


def packed_then_read(rt, a_mem, a, b_mem, b):
    """A block packed from arguments, then read on the host: not a graph."""
    staging = rt.alloc_host(4)
    rt.copy(a.slice([(0, 1)]), staging.view(0, (1,), None, np.float32))
    return (None, rt.load(staging.view(0, (1,), None, np.float32), (0,)))


def test_a_packed_block_read_on_the_host_is_not_a_graph():
    h = Harness(min_nodes=0)
    for _ in range(3):
        a = np.arange(4, dtype=np.float32)
        _, got = h.call(packed_then_read, *host_array(a), *host_array(a))
        assert got == 0
    assert h.statistics.task_graph is None and h.graphs.unsupported


def packed_then_read_on_the_device(rt, a_mem, a, b_mem, b):
    """a and b packed and sent in one message; then a[1] read from the device copy
    before any kernel: the argument's own element (a guard), as for a plain upload."""
    n = a.shape[0]
    arena = rt.alloc_device(8 * n)
    staging = rt.alloc_host(8 * n)
    rt.copy(a, staging.view(0, (n,), None, np.float32))
    rt.copy(b, staging.view(4 * n, (n,), None, np.float32))
    rt.copy(staging.view(0, (8 * n,), None, np.bool_), arena.view(0, (8 * n,), None, np.bool_))
    second = rt.load(arena.view(0, (n,), None, np.float32), (1,))
    x = rt.alloc_device(8 * n).view(0, (2 * n,), None, np.float32)
    rt.launch("double", (1, 1, 1), (1, 1, 1), x.address, arena.view(0, (2 * n,), None, np.float32).address, 2 * n)
    out_mem, out = download(rt, x)
    return (out_mem, out, second)


def test_an_element_of_a_packed_argument_read_before_any_node_is_guarded():
    h = Harness()
    for first in (3.0, 3.0, 3.0, 7.0, 7.0):
        a = np.array([0, first, 2, 3], dtype=np.float32)
        b = np.arange(4, dtype=np.float32)
        _, out, second = h.call(packed_then_read_on_the_device, *host_array(a), *host_array(b))
        assert second == first
        np.testing.assert_array_equal(out.array, 2 * np.concatenate([a, b]))
    assert h.statistics.task_graph is not None and h.graphs.guard_misses == 1 and not h.graphs.unsupported
