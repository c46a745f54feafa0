"""Shared helpers of the reference-executor tests (tests/runtime): compiling and
running small programs, MLIR <-> NumPy types, exact integer semantics in Python, and
array comparison.

Tests import it as `tests.support.rt_util`."""

from __future__ import annotations

import functools
import math
import struct

import numpy as np

import soacc

# Sizes every size-sweeping test runs: empty, tiny, odd, and a large one.
SIZES = (0, 1, 2, 3, 7, 17, 1000)

DTYPES = {
    "i1": np.dtype(np.bool_),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "index": np.dtype(np.int64),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}

BITS = {"i1": 1, "i32": 32, "i64": 64, "index": 64}


@functools.lru_cache(maxsize=None)
def compiled(src: str, pipeline: str = "") -> soacc.Program:
    """soacc.compile, once per distinct source text and pipeline ("": level 1 as written).
    The executor tests test the executors: the entry points' own checks of argument
    sizes, made before anything runs (tests/api), are left out, so that the executors'
    checks of the same sizes are reached."""
    program = soacc.compile(src, backend="numpy", pipeline=pipeline)
    program.size_checks = {}
    return program


def run(src: str, *args, entry: str = "main"):
    """Runs `src` as written (level 1) and after bufferisation (level 2, explicit memory
    with real aliasing), checks that both agree exactly, and returns the level-1 result.
    Every executor test is so also a differential test of convert-soac-to-mem."""
    copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    try:
        level1 = compiled(src).entry(entry)(*args)
    except soacc.ExecutionError:
        try:
            compiled(src, "convert-soac-to-mem").entry(entry)(*copies)
        except soacc.ExecutionError:
            pass
        else:
            raise AssertionError("level 2 ran a program that fails at level 1") from None
        raise
    level2 = compiled(src, "convert-soac-to-mem").entry(entry)(*copies)
    _same_results(level1, level2)
    return level1


def run_level1(src: str, *args, entry: str = "main"):
    """Runs `src` as written only: for programs bufferisation rightly refuses (a row
    size that is only known per row cannot be allocated ahead of the map)."""
    return compiled(src).entry(entry)(*args)


def _same_results(a, b) -> None:
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    assert len(a) == len(b), f"level 1 gives {len(a)} results, level 2 {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape, (
            f"result {i}: level 1 gives {x.dtype}{list(x.shape)}, level 2 {y.dtype}{list(y.shape)}"
        )
        same = np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
        assert same, f"result {i} differs between level 1 and level 2:\n{x}\n{y}"


def tensor(elem: str, rank: int = 1) -> str:
    return "tensor<" + "?x" * rank + elem + ">"


# --------------------------------------------------------------------------------------
# Exact integer semantics (Python ints): the independent reference for arith
# --------------------------------------------------------------------------------------


def wrap(v: int, bits: int) -> int:
    """Two's complement wrap-around of a Python int to `bits` bits, signed."""
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def unsigned(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def tdiv(a: int, b: int) -> int:
    """Division truncating toward zero (C)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_limits(bits: int) -> tuple[int, int]:
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def special_ints(bits: int) -> list[int]:
    lo, hi = int_limits(bits)
    return [lo, lo + 1, lo + 2, -(1 << (bits // 2)), -7, -2, -1, 0, 1, 2, 3, 7, 1 << (bits // 2), hi - 2, hi - 1, hi]


def random_ints(rng: np.random.Generator, bits: int, n: int) -> list[int]:
    """n ints of a signed width: a third special values, a third full range, a third small."""
    lo, hi = int_limits(bits)
    sp = special_ints(bits)
    out = []
    for k in range(n):
        kind = rng.integers(3)
        if kind == 0:
            out.append(sp[rng.integers(len(sp))])
        elif kind == 1:
            out.append(int(rng.integers(lo, hi, endpoint=True, dtype=np.int64)))
        else:
            out.append(int(rng.integers(-100, 101)))
    return out


# --------------------------------------------------------------------------------------
# Floats
# --------------------------------------------------------------------------------------


def int_to_f32(v: int) -> np.float32:
    """A Python int rounded once (to nearest, ties to even) to f32, computed exactly
    with integers (going through f64 would round twice)."""
    if v == 0:
        return np.float32(0.0)
    sign = -1 if v < 0 else 1
    m = abs(v)
    shift = max(m.bit_length() - 24, 0)
    q, r = divmod(m, 1 << shift)
    half = (1 << shift) >> 1 if shift else 0
    if shift and (r > half or (r == half and q & 1)):
        q += 1
    return np.float32(sign * float(q << shift))


def f32_bits(x) -> int:
    return struct.unpack("<i", struct.pack("<f", float(x)))[0]


def f64_bits(x) -> int:
    return struct.unpack("<q", struct.pack("<d", float(x)))[0]


def special_floats() -> list[float]:
    return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 1e-30, -1e30, math.inf, -math.inf, math.nan]


def random_floats(rng: np.random.Generator, n: int, dtype, *, specials: bool = True) -> np.ndarray:
    vals = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
    if specials and n:
        sp = np.array(special_floats())
        pick = rng.random(n) < 0.2
        vals = np.where(pick, sp[rng.integers(len(sp), size=n)], vals)
    return vals.astype(dtype)


# --------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------


def assert_array(got, want, dtype=None) -> None:
    """Same dtype, same shape, same values (NaN equals NaN)."""
    want = np.asarray(want, dtype=dtype)
    assert isinstance(got, np.ndarray), f"expected a NumPy array, got {type(got).__name__}"
    assert got.dtype == want.dtype, f"dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape}, expected {want.shape}"
    np.testing.assert_array_equal(got, want)


def assert_scalar(got, want, dtype) -> None:
    dtype = np.dtype(dtype)
    assert isinstance(got, np.generic), f"expected a NumPy scalar, got {type(got).__name__}"
    assert got.dtype == dtype, f"dtype {got.dtype}, expected {dtype}"
    if dtype.kind == "f" and math.isnan(float(want)):
        assert math.isnan(float(got)), f"got {got}, expected NaN"
    else:
        assert got == want, f"got {got!r}, expected {want!r}"


def assert_close(got, want, dtype, rtol=None, atol=0.0) -> None:
    want = np.asarray(want, dtype=dtype)
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (
        f"got {type(got).__name__} {getattr(got, 'dtype', None)} {getattr(got, 'shape', None)}, "
        f"expected {want.dtype} {want.shape}"
    )
    if rtol is None:
        rtol = 2e-6 if want.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
