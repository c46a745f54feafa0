"""Profiling (`program.profiling = True`) on the simulated device: the memory reports
each launch as (kernel name, device seconds) and the call's Statistics keep, per kernel
name, the summed device time (`kernel_time_s`) and the launches
(`kernel_launch_counts`). The simulated device makes the times up (a kernel's `seconds`
attribute), so the sums are exact here; tests/runtime/gpu/test_cuda_backend.py profiles
on a real GPU with CUDA events."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.backends import host_code_executor
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.errors import ExecutionError
from soacc.runtime.statistics import Statistics

from tests.support.simulated_device import SimulatedDevice

# `steps` launches of one kernel (map0, x -> x + x) in a loop: not fused, one launch a step
DOUBLINGS = """func.func @main(%a: tensor<?xf32>, %steps: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %a) -> (tensor<?xf32>) {
    %b = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%v: f32):
      %y = arith.addf %v, %v : f32
      soac.yield %y : f32
    }
    scf.yield %b : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}"""


def map0(device, grid, block, args):
    """The emitted map0 (its KERNELS entry: a view in, a view out, rows), in NumPy:
    args (x, offset, size, stride, y, offset, size, stride, rows), in elements."""
    x, _, _, x_stride, y, _, _, y_stride, rows = args
    assert x_stride == y_stride == 1
    source = device.elements(x, rows, np.float32).copy()
    device.elements(y, rows, np.float32)[:] = source + source


map0.seconds = 2.5e-6


def doublings(kernel=map0):
    module = parse_program(DOUBLINGS)
    apply_pipeline(module, "soacc-pipeline{syncs=false}")
    device = SimulatedDevice()
    executor = host_code_executor(module, device, {"map0": kernel})
    assert set(executor.host.kernel_formats) == {"map0"}, "the program's kernels changed: fix map0 above"
    return executor, device


def test_a_profiled_call_has_each_kernels_device_time_and_launches():
    executor, _ = doublings()
    a = np.arange(8, dtype=np.float32)
    executor.profiling = True
    (got,) = executor.call("main", [a, np.int64(3)])
    np.testing.assert_array_equal(got, a * 8)
    s = executor.last_statistics
    assert s.kernel_launches == 3
    assert s.kernel_launch_counts == {"map0": 3}
    assert s.kernel_time_s == pytest.approx({"map0": 3 * 2.5e-6})
    assert s.as_dict()["kernel_launch_counts"] == {"map0": 3}
    assert "map0" in s.table() and "device time  launches" in s.table()

    executor.call("main", [a, np.int64(0)])  # profiled, no launch: empty, not None
    assert executor.last_statistics.kernel_time_s == {} and executor.last_statistics.kernel_launch_counts == {}

    executor.profiling = False
    executor.call("main", [a, np.int64(3)])
    assert executor.last_statistics.kernel_time_s is None and executor.last_statistics.kernel_launch_counts is None
    assert executor.last_statistics.kernel_launches == 3


def test_a_profiled_call_runs_its_host_code_not_a_task_graph():
    executor, device = doublings()
    executor.use_task_graphs(True)
    executor.task_graphs.min_nodes = 0
    executor.profiling = True
    a = np.ones(4, np.float32)
    for _ in range(3):
        executor.call("main", [a, np.int64(2)])
        assert executor.last_statistics.task_graph is None
        assert executor.last_statistics.kernel_launch_counts == {"map0": 2}
    assert device.captures == 0
    executor.profiling = False
    for _ in range(2):
        executor.call("main", [a, np.int64(2)])
    assert device.captures == 1  # unprofiled, the second call is captured


def test_a_call_that_fails_while_profiled_discards_its_profile():
    def faulty(device, grid, block, args):
        raise ExecutionError("the kernel faulted")

    faulty.name = "map0"
    executor, device = doublings(faulty)
    executor.profiling = True
    with pytest.raises(ExecutionError, match="the kernel faulted"):
        executor.call("main", [np.ones(4, np.float32), np.int64(2)])
    assert device.profiles_discarded == 1
    assert executor.last_statistics.kernel_time_s is None


def test_record_profile_sums_each_kernels_launches():
    s = Statistics()
    s.record_profile([("a", 1.0), ("b", 0.25), ("a", 2.0), ("soacc_copy_strided_4", 0.5), ("a", 3.0)])
    assert s.kernel_time_s == {"a": 6.0, "b": 0.25, "soacc_copy_strided_4": 0.5}
    assert s.kernel_launch_counts == {"a": 3, "b": 1, "soacc_copy_strided_4": 1}
    table = s.table().splitlines()
    at = table.index("kernel           device time  launches")
    assert [line.split()[0] for line in table[at + 1 :]] == ["a", "soacc_copy_strided_4", "b"]  # by time
    assert table[at + 1].split() == ["a", "6000.000", "ms", "3"]
