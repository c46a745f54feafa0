"""The fused combinators (soac.redomap, soac.scanomap, soac.scatteromap, soac.histomap)
in the reference executor, against NumPy and Python folds. `run` runs each program at
level 1 and bufferised (mem.redomap, ...) and checks that both agree bit for bit; the
statistics tests check that a fused kernel is one launch and makes no intermediate
array."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

from tests.support.rt_util import SIZES, assert_array, assert_close, assert_scalar

# --------------------------------------------------------------------------------------
# redomap
# --------------------------------------------------------------------------------------

SUM_AND_MAX_OF_SQUARES = """func.func @main(%a: tensor<?xf32>) -> (f32, f32, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s, %m, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, f32, tensor<?xf32>) map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y, %x, %y : f32, f32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  } reduce(%ninf : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.maximumf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s, %m, %sq : f32, f32, tensor<?xf32>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_redomap_reduces_each_operator_and_gives_the_mapped_array(run, rng, n):
    a = rng.standard_normal(n).astype(np.float32)
    s, m, sq = run(SUM_AND_MAX_OF_SQUARES, a)
    assert_close(np.asarray(s), np.sum(a * a, dtype=np.float32), np.float32, rtol=1e-5)
    assert_scalar(m, np.max(a) if n else -np.inf, np.float32)
    assert_array(sq, a * a)


AFFINE_COMPOSITION = """func.func @main(%a: tensor<?xf64>, %b: tensor<?xf64>) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %ta, %tb = soac.redomap(%a, %b) : (tensor<?xf64>, tensor<?xf64>) -> (f64, f64) map {
  ^bb0(%x: f64, %y: f64):
    %x2 = arith.addf %x, %one : f64
    soac.yield %x2, %y : f64, f64
  } reduce(%one, %zero : f64, f64) {
  ^bb0(%a1: f64, %b1: f64, %a2: f64, %b2: f64):
    %ca = arith.mulf %a1, %a2 : f64
    %t = arith.mulf %b1, %a2 : f64
    %cb = arith.addf %t, %b2 : f64
    soac.yield %ca, %cb : f64, f64
  }
  func.return %ta, %tb : f64, f64
}"""


@pytest.mark.parametrize("n", SIZES)
def test_redomap_with_a_non_commutative_tuple_operator_keeps_the_order(run, rng, n):
    a = rng.uniform(0.5, 1.5, n)
    b = rng.standard_normal(n)
    ta, tb = run(AFFINE_COMPOSITION, a, b)
    fa, fb = 1.0, 0.0
    for x, y in zip(a + 1.0, b):  # compose (fa, fb) then (x, y)
        fa, fb = fa * x, fb * x + y
    assert_close(np.asarray(ta), fa, np.float64, rtol=1e-9)
    assert_close(np.asarray(tb), fb, np.float64, rtol=1e-9, atol=1e-9)


SEGMENTED = """func.func @main(%m: tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?x?xi32>) {
  %zero = arith.constant 0 : i32
  %sums, %doubled = soac.map(%m) : (tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?x?xi32>) {
  ^bb0(%row: tensor<?xi32>):
    %s, %d = soac.redomap(%row) : (tensor<?xi32>) -> (i32, tensor<?xi32>) map {
    ^bb1(%x: i32):
      %x2 = arith.addi %x, %x : i32
      soac.yield %x, %x2 : i32, i32
    } reduce(%zero : i32) commutative {
    ^bb1(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    soac.yield %s, %d : i32, tensor<?xi32>
  }
  func.return %sums, %doubled : tensor<?xi32>, tensor<?x?xi32>
}"""


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (1, 1), (7, 13)])
def test_segmented_redomap_in_a_map(run, rng, shape):
    m = rng.integers(-1000, 1000, shape).astype(np.int32)
    sums, doubled = run(SEGMENTED, m)
    assert_array(sums, m.sum(axis=1, dtype=np.int32))
    assert_array(doubled, m + m)


# --------------------------------------------------------------------------------------
# scanomap
# --------------------------------------------------------------------------------------

PREFIXES = """func.func @main(%a: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %zero = arith.constant 0 : i32
  %lowest = arith.constant -2147483648 : i32
  %sum, %max, %neg = soac.scanomap(%a) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) map {
  ^bb0(%x: i32):
    %n = arith.subi %zero, %x : i32
    soac.yield %x, %x, %n : i32, i32, i32
  } scan(%zero : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  } scan(%lowest : i32) {
  ^bb0(%l: i32, %r: i32):
    %t = arith.maxsi %l, %r : i32
    soac.yield %t : i32
  }
  func.return %sum, %max, %neg : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_scanomap_scans_each_operator_and_gives_the_mapped_array(run, rng, n):
    a = rng.integers(-100, 100, n).astype(np.int32)
    s, m, neg = run(PREFIXES, a)
    assert_array(s, np.cumsum(a, dtype=np.int32))
    assert_array(m, np.maximum.accumulate(a) if n else a)
    assert_array(neg, -a)


EXCLUSIVE = """func.func @main(%a: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %incl, %excl = soac.scanomap(%a) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) map {
  ^bb0(%x: i64):
    soac.yield %x, %x : i64, i64
  } scan(%zero : i64) commutative {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  } post {
  ^bb0(%s: i64, %x: i64):
    %e = arith.subi %s, %x : i64
    soac.yield %s, %e : i64, i64
  }
  func.return %incl, %excl : tensor<?xi64>, tensor<?xi64>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_scanomap_post_lambda_maps_the_scanned_and_mapped_values(run, rng, n):
    a = rng.integers(-100, 100, n).astype(np.int64)
    incl, excl = run(EXCLUSIVE, a)
    assert_array(incl, np.cumsum(a))
    assert_array(excl, np.cumsum(a) - a)


# --------------------------------------------------------------------------------------
# scatteromap and histomap
# --------------------------------------------------------------------------------------

SCATTER = """func.func @main(%d: tensor<?xf32>, %is: tensor<?xi32>, %v: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1 : i64
  %r, %pos = soac.scatteromap %d(%is, %v) : tensor<?xf32>, (tensor<?xi32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) map {
  ^bb0(%i: i32, %x: f32):
    %p = arith.extsi %i : i32 to i64
    %q = arith.subi %p, %one : i64
    %y = arith.mulf %x, %two : f32
    soac.yield %q, %y, %q : i64, f32, i64
  }
  func.return %r, %pos : tensor<?xf32>, tensor<?xi64>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_scatteromap_writes_the_values_at_the_indices_its_lambda_computes(run, rng, n):
    d = rng.standard_normal(n).astype(np.float32)
    perm = rng.permutation(n + 2).astype(np.int32)[:n]  # distinct; 0 and n+1 fall outside
    v = rng.standard_normal(n).astype(np.float32)
    r, pos = run(SCATTER, d, perm, v)
    want = d.copy()
    for p, x in zip(perm - 1, v * 2):
        if 0 <= p < n:
            want[p] = x
    assert_array(r, want)
    assert_array(pos, perm.astype(np.int64) - 1)


HIST = """func.func @main(%x: tensor<?xf32>) -> (tensor<16xi32>, tensor<16xi32>) {
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %big = arith.constant 2147483647 : i32
  %scale = arith.constant 4.0 : f32
  %h0 = soac.replicate %c16, %zero : i32 -> tensor<16xi32>
  %counts = soac.histomap %h0(%x) : tensor<16xi32>, (tensor<?xf32>) -> tensor<16xi32> map {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %scale : f32
    %b = arith.fptosi %s : f32 to i32
    soac.yield %b, %one : i32, i32
  } hist(%zero : i32) {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  }
  %m0 = soac.replicate %c16, %big : i32 -> tensor<16xi32>
  %least = soac.histomap %m0(%x) : tensor<16xi32>, (tensor<?xf32>) -> tensor<16xi32> map {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %scale : f32
    %b = arith.fptosi %s : f32 to i32
    %neg = arith.subi %zero, %b : i32
    soac.yield %b, %neg : i32, i32
  } hist(%big : i32) {
  ^bb0(%l: i32, %r: i32):
    %lt = arith.cmpi slt, %l, %r : i32
    %t = arith.select %lt, %l, %r : i32
    soac.yield %t : i32
  }
  func.return %counts, %least : tensor<16xi32>, tensor<16xi32>
}"""


@pytest.mark.parametrize("n", SIZES)
def test_histomap_combines_the_values_into_the_bins_its_lambda_computes(run, rng, n):
    """A ufunc operator (+) and one NumPy does not know (min by select); bins outside
    [0, 16) are ignored."""
    x = rng.uniform(-1.0, 5.0, n).astype(np.float32)
    counts, least = run(HIST, x)
    bins = (x * np.float32(4.0)).astype(np.int32)
    inside = (bins >= 0) & (bins < 16)
    want_counts = np.zeros(16, np.int32)
    np.add.at(want_counts, bins[inside], 1)
    want_least = np.full(16, 2**31 - 1, np.int32)
    np.minimum.at(want_least, bins[inside], -bins[inside])
    assert_array(counts, want_counts)
    assert_array(least, want_least)


# --------------------------------------------------------------------------------------
# What a fused kernel costs at level 2
# --------------------------------------------------------------------------------------

UNFUSED_SUM_OF_SQUARES = """func.func @main(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %s = soac.reduce(%sq) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : f32
}"""


def test_a_fused_kernel_is_one_launch_and_writes_no_intermediate_array():
    a = np.arange(100, dtype=np.float32)
    counted = {}
    for pipeline in ("convert-soac-to-mem", "soac-fusion,convert-soac-to-mem"):
        program = soacc.compile(UNFUSED_SUM_OF_SQUARES, pipeline=pipeline)
        result = program.main(a)
        counted[pipeline] = program.statistics
    unfused, fused = counted.values()
    assert result == np.sum(a * a, dtype=np.float32)
    # unfused: the map and the reduce; the copy of a, the squares and the 0-d result
    assert unfused.kernel_launches == 2
    assert unfused.spaces["device"].bytes_allocated == 400 + 400 + 4
    # fused: one redomap, and no array of squares
    assert fused.kernel_launches == 1
    assert fused.spaces["device"].bytes_allocated == 400 + 4
    assert fused.sync_reads == unfused.sync_reads == 1
