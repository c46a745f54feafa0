"""Every example through convert-mem-to-gpu (level 3): its kernels compile (nvcc --ptx,
where nvcc exists) and (marker gpu) run on the GPU with the host code on the reference
executor, giving the NumPy definition's results."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda
from soacc.tools.examples import load_examples, mismatch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
LEVEL3 = "convert-soac-to-mem,convert-mem-to-gpu"
FUSED = "canonicalize,cse,soac-fusion,convert-soac-to-mem,convert-mem-to-gpu"


def level3(example, pipeline: str = LEVEL3):
    """The example compiled to level 3, or a skip saying what is not lowered yet."""
    try:
        return soacc.compile(example.program_path, backend="numpy", pipeline=pipeline)
    except soacc.ProgramError as error:
        if "not done yet" in str(error) or "not supported yet" in str(error):
            pytest.skip(f"not lowered to kernels yet: {str(error).splitlines()[0]}")
        raise


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("pipeline", [LEVEL3, FUSED], ids=["unfused", "fused"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_kernels_compile(example, pipeline, tmp_path):
    program = level3(example, pipeline)
    source = io.StringIO()
    emit_cuda(program.module, source)
    path = tmp_path / f"{example.name}.cu"
    path.write_text(source.getvalue())
    result = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "k.ptx")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # the emitted C declares nothing nvcc calls unused or set but never used
    assert "warning" not in result.stderr, result.stderr[-3000:]


@pytest.mark.gpu
@pytest.mark.parametrize("pipeline", [LEVEL3, FUSED], ids=["unfused", "fused"])
@pytest.mark.parametrize("size", [0, 1, 7, 300])
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_kernels_give_the_numpy_results(example, size, pipeline):
    program = level3(example, pipeline)
    args = example.make_inputs(np.random.default_rng(size), size)
    got = program.main(*args)
    assert mismatch(got, example.reference(*args), example.rtol, example.atol) is None
