"""Programs whose CUDA C once compiled and was wrong, or did not compile (found by
review): SSA names that equal a parameter's offset/stride names, a temporary of a
parallel assignment, or a C keyword; and index_cast to i1. Each must compile with nvcc
and (marker gpu) give on the GPU what it gives as written."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda

PROGRAMS = Path(__file__).parent / "programs"
LEVEL3 = "convert-soac-to-mem,convert-mem-to-gpu"
ARGS = {
    "name_like_a_parameter": lambda: (np.array([1, 2, 3], np.float32), np.array([0, 1], np.int64)),
    "name_like_a_temporary": lambda: (np.array([1, 2], np.float32),),
    "names_that_are_keywords": lambda: (np.array([1, 3], np.float32),),
    "index_cast_to_i1": lambda: (np.array([0, 1, 2, 3], np.int64),),
}


def cuda_of(name: str) -> str:
    program = soacc.compile(PROGRAMS / f"{name}.mlir", backend="numpy", pipeline=LEVEL3)
    out = io.StringIO()
    emit_cuda(program.module, out)
    return out.getvalue()


def declared_names(kernel_text: str) -> tuple[list[str], list[str]]:
    """(parameter names, names declared in the body) of one kernel's C."""
    signature, body = kernel_text.split(") {", 1)
    params = [p.split()[-1] for p in signature.split("(", 1)[1].split(",")]
    declared = re.findall(r"^\s+(?:bool|int|long long|float|double|auto|short|signed char) (\w+)[ ;=]", body, flags=re.M)
    return params, declared


@pytest.mark.parametrize("name", ["name_like_a_parameter", "name_like_a_temporary", "names_that_are_keywords"])
def test_no_declaration_reuses_a_name(name):
    text = cuda_of(name)
    for kernel in text.split('extern "C" __global__ void ')[1:]:
        params, declared = declared_names(kernel)
        assert not set(params) & set(declared), (set(params) & set(declared), kernel)
        assert len(declared) == len(set(declared)), kernel


def test_keywords_are_not_names():
    text = cuda_of("names_that_are_keywords")
    for keyword in ("true", "new", "int", "float"):
        assert not re.search(rf"^\s+\w[\w ]* {keyword} = ", text, flags=re.M), keyword


def test_index_cast_to_i1_keeps_the_lowest_bit():
    assert "& 1) != 0)" in cuda_of("index_cast_to_i1")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("name", ARGS)
def test_compiles(name, tmp_path):
    path = tmp_path / f"{name}.cu"
    path.write_text(cuda_of(name))
    result = subprocess.run(["nvcc", "--ptx", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.ptx")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


@pytest.mark.gpu
@pytest.mark.parametrize("name", ARGS)
def test_gpu_gives_what_the_program_means(name):
    args = ARGS[name]()
    want = soacc.compile(PROGRAMS / f"{name}.mlir", backend="numpy", pipeline="").main(*args)
    got = soacc.compile(PROGRAMS / f"{name}.mlir", backend="numpy", pipeline=LEVEL3).main(*args)
    np.testing.assert_array_equal(got, want)
