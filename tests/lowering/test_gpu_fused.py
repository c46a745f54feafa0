"""soac-fusion's fused combinators (redomap, scanomap, scatteromap, histomap) on their
kernels: the seeded random programs of the fusion tests lower through the whole pipeline
(here a fifth of them, and a sample through nvcc), and (marker gpu) every one gives on the GPU what the
reference executor gives for the program as written; then the fused forms the random
programs make rarely: several operators in one op, one of them not commutative, mapped
outputs beside reduced ones, a post lambda keeping values beside the scanned ones, a
hist whose operator needs compare-and-swap, and fused ops inside a map's lambda."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda

from tests.support.random_programs import random_program

GPU = "canonicalize,cse,soac-fusion,convert-soac-to-mem,convert-mem-to-gpu"
PROGRAMS = 300


@pytest.mark.slow
def test_random_programs_lower_to_kernels():
    for seed in range(0, PROGRAMS, 5):  # a fifth of them: lowering takes a while
        soacc.compile(random_program("fusion", seed).source, backend="numpy", pipeline=GPU)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("seed", range(0, PROGRAMS, 37))
def test_the_cuda_c_of_random_programs_compiles(seed, tmp_path):
    program = soacc.compile(random_program("fusion", seed).source, backend="numpy", pipeline=GPU)
    source = io.StringIO()
    emit_cuda(program.module, source)
    path = tmp_path / "k.cu"
    path.write_text(source.getvalue())
    result = subprocess.run(["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "k.ptx")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


EXACT = 2.0**24
"""Whole numbers below this are exact in f32, so their sums and products are the same in
any order; beyond it (and where a product overflows) the order of a reduction shows."""


def assert_close(got, want) -> None:
    """Integers equal; floats within rounding of a reordered reduction, where the
    reference's values are finite and below EXACT (a multiplicative scan of 33 whole
    numbers overflows f32, and inf - inf or inf * 0 then give NaN in one order and
    not in another)."""
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind == "f":
            comparable = np.isfinite(w) & (np.abs(w) < EXACT)
            scale = 1 + float(np.max(np.abs(w[comparable]), initial=0))
            np.testing.assert_allclose(g[comparable], w[comparable], rtol=2e-4, atol=2e-4 * scale)
        else:
            np.testing.assert_array_equal(g, w)


def whole_number_inputs(seed: int, n: int) -> tuple:
    """The generator's inputs rounded to whole numbers: sums and products of them are
    exact in f32 whatever the order (while they stay below 2^24), so a GPU that reduces
    in another order than the reference executor still gives the same values, and no
    rounding difference can tip a comparison or a conversion downstream."""
    return tuple(np.round(x) if isinstance(x, (np.ndarray, np.floating)) and np.asarray(x).dtype.kind == "f" else x for x in random_program("fusion", seed).inputs(n, np.random.default_rng(seed * 100 + n)))


@pytest.mark.gpu
@pytest.mark.parametrize("first", range(0, PROGRAMS, 50))
def test_random_programs_fused_on_the_gpu_give_the_reference_results(first):
    """Every fifth program, on the cuda backend (kernels compiled once per program). The
    programs scatter to distinct positions (where positions repeat, any value may win on
    the GPU), at sizes where their values stay finite."""
    for seed in range(first, first + 50, 5):
        text = random_program("fusion", seed, unique_scatters=True).source
        gpu = soacc.compile(text, backend="cuda", pipeline=GPU)
        written = soacc.compile(text, backend="numpy", pipeline="")
        for n in (1, 7, 33):
            args = whole_number_inputs(seed, n)
            try:
                assert_close(gpu.main(*args), written.main(*args))
            except AssertionError as error:
                raise AssertionError(f"random program {seed} at n = {n}:\n{text}\n{error}") from None


TWO_OPERATORS = """
// sum of squares (commutative) and the composition of affine maps (not) in one pass,
// the squares kept as a mapped output
func.func @main(%a: tensor<?xf32>, %m: tensor<?xi32>, %c: tensor<?xi32>) -> (f32, i32, i32, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %izero = arith.constant 0 : i32
  %s, %pm, %pc, %sq = soac.redomap(%a, %m, %c) : (tensor<?xf32>, tensor<?xi32>, tensor<?xi32>) -> (f32, i32, i32, tensor<?xf32>) map {
  ^bb0(%x: f32, %mi: i32, %ci: i32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y, %mi, %ci, %y : f32, i32, i32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  } reduce(%one, %izero : i32, i32) {
  ^bb0(%m1: i32, %c1: i32, %m2: i32, %c2: i32):
    %mm = arith.muli %m1, %m2 : i32
    %p = arith.muli %c1, %m2 : i32
    %cc = arith.addi %p, %c2 : i32
    soac.yield %mm, %cc : i32, i32
  }
  func.return %s, %pm, %pc, %sq : f32, i32, i32, tensor<?xf32>
}
"""

SCAN_WITH_POST = """
// an exclusive prefix sum by a post lambda that subtracts the kept element from the
// inclusive sum, and the doubled elements as a second output
func.func @main(%a: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %ex, %twice = soac.scanomap(%a) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) map {
  ^bb0(%x: i64):
    soac.yield %x, %x : i64, i64
  } scan(%zero : i64) commutative {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  } post {
  ^bb0(%s: i64, %x: i64):
    %e = arith.subi %s, %x : i64
    %d = arith.addi %x, %x : i64
    soac.yield %e, %d : i64, i64
  }
  func.return %ex, %twice : tensor<?xi64>, tensor<?xi64>
}
"""

HIST_BY_CAS = """
// the largest value per bin by maximumf (no CUDA atomic: compare-and-swap), bins made
// by the map lambda, and the bins kept as a mapped output
func.func @main(%d: tensor<?xf32>, %x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %ten = arith.constant 10.0 : f32
  %h, %bins = soac.histomap %d(%x) : tensor<?xf32>, (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) map {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %ten : f32
    %b = arith.fptosi %s : f32 to i32
    soac.yield %b, %v, %b : i32, f32, i32
  } hist(%ninf : f32) {
  ^bb0(%l: f32, %r: f32):
    %m = arith.maximumf %l, %r : f32
    soac.yield %m : f32
  }
  func.return %h, %bins : tensor<?xf32>, tensor<?xi32>
}
"""

NESTED = """
// per row: a sum of squares (redomap) and a running maximum (scanomap), inside a map
func.func @main(%m: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sums, %maxes = soac.map(%m) : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.redomap(%row) : (tensor<?xf32>) -> f32 map {
    ^bb1(%x: f32):
      %y = arith.mulf %x, %x : f32
      soac.yield %y : f32
    } reduce(%zero : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %p = soac.scanomap(%row) : (tensor<?xf32>) -> tensor<?xf32> map {
    ^bb1(%x: f32):
      %n = arith.negf %x : f32
      soac.yield %n : f32
    } scan(%ninf : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %t = arith.maximumf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s, %p : f32, tensor<?xf32>
  }
  func.return %sums, %maxes : tensor<?xf32>, tensor<?x?xf32>
}
"""


def _both(source: str, *args):
    """The GPU's results (level 3, kernels on the GPU) and the executor's (as written)."""
    gpu = soacc.compile(source, backend="numpy", pipeline="convert-soac-to-mem,convert-mem-to-gpu").main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline="").main(*args)
    return gpu, cpu


@pytest.mark.parametrize("source", [TWO_OPERATORS, SCAN_WITH_POST, HIST_BY_CAS, NESTED])
def test_each_form_lowers_to_kernels(source):
    program = soacc.compile(source, backend="numpy", pipeline="convert-soac-to-mem,convert-mem-to-gpu")
    assert any(op.name == "gpu.func" for op in program.module.walk())


@pytest.mark.gpu
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 1 << 20])
def test_two_operators_in_one_pass(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(np.float32)
    m = rng.choice(np.array([1, 1, 1, -1, 3], np.int32), n)
    c = rng.integers(-5, 6, n).astype(np.int32)
    gpu, cpu = _both(TWO_OPERATORS, a, m, c)
    assert gpu[1:3] == cpu[1:3]  # the ordered i32 composition: exact
    np.testing.assert_array_equal(gpu[3], a * a)
    assert abs(float(gpu[0]) - float(np.sum(a.astype(np.float64) ** 2))) <= 1e-5 * (1 + float(np.sum(a.astype(np.float64) ** 2)))


@pytest.mark.gpu
@pytest.mark.parametrize("n", [0, 1, 7, 4097, 1 << 20])
def test_a_post_lambda_with_kept_values(n):
    a = np.random.default_rng(n).integers(-100, 100, n).astype(np.int64)
    gpu, cpu = _both(SCAN_WITH_POST, a)
    np.testing.assert_array_equal(gpu[0], np.cumsum(a) - a)
    np.testing.assert_array_equal(gpu[1], 2 * a)
    np.testing.assert_array_equal(gpu[0], cpu[0])


@pytest.mark.gpu
@pytest.mark.parametrize("bins", [3, 10, 1000])
@pytest.mark.parametrize("n", [0, 1, 1000, 1 << 20])
def test_a_hist_by_compare_and_swap(n, bins):
    rng = np.random.default_rng(n + bins)
    x = (rng.random(n) * (bins + 2) / 10 - 0.1).astype(np.float32)  # some bins out of range
    d = np.full(bins, -np.inf, np.float32)
    gpu, cpu = _both(HIST_BY_CAS, d, x)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(0, 3), (5, 1), (7, 40), (9, 300), (300, 1000)])
def test_fused_ops_inside_a_map(shape):
    m = np.random.default_rng(shape[1]).standard_normal(shape).astype(np.float32)
    gpu, cpu = _both(NESTED, m)
    np.testing.assert_allclose(gpu[0], cpu[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(gpu[1], np.maximum.accumulate(-m, axis=1) if shape[1] else -m)
