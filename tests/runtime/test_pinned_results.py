"""The pool of page-locked result buffers (runtime/gpu/pinned_results.py), with NumPy's
own memory standing in for page-locked memory: leases live as long as any array that
views them, buffers are reused by size, the pool never holds more than its capacity,
and where it cannot lend, the caller gets None (and allocates pageable memory)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from soacc.runtime.gpu.pinned_results import GRANULE, POOLED_FROM, PinnedPool, capacity_from_environment
from soacc.runtime.gpu.host_runtime import HostRuntime

from tests.support.simulated_device import SimulatedDevice


class Allocator:
    def __init__(self, fail: bool = False):
        self.sizes: list[int] = []
        self.fail = fail

    def __call__(self, nbytes: int) -> np.ndarray:
        if self.fail:
            raise MemoryError("no page-locked memory")
        self.sizes.append(nbytes)
        return np.zeros(nbytes, np.uint8)


def test_a_lease_lives_as_long_as_any_view_of_it_and_its_buffer_is_then_reused():
    allocate = Allocator()
    pool = PinnedPool(allocate, capacity=16 * GRANULE)
    lent = pool.take(3 * GRANULE + 5)
    assert lent.nbytes == 3 * GRANULE + 5 and pool.is_pinned(lent)
    lent[:] = 7
    view = lent[:-5].view(np.float32)[10:20]  # a result's array is a view of the lent bytes
    reshaped = np.ndarray((2, 5), np.float32, buffer=lent, offset=40)
    del lent
    gc.collect()
    assert pool.counts()["lent"] == 4 * GRANULE
    assert pool.take(3 * GRANULE) is not None  # another buffer: the first is still viewed
    assert allocate.sizes == [4 * GRANULE, 3 * GRANULE]
    del view
    gc.collect()
    assert pool.counts()["lent"] == 4 * GRANULE  # (the second lease died at once: nothing viewed it)
    np.testing.assert_array_equal(reshaped.view(np.uint8), 7)
    del reshaped
    gc.collect()
    assert pool.counts()["lent"] == 0
    again = pool.take(4 * GRANULE)
    assert allocate.sizes == [4 * GRANULE, 3 * GRANULE] and pool.counts()["reuses"] == 1
    assert pool.is_pinned(again)


def test_small_allocations_are_not_lent():
    pool = PinnedPool(Allocator())
    assert pool.take(POOLED_FROM - 1) is None
    assert pool.take(POOLED_FROM) is not None


def test_the_pool_holds_at_most_its_capacity_dropping_free_buffers_first():
    allocate = Allocator()
    pool = PinnedPool(allocate, capacity=8 * GRANULE)
    a = pool.take(4 * GRANULE)
    b = pool.take(4 * GRANULE)
    assert pool.take(2 * GRANULE) is None  # full, and every buffer lent
    del a
    gc.collect()
    c = pool.take(2 * GRANULE)  # the free 4 MiB buffer is dropped to make room
    assert c is not None and pool.counts()["held"] == 6 * GRANULE
    assert not pool.is_pinned(np.zeros(1))
    del b, c


def test_where_the_driver_refuses_page_locked_memory_the_caller_gets_none():
    pool = PinnedPool(Allocator(fail=True))
    assert pool.take(4 * GRANULE) is None and pool.counts()["held"] == 0


def test_capacity_zero_turns_the_pool_off(monkeypatch):
    monkeypatch.setenv("SOACC_PINNED_BYTES", "0")
    assert capacity_from_environment() == 0
    assert PinnedPool(Allocator(), capacity=0).take(4 * GRANULE) is None
    monkeypatch.setenv("SOACC_PINNED_BYTES", "lots")
    with pytest.raises(ValueError, match="SOACC_PINNED_BYTES"):
        capacity_from_environment()


def test_host_blocks_of_a_runtime_whose_memory_lends_come_from_the_pool():
    pool = PinnedPool(Allocator())
    device = SimulatedDevice()
    device.host_buffer = pool.take  # what CudaMemory does
    runtime = HostRuntime(device, {})
    big = runtime.alloc_host(POOLED_FROM)
    small = runtime.alloc_host(64)
    assert pool.is_pinned(big.buffer) and not pool.is_pinned(small.buffer)
    assert pool.counts()["lent"] == -(-POOLED_FROM // GRANULE) * GRANULE


def test_fresh_results_are_the_callers_without_a_copy_unless_they_share_memory():
    from soacc.program import _own_results

    block = np.zeros(64, np.uint8)
    a = np.ndarray((4,), np.float32, buffer=block)  # a view of the call's own block
    b = np.ndarray((4,), np.float32, buffer=block, offset=16)
    arg = np.ones(4, np.float32)
    broadcast = np.lib.stride_tricks.as_strided(np.ndarray((1,), np.float32, buffer=block, offset=32), (4,), (0,))
    got = _own_results([a, b, arg, broadcast], [arg], fresh=True)
    assert got[0] is a and got[1] is b  # views of fresh memory, apart: as they are
    assert got[2] is not arg and not np.shares_memory(got[2], arg)  # an argument: copied
    assert got[3].base is None and got[3].strides == (4,)  # a broadcast: copied
    kept = _own_results([a], [], fresh=False)
    assert kept[0] is not a  # the reference executor's views may be of memory it keeps
    overlapping = np.ndarray((4,), np.float32, buffer=block, offset=4)
    assert not np.shares_memory(_own_results([a, overlapping], [], fresh=True)[1], a)
