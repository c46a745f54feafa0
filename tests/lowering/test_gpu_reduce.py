"""Host-level reduce kernels (two passes: partials per block, then one block) on the GPU
against the CPU reference executor: sizes around the block and grid sizes, every
dtype, a commutative operator, a non-commutative one (whose order matters) and a
tuple-valued one (argmax). Marker gpu: skipped where no GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

SIZES = [0, 1, 31, 255, 256, 257, 1023 * 256 + 5, 1 << 20, 3_000_017]


def _reduce_program(t: str, op: str, neutral: str, commutative: bool) -> str:
    flag = "commutative " if commutative else ""
    return f"""
func.func @main(%a: tensor<?x{t}>) -> {t} {{
  %z = arith.constant {neutral} : {t}
  %r = soac.reduce(%a) neutral(%z : {t}) {flag}: (tensor<?x{t}>) -> {t} {{
  ^bb0(%x: {t}, %y: {t}):
    %s = {op} %x, %y : {t}
    soac.yield %s : {t}
  }}
  func.return %r : {t}
}}
"""


def _both(source: str, *args):
    gpu = soacc.compile(source, backend="numpy", pipeline=GPU).main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline=CPU).main(*args)
    return gpu, cpu


def _input(dtype, n, rng):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(n).astype(dtype)
    return rng.integers(-1000, 1000, n).astype(dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t,dtype", [("i32", np.int32), ("i64", np.int64), ("f32", np.float32), ("f64", np.float64)])
def test_sum(t, dtype, n):
    op = "arith.addf" if t.startswith("f") else "arith.addi"
    neutral = "0.0" if t.startswith("f") else "0"
    a = _input(dtype, n, np.random.default_rng(n))
    gpu, cpu = _both(_reduce_program(t, op, neutral, True), a)
    if t.startswith("f"):
        # summation order differs; both are within rounding of the exact sum
        exact = float(np.sum(a.astype(np.float64)))
        bound = np.finfo(dtype).eps * float(np.sum(np.abs(a.astype(np.float64)))) * 4 + 1e-30
        assert abs(float(gpu) - exact) <= bound and abs(float(cpu) - exact) <= bound
    else:
        assert gpu == cpu


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
def test_max_of_i64_is_exact(n):
    a = _input(np.int64, n, np.random.default_rng(n + 1))
    gpu, cpu = _both(_reduce_program("i64", "arith.maxsi", "-9223372036854775808", True), a)
    assert gpu == cpu


NON_COMMUTATIVE = """
// (a, b) . (c, d) = (a*c, b*c + d) on wrapping i32: the composition of affine maps
// x -> a*x + b, associative but not commutative; any reordering changes the result
func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>) -> (i32, i32) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ra, %rb = soac.reduce(%a, %b) neutral(%one, %zero : i32, i32) : (tensor<?xi32>, tensor<?xi32>) -> (i32, i32) {
  ^bb0(%x1: i32, %y1: i32, %x2: i32, %y2: i32):
    %p = arith.muli %x1, %x2 : i32
    %q = arith.muli %y1, %x2 : i32
    %r = arith.addi %q, %y2 : i32
    soac.yield %p, %r : i32, i32
  }
  func.return %ra, %rb : i32, i32
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
def test_non_commutative_tuple_operator_keeps_the_order(n):
    rng = np.random.default_rng(n + 2)
    a = rng.integers(-3, 4, n).astype(np.int32)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    gpu, cpu = _both(NON_COMMUTATIVE, a, b)
    assert tuple(int(v) for v in gpu) == tuple(int(v) for v in cpu)


ARGMAX = """
func.func @main(%v: tensor<?xf32>, %i: tensor<?xi32>) -> (f32, i32) {
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 2147483647 : i32
  %bv, %bi = soac.reduce(%v, %i) neutral(%ninf, %big : f32, i32) commutative : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = arith.cmpf ogt, %v1, %v2 : f32
    %eq = arith.cmpf oeq, %v1, %v2 : f32
    %lt = arith.cmpi slt, %i1, %i2 : i32
    %tie = arith.andi %eq, %lt : i1
    %first = arith.ori %gt, %tie : i1
    %vm = arith.select %first, %v1, %v2 : f32
    %im = arith.select %first, %i1, %i2 : i32
    soac.yield %vm, %im : f32, i32
  }
  func.return %bv, %bi : f32, i32
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
def test_argmax_with_ties_takes_the_first(n):
    rng = np.random.default_rng(n + 3)
    v = rng.integers(0, 50, n).astype(np.float32)  # many ties
    i = np.arange(n, dtype=np.int32)
    gpu, cpu = _both(ARGMAX, v, i)
    assert (float(gpu[0]), int(gpu[1])) == (float(cpu[0]), int(cpu[1]))
    if n:
        assert int(gpu[1]) == int(np.argmax(v))


SLICE_SUM = """
func.func @main(%a: tensor<?xT>, %o: index) -> T {
  %z = arith.constant 0 : T
  %n = soac.size %a[0] : tensor<?xT>
  %len = arith.subi %n, %o : index
  %s = soac.slice %a[%o:%len] : tensor<?xT> -> tensor<?xT>
  %r = soac.reduce(%s) neutral(%z : T) commutative : (tensor<?xT>) -> T {
  ^bb0(%x: T, %y: T):
    %t = arith.addi %x, %y : T
    soac.yield %t : T
  }
  func.return %r : T
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("n", [5, 1027, 1 << 20, 3_000_017])
@pytest.mark.parametrize("t,dtype", [("i32", np.int32), ("i64", np.int64)])
def test_sums_of_slices_at_every_alignment(t, dtype, n, offset):
    """A slice at an odd offset cannot be read by 16-byte vectors (the kernel checks
    and folds element by element); at a multiple of 16 bytes it is."""
    a = _input(dtype, n + offset, np.random.default_rng(n + offset))
    gpu, cpu = _both(SLICE_SUM.replace("T", t), a, np.int64(offset))
    assert gpu == cpu == np.sum(a[offset:], dtype=dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 1, 4])
@pytest.mark.parametrize("n", [7, 1 << 20 | 3])
def test_argmax_of_vectors_of_a_tuple(offset, n):
    rng = np.random.default_rng(n + 3)
    v = rng.integers(0, 50, n).astype(np.float32)
    i = np.arange(n, dtype=np.int32)
    gpu, cpu = _both(ARGMAX, v[offset:], i[offset:])
    assert (float(gpu[0]), int(gpu[1])) == (float(cpu[0]), int(cpu[1]))
    assert int(gpu[1]) == offset + int(np.argmax(v[offset:]))
