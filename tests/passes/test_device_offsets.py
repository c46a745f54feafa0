"""Positions read on the device (issue 18, item 6): `soac.device_index` and
`soac.device_update`, and reduce-device-syncs leaving out of the cut the reads that only
such positions needed.

Differential: the ops' meaning on the reference executor as written (level 1), after
convert-soac-to-mem (level 2: a copy kernel that loads the position and checks it) and
after the numpy backend's whole pipeline, against a NumPy model, on random inputs of
which some positions are out of range (every level fails) and some arrays have rows of
no elements (the check still runs). Then programs through reduce-device-syncs before and
after, at level 1 and 2; and the CUDA C of the kernels compiles."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass

OPS = """
func.func @main(%m: tensor<?x?xf32>, %t: tensor<?x?x3xi64>, %p: tensor<1xindex>, %i: index,
                %row: tensor<?xf32>, %plane: tensor<?x3xi64>)
    -> (tensor<?xf32>, tensor<?x?xf32>, tensor<3xi64>, tensor<?x?x3xi64>, tensor<?x3xi64>) {
  %picked = soac.device_index %m[%p] : tensor<?x?xf32>, tensor<1xindex>
  %m2 = soac.device_update %m[%p] = %row : tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>
  %line = soac.device_index %t[%i, %p] : tensor<?x?x3xi64>, index, tensor<1xindex>
  %t2 = soac.device_update %t[%p] = %plane : tensor<?x?x3xi64>, tensor<1xindex>, tensor<?x3xi64>
  %sub = soac.device_index %t2[%p] : tensor<?x?x3xi64>, tensor<1xindex>
  func.return %picked, %m2, %line, %t2, %sub : tensor<?xf32>, tensor<?x?xf32>, tensor<3xi64>, tensor<?x?x3xi64>, tensor<?x3xi64>
}
"""


def model(m, t, p, i, row, plane):
    """What the ops mean, in NumPy (None: an index is out of bounds)."""
    p = int(p[0])
    if not (0 <= p < m.shape[0] and 0 <= i < t.shape[0] and 0 <= p < t.shape[1] and 0 <= p < t.shape[0]):
        return None
    m2 = m.copy()
    m2[p] = row
    t2 = t.copy()
    t2[p] = plane
    return m[p].copy(), m2, t[i, p].copy(), t2, t2[p].copy()


LEVELS = {
    "level 1": "",
    "level 2": "convert-soac-to-mem",
    "pipeline": SoaccPipelinePass().level2_stages(),
}


def random_inputs(rng: np.random.Generator):
    rows, width = int(rng.integers(1, 5)), int(rng.integers(0, 4))  # rows of no elements too
    m = rng.uniform(-1, 1, (rows, width)).astype(np.float32)
    t = rng.integers(-9, 9, (rows, rows, 3))
    p = np.array([rng.integers(-1, rows + 1)], dtype=np.int64)  # out of range a third of the time
    i = int(rng.integers(0, rows))
    row = rng.uniform(-1, 1, width).astype(np.float32)
    plane = rng.integers(-9, 9, (rows, 3))
    return m, t, p, i, row, plane


@pytest.mark.parametrize("level", LEVELS, ids=list(LEVELS))
def test_device_indexed_ops_mean_what_numpy_says_at_every_level(level):
    program = soacc.compile(OPS, backend="numpy", pipeline=LEVELS[level])
    rng = np.random.default_rng(18)
    failed = passed = 0
    for _ in range(40):
        args = random_inputs(rng)
        expected = model(*[np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args])
        if expected is None:
            with pytest.raises(soacc.ExecutionError, match="out of bounds for dimension"):
                program.main(*args)
            failed += 1
            continue
        got = program.main(*args)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_array_equal(g, e)
        passed += 1
    assert failed and passed


def test_a_position_out_of_range_fails_also_where_no_row_is_copied():
    """Rows of no elements: the copy kernel runs no lane, and one thread checks."""
    m = np.zeros((2, 0), np.float32)
    args = (m, np.zeros((2, 2, 3), np.int64), np.array([1]), 0, np.zeros(0, np.float32), np.zeros((2, 3), np.int64))
    bad = (m, args[1], np.array([2]), *args[3:])
    for level, pipeline in LEVELS.items():
        program = soacc.compile(OPS, backend="numpy", pipeline=pipeline)
        assert program.main(*args)[0].shape == (0,), level
        with pytest.raises(soacc.ExecutionError, match="out of bounds for dimension 0"):
            program.main(*bad)


def test_level_2_reads_no_position_on_the_host():
    program = soacc.compile(OPS, backend="numpy", pipeline="convert-soac-to-mem")
    args = (np.ones((3, 2), np.float32), np.ones((3, 3, 3), np.int64), np.array([2]), 1, np.zeros(2, np.float32), np.zeros((3, 3), np.int64))
    program.main(*args)
    assert program.statistics.sync_reads == 0
    assert program.statistics.scalar_writes == 0


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_cuda_of_the_copy_kernels_compiles(tmp_path):
    from soacc.lowering.emit_cuda import emit_cuda

    program = soacc.compile(OPS, backend="numpy", pipeline="soacc-pipeline")
    text = io.StringIO()
    emit_cuda(program.module, text)
    assert "__trap()" in text.getvalue()  # the positions are checked in the kernels
    path = tmp_path / "ops.cu"
    path.write_text(text.getvalue())
    result = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "k.ptx")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
