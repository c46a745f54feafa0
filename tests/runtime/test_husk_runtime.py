"""The GPU runtime's husks (runtime/gpu/husks.py) on simulated devices, each with
addresses of its own: rows sent to each device and sent back, broadcasts, strided
sources gathered first, outs updated in place, slots, devices the cost model leaves
idle, and an error naming its device. The bodies are host code written here (the
simulated device runs no kernels): each device copies its rows, as a map of the
identity would; tests/runtime/gpu runs compiled husks on a GPU."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.runtime.errors import ExecutionError
from soacc.runtime.gpu.arrays import HostBlock, View, dense_strides
from soacc.runtime.gpu.host_runtime import HostRuntime
from soacc.runtime import husk_cost
from soacc.runtime.husk_cost import ALWAYS, SPLIT_ENVIRONMENT, DeviceModel, measured_model
from soacc.runtime.gpu.husks import THREADS_ENVIRONMENT, send_back
from soacc.runtime.husk_residency import ResidentRows

from tests.support.simulated_device import SimulatedDevice


@pytest.fixture(autouse=True)
def split_over_every_device(monkeypatch):
    monkeypatch.setenv(SPLIT_ENVIRONMENT, ALWAYS)


def runtimes(devices: int) -> HostRuntime:
    home = HostRuntime(SimulatedDevice(), {})
    for i in range(1, devices):
        peer = HostRuntime(SimulatedDevice(), {})
        peer.space = f"device {i}"
        home.peers.append(peer)
    if devices > 1:  # (as the cuda backend sets them up)
        home.resident = ResidentRows(lambda block, entry: send_back(home, block, entry))
    return home


def on_device(rt: HostRuntime, values: np.ndarray) -> View:
    view = rt.alloc_device(values.nbytes).view(0, values.shape, None, values.dtype)
    host = HostBlock(np.ascontiguousarray(values).reshape(-1).view(np.uint8).copy(), None)
    rt.copy(View(host, 0, values.shape, dense_strides(values.shape), values.dtype), view)
    return view


def read(rt: HostRuntime, view: View) -> np.ndarray:
    out = np.empty(view.shape, view.dtype)
    host = HostBlock(out.reshape(-1).view(np.uint8), None)
    rt.copy(view, View(host, 0, view.shape, dense_strides(view.shape), view.dtype))
    return out


def copy_rows(rt, device, offset, size, part, rows, *rest):
    """A body: its rows of the source into its rows of the out (a map of the identity),
    each row plus the device's number, so the test sees which device made it."""
    values = read(rt, part) + int(device) * 100
    rt.copy(on_device(rt, values), rows)


@pytest.mark.parametrize("devices", [1, 2, 3, 4])
def test_rows_are_sent_and_sent_back(devices):
    home = runtimes(devices)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys = on_device(home, np.zeros(10, np.int32))
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    (run,) = home.statistics.husks
    want = np.concatenate([np.arange(o, o + s) + 100 * d for d, (o, s) in enumerate(run.partitions)])
    np.testing.assert_array_equal(read(home, ys), want)
    # device i > 0: its rows there, its rows back
    assert home.statistics.copies["peer"].count == 2 * (devices - 1)
    for i in range(1, devices):
        assert home.peers[i].memory.peer_copies == 2  # each issued on the device's own stream


def test_a_strided_source_is_gathered_then_sent_row_by_row():
    home = runtimes(2)
    matrix = on_device(home, np.arange(12, dtype=np.int64).reshape(3, 4))
    transposed = matrix.transpose((1, 0))  # 4 rows of 3, strided
    ys = on_device(home, np.zeros((4, 3), np.int64))
    home.husk_run(copy_rows, np.int64(4), (transposed,), (ys,), (), ())
    want = np.arange(12).reshape(3, 4).T + np.array([[0], [0], [100], [100]])
    np.testing.assert_array_equal(read(home, ys), want)
    assert home.statistics.copies["peer"].bytes == 2 * 2 * 3 * 8  # 2 rows of 3 there and back


def test_an_out_that_is_a_source_is_one_array_to_each_device():
    home = runtimes(3)
    xs = on_device(home, np.arange(9, dtype=np.float32))

    def add_one_in_place(rt, device, offset, size, part, rows):
        assert rows.block is part.block  # the rows it was sent are where it writes
        rt.copy(on_device(rt, read(rt, part) + 1), rows)

    home.husk_run(add_one_in_place, np.int64(9), (xs,), (xs,), (), ())
    np.testing.assert_array_equal(read(home, xs), np.arange(9) + 1)


def test_broadcasts_and_slots():
    home = runtimes(2)
    xs = on_device(home, np.arange(6, dtype=np.int64))
    weights = on_device(home, np.array([10, 20], np.int64))
    slots = on_device(home, np.full(2, -1, np.int64))

    def weighted_sum(rt, device, offset, size, part, slot, w):
        assert w.block is not weights.block or int(device) == 0  # device 1 has its own copy
        total = int(read(rt, part).sum()) * int(read(rt, w)[int(device)])
        rt.copy(on_device(rt, np.array(total, np.int64)), slot)

    busy = home.husk_run(weighted_sum, np.int64(6), (xs,), (), (slots,), (weights,))
    assert busy == 2
    np.testing.assert_array_equal(read(home, slots), [(0 + 1 + 2) * 10, (3 + 4 + 5) * 20])


def test_devices_past_those_used_do_nothing(monkeypatch):
    monkeypatch.setenv(SPLIT_ENVIRONMENT, "model")  # 3 rows of 1 op: one device
    home = runtimes(3)
    xs = on_device(home, np.arange(3, dtype=np.int32))
    ys = on_device(home, np.zeros(3, np.int32))
    assert home.husk_run(copy_rows, np.int64(3), (xs,), (ys,), (), (), 1) == 1
    np.testing.assert_array_equal(read(home, ys), [0, 1, 2])
    assert home.statistics.copies["peer"].count == 0 and home.statistics.husks[0].used == 1
    assert all(p.memory.allocations == 0 for p in home.peers[1:])


def test_an_error_on_a_device_names_it():
    home = runtimes(2)
    xs = on_device(home, np.arange(4, dtype=np.int32))

    def fails_on_device_1(rt, device, offset, size, part):
        if int(device) == 1:
            raise ExecutionError("out of memory")

    with pytest.raises(ExecutionError, match="on husk device 1 of 2: out of memory"):
        home.husk_run(fails_on_device_1, np.int64(4), (xs,), (), (), ())


def test_sizes_that_do_not_match_are_errors():
    home = runtimes(2)
    xs = on_device(home, np.arange(4, dtype=np.int32))
    with pytest.raises(ExecutionError, match="husk.run source 0 has 4 rows; expected 5"):
        home.husk_run(copy_rows, np.int64(5), (xs,), (), (), ())
    with pytest.raises(ExecutionError, match=r"slot array 0 has 4 rows; expected 2 \(one per device\)"):
        home.husk_run(copy_rows, np.int64(4), (), (), (xs,), ())


def test_the_peer_bandwidth_is_measured():
    home = runtimes(2)
    model = measured_model(home, DeviceModel(), nbytes=1 << 16)
    assert model.peer_bytes_per_second > 0 and model.ops_per_second == DeviceModel().ops_per_second
    assert home.peers[1].memory.peer_copies == 0 and home.memory.peer_copies == 4  # issued on device 0
    assert measured_model(runtimes(1)) is husk_cost.DEVICE_MODEL  # one device: nothing to measure


def test_a_runtimes_own_model_decides(monkeypatch):
    monkeypatch.setenv(SPLIT_ENVIRONMENT, "model")
    home = runtimes(2)
    xs = on_device(home, np.arange(8, dtype=np.int32))
    ys = on_device(home, np.zeros(8, np.int32))
    home.device_model = DeviceModel(ops_per_second=1.0)  # a slow device: splitting pays
    assert home.husk_run(copy_rows, np.int64(8), (xs,), (ys,), (), (), 1) == 2
    home.device_model = DeviceModel(peer_bytes_per_second=1.0)  # a slow link: it does not
    assert home.husk_run(copy_rows, np.int64(8), (xs,), (ys,), (), (), 1) == 1


# --- what devices hold from one run to the next (runtime/husk_residency.py) --------------


def peer_counts(home: HostRuntime) -> tuple[int, int]:
    c = home.statistics.copies["peer"]
    return c.count, c.bytes


def test_a_second_run_over_the_same_rows_sends_nothing_there():
    home = runtimes(2)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys, zs = on_device(home, np.zeros(10, np.int32)), on_device(home, np.zeros(10, np.int32))
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    assert peer_counts(home) == (1, 20)  # rows 5-9 there; device 1's rows of ys stay there
    home.husk_run(copy_rows, np.int64(10), (xs,), (zs,), (), ())
    assert peer_counts(home) == (1, 20)  # device 1 holds rows 5-9 of xs
    assert home.statistics.husks[1].kept == 20
    np.testing.assert_array_equal(read(home, zs), np.arange(10) + np.repeat([0, 100], 5))
    assert peer_counts(home) == (2, 40)  # reading zs brought device 1's rows back
    np.testing.assert_array_equal(read(home, ys), np.arange(10) + np.repeat([0, 100], 5))
    assert peer_counts(home) == (3, 60)


def test_rows_a_device_computed_are_what_the_next_run_reads_there():
    home = runtimes(3)
    xs = on_device(home, np.arange(9, dtype=np.int64))
    ys, zs = on_device(home, np.zeros(9, np.int64)), on_device(home, np.zeros(9, np.int64))
    home.husk_run(copy_rows, np.int64(9), (xs,), (ys,), (), ())
    before = peer_counts(home)
    home.husk_run(copy_rows, np.int64(9), (ys,), (zs,), (), ())
    assert peer_counts(home) == before  # every device reads the rows of ys it computed
    np.testing.assert_array_equal(read(home, zs), np.arange(9) + 2 * np.repeat([0, 100, 200], 3))


def add_device_in_place(rt, device, offset, size, part, rows, *rest):
    """A body that updates its rows in place (a scan husk's second run): each plus the
    device's number times 1000."""
    rt.copy(on_device(rt, read(rt, part) + int(device) * 1000), part)


@pytest.mark.parametrize("devices", [2, 3, 4])
def test_a_run_that_continues_another_uses_its_devices_and_moves_no_rows(devices):
    """`husk.run devices(%k)`: the first run's busy devices, its partitions, whatever
    the cost; the rows each computed are where it updates them."""
    home = runtimes(devices)
    xs = on_device(home, np.arange(11, dtype=np.int64))
    ys = on_device(home, np.zeros(11, np.int64))
    busy = home.husk_run(copy_rows, np.int64(11), (xs,), (ys,), (), ())
    before = peer_counts(home)
    assert home.husk_run(add_device_in_place, np.int64(11), (ys,), (ys,), (), (), 1, used=busy) == busy
    assert peer_counts(home) == before
    first, second = home.statistics.husks
    assert second.partitions == first.partitions
    table = first.partitions
    want = np.concatenate([np.arange(o, o + s) + d * 1100 for d, (o, s) in enumerate(table)])
    np.testing.assert_array_equal(read(home, ys), want)


def test_a_continued_run_on_fewer_devices_gets_the_rows_it_lacks():
    home = runtimes(3)
    xs = on_device(home, np.arange(9, dtype=np.int64))
    ys = on_device(home, np.zeros(9, np.int64))
    home.husk_run(copy_rows, np.int64(9), (xs,), (ys,), (), ())
    assert home.husk_run(add_device_in_place, np.int64(9), (ys,), (ys,), (), (), 1, used=2) == 2
    assert home.statistics.husks[1].partitions == [(0, 5), (5, 4), (9, 0)]
    made = np.arange(9) + np.repeat([0, 100, 200], 3)
    np.testing.assert_array_equal(read(home, ys), made + np.repeat([0, 1000], [5, 4]))
    with pytest.raises(ExecutionError, match="continues a run on 4 device"):
        home.husk_run(add_device_in_place, np.int64(9), (ys,), (ys,), (), (), 1, used=4)


def test_host_code_touching_an_array_makes_the_next_run_send_it_again():
    home = runtimes(2)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys = on_device(home, np.zeros(10, np.int32))
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    home.copy(on_device(home, np.full(10, 7, np.int32)), xs)  # host code writes xs
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    assert home.statistics.husks[1].kept == 0
    np.testing.assert_array_equal(read(home, ys), 7 + np.repeat([0, 100], 5))
    # a launch names its arrays first (lowering/emit_host.py emits rt.touch)
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    home.touch(xs)
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    assert [run.kept for run in home.statistics.husks] == [0, 0, 20, 0]  # (reading ys kept xs)


def add_broadcast_rows(rt, device, offset, size, part, rows, whole):
    """A body: its rows of the source plus the same rows of a broadcast array."""
    o, n = int(offset), int(size)
    rt.copy(on_device(rt, read(rt, part) + read(rt, whole)[o : o + n]), rows)


def test_a_broadcast_is_completed_from_the_rows_a_device_holds():
    home = runtimes(2)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys, zs = on_device(home, np.zeros(10, np.int32)), on_device(home, np.zeros(10, np.int32))
    home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())  # device 1 holds rows 5-9 of ys
    before = peer_counts(home)
    home.husk_run(add_broadcast_rows, np.int64(10), (xs,), (zs,), (), (ys,))
    # xs's rows held; of ys, rows 0-4 sent and 5-9 copied within device 1; zs's rows back
    assert (peer_counts(home)[0] - before[0], peer_counts(home)[1] - before[1]) == (2, 40)
    assert home.statistics.copies["device->device"].bytes >= 20
    assert home.statistics.husks[1].kept == 40
    np.testing.assert_array_equal(read(home, zs), 2 * np.arange(10) + np.repeat([0, 100], 5))


def test_an_out_written_again_is_held_as_the_run_computed_it():
    home = runtimes(2)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys = on_device(home, np.zeros(10, np.int32))
    home.husk_run(copy_rows, np.int64(10), (xs,), (xs,), (), ())  # in place: xs + device * 100
    home.husk_run(copy_rows, np.int64(10), (xs,), (xs,), (), ())  # again, from what device 1 holds
    assert home.statistics.husks[1].kept == 20
    np.testing.assert_array_equal(read(home, xs), np.arange(10) + np.repeat([0, 200], 5))
    # a run over fewer rows of the same array splits it differently: rows 4-7 go to
    # device 1, which held 5-9 from before (its own earlier values): sent afresh
    home.husk_run(copy_rows, np.int64(8), (xs.slice([(0, 8)]),), (ys.slice([(0, 8)]),), (), ())
    np.testing.assert_array_equal(read(home, ys)[:8], np.r_[np.arange(4), np.arange(4, 5) + 100, np.arange(5, 8) + 300])


# --- a host thread per device (SOACC_HUSK_THREADS=1, for measuring) ------------------------


@pytest.mark.parametrize("devices", [2, 3, 4])
def test_threads_per_device_give_the_same_rows_and_counts(monkeypatch, devices):
    monkeypatch.setenv(THREADS_ENVIRONMENT, "1")
    home = runtimes(devices)
    xs = on_device(home, np.arange(10, dtype=np.int32))
    ys = on_device(home, np.zeros(10, np.int32))
    for _ in range(3):
        home.husk_run(copy_rows, np.int64(10), (xs,), (ys,), (), ())
    run = home.statistics.husks[0]
    want = np.concatenate([np.arange(o, o + s) + 100 * d for d, (o, s) in enumerate(run.partitions)])
    np.testing.assert_array_equal(read(home, ys), want)
    # the first run sends each device its rows; their rows of ys come back when read
    assert home.statistics.copies["peer"].count == (devices - 1) * 2
    assert all(p.statistics is home.statistics for p in home.peers)
    assert home._husk_threads is not None


def test_an_error_in_a_devices_thread_names_it(monkeypatch):
    monkeypatch.setenv(THREADS_ENVIRONMENT, "1")
    home = runtimes(3)
    xs = on_device(home, np.arange(6, dtype=np.int32))

    def fails_on_device_2(rt, device, offset, size, part):
        if int(device) == 2:
            raise ExecutionError("out of memory")

    with pytest.raises(ExecutionError, match="on husk device 2 of 3: out of memory"):
        home.husk_run(fails_on_device_2, np.int64(6), (xs,), (), (), ())
    assert all(p.statistics is home.statistics for p in home.peers)
