"""Arguments against an entry point's level-1 parameter types: what a caller may pass
(NumPy arrays of the exact dtype and rank, NumPy or Python scalars that fit), checked
before anything runs, with a message that names the parameter."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute

from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.runtime.device_arrays import (
    DLPACK_CPU,
    DLPACK_CUDA,
    DLPACK_CUDA_HOST,
    DLPACK_CUDA_MANAGED,
    ForeignDeviceArray,
    dlpack_device_array,
    device_interface,
    dlpack_device_type,
    foreign_device_array,
    has_device_interface,
    has_dlpack,
)
from soacc.runtime.errors import ArgumentError


def _describe_type(t: Attribute) -> str:
    if isinstance(t, TensorType):
        dims = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in t.get_shape())
        return f"{numpy_dtype(t).name} array of shape [{dims}] ({t})"
    return f"{numpy_dtype(t).name} scalar ({t})"


def convert_argument(value, t: Attribute, what: str):
    """Checks one argument against its parameter type; returns what the executor takes.

    The rule is NumPy's own for scalars (NEP 50): NumPy values are strongly typed, Python
    scalars weakly. An array or a NumPy scalar must have the parameter's exact dtype (no
    silent conversion: np.float64(0.5) is not an f32, np.int32(1) not an index); a Python
    scalar is accepted when it is of the parameter's kind and fits it: a bool for i1, an
    int for an integer type (in range) or a float type, a float for a float type (so 7
    is an i32 and an f32, 2**40 is not an i32, 3.0 is not an index). soacc-run's
    literals are Python scalars and follow the same rule."""
    dtype = numpy_dtype(t)
    if isinstance(t, TensorType):
        where = ""
        if has_device_interface(value):
            value = foreign_device_array(value)
            where = "device "
        elif has_dlpack(value):
            device = dlpack_device_type(value)
            if device in (DLPACK_CUDA, DLPACK_CUDA_MANAGED):
                value = dlpack_device_array(value)
                where = "device "
            elif device in (DLPACK_CPU, DLPACK_CUDA_HOST):
                value = np.from_dlpack(value)  # (host memory: a NumPy array over it)
            else:
                raise ArgumentError(f"{what}: a DLPack array on device type {device}; soacc takes host memory (1) and CUDA memory (2)")
        if not where and not isinstance(value, np.ndarray):
            raise ArgumentError(f"{what}: expected {_describe_type(t)}, got {type(value).__name__}")
        shape = t.get_shape()
        if value.dtype != dtype or value.ndim != len(shape):
            raise ArgumentError(
                f"{what}: expected {_describe_type(t)}, got {value.dtype.name} {where}array of shape "
                f"{list(value.shape)}"
            )
        for axis, (want, got) in enumerate(zip(shape, value.shape)):
            if want != DYNAMIC_INDEX and want != got:
                raise ArgumentError(
                    f"{what}: expected {_describe_type(t)}, got shape {list(value.shape)} "
                    f"(dimension {axis} must be {want})"
                )
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.generic):
        if value.dtype != dtype:
            raise ArgumentError(f"{what}: expected {_describe_type(t)}, got {value.dtype.name} scalar")
        return value
    if isinstance(value, bool | int | float) and not isinstance(value, np.ndarray):
        if isinstance(value, float) and dtype.kind != "f":
            raise ArgumentError(f"{what}: expected {_describe_type(t)}, got float {value}")
        if (dtype.kind == "b") != isinstance(value, bool):
            raise ArgumentError(f"{what}: expected {_describe_type(t)}, got {value!r}")
        if dtype.kind in "iu" and not (np.iinfo(dtype).min <= value <= np.iinfo(dtype).max):
            raise ArgumentError(f"{what}: {value} does not fit {_describe_type(t)}")
        if dtype.kind == "f" and abs(value) != float("inf") and abs(value) > float(np.finfo(dtype).max):
            # (NumPy would make it inf, with a RuntimeWarning on the tools' output)
            raise ArgumentError(f"{what}: {value} does not fit {_describe_type(t)}: its largest value is {np.finfo(dtype).max}")
        return dtype.type(value)
    raise ArgumentError(f"{what}: expected {_describe_type(t)}, got {type(value).__name__}")


def argument_converter(t: Attribute, what: str) -> Callable:
    """`convert_argument` for one parameter, made once per entry point: what every call
    passes (an ndarray of the exact dtype, rank and fixed sizes; a NumPy scalar of the
    exact type) is accepted without asking the type again; anything else goes through
    `convert_argument`, which accepts it or says why not. A call's checks were about a
    tenth of a small call's host time (issue 19)."""
    dtype = numpy_dtype(t)
    if isinstance(t, TensorType):
        shape = tuple(t.get_shape())
        rank = len(shape)
        fixed = tuple((axis, n) for axis, n in enumerate(shape) if n != DYNAMIC_INDEX)

        def fits(array) -> bool:
            if array.dtype != dtype or array.ndim != rank:
                return False
            shape = array.shape
            return all(shape[axis] == n for axis, n in fixed)

        def convert_array(value):
            if type(value) is np.ndarray:
                if fits(value):
                    return value
            elif (interface := device_interface(value)) is not None:
                array = foreign_device_array(value, interface)
                if fits(array):
                    return array
            return convert_argument(value, t, what)  # (what else it takes, or why not)

        return convert_array
    scalar_type = dtype.type

    def convert_scalar(value):
        if type(value) is scalar_type:
            return value
        return convert_argument(value, t, what)

    return convert_scalar


def array_parameters(types: Sequence[Attribute]) -> tuple[bool, ...]:
    """Which parameters are arrays (what `host_arguments` takes, asked once per
    function: an isinstance on an xDSL type costs about half a microsecond)."""
    return tuple(isinstance(t, TensorType) for t in types)


def host_arguments(
    args: Sequence, arrays: Sequence[bool], pair: Callable[[np.ndarray, np.ndarray], Sequence],
    device_pair: Callable[[ForeignDeviceArray], Sequence] | None = None,
) -> list:
    """The arguments of a level-2 entry point (`arrays`: which are arrays, from
    `array_parameters`): each array (of any rank, 0 included) as the (block, view) pair
    `pair(array, bytes)` makes over the caller's memory (not an allocation of the
    program's), given the C-contiguous array and its bytes; an array in GPU memory as
    the pair `device_pair` makes (an executor without one cannot take it); scalars as
    they are."""
    out: list = []
    for value, is_array in zip(args, arrays):
        if is_array:
            if isinstance(value, ForeignDeviceArray):
                if device_pair is None:
                    raise ArgumentError(device_arrays_refused(value))
                out += device_pair(value)
                continue
            array = value if type(value) is np.ndarray else np.asarray(value)
            if not array.flags.c_contiguous:
                array = array.copy()  # (np.ascontiguousarray would make a 0-d array 1-d)
            out += pair(array, array.reshape(-1).view(np.uint8))
        else:
            out.append(value)
    return out


def device_arrays_refused(value: ForeignDeviceArray) -> str:
    """Why an executor that runs on the CPU cannot take `value`."""
    return (
        f"an argument is an array in GPU memory ({type(value.owner).__name__}, {value.dtype.name} of shape "
        f"{list(value.shape)}); only the cuda backend takes arrays in GPU memory: copy it to the host "
        "(cupy.asnumpy, tensor.cpu().numpy()) for this one"
    )
