"""The correspondence between MLIR types and NumPy dtypes, shared by the executors and
the argument checks."""

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute

_FLOATS = {Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}
_INTS = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UNSIGNED = {
    np.dtype(np.int8): np.uint8,
    np.dtype(np.int16): np.uint16,
    np.dtype(np.int32): np.uint32,
    np.dtype(np.int64): np.uint64,
    np.dtype(np.bool_): np.bool_,
}


def numpy_dtype(t: Attribute) -> np.dtype:
    """The dtype of a scalar type, or of a tensor's elements. `index` is 64-bit."""
    if isinstance(t, TensorType):
        t = t.element_type
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType) and t.width.data in _INTS:
        return np.dtype(_INTS[t.width.data])
    for cls, dt in _FLOATS.items():
        if isinstance(t, cls):
            return np.dtype(dt)
    raise TypeError(f"type {t} has no NumPy equivalent")


def unsigned_dtype(dt: np.dtype) -> np.dtype:
    """The unsigned dtype of the same width (for the `u` arith ops)."""
    return np.dtype(_UNSIGNED[np.dtype(dt)])


def rank(t: Attribute) -> int:
    return t.get_num_dims() if isinstance(t, TensorType) else 0
