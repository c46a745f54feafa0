"""The counters of a run at level 2, each checked on a program whose counts are known
by hand (the comment on each test does the counting)."""

from __future__ import annotations

import numpy as np

import soacc

F32_CHAIN = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %d = soac.map(%c) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.subf %x, %x : f32
    soac.yield %y : f32
  }
  func.return %d : tensor<?xf32>
}"""


def stats_of(src: str, *args) -> soacc.runtime.statistics.Statistics:
    program = soacc.compile(src, backend="numpy", pipeline="convert-soac-to-mem")
    program.main(*args)
    return program.statistics


def test_allocations_and_bytes_per_space():
    # device: the copy of a, then b, c, d: 4 blocks of 100 f32; host: the result
    s = stats_of(F32_CHAIN, np.zeros(100, np.float32))
    assert (s.spaces["device"].allocations, s.spaces["device"].bytes_allocated) == (4, 1600)
    assert (s.spaces["host"].allocations, s.spaces["host"].bytes_allocated) == (1, 400)


def test_peak_counts_a_block_free_after_its_last_use():
    # a dies once b is made, b once c is, c once d is: never more than 2 x 400 bytes
    # live on the device (4 x 400 if nothing were freed)
    s = stats_of(F32_CHAIN, np.zeros(100, np.float32))
    assert s.spaces["device"].peak_bytes == 800
    assert s.spaces["device"].live_bytes == 0  # everything on the device is freed by the end


def test_copies_by_direction():
    # the argument goes to the device, the result comes back, nothing else moves
    s = stats_of(F32_CHAIN, np.zeros(100, np.float32))
    assert (s.copies["host->device"].count, s.copies["host->device"].bytes) == (1, 400)
    assert (s.copies["device->host"].count, s.copies["device->host"].bytes) == (1, 400)
    assert s.copies["device->device"].count == 0


UPDATE_KEEPING_SOURCE = """func.func @main(%a: tensor<?xi64>, %x: i64) -> (tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %b = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    soac.yield %e : i64
  }
  %u = soac.update %b[%c0] = %x : tensor<?xi64>, i64
  func.return %u, %b : tensor<?xi64>, tensor<?xi64>
}"""


def test_a_copying_update_is_a_device_to_device_copy_and_a_scalar_write():
    # %b is used after the update, so the update writes into a copy of it (10 x 8
    # bytes, device to device); writing the host scalar %x to the device is one
    # scalar write
    s = stats_of(UPDATE_KEEPING_SOURCE, np.arange(10, dtype=np.int64), np.int64(7))
    assert (s.copies["device->device"].count, s.copies["device->device"].bytes) == (1, 80)
    assert s.scalar_writes == 1


IN_PLACE_UPDATE = UPDATE_KEEPING_SOURCE.replace(
    "func.return %u, %b : tensor<?xi64>, tensor<?xi64>", "func.return %u, %u : tensor<?xi64>, tensor<?xi64>"
)


def test_an_in_place_update_copies_nothing_on_the_device():
    s = stats_of(IN_PLACE_UPDATE, np.arange(10, dtype=np.int64), np.int64(7))
    assert s.copies["device->device"].count == 0
    assert s.spaces["device"].allocations == 2  # the argument's copy and %b; no copy of %b


READS_IN_A_LOOP = """func.func @main(%a: tensor<?xf32>, %k: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %z) -> (f32) {
    %x = soac.index %a[%i] : tensor<?xf32>
    %t = arith.addf %acc, %x : f32
    scf.yield %t : f32
  }
  %r = soac.reduce(%a) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %m: f32):
    %y = arith.addf %l, %m : f32
    soac.yield %y : f32
  }
  %out = arith.addf %s, %r : f32
  func.return %out : f32
}"""


def test_synchronous_reads():
    # k host-level reads of a[i], and one read of the reduction's result
    s = stats_of(READS_IN_A_LOOP, np.ones(10, np.float32), np.int64(6))
    assert s.sync_reads == 7


def test_kernel_launches_count_host_level_kernels_only():
    # one launch per host-level map: 3 (maps inside lambdas would not add launches)
    s = stats_of(F32_CHAIN, np.zeros(5, np.float32))
    assert s.kernel_launches == 3
    nested = """func.func @main(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      soac.yield %x : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""
    assert stats_of(nested, np.zeros((3, 4), np.float32)).kernel_launches == 1


LITERAL = """func.func @main(%x: f32, %y: f32) -> tensor<2xf32> {
  %v = soac.array [%x, %y] : tensor<2xf32>
  func.return %v : tensor<2xf32>
}"""


def test_an_array_literal_of_host_scalars_is_one_host_to_device_transfer():
    s = stats_of(LITERAL, np.float32(1), np.float32(2))
    assert (s.copies["host->device"].count, s.copies["host->device"].bytes) == (1, 8)


def test_statistics_start_afresh_for_every_call():
    program = soacc.compile(F32_CHAIN, backend="numpy", pipeline="convert-soac-to-mem")
    program.main(np.zeros(10, np.float32))
    program.main(np.zeros(10, np.float32))
    assert program.statistics.spaces["device"].allocations == 4


def test_level_one_runs_count_nothing():
    program = soacc.compile(F32_CHAIN, backend="numpy", pipeline="")
    program.main(np.zeros(10, np.float32))
    assert program.statistics.spaces == {} and program.statistics.sync_reads == 0
