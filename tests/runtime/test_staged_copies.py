"""The staging pipeline (runtime/gpu/staged_copies.py) on a fake device whose copies
happen only when an event or the stream is waited for, in issue order, as a copy
engine's would: a buffer refilled before its DMA ran, or a chunk copied out before its
DMA, gives wrong bytes here. The GPU test (tests/runtime/gpu/test_cuda_runtime.py) runs
the real one."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.runtime.gpu.staged_copies import StagedCopies, staged


class _Event:
    def __init__(self, device, upto: int):
        self.device, self.upto = device, upto

    def synchronize(self) -> None:
        self.device.run(self.upto)


class LazyDevice:
    """Device memory as bytes; copies queue and run, in order, when waited for."""

    def __init__(self, nbytes: int):
        self.memory = np.zeros(nbytes, np.uint8)
        self.queue: list = []
        self.ran = 0
        self.begun = 0

    def pinned(self, nbytes: int) -> np.ndarray:
        return np.full(nbytes, 0xEE, np.uint8)

    def begin(self) -> None:
        self.begun += 1

    def upload(self, address: int, source: np.ndarray) -> None:
        self.queue.append(lambda: self.memory.__setitem__(slice(address, address + source.nbytes), source))

    def download(self, destination: np.ndarray, address: int) -> None:
        self.queue.append(lambda: np.copyto(destination, self.memory[address : address + destination.nbytes]))

    def record(self) -> _Event:
        return _Event(self, len(self.queue))

    def run(self, upto: int) -> None:
        while self.ran < upto:
            self.queue[self.ran]()
            self.ran += 1

    def finish(self) -> None:
        self.run(len(self.queue))


@pytest.mark.parametrize("nbytes", [1, 63, 64, 65, 64 * 7, 64 * 7 + 5, 1000])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_round_trip_through_chunks_gives_the_same_bytes(nbytes, threads):
    device = LazyDevice(2048)
    copies = StagedCopies(device, chunk=64, threads=threads)
    source = np.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=np.uint8)
    copies.write(100, source)
    assert device.ran == len(device.queue)  # write returns when the copies are done
    np.testing.assert_array_equal(device.memory[100 : 100 + nbytes], source)
    back = np.zeros(nbytes, np.uint8)
    copies.read(back, 100)
    np.testing.assert_array_equal(back, source)
    assert device.begun == 2  # each copy orders itself after earlier work
    copies.close()


def test_arrays_of_any_dtype_and_shape_go_as_their_bytes():
    device = LazyDevice(1 << 12)
    copies = StagedCopies(device, chunk=96, threads=2)
    source = np.arange(300, dtype=np.float64).reshape(20, 15)
    copies.write(8, source)
    back = np.empty_like(source)
    copies.read(back, 8)
    np.testing.assert_array_equal(back, source)
    copies.close()


def test_the_buffers_are_made_once():
    device = LazyDevice(1 << 12)
    made = []
    pinned = device.pinned
    device.pinned = lambda n: made.append(n) or pinned(n)  # type: ignore[method-assign]
    copies = StagedCopies(device, chunk=64, threads=2)
    for _ in range(3):
        copies.write(0, np.ones(500, np.uint8))
    assert made == [64] * copies.count
    copies.close()


def test_only_large_copies_are_staged():
    assert not staged(1 << 20) and not staged((12 << 20) - 1) and staged(12 << 20)
