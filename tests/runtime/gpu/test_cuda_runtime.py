"""The PyCUDA runtime: pool, compile cache, prepared launches (marker `gpu`)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

SAXPY = r"""
extern "C" __global__ void saxpy(float *y, const float *x, float a, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}
"""


@pytest.fixture(scope="module")
def device():
    from soacc.runtime.gpu.device import get_device

    return get_device()


def test_device_is_found(device):
    assert device.arch.startswith("sm_") and device.name


def test_pool_reuses_a_freed_block(device):
    from soacc.runtime.gpu.memory_pool import MemoryPool

    pool = MemoryPool()
    a = pool.allocate(1000)
    first = a.ptr
    a.release()
    b = pool.allocate(900)  # same size class
    assert b.ptr == first
    assert pool.counters.device_mallocs == 1 and pool.counters.allocations == 2
    assert pool.counters.live_bytes == 900 and pool.counters.peak_bytes == 1000
    del b
    assert pool.counters.live_bytes == 0 and pool.counters.held_bytes == 1024
    pool.free_held()
    assert pool.counters.held_bytes == 0


def test_out_of_memory_is_a_clear_error_and_the_pool_stays_usable(device):
    from soacc.runtime.gpu.memory_pool import DeviceOutOfMemory, MemoryPool

    pool = MemoryPool()
    keep = pool.allocate(4096)
    with pytest.raises(DeviceOutOfMemory, match=r"out of device memory allocating \d+ bytes for the test array"):
        pool.allocate(1 << 50, what="the test array")
    assert pool.counters.live_bytes == 4096
    again = pool.allocate(4096)
    assert again.ptr != keep.ptr


def test_a_second_load_does_not_compile(device, tmp_path):
    from soacc.runtime.gpu.module_cache import ModuleCache

    first = ModuleCache(device.arch, directory=tmp_path)
    first.load(SAXPY, "saxpy test")
    assert first.counters.compilations == 1
    second = ModuleCache(device.arch, directory=tmp_path)  # a new run: only the disk is shared
    second.load(SAXPY, "saxpy test")
    assert second.counters.compilations == 0 and second.counters.disk_hits == 1
    second.load(SAXPY, "saxpy test")
    assert second.counters.memory_hits == 1


def test_a_compile_error_names_the_program(device, tmp_path):
    from soacc.runtime.errors import ProgramError
    from soacc.runtime.gpu.module_cache import ModuleCache

    cache = ModuleCache(device.arch, directory=tmp_path)
    with pytest.raises(ProgramError, match="the CUDA C of broken.mlir does not compile"):
        cache.load("__global__ void k() { this is not C; }", "broken.mlir")
    assert not list(tmp_path.glob("*.cubin"))


@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 1 << 20])
def test_prepared_launch_computes_saxpy(device, tmp_path, n):
    import pycuda.driver as cuda

    from soacc.runtime.gpu.kernels import Kernel, LaunchCounters
    from soacc.runtime.gpu.memory_pool import MemoryPool
    from soacc.runtime.gpu.module_cache import ModuleCache

    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    pool = MemoryPool()
    dx, dy = pool.allocate(x.nbytes), pool.allocate(y.nbytes)
    if n:
        cuda.memcpy_htod(dx.ptr, x)
        cuda.memcpy_htod(dy.ptr, y)
    counters = LaunchCounters()
    kernel = Kernel(ModuleCache(device.arch, directory=tmp_path).load(SAXPY, "saxpy"), "saxpy", "PPfq", counters, "saxpy")
    kernel((max(1, min(1024, (n + 255) // 256)), 1), (256, 1, 1), dy.ptr, dx.ptr, np.float32(2.0), np.int64(n))
    device.synchronize()
    out = np.empty_like(y)
    if n:
        cuda.memcpy_dtoh(out, dy.ptr)
    np.testing.assert_array_equal(out, np.float32(2.0) * x + y)
    assert counters.launches == 1


DOUBLE = """
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %two = arith.constant 2.0 : f32
  %y, %z = soac.map(%x) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%e: f32):
    %d = arith.mulf %e, %two : f32
    %n = arith.negf %e : f32
    soac.yield %d, %n : f32, f32
  }
  func.return %y, %z : tensor<?xf32>, tensor<?xf32>
}
"""


@pytest.mark.parametrize("graphs", [False, True])
def test_large_results_come_back_in_page_locked_memory_that_the_pool_reuses(graphs):
    """Results of POOLED_FROM bytes or more are NumPy arrays over the pinned pool's
    buffers (one DMA each, no staging); a buffer goes back when its arrays die, and the
    next call's results reuse it; small results stay pageable."""
    import gc

    import soacc

    program = soacc.compile(DOUBLE, backend="cuda")
    program.task_graphs = graphs
    pool = program.executor.memory.pinned_pool
    before = pool.counts()
    for call in range(5):
        x = np.random.default_rng(call).standard_normal(1 << 20).astype(np.float32)  # 4 MB
        y, z = program.main(x)
        np.testing.assert_array_equal(y, 2 * x)
        np.testing.assert_array_equal(z, -x)
        assert pool.is_pinned(y) and pool.is_pinned(z)
        del y, z
        gc.collect()
    after = pool.counts()
    assert after["reuses"] - before["reuses"] >= 6  # every call after the first two
    small_y, _ = program.main(np.ones(16, np.float32))
    assert not pool.is_pinned(small_y) and small_y[0] == 2
