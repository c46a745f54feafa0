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

import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass

from tests.support.nvcc import compile_ptx

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
    against_model(program, random_inputs, model, 40, np.random.default_rng(18), "out of bounds for dimension")


def against_model(program, inputs, model, rounds: int, rng, failure: str) -> None:
    """`rounds` random inputs: the model's results, or (model None) the failure; both
    must happen."""
    failed = passed = 0
    for _ in range(rounds):
        args = inputs(rng)
        expected = model(*[np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args])
        if expected is None:
            with pytest.raises(soacc.ExecutionError, match=failure):
                program.main(*args)
            failed += 1
            continue
        got = program.main(*args)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_array_equal(g, e)
        passed += 1
    assert failed and passed, (failed, passed)


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
    result = compile_ptx(text.getvalue(), tmp_path, "ops")
    assert result.returncode == 0, result.stderr[-3000:]


# --------------------------------------------------------------------------------------
# Slices at device offsets and strides, and elements written at device positions
# --------------------------------------------------------------------------------------

SLICES = """
func.func @main(%a: tensor<?xf32>, %m: tensor<?x?xf32>, %o: tensor<1xindex>, %s: tensor<1xindex>,
                %n: index, %k: index, %x: f32, %xd: tensor<1xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %part = soac.device_index %a[%o:%n] : tensor<?xf32>, tensor<1xindex>, index -> tensor<?xf32>
  %every = soac.device_index %a[%o:%n:%s] : tensor<?xf32>, tensor<1xindex>, index, tensor<1xindex> -> tensor<?xf32>
  %block = soac.device_index %m[%c0:%n, %o:%k] : tensor<?x?xf32>, index, index, tensor<1xindex>, index -> tensor<?x?xf32>
  %a1 = soac.copy %a : tensor<?xf32>
  %a2 = soac.device_update %a1[%o] = %x : tensor<?xf32>, tensor<1xindex>, f32
  %a3 = soac.device_update %a2[%s:%c1] = %xd : tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>
  %m1 = soac.copy %m : tensor<?x?xf32>
  %m2 = soac.device_update %m1[%o:%n, %c0:%k] = %block : tensor<?x?xf32>, tensor<1xindex>, index, index, index, tensor<?x?xf32>
  func.return %part, %every, %block, %a2, %a3, %m2 : tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
}
"""


def _positions(offset: int, count: int, stride: int, size: int):
    """The elements a range addresses (None: one is out of bounds, or a stride of 0
    repeats one)."""
    at = offset + stride * np.arange(count)
    if count and (at.min() < 0 or at.max() >= size or (stride == 0 and count > 1)):
        return None
    return at


def slices_model(a, m, o, s, n, k, x, xd):
    """What the SLICES program means, in NumPy (None: it fails)."""
    o, s = int(o[0]), int(s[0])
    part, every = _positions(o, n, 1, len(a)), _positions(o, n, s, len(a))
    rows, columns = _positions(0, n, 1, m.shape[0]), _positions(o, k, 1, m.shape[1])
    if any(v is None for v in (part, every, rows, columns)) or not (0 <= o < len(a) and 0 <= s < len(a)):
        return None
    block = m[np.ix_(rows, columns)]
    a2 = a.copy()
    a2[o] = x
    a3 = a2.copy()
    a3[s] = xd[0]
    target_rows, target_columns = _positions(o, n, 1, m.shape[0]), _positions(0, k, 1, m.shape[1])
    if target_rows is None or target_columns is None:
        return None
    m2 = m.copy()
    m2[np.ix_(target_rows, target_columns)] = block
    return a[part], a[every], block, a2, a3, m2


def slices_inputs(rng: np.random.Generator):
    length = int(rng.integers(1, 7))
    m = rng.uniform(-1, 1, (int(rng.integers(1, 5)), int(rng.integers(1, 5)))).astype(np.float32)
    a = rng.uniform(-1, 1, length).astype(np.float32)
    o = np.array([rng.integers(-1, length + 1)], np.int64)
    s = np.array([rng.integers(-1, 3)], np.int64)  # negative and zero strides too
    n, k = int(rng.integers(0, 4)), int(rng.integers(0, 3))
    return a, m, o, s, n, k, np.float32(rng.uniform(-1, 1)), rng.uniform(-1, 1, 1).astype(np.float32)


@pytest.mark.parametrize("level", LEVELS, ids=list(LEVELS))
def test_slices_at_device_offsets_and_element_writes_mean_what_numpy_says(level):
    program = soacc.compile(SLICES, backend="numpy", pipeline=LEVELS[level])
    against_model(program, slices_inputs, slices_model, 80, np.random.default_rng(6), "out of bounds|stride is 0")


def test_slices_at_level_2_read_no_position_on_the_host():
    program = soacc.compile(SLICES, backend="numpy", pipeline="convert-soac-to-mem")
    a, m = np.arange(6, dtype=np.float32), np.ones((4, 4), np.float32)
    program.main(a, m, np.array([1]), np.array([2]), 2, 2, np.float32(5), np.array([7], np.float32))
    assert program.statistics.sync_reads == 0
    assert program.statistics.scalar_writes == 0


def test_an_empty_slice_may_start_anywhere_but_an_empty_copy_still_checks_fixed_indices():
    program = soacc.compile(SLICES, backend="numpy", pipeline="convert-soac-to-mem")
    a, m = np.arange(3, dtype=np.float32), np.ones((2, 2), np.float32)
    # no rows: the offset 1 of %block's columns addresses nothing; %a's writes at 1 and 2
    got = program.main(a, m, np.array([1]), np.array([2]), 0, 0, np.float32(5), np.array([7], np.float32))
    assert [g.shape for g in got[:3]] == [(0,), (0,), (0, 0)]
    np.testing.assert_array_equal(got[4], [0, 5, 7])


IN_LAMBDAS = """
func.func @main(%m: tensor<?x?xf32>, %o: tensor<1xindex>, %x: f32) -> (tensor<?x2xf32>, tensor<?x?xf32>) {
  %c2 = arith.constant 2 : index
  %parts = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x2xf32> {
  ^bb0(%row: tensor<?xf32>):
    %p = soac.device_index %row[%o:%c2] : tensor<?xf32>, tensor<1xindex>, index -> tensor<2xf32>
    soac.yield %p : tensor<2xf32>
  }
  %written = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r2 = soac.copy %row : tensor<?xf32>
    %r3 = soac.device_update %r2[%o] = %x : tensor<?xf32>, tensor<1xindex>, f32
    soac.yield %r3 : tensor<?xf32>
  }
  func.return %parts, %written : tensor<?x2xf32>, tensor<?x?xf32>
}
"""


@pytest.mark.parametrize("level", LEVELS, ids=list(LEVELS))
def test_a_slice_and_an_element_write_at_a_device_offset_inside_lambdas(level):
    program = soacc.compile(IN_LAMBDAS, backend="numpy", pipeline=LEVELS[level])
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    parts, written = program.main(m, np.array([1]), np.float32(-1))
    np.testing.assert_array_equal(parts, m[:, 1:3])
    want = m.copy()
    want[:, 1] = -1
    np.testing.assert_array_equal(written, want)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_cuda_of_the_slice_and_element_kernels_compiles(tmp_path):
    from soacc.lowering.emit_cuda import emit_cuda

    program = soacc.compile(SLICES, backend="numpy", pipeline="soacc-pipeline")
    text = io.StringIO()
    emit_cuda(program.module, text)
    result = compile_ptx(text.getvalue(), tmp_path, "slices")
    assert result.returncode == 0, result.stderr[-3000:]


# --------------------------------------------------------------------------------------
# reduce-device-syncs: the reads that only such positions needed leave the cut
# --------------------------------------------------------------------------------------

SWAP = """
func.func @main(%m: tensor<?x?xf32>, %col: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %p = arith.index_cast %s : i64 to index
  %vp = soac.index %m[%p] : tensor<?x?xf32>
  %rowp = soac.copy %vp : tensor<?xf32>
  %v0 = soac.index %m[%c0] : tensor<?x?xf32>
  %row0 = soac.copy %v0 : tensor<?xf32>
  %m1 = soac.update %m[%c0] = %rowp : tensor<?x?xf32>, tensor<?xf32>
  %m2 = soac.update %m1[%p] = %row0 : tensor<?x?xf32>, tensor<?xf32>
  %scaled = soac.map(%m2) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %e = soac.map(%row, %rowp) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.mulf %x, %y : f32
      soac.yield %z : f32
    }
    soac.yield %e : tensor<?xf32>
  }
  func.return %scaled : tensor<?x?xf32>
}
"""

SYNCS = "reduce-device-syncs,merge-gpu-bodies"
PASS_PIPELINES = {
    "level 1 before": "",
    "level 1 after": SYNCS,
    "level 2 before": "convert-soac-to-mem",
    "level 2 after": SYNCS + ",convert-soac-to-mem",
    "numpy backend": SoaccPipelinePass().level2_stages(),
}


def test_the_row_swap_reads_no_index_and_means_the_same_on_random_inputs():
    """Before and after the passes, at level 1 and 2: the same results, or all fail
    with an index out of bounds (the sum is past the rows about half the time); after
    them no read at all, where before there was one."""
    programs = {k: soacc.compile(SWAP, backend="numpy", pipeline=p) for k, p in PASS_PIPELINES.items()}
    rng = np.random.default_rng(6)
    outcomes = {"ok": 0, "failed": 0}
    for _ in range(30):
        rows, width = int(rng.integers(1, 6)), int(rng.integers(0, 4))
        m = rng.uniform(-1, 1, (rows, width)).astype(np.float32)
        col = rng.integers(-1, 3, int(rng.integers(1, 4)))  # a negative sum too
        results = {}
        for name, program in programs.items():
            try:
                results[name] = program.main(m.copy(), col.copy())
            except soacc.ExecutionError as error:
                assert "out of bounds" in str(error), (name, error)
                results[name] = None
        if all(r is None for r in results.values()):
            outcomes["failed"] += 1
            continue
        assert all(r is not None for r in results.values()), results
        for name, r in results.items():
            np.testing.assert_array_equal(r, results["level 1 before"], err_msg=name)
        assert programs["level 2 before"].statistics.sync_reads == 1
        assert programs["level 2 after"].statistics.sync_reads == 0
        assert programs["numpy backend"].statistics.sync_reads == 0
        outcomes["ok"] += 1
    assert outcomes["ok"] and outcomes["failed"], outcomes


@pytest.mark.gpu
def test_slices_and_element_writes_on_the_gpu_equal_the_reference():
    """The copy kernels and one-thread stores on a real GPU, at positions in bounds
    (a failed check traps, which the CUDA backend reports as a failed call)."""
    on_gpu = soacc.compile(SLICES, backend="cuda")
    reference = soacc.compile(SLICES, backend="numpy", pipeline="")
    rng = np.random.default_rng(18)
    ran = 0
    while ran < 30:
        args = slices_inputs(rng)
        if slices_model(*args) is None:
            continue
        for g, e in zip(on_gpu.main(*args), reference.main(*args), strict=True):
            np.testing.assert_array_equal(g, e)
        ran += 1
