"""device-results (passes/device_results.py), borrow-arguments
(passes/borrow_arguments.py) and arrays in GPU memory at the boundary (issue 19, item
5). Differential: every example and benchmark program at level 2 with
and without the pass, on the reference executor (whose device memory is host memory,
so its results read the same): the same results, and one device-to-host copy fewer per
array result kept. On the simulated device: results come out as DeviceArrays, each
over memory of its own (two results over one block are copied apart, task graphs copy
theirs out of the graph's arena). On the GPU (marker `gpu`): every program with CuPy
arguments and device results, eager, captured and replayed, against the reference, the
caller's arrays unchanged (those borrowed included); CuPy and PyTorch take the results
without a copy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.backends import host_code_executor
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.device_arrays import DeviceArray, ForeignDeviceArray
from soacc.tools.examples import as_tuple, load_examples

from tests.support.scripts import every_program
from tests.support.simulated_device import SimulatedDevice

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = every_program("device_syncs", "memory")
LEVEL2 = SoaccPipelinePass().level2_stages()
IDS = [f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS]


def _copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("example", PROGRAMS, ids=IDS)
def test_every_program_means_the_same_with_device_results(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(3), size)
    before = soacc.compile(example.program_path, backend="numpy", pipeline=LEVEL2)
    after = soacc.compile(example.program_path, backend="numpy", pipeline=f"{LEVEL2},device-results")
    want = as_tuple(before.main(*_copies(args)))
    got = as_tuple(after.main(*_copies(args)))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    arrays = sum(isinstance(w, np.ndarray) and w.ndim > 0 for w in want)
    downloads = before.statistics.copies["device->host"].count - after.statistics.copies["device->host"].count
    assert 0 <= downloads <= arrays
    assert after.statistics.spaces.get("host", None) is None or after.statistics.spaces["host"].bytes_allocated <= before.statistics.spaces["host"].bytes_allocated


def test_the_default_pipeline_keeps_every_result_of_the_examples_on_the_device(capsys):
    for example in load_examples(ROOT / "examples"):
        module = parse_program(example.program_path.read_text())
        apply_pipeline(module, f"{LEVEL2},device-results{{report=true}}")
    report = capsys.readouterr().err
    assert "left" not in report, report


def test_results_device_needs_the_cuda_backend():
    with pytest.raises(soacc.ArgumentError, match='results="device" .* needs the cuda backend'):
        soacc.compile(ROOT / "examples" / "kmeans.mlir", backend="numpy", results="device")
    with pytest.raises(soacc.ArgumentError, match='results must be "host" or "device"'):
        soacc.compile(ROOT / "examples" / "kmeans.mlir", backend="numpy", results="gpu")
    with pytest.raises(soacc.ProgramError, match="results='x'"):
        soacc.compile(ROOT / "examples" / "kmeans.mlir", backend="numpy", pipeline="soacc-pipeline{results=x}")


# --- the runtime, on a device simulated in host memory ------------------------------------

SHARED = """func.func @main(%a: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, index) {
  %t = soac.transpose %a [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %n = soac.size %a[0] : tensor<?x?xf32>
  func.return %a, %t, %n : tensor<?x?xf32>, tensor<?x?xf32>, index
}"""
"""Two results over one device block (the argument's copy and its transpose); no kernels."""


def _simulated(source: str, pipeline: str):
    module = parse_program(source)
    apply_pipeline(module, pipeline)
    device = SimulatedDevice()
    executor = host_code_executor(module, device, {})
    executor.device_results = True
    return executor, device


def _read(array: DeviceArray) -> np.ndarray:
    assert isinstance(array, DeviceArray)
    interface = array.__cuda_array_interface__
    assert interface["version"] == 3 and interface["stream"] is None and interface["shape"] == array.shape
    return array.numpy()


@pytest.mark.parametrize("graphs", [False, True])
def test_results_over_one_block_are_each_their_own(graphs):
    executor, device = _simulated(SHARED, "soacc-pipeline{syncs=false results=device}")
    if graphs:
        executor.use_task_graphs(True)
        executor.task_graphs.min_nodes = 0
    kept = []
    for k in range(3):  # eager, captured, replayed: each call's results stay as they were
        data = np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * k
        a, t, n = executor.call("main", [data])
        assert n == 2
        assert executor.last_statistics.copies["device->host"].count == 0
        addresses = {a.__cuda_array_interface__["data"][0], t.__cuda_array_interface__["data"][0]}
        assert len(addresses) == 2  # not one block: the transpose was copied apart
        kept.append((data, a, t))
    for data, a, t in kept:
        np.testing.assert_array_equal(_read(a), data)
        np.testing.assert_array_equal(_read(t), data.T)
    if graphs:
        assert executor.last_statistics.task_graph == "replayed"


def test_results_left_in_host_memory_are_copied_to_the_device():
    executor, device = _simulated(SHARED, "soacc-pipeline{syncs=false}")  # (no device-results: host results)
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    a, t, n = executor.call("main", [data])
    np.testing.assert_array_equal(_read(a), data)
    np.testing.assert_array_equal(_read(t), data.T)


def test_a_device_argument_can_be_a_device_result():
    executor, device = _simulated(SHARED, "soacc-pipeline{syncs=false results=device}")
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    buffer = device.allocate(data.nbytes)
    device.write(buffer.ptr, data.reshape(-1))
    argument = ForeignDeviceArray(buffer, buffer.ptr, (2, 3), data.dtype, (3, 1), None, False)
    a, t, _ = executor.call("main", [argument])
    assert a.__cuda_array_interface__["data"][0] != buffer.ptr  # the program's own copy, not the caller's
    np.testing.assert_array_equal(_read(t), data.T)


# --- the GPU ----------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("example", PROGRAMS, ids=IDS)
def test_on_the_gpu_cupy_arguments_and_device_results(example):
    cupy = pytest.importorskip("cupy")
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(5), size)
    reference = soacc.compile(example.program_path, backend="numpy", pipeline=LEVEL2)
    want = as_tuple(reference.main(*_copies(args)))
    program = soacc.compile(example.program_path, backend="cuda", results="device")
    on_device = [cupy.asarray(a) if isinstance(a, np.ndarray) and a.ndim > 0 else a for a in args]
    originals = [cupy.asnumpy(a) if isinstance(a, cupy.ndarray) else None for a in on_device]
    for _ in range(3):  # eager, captured, replayed
        got = as_tuple(program.main(*on_device))
        for g, w in zip(got, want, strict=True):
            if isinstance(w, np.ndarray) and w.ndim > 0:
                assert isinstance(g, DeviceArray)
                g = cupy.asnumpy(cupy.asarray(g))  # (CuPy takes it by the interface)
            if np.asarray(g).dtype.kind in "iub":
                np.testing.assert_array_equal(g, w)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    # borrowed arguments (borrow-arguments) were only read: the caller's arrays are as they were
    for a, original in zip(on_device, originals):
        if original is not None:
            np.testing.assert_array_equal(cupy.asnumpy(a), original)


@pytest.mark.gpu
def test_on_the_gpu_cupy_views_streams_and_zero_copy_results():
    cupy = pytest.importorskip("cupy")
    program = soacc.compile(SHARED, backend="cuda", results="device")
    base = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)
    view = base[1:, ::2]  # strided, offset: taken where it is
    a, t, n = program.main(view)
    assert n == 3
    np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(a)), cupy.asnumpy(view))
    np.testing.assert_array_equal(t.numpy(), cupy.asnumpy(view).T)
    assert program.statistics.copies["host->device"].count == 0
    assert program.statistics.copies["device->host"].count == 0
    # the host results of a program compiled as usual, from the same device argument
    host = soacc.compile(SHARED, backend="cuda").main(view)
    np.testing.assert_array_equal(host[1], cupy.asnumpy(view).T)
    assert isinstance(host[0], np.ndarray)
    # a result is taken by CuPy without a copy: same address
    assert cupy.asarray(a).data.ptr == a.__cuda_array_interface__["data"][0]
    # an argument made on another stream (which CuPy's interface names) is waited for
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        late = cupy.full((2048, 2048), 3, dtype=cupy.float32)
        late = late @ late  # work still queued when the call starts
        got, _, _ = program.main(late)
    np.testing.assert_array_equal(got.numpy(), cupy.asnumpy(late))


@pytest.mark.gpu
def test_on_the_gpu_jax_arrays_are_taken_by_the_interface():
    jax = pytest.importorskip("jax")
    array = jax.device_put(np.arange(6, dtype=np.float32).reshape(2, 3), jax.devices("gpu")[0])
    if not hasattr(array, "__cuda_array_interface__"):
        pytest.skip("this JAX does not describe its arrays by __cuda_array_interface__")
    a, t, n = soacc.compile(SHARED, backend="cuda").main(array)
    np.testing.assert_array_equal(t, np.arange(6, dtype=np.float32).reshape(2, 3).T)


@pytest.mark.gpu
def test_on_the_gpu_pytorch_tensors_in_and_out():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    program = soacc.compile(SHARED, backend="cuda", results="device")
    tensor = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)[:, 1:]  # a strided view
    a, t, n = program.main(tensor)
    assert n == 3
    back = torch.as_tensor(t, device="cuda")  # by the interface, without a copy
    assert back.data_ptr() == t.__cuda_array_interface__["data"][0]
    assert torch.equal(back, tensor.T)
    with pytest.raises(soacc.ArgumentError, match="expected float32 array of shape"):
        program.main(tensor.to(torch.float64))
    # a CPU tensor is read by DLPack, as NumPy would (and a contiguous copy of it here)
    _, t_cpu, _ = program.main(tensor.cpu().contiguous())
    assert torch.equal(torch.as_tensor(t_cpu, device="cuda"), tensor.T)


SUM = """func.func @main(%a: tensor<?xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb1(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    soac.yield %m : f32
  }
  func.return %s : f32
}"""
"""Only reads its argument. (A map's output would be placed in the argument's device
block by memory-reuse, which then writes it: that upload stays a copy.)"""


@pytest.mark.gpu
@pytest.mark.parametrize("borrow", [True, False])
def test_on_the_gpu_a_dense_device_argument_is_borrowed_without_a_copy(borrow):
    cupy = pytest.importorskip("cupy")
    program = soacc.compile(SUM, backend="cuda", pipeline=f"soacc-pipeline{{borrow={str(borrow).lower()}}}")
    program.task_graphs = False
    a = cupy.arange(1000, dtype=cupy.float32)
    assert program.main(a) == np.float32(499500)  # (exact: every partial sum is a small integer)
    copies = program.statistics.copies
    assert copies["host->device"].count == 0
    assert copies["device->device"].count == (0 if borrow else 1)
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(1000, dtype=np.float32))


@pytest.mark.gpu
def test_on_the_gpu_an_array_exported_only_by_dlpack():
    cupy = pytest.importorskip("cupy")

    class OnlyDLPack:  # what a DLPack-only library shows
        def __init__(self, array):
            self.array = array

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            return self.array.__dlpack__(**kwargs)

    base = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)
    a, t, n = soacc.compile(SHARED, backend="cuda").main(OnlyDLPack(base[1:, ::2]))
    np.testing.assert_array_equal(t, cupy.asnumpy(base[1:, ::2]).T)
    assert soacc.compile(SUM, backend="cuda").main(OnlyDLPack(cupy.arange(1000, dtype=cupy.float32))) == np.float32(499500)


@pytest.mark.gpu
@pytest.mark.parametrize("library", ["cupy", "torch", "jax"])
def test_on_the_gpu_device_results_go_by_dlpack_and_outlive_their_array(library):
    import gc

    module = pytest.importorskip(library)
    program = soacc.compile(SHARED, backend="cuda", results="device")
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    _, t, _ = program.main(data)
    if library == "cupy":
        taken = module.from_dlpack(t)
        to_numpy = module.asnumpy
        assert taken.data.ptr == t.__cuda_array_interface__["data"][0]
    elif library == "torch":
        taken = module.from_dlpack(t)
        to_numpy = lambda x: x.cpu().numpy()  # noqa: E731
        assert taken.data_ptr() == t.__cuda_array_interface__["data"][0]
    else:
        taken = module.numpy.from_dlpack(t)
        to_numpy = np.asarray
    del t
    gc.collect()
    for k in range(3):  # the pool would hand the block out again, were it freed
        program.main(data + 100 * (k + 1))
    np.testing.assert_array_equal(to_numpy(taken), data.T)


@pytest.mark.gpu
def test_on_the_gpu_programs_chain_on_the_device_and_empty_arrays_pass():
    cupy = pytest.importorskip("cupy")
    first = soacc.compile(SHARED, backend="cuda", results="device")
    second = soacc.compile(SHARED, backend="cuda", results="device")
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    _, t, _ = first.main(data)
    a, tt, n = second.main(t)  # a DeviceArray as an argument: read where it is
    assert n == 4
    np.testing.assert_array_equal(tt.numpy(), data)
    assert second.statistics.copies["host->device"].count == 0
    empty = cupy.zeros((0, 5), dtype=cupy.float32)
    a, t, n = first.main(empty)
    assert n == 0 and t.shape == (5, 0) and t.numpy().shape == (5, 0)
    assert soacc.compile(SUM, backend="cuda").main(cupy.zeros(0, dtype=cupy.float32)) == 0
