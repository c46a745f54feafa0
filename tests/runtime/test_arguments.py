"""The argument checks of an entry point: `argument_converter` (made once per
parameter, with a fast path for what calls usually pass) must accept and refuse exactly
what `convert_argument` does, with the same message, and give the same value."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, Float32Type, Float64Type, IndexType, IntegerType, TensorType, f32, i1, i32

from soacc.runtime.arguments import argument_converter, array_parameters, convert_argument, host_arguments
from soacc.runtime.errors import ArgumentError

TYPES = [
    i1, i32, IntegerType(64), IndexType(), f32, Float64Type(),
    TensorType(f32, [DYNAMIC_INDEX]),
    TensorType(f32, [3]),
    TensorType(i32, [DYNAMIC_INDEX, 2]),
    TensorType(i1, []),
]

VALUES = [
    True, 0, 7, -1, 2**40, 2**70, 0.5, float("inf"), 1e300,
    np.bool_(True), np.int32(3), np.int64(3), np.float32(0.5), np.float64(0.5),
    np.zeros(3, np.float32), np.zeros(4, np.float32), np.zeros(3, np.float64), np.zeros((3, 2), np.int32),
    np.zeros((3, 3), np.int32), np.zeros((2, 3), np.int32).T, np.zeros((), np.bool_), np.array(True),
    np.zeros(6, np.float32)[::2], np.ma.zeros(3, np.float32), [1.0, 2.0], "x", None,
]


def _outcome(function, value):
    try:
        result = function(value)
    except ArgumentError as error:
        return ("error", str(error))
    return ("value", type(result), result.dtype if hasattr(result, "dtype") else None, result.tobytes() if hasattr(result, "tobytes") else result)


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_the_converter_agrees_with_convert_argument(t):
    convert = argument_converter(t, "argument 0 (%x) of @main")
    for value in VALUES:
        assert _outcome(convert, value) == _outcome(lambda v: convert_argument(v, t, "argument 0 (%x) of @main"), value), value


def test_an_array_passes_as_it_is():
    array = np.arange(3, dtype=np.float32)
    assert argument_converter(TensorType(f32, [DYNAMIC_INDEX]), "x")(array) is array


def test_host_arguments_pairs_arrays_and_passes_scalars():
    types = [TensorType(Float32Type(), [DYNAMIC_INDEX, DYNAMIC_INDEX]), i32]
    assert array_parameters(types) == (True, False)
    strided = np.arange(12, dtype=np.float32).reshape(3, 4).T  # not C-contiguous: copied
    pairs = host_arguments([strided, np.int32(5)], array_parameters(types), lambda a, b: (a, b))
    array, data, scalar = pairs
    assert array.flags.c_contiguous and np.array_equal(array, strided)
    assert data.dtype == np.uint8 and data.nbytes == strided.nbytes
    assert scalar == 5
