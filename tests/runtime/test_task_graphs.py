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

    def __init__(self, min_nodes: int = 1, capacity: int = 8):
        self.device = SimulatedDevice()
        self.graphs = TaskGraphs(self.device, KERNELS, min_nodes=min_nodes, capacity=capacity)
        self.host_runs = 0
        self.statistics = Statistics()

    def call(self, python, *args):
        self.statistics = Statistics()
        runtime = HostRuntime(self.device, KERNELS)
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
    for _ in range(int(steps)):
        rt.launch("add", (1, 1, 1), (1, 1, 1), x.address, v, n)
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
        (reads_a_device_value, lambda a: a + 1 + (a[0] + 1), "a synchronous read of a device value"),
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
