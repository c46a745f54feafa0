"""The correspondence between MLIR types and NumPy dtypes (and constants and NumPy
values), shared by every layer: the executors, the argument checks, the emitters."""

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
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


def constant_value(value, result_type) -> np.ndarray:
    """The NumPy value of an arith.constant's attribute."""
    dtype = numpy_dtype(result_type)
    if isinstance(value, DenseIntOrFPElementsAttr):
        data = np.array(value.get_values(), dtype=dtype)
        assert isinstance(result_type, TensorType)
        shape = result_type.get_shape()
        return np.broadcast_to(data, shape).copy() if data.size == 1 else data.reshape(shape)
    if isinstance(value, IntegerAttr | FloatAttr):
        return np.array(value.value.data).astype(dtype)
    raise TypeError(f"arith.constant with a {value} attribute is not supported")
