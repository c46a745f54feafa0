"""CUDA C compiled to PTX by nvcc as the runtime compiles it (sm_90, -O3, no
contraction), for tests that check emitted code compiles without a GPU. Tests import
it as `tests.support.nvcc`."""

from __future__ import annotations

import subprocess
from pathlib import Path


def compile_ptx(source: str, directory: Path, name: str = "kernels") -> subprocess.CompletedProcess:
    """nvcc --ptx of `source` (written to `directory`/`name`.cu); the completed process."""
    path = directory / f"{name}.cu"
    path.write_text(source)
    return subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(directory / f"{name}.ptx")],
        capture_output=True,
        text=True,
    )
