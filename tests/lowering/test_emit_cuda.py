"""The cuda target: every rule's C compiles (nvcc --ptx, where nvcc exists), unknown ops
are errors, and (marker gpu) every kernel computes what the reference executor computes."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest
from xdsl.dialects import gpu, test
from xdsl.dialects.builtin import FunctionType, ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Region

import soacc
from soacc.lowering.emit_cuda import EmissionError, emit_cuda

from tests.support.cuda_cases import cases, inputs_for

CASES = cases()
IDS = [c.name for c in CASES]


def cuda_of(module: ModuleOp) -> str:
    out = io.StringIO()
    emit_cuda(module, out)
    return out.getvalue()


def test_there_is_a_case_per_rule_family():
    assert len(CASES) > 150


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_every_case_compiles_with_nvcc(tmp_path):
    """All kernels in one translation unit (one nvcc run: it takes seconds to start)."""
    source = "\n".join(cuda_of(c.kernel_module()) for c in CASES)
    # the prelude is repeated per module: keep its first copy only
    prelude_end = source.index('extern "C"')
    prelude = source[:prelude_end]
    body = source[prelude_end:].replace(prelude, "")
    path = tmp_path / "cases.cu"
    path.write_text(prelude + body)
    result = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "cases.ptx")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    ptx = (tmp_path / "cases.ptx").read_text()
    for c in CASES:
        assert f".entry {c.name}(" in ptx


def test_an_unknown_op_is_an_error_not_c():
    block = Block()
    block.add_op(test.TestOp())
    block.add_op(gpu.ReturnOp([]))
    kernel = gpu.FuncOp("k", FunctionType.from_lists([], []), Region(block), kernel=True)
    module = ModuleOp([gpu.ModuleOp(SymbolRefAttr("m"), Region(Block([kernel])))])
    with pytest.raises(EmissionError, match="test.op has no CUDA C rule"):
        cuda_of(module)


def test_emission_names_parameters_and_strides():
    text = cuda_of(CASES[0].kernel_module())
    assert 'extern "C" __global__ void addi_i32(' in text
    assert "_offset" in text and "_stride0" in text and "_size0" in text


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_kernel_equals_reference_executor(case, tmp_path_factory):
    import pycuda.driver as cuda

    from soacc.runtime.gpu.device import get_device
    from soacc.runtime.gpu.kernels import Kernel, LaunchCounters
    from soacc.runtime.gpu.memory_pool import MemoryPool
    from soacc.runtime.gpu.module_cache import ModuleCache
    from soacc.dialects.shared.dtypes import numpy_dtype

    device = get_device()
    rng = np.random.default_rng(abs(hash(case.name)) % 2**32)
    n = 4000
    arrays = [inputs_for(t, n, rng, case.exact) for t in case.inputs]
    m = min(len(a) for a in arrays)
    arrays = [np.ascontiguousarray(a[:m]) for a in arrays]
    if len(arrays) == 2:  # pair every value with every special value too
        arrays[1] = np.roll(arrays[1], 5)
    expected = soacc.compile(case.soac_module(), backend="numpy", pipeline="").main(*arrays)

    pool = MemoryPool()
    out_dtype = numpy_dtype(case.output)
    buffers = [pool.allocate(a.nbytes) for a in arrays]
    for buf, a in zip(buffers, arrays):
        cuda.memcpy_htod(buf.ptr, a)
    out = pool.allocate(m * out_dtype.itemsize)
    module = ModuleCache(device.arch, directory=tmp_path_factory.mktemp("cubin")).load(cuda_of(case.kernel_module()), case.name)
    args, fmt = [], ""
    for buf in [*buffers, out]:
        args += [buf.ptr, np.int64(0), np.int64(m), np.int64(1)]
        fmt += "Pqqq"
    args.append(np.int64(m))
    fmt += "q"
    Kernel(module, case.name, fmt, LaunchCounters(), case.name)(((m + 255) // 256, 1), (256, 1, 1), *args)
    device.synchronize()
    got = np.empty(m, out_dtype)
    cuda.memcpy_dtoh(got, out.ptr)
    if case.defined is not None:
        keep = case.defined(arrays)
        got, expected, arrays = got[keep], np.asarray(expected)[keep], [a[keep] for a in arrays]
    if case.exact or out_dtype.kind != "f":
        same = (got == expected) | (np.isnan(got) & np.isnan(expected)) if out_dtype.kind == "f" else got == expected
        bad = np.flatnonzero(~same)
        assert bad.size == 0, (
            f"{bad.size} differ, e.g. inputs {[a[bad[0]] for a in arrays]}: gpu {got[bad[0]]} vs reference {expected[bad[0]]}"
        )
    else:
        tol = 2e-6 if out_dtype == np.float32 else 1e-14
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)
