"""Host code's integer arithmetic (runtime/host_scalars.py): the fast path for two
np.int64 operands gives, bit for bit and type for type, what the reference executor's
functions give, on edge values (zero, ±1, the extremes, division by zero) and random
ones; other types take the reference functions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from soacc.runtime import host_scalars
from soacc.runtime.host_scalars import REFERENCE_ARITH, arith

MIN, MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
EDGES = [0, 1, -1, 2, -2, 3, -7, 255, MAX, MIN, MAX - 1, MIN + 1, 1 << 32, -(1 << 32), 1 << 62]
FAST = sorted(host_scalars._INT64_BINARY) + [f"cmpi_{p}" for p in host_scalars._INT64_COMPARE]


def _pairs():
    rng = np.random.default_rng(7)
    edges = list(itertools.product(EDGES, EDGES))
    small = [tuple(int(v) for v in pair) for pair in rng.integers(-1000, 1000, (200, 2))]
    wide = [tuple(int(v) for v in pair) for pair in rng.integers(MIN, MAX, (200, 2), dtype=np.int64)]
    return edges + small + wide


PAIRS = _pairs()


@pytest.mark.parametrize("name", FAST)
def test_the_int64_path_agrees_with_the_reference_executor(name):
    fast, reference = getattr(arith, name), getattr(REFERENCE_ARITH, name)
    with np.errstate(all="ignore"):
        for a, b in PAIRS:
            x, y = np.int64(a), np.int64(b)
            got, expected = fast(x, y), reference(x, y)
            assert type(got) is type(expected), (name, a, b)
            assert got == expected, (name, a, b, got, expected)


def test_every_integer_op_of_the_reference_on_int64_has_the_fast_path():
    # the ops host code computes on sizes and counters: a new one should not silently
    # take the slow path (shifts keep it: their out-of-range counts follow NumPy)
    slow = {"shli", "shrsi", "shrui", "addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"}
    assert set(host_scalars._BINARY) - set(host_scalars._INT64_BINARY) == slow


def test_other_types_take_the_reference_functions():
    with np.errstate(all="ignore"):
        assert arith.addi(np.int32(2**31 - 1), np.int32(1)) == np.int32(-(2**31))
        assert type(arith.addi(np.int32(1), np.int32(1))) is np.int32
        assert arith.addi(np.bool_(True), np.bool_(True)) == np.bool_(False)  # i1 adds modulo 2
        assert arith.cmpi_slt(np.bool_(True), np.bool_(False))  # i1 read as signed: -1 < 0
        assert type(arith.muli(np.int8(3), np.int8(100))) is np.int8
