"""The kernel calling convention: how a level-3 kernel (`gpu.func`) takes its arguments,
shared by the CUDA C emitter that declares them, the host code that packs them and the
runtimes that pass them.

A view (memref) of rank r is 2 + 2r arguments: a pointer to its block's element 0, then
64-bit integers for its offset, its r sizes and its r strides, all in elements. A scalar is
one argument of its own type (`index` is 64-bit, `i1` one byte). The struct formats below
are Python's (`struct` module), with which PyCUDA packs a launch's arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute

from soacc.dialects.shared.dtypes import numpy_dtype

SCALAR_FORMATS = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q", "float32": "f", "float64": "d"}
"""struct formats of scalar parameters, by NumPy dtype name."""


def view_parameter_suffixes(rank: int) -> list[str]:
    """The names of a view's integer parameters after its pointer, as suffixes of the
    view's own name: `_offset`, `_size0`..., `_stride0`..."""
    return ["_offset", *[f"_size{d}" for d in range(rank)], *[f"_stride{d}" for d in range(rank)]]


def view_format(rank: int) -> str:
    return "P" + "q" * (1 + 2 * rank)


def scalar_format(dtype: np.dtype) -> str:
    """The struct format of a scalar parameter; KeyError for a dtype kernels cannot take."""
    return SCALAR_FORMATS[np.dtype(dtype).name]


def argument_format(types: Sequence[Attribute]) -> str:
    """The struct format of a kernel's arguments, from its parameter types; TypeError for
    a parameter type no kernel can take."""
    out = ""
    for t in types:
        if isinstance(t, MemRefType):
            out += view_format(t.get_num_dims())
            continue
        try:
            out += scalar_format(numpy_dtype(t))
        except (TypeError, KeyError):
            raise TypeError(f"a kernel parameter of type {t} cannot be passed") from None
    return out


def view_arguments(pointer: int, offset: int, shape: Sequence[int], strides: Sequence[int]) -> tuple:
    """A view's arguments in order: pointer, offset, sizes, strides (in elements)."""
    return (pointer, offset, *shape, *strides)
