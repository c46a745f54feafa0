"""Arrays in GPU memory as arguments (issue 19, item 5): what `__cuda_array_interface__`
describes is read exactly, checked like a NumPy argument, refused by the CPU reference
executor with a clear message, and run by the host code from where it is, here on a
device simulated in host memory (the arrays' memory is the simulated device's own
buffers), against the reference executor on the same data copied to the host.
tests/runtime/gpu/test_device_arrays_gpu.py runs CuPy arrays on a real GPU."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32, i32

import soacc
from soacc.backends import host_code_executor
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.arguments import argument_converter, convert_argument
from soacc.runtime.device_arrays import ForeignDeviceArray, foreign_device_array, has_device_interface
from soacc.runtime.gpu.arrays import View
from soacc.runtime.errors import ArgumentError
from soacc.runtime.reference import ReferenceExecutor

from tests.support.simulated_device import SimulatedDevice


class FakeDeviceArray:
    """What CuPy, PyTorch and Numba arrays show of themselves."""

    def __init__(self, interface: dict):
        self.__cuda_array_interface__ = interface


def interface(shape, typestr="<f4", strides=None, address=0x1000, version=3, **extra) -> dict:
    return {"shape": shape, "typestr": typestr, "data": (address, False), "strides": strides, "version": version, **extra}


def test_the_interface_is_read_exactly():
    array = foreign_device_array(FakeDeviceArray(interface((3, 4), "<i4", strides=(4, 12), stream=7)))
    assert array.shape == (3, 4) and array.dtype == np.int32 and array.strides == (1, 3)
    assert array.address == 0x1000 and array.stream == 7 and not array.readonly
    assert foreign_device_array(FakeDeviceArray(interface((2, 3)))).strides == (3, 1)  # None: row-major
    backwards = foreign_device_array(FakeDeviceArray(interface((4,), strides=(-4,))))
    assert View(None, 0, backwards.shape, backwards.strides, backwards.dtype).byte_extent() == (-12, 4)


@pytest.mark.parametrize(
    "bad, message",
    [
        (interface((3,), mask=object()), "masked"),
        (interface((3,), strides=(3,)), "not whole elements"),
        (interface((3,), "<c8"), "no soacc type"),
        (interface((3,), ">f4"), "no soacc type"),
        (interface((3,), version=1), "version 1"),
        (interface((3,), stream=0), "stream 0"),
        (interface((3,), address=0), "null pointer"),
        ({"shape": (3,)}, "incomplete"),
    ],
)
def test_descriptions_soacc_cannot_take_are_refused_with_why(bad, message):
    with pytest.raises(ArgumentError, match=message):
        foreign_device_array(FakeDeviceArray(bad))


def test_a_failing_interface_is_an_argument_error():
    class CpuTensor:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("the tensor is on the CPU")

    assert has_device_interface(CpuTensor()) and not has_device_interface(np.zeros(3))
    with pytest.raises(ArgumentError, match="on the CPU"):
        convert_argument(CpuTensor(), TensorType(f32, [DYNAMIC_INDEX]), "argument 0")


def test_device_arguments_are_checked_like_host_ones():
    t = TensorType(f32, [DYNAMIC_INDEX, 2])
    convert = argument_converter(t, "argument 0 (%a) of @main")
    assert isinstance(convert(FakeDeviceArray(interface((5, 2)))), ForeignDeviceArray)
    with pytest.raises(ArgumentError, match=r"got int32 device array of shape \[5, 2\]"):
        convert(FakeDeviceArray(interface((5, 2), "<i4")))
    with pytest.raises(ArgumentError, match=r"dimension 1 must be 2"):
        convert(FakeDeviceArray(interface((5, 3))))
    with pytest.raises(ArgumentError, match=r"got float32 device array of shape \[5\]"):
        convert(FakeDeviceArray(interface((5,))))
    with pytest.raises(ArgumentError, match="expected int32 scalar .i32., got FakeDeviceArray"):  # not a scalar
        convert_argument(FakeDeviceArray(interface(())), i32, "argument 1")


SOURCE = """func.func @main(%a: tensor<?x?xf32>, %i: index) -> (tensor<?x?xf32>, tensor<?xf32>, f32) {
  %t = soac.transpose %a [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = soac.size %a[1] : tensor<?x?xf32>
  %row = soac.slice %a[%i, %c0:%cols] : tensor<?x?xf32> -> tensor<?xf32>
  %x = soac.index %a[%c0, %c0] : tensor<?x?xf32>
  func.return %t, %row, %x : tensor<?x?xf32>, tensor<?xf32>, f32
}"""


def test_the_reference_executor_refuses_device_arrays_clearly():
    program = soacc.compile(SOURCE, backend="numpy")
    with pytest.raises(ArgumentError, match=r"argument 0 \(%a\) of @main: an argument is an array in GPU memory .*cuda backend"):
        program.main(FakeDeviceArray(interface((3, 3))), 0)


def _executors(borrow: bool = True):
    module = parse_program(SOURCE)
    # (no kernels: the simulated device runs none)
    apply_pipeline(module, f"soacc-pipeline{{syncs=false borrow={str(borrow).lower()}}}")
    device = SimulatedDevice()
    return ReferenceExecutor(module), host_code_executor(module, device, {}), device


def _on_device(device: SimulatedDevice, host: np.ndarray, offset_elements: int = 0) -> FakeDeviceArray:
    """`host`'s elements (row-major) in a simulated device buffer, `offset_elements`
    into it, described as CuPy would describe them."""
    base = np.ascontiguousarray(host).reshape(-1)
    buffer = device.allocate(base.nbytes + offset_elements * base.itemsize)
    address = buffer.ptr + offset_elements * base.itemsize
    device.write(address, base)
    fake = FakeDeviceArray(interface(host.shape, host.dtype.str, None, address))
    fake.buffer = buffer  # (the simulated memory lives as long as the array)
    return fake


@pytest.mark.parametrize("borrow", [True, False])
@pytest.mark.parametrize("rows, cols", [(3, 4), (1, 1), (5, 2)])
def test_the_host_code_runs_device_arguments_from_where_they_are(rows, cols, borrow):
    reference, host, device = _executors(borrow)
    data = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols) * 1.5
    convert = [argument_converter(TensorType(f32, [DYNAMIC_INDEX, DYNAMIC_INDEX]), "a"), lambda v: v]
    for i in range(rows):
        want = reference.call("main", [data.copy(), np.int64(i)])
        argument = convert[0](_on_device(device, data))
        got = host.call("main", [argument, np.int64(i)])
        for g, w in zip(got, want):
            assert np.array_equal(g, w)
        # nothing crossed from the host: the upload was borrowed (no copy: nothing
        # writes the argument's device block), else a copy on the device
        copies = host.last_statistics.copies
        assert copies["host->device"].count == 0
        assert copies["device->device"].count == (0 if borrow else 1)


def test_strided_and_offset_device_arguments():
    reference, host, device = _executors()
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    transposed = data.T  # shape (6, 4), element strides (1, 6)
    want = reference.call("main", [np.ascontiguousarray(transposed), np.int64(2)])
    fake = _on_device(device, data, offset_elements=3)
    itemsize = data.itemsize
    fake.__cuda_array_interface__ = interface((6, 4), "<f4", (itemsize, 6 * itemsize), fake.__cuda_array_interface__["data"][0])
    got = host.call("main", [foreign_device_array(fake), np.int64(2)])
    for g, w in zip(got, want):
        assert np.array_equal(g, w)
    # strided: not borrowed, but copied on the device (by the strided copy)
    assert host.last_statistics.copies["device->device"].count == 1


def test_task_graphs_copy_device_arguments_in_from_wherever_each_call_has_them():
    reference, host, device = _executors()
    host.use_task_graphs(True)
    host.task_graphs.min_nodes = 0
    for k in range(4):  # eager, captured, replayed, replayed from other memory
        data = np.arange(12, dtype=np.float32).reshape(3, 4) * (k + 1)
        want = reference.call("main", [data.copy(), np.int64(1)])
        argument = foreign_device_array(_on_device(device, data))
        got = host.call("main", [argument, np.int64(1)])
        for g, w in zip(got, want):
            assert np.array_equal(g, w)
    assert host.last_statistics.task_graph == "replayed"
    assert host.task_graphs.replays == 2


# --- DLPack ----------------------------------------------------------------------------------


class FakeDLPackOnGpu:
    """Exports a NumPy array's DLPack capsule, but says it is on a CUDA device (the
    parsing of the capsule is what is tested)."""

    def __init__(self, array: np.ndarray, versioned: bool = True):
        self.array = array
        self.versioned = versioned
        self.streams = []

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None, max_version=None):
        self.streams.append(stream)
        if self.versioned:
            return self.array.__dlpack__(max_version=max_version)
        return self.array.__dlpack__()


@pytest.mark.parametrize("versioned", [True, False])
def test_a_dlpack_capsule_is_read_exactly_and_released(versioned):
    import sys

    data = np.arange(24, dtype=np.int32).reshape(4, 6)[1:, ::2]  # strided, offset
    producer = FakeDLPackOnGpu(data, versioned)
    before = sys.getrefcount(data)
    array = argument_converter(TensorType(i32, [DYNAMIC_INDEX, DYNAMIC_INDEX]), "a")(producer)
    assert isinstance(array, ForeignDeviceArray)
    assert producer.streams == [1]  # the legacy default stream: soacc's
    assert array.address == data.ctypes.data and array.shape == (3, 3) and array.strides == (6, 2)
    assert array.dtype == np.int32
    assert sys.getrefcount(data) > before  # the capsule holds the producer's memory
    del array
    assert sys.getrefcount(data) == before  # released: the deleter ran


def test_dlpack_in_host_memory_is_read_by_numpy_and_odd_types_are_refused():
    class HostTensor:
        def __init__(self, array):
            self.array = array

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            return self.array.__dlpack__(**kwargs)

    data = np.arange(5, dtype=np.float32)
    convert = argument_converter(TensorType(f32, [DYNAMIC_INDEX]), "argument 0 (%a) of @main")
    got = convert(HostTensor(data))
    assert isinstance(got, np.ndarray) and np.shares_memory(got, data)
    with pytest.raises(ArgumentError, match="got float64 array"):
        convert(HostTensor(data.astype(np.float64)))
    with pytest.raises(ArgumentError, match="no soacc type"):
        convert(FakeDLPackOnGpu(data.astype(np.complex64)))

    class Elsewhere(HostTensor):
        def __dlpack_device__(self):
            return (8, 0)  # Metal

    with pytest.raises(ArgumentError, match="device type 8"):
        convert(Elsewhere(data))


def test_a_device_result_exports_itself_by_dlpack_and_is_released():
    """DeviceArray.__dlpack__: a capsule over its memory, read back by soacc's own
    DLPack reader (CuPy, PyTorch and JAX take it on the GPU: tests/passes); the array
    is held until the consumer calls the deleter, or until an unconsumed capsule dies."""
    import gc

    from soacc.runtime import device_arrays
    from soacc.runtime.device_arrays import DeviceArray, _from_capsule

    def make():
        return DeviceArray(object(), 0xABC000, (3, 4), np.dtype(np.float32), (1, 3), None, device_id=1)

    array = make()
    assert array.__dlpack_device__() == (2, 1)
    taken = _from_capsule(array.__dlpack__(stream=1), array, "a")
    assert (taken.address, taken.shape, taken.strides, taken.dtype) == (0xABC000, (3, 4), (1, 3), np.float32)
    assert len(device_arrays._EXPORTED) == 1
    del taken
    gc.collect()
    assert not device_arrays._EXPORTED  # the consumer's deleter ran
    capsule = make().__dlpack__()
    assert len(device_arrays._EXPORTED) == 1
    del capsule
    gc.collect()
    assert not device_arrays._EXPORTED  # unconsumed: the capsule's destructor deleted it
    with pytest.raises(BufferError):
        make().__dlpack__(dl_device=(1, 0))
