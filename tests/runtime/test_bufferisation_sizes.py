"""Sizes convert-soac-to-mem needs before a map runs (its rows' size, to allocate them):
programs level 1 runs must run at level 2 too, as written, after convert-soac-to-mem and
after the default level-2 pipeline, with the same results; a program whose rows
disagree fails at every level. Each program runs on random inputs at sizes 0, 1 and
larger; where nvcc is installed, its CUDA C compiles (or convert-mem-to-gpu says, at the
op, why a kernel cannot allocate it)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import soacc
from tests.support.rt_util import compiled, run

SIZES = (0, 1, 2, 7)

# The condition choosing the row's size reads a reduction the map captures: it is known
# before the map, so the rows' size is read from device memory first.
ROW_SIZE_BY_CAPTURED_REDUCTION = """func.func @main(%a: tensor<?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %t = arith.addf %x, %y : f32
    soac.yield %t : f32
  }
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %c = arith.cmpf olt, %s, %z : f32
    %row = scf.if %c -> (tensor<?xf32>) {
      %p = soac.replicate %n, %e : f32 -> tensor<?xf32>
      scf.yield %p : tensor<?xf32>
    } else {
      %q = soac.replicate %m, %s : f32 -> tensor<?xf32>
      scf.yield %q : tensor<?xf32>
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""

# The condition compares the row with the captured reduction: each row may take either
# branch, so the rows' size is the first row's (regular when every row agrees).
ROW_SIZE_BY_ROW = ROW_SIZE_BY_CAPTURED_REDUCTION.replace(
    "arith.cmpf olt, %s, %z : f32", "arith.cmpf olt, %e, %s : f32"
)

# A row's size is the size of an array captured from outside the map, whose size only
# running the `if` that makes it tells: it is computed before the map from the array.
ROW_SIZE_OF_CAPTURED_ARRAY = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %p: i1, %n: index) -> (tensor<?x?xindex>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %bb = scf.if %p -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    scf.yield %b : tensor<?xf32>
  }
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xindex> {
  ^bb0(%e: f32):
    %k = soac.size %bb[0] : tensor<?xf32>
    %io = soac.iota %k : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  %s = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %k = soac.size %bb[0] : tensor<?xf32>
    %l = arith.minui %k, %n : index
    %part = soac.slice %bb[%c0:%l] : tensor<?xf32> -> tensor<?xf32>
    %row = soac.map(%part) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %e : f32
      soac.yield %y : f32
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r, %s : tensor<?x?xindex>, tensor<?x?xf32>
}"""

# A row size read from a captured array inside the lambda: level 1 reads it once per
# row, so a map of no rows has rows of size 0; it is read for the first row.
ROW_SIZE_BY_CAPTURED_ELEMENT = """func.func @main(%a: tensor<?xf32>, %counts: tensor<?xindex>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %k = soac.index %counts[%c0] : tensor<?xindex>
    %row = soac.replicate %k, %e : f32 -> tensor<?xf32>
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_row_size_by_captured_element(n):
    rng = np.random.default_rng(50 + n)
    a, counts = floats(rng, n), rng.integers(0, 4, 3)
    r = run_everywhere(ROW_SIZE_BY_CAPTURED_ELEMENT, a, counts)
    assert r.shape == (n, counts[0] if n else 0)
    np.testing.assert_array_equal(r, np.repeat(a[:, None], r.shape[1], axis=1))


# A loop in the lambda carries an array that doubles (never yielded, only reduced) and
# the row it yields, whose size the loop keeps.
LOOP_KEEPS_ROW_BESIDE_GROWING_ARRAY = """func.func @main(%a: tensor<?xf32>, %n: index, %k: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %init = soac.replicate %n, %e : f32 -> tensor<?xf32>
    %row0 = soac.replicate %n, %z : f32 -> tensor<?xf32>
    %grown, %row = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init, %rw = %row0) -> (tensor<?xf32>, tensor<?xf32>) {
      %cat = soac.concat %acc, %acc : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %s = soac.reduce(%cat) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
      ^bb1(%x: f32, %y: f32):
        %t = arith.addf %x, %y : f32
        soac.yield %t : f32
      }
      %rw2 = soac.map(%rw) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%v: f32):
        %w = arith.addf %v, %s : f32
        soac.yield %w : f32
      }
      scf.yield %cat, %rw2 : tensor<?xf32>, tensor<?xf32>
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


def run_everywhere(src: str, *args):
    """`src` as written, after convert-soac-to-mem (rt_util.run checks the two agree,
    and fail together) and after the default level-2 pipeline: one result or one
    ExecutionError for all three."""
    copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    try:
        level1 = run(src, *args)
    except soacc.ExecutionError:
        with pytest.raises(soacc.ExecutionError):
            soacc.compile(src, backend="numpy").main(*copies)
        raise
    default = soacc.compile(src, backend="numpy").main(*copies)
    for x, y in zip(level1 if isinstance(level1, tuple) else (level1,), default if isinstance(default, tuple) else (default,)):
        assert x.shape == y.shape and np.array_equal(x, y), (x, y)
    return level1


def floats(rng, n, low=-3, high=4):
    return rng.integers(low, high, n).astype(np.float32)


@pytest.mark.parametrize("n", SIZES)
def test_row_size_by_captured_reduction(n):
    rng = np.random.default_rng(n)
    for _ in range(4):
        a, k, m = floats(rng, n), int(rng.integers(0, 4)), int(rng.integers(0, 4))
        r = run_everywhere(ROW_SIZE_BY_CAPTURED_REDUCTION, a, k, m)
        s = a.sum(dtype=np.float32)
        want = np.repeat(a[:, None], k, axis=1) if s < 0 else np.full((n, m), s, np.float32)
        np.testing.assert_array_equal(r, want)


@pytest.mark.parametrize("n", SIZES)
def test_row_size_by_row_when_rows_agree(n):
    rng = np.random.default_rng(10 + n)
    for same_sizes in (True, False, False):
        # equal rows all take one branch (the if branch when below their sum)
        a = np.full(n, rng.integers(0, 3), np.float32)
        k = int(rng.integers(0, 4))
        m = k if same_sizes else int(rng.integers(0, 4))
        r = run_everywhere(ROW_SIZE_BY_ROW, a, k, m)
        s = a.sum(dtype=np.float32)
        takes_if = a < s
        width = k if (n and takes_if[0]) else m
        assert r.shape == (n, width)
        want = np.where(takes_if[:, None], a[:, None], s) if n else np.zeros((0, width), np.float32)
        np.testing.assert_array_equal(r, np.broadcast_to(want, (n, width)))


# The same one map deeper: the rows of the outer map are the inner map's results, whose
# rows' size depends on the inner rows: the first row of the first row.
NESTED_ROW_SIZE_BY_ROW = """func.func @main(%m: tensor<?x?xf32>, %n: index, %k: index) -> tensor<?x?x?xf32> {
  %z = arith.constant 0.0 : f32
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %in = soac.map(%row) : (tensor<?xf32>) -> tensor<?x?xf32> {
    ^bb1(%e: f32):
      %c = arith.cmpf olt, %e, %z : f32
      %x = scf.if %c -> (tensor<?xf32>) {
        %p = soac.replicate %n, %e : f32 -> tensor<?xf32>
        scf.yield %p : tensor<?xf32>
      } else {
        %q = soac.replicate %k, %e : f32 -> tensor<?xf32>
        scf.yield %q : tensor<?xf32>
      }
      soac.yield %x : tensor<?xf32>
    }
    soac.yield %in : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?x?xf32>
}"""


@pytest.mark.parametrize("shape", [(0, 0), (0, 2), (2, 0), (1, 1), (3, 2)])
def test_nested_row_size_by_row(shape):
    rng = np.random.default_rng(sum(shape))
    for sign in (-1, 1):
        m = sign * rng.integers(1, 4, shape).astype(np.float32)  # every row takes one branch
        n, k = int(rng.integers(0, 4)), int(rng.integers(0, 4))
        r = run_everywhere(NESTED_ROW_SIZE_BY_ROW, m, n, k)
        width = n if (m.size and sign < 0) else k
        assert r.shape == (*shape, width)
        np.testing.assert_array_equal(r, np.broadcast_to(m[..., None], r.shape))


def test_row_size_by_row_empty_map_is_level_1s():
    """No rows: level 1 takes the false branch of a per-row condition."""
    r = run_everywhere(ROW_SIZE_BY_ROW, np.zeros(0, np.float32), 2, 5)
    assert r.shape == (0, 5)


def test_rows_that_disagree_fail_at_level_1_and_after_convert_soac_to_mem():
    a = np.array([-1, 2], np.float32)  # row 0 takes the else branch, row 1 the if branch
    with pytest.raises(soacc.ExecutionError, match="regular"):
        run(ROW_SIZE_BY_ROW, a, 2, 3)


def test_rows_that_disagree_fail_after_the_default_pipeline():
    """short-circuit builds each branch's row in the output row, and keeps the check that
    it fits (a cf.assert) where the copy it removes had it."""
    with pytest.raises(soacc.ExecutionError, match="does not fit %r_row"):
        soacc.compile(ROW_SIZE_BY_ROW, backend="numpy").main(np.array([-1, 2], np.float32), 2, 3)


@pytest.mark.parametrize("n", SIZES)
def test_row_size_of_captured_array(n):
    rng = np.random.default_rng(20 + n)
    for p in (True, False):
        a, b, k = floats(rng, n), floats(rng, int(rng.integers(0, 6))), int(rng.integers(0, 5))
        r, s = run_everywhere(ROW_SIZE_OF_CAPTURED_ARRAY, a, b, p, k)
        chosen = a if p else b
        np.testing.assert_array_equal(r, np.broadcast_to(np.arange(len(chosen)), (n, len(chosen))))
        part = chosen[: min(len(chosen), k)]
        np.testing.assert_array_equal(s, part[None, :] + a[:, None])


@pytest.mark.parametrize("n", SIZES)
def test_loop_keeps_row_beside_growing_array(n):
    rng = np.random.default_rng(30 + n)
    for _ in range(3):
        a, k, steps = floats(rng, n), int(rng.integers(0, 4)), int(rng.integers(0, 4))
        r = run_everywhere(LOOP_KEEPS_ROW_BESIDE_GROWING_ARRAY, a, k, steps)
        want = np.zeros((n, k), np.float32)
        for i, e in enumerate(a):
            acc, row = np.full(k, e, np.float32), np.zeros(k, np.float32)
            for _ in range(steps):
                acc = np.concatenate([acc, acc])
                row = row + acc.sum(dtype=np.float32)
            want[i] = row
        np.testing.assert_array_equal(r, want)


def test_size_computed_before_the_map_is_a_size_not_a_guess():
    """The rows are allocated with the size the program computes (a select, not either
    branch), so bufferising leaves no assert and no refusal."""
    text = str(compiled(ROW_SIZE_BY_CAPTURED_REDUCTION, "convert-soac-to-mem").module)
    assert "mem.load %s_dev[]" in text


# A lambda's array sized partly by the row's value (never yielded, only reduced). With no rows,
# level 2 ran the lambda over no lanes after hoist-allocations had replaced the array's
# size by `n + k` (k having no value) and failed; a map of no rows now runs nothing.
CONCAT_OF_ROW_SIZED_PART = """func.func @main(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %ki = arith.fptoui %e : f32 to i32
    %k = arith.index_cast %ki : i32 to index
    %x = soac.replicate %n, %e : f32 -> tensor<?xf32>
    %y = soac.replicate %k, %e : f32 -> tensor<?xf32>
    %c = soac.concat %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %s = soac.reduce(%c) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
    ^bb1(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %r : tensor<?xf32>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_lambda_array_sized_per_row(n):
    rng = np.random.default_rng(40 + n)
    # the executors run lanes side by side: a lambda's arrays have one size in every row
    a, k = np.full(n, rng.integers(0, 4), np.float32), int(rng.integers(0, 4))
    r = run_everywhere(CONCAT_OF_ROW_SIZED_PART, a, k)
    np.testing.assert_array_equal(r, a * k + a * a)
    hoisted = soacc.compile(CONCAT_OF_ROW_SIZED_PART, backend="numpy", pipeline="convert-soac-to-mem,hoist-allocations")
    np.testing.assert_array_equal(hoisted.main(a, k), r)


GPU_PROGRAMS = {
    "captured_reduction": (ROW_SIZE_BY_CAPTURED_REDUCTION, None),
    "by_row": (ROW_SIZE_BY_ROW, None),
    "captured_element": (ROW_SIZE_BY_CAPTURED_ELEMENT, None),
    # the inner map's rows are built per thread, in memory sized by the thread's row
    "nested_by_row": (NESTED_ROW_SIZE_BY_ROW, "convert-mem-to-gpu: mem.alloc allocates memory whose size depends on what a thread computes"),
    # a per-thread array whose size the thread computes (it doubles in a loop)
    "growing_loop": (LOOP_KEEPS_ROW_BESIDE_GROWING_ARRAY, "convert-mem-to-gpu: mem.alloc allocates memory whose size depends on what a thread computes"),
}


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("name", sorted(GPU_PROGRAMS))
def test_gpu_lowering_compiles_or_says_why(name, tmp_path):
    src, refusal = GPU_PROGRAMS[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(src)
    result = subprocess.run(
        ["soacc-opt", str(path), "-p", "soacc-pipeline", "-t", "cuda"], capture_output=True, text=True
    )
    if refusal is not None:
        assert result.returncode == 1 and refusal in result.stderr and "Traceback" not in result.stderr
        return
    assert result.returncode == 0, result.stderr[-2000:]
    cu = tmp_path / f"{name}.cu"
    cu.write_text(result.stdout)
    nvcc = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", str(cu), "-o", str(tmp_path / f"{name}.ptx")], capture_output=True, text=True
    )
    assert nvcc.returncode == 0, nvcc.stderr[-4000:]


GPU_INPUTS = {
    "captured_reduction": [(np.array([-1, -2, 4], np.float32), 2, 3), (np.array([1, 2], np.float32), 2, 3), (np.zeros(0, np.float32), 1, 4)],
    "by_row": [(np.full(5, 2, np.float32), 2, 3), (np.zeros(3, np.float32), 2, 4), (np.zeros(0, np.float32), 1, 4)],
    "captured_element": [(np.arange(4, dtype=np.float32), np.array([3, 1])), (np.zeros(0, np.float32), np.array([2]))],
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(GPU_INPUTS))
def test_gpu_runs_what_level_2_runs(name):
    """On the GPU (the first row's size read from device memory), the results of the
    reference executor at level 2."""
    src = GPU_PROGRAMS[name][0]
    cuda, numpy = soacc.compile(src, backend="cuda"), soacc.compile(src, backend="numpy")
    for args in GPU_INPUTS[name]:
        got = cuda.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        want = numpy.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        assert got.shape == want.shape and np.array_equal(got, want), (got, want)
