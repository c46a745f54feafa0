"""MLIR's scalar semantics for host code (the modules lowering/emit_host.py writes):
the reference executor's own functions (runtime/interp/arith.py and math.py), so the
host computes bit for bit what the reference executor computes: integers wrap, signed
division truncates, the `u` ops read the bits as unsigned, maximumf propagates NaN.

Emitted code calls them by the op's name: `arith.addi(a, b)`, `arith.cmpi_slt(a, b)`,
`arith.cmpf_olt(a, b)`, `arith.extsi(x, np.int64)` (casts take the result's dtype),
`math.sqrt(x)`. Every result is a NumPy scalar.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
from xdsl.dialects import arith as arith_dialect

from soacc.runtime.interp import arith as arith_impl
from soacc.runtime.interp import math as math_impl


def _as_scalar(value):
    """NumPy gives 0-d arrays where the interpreter's functions use np.where or astype:
    host code keeps plain NumPy scalars."""
    return value[()] if isinstance(value, np.ndarray) else value


def _scalar_function(fn: Callable) -> Callable:
    def scalar(*args):
        return _as_scalar(fn(*args))

    return scalar


def _short(op_type) -> str:
    return op_type.name.split(".", 1)[1]


arith = SimpleNamespace(
    **{_short(t): _scalar_function(fn) for t, fn in arith_impl.BINARY.items()},
    **{_short(t): _scalar_function(fn) for t, fn in arith_impl.CASTS.items()},
    **{f"cmpi_{p}": _scalar_function(fn) for p, fn in arith_impl.CMPI.items()},
    **{f"cmpf_{p}": _scalar_function(fn) for p, fn in arith_impl.CMPF.items()},
    negf=_scalar_function(np.negative),
)
"""`arith` ops on scalars, by their names (comparisons as cmpi_<predicate>)."""

math = SimpleNamespace(**{_short(t): _scalar_function(fn) for t, fn in math_impl.FUNCTIONS.items()})
"""`math` ops on scalars, by their names."""


def arith_function_name(op) -> str | None:
    """The name under which `arith` has the function of an arith op (comparisons with
    their predicate), or None when host code cannot compute it."""
    name = _short(type(op))
    if isinstance(op, arith_dialect.CmpiOp):
        name = f"cmpi_{arith_dialect.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]}"
    elif isinstance(op, arith_dialect.CmpfOp):
        name = f"cmpf_{arith_dialect.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]}"
    return name if hasattr(arith, name) else None


def is_cast(op) -> bool:
    return type(op) in arith_impl.CASTS


def math_function_name(op) -> str | None:
    name = _short(type(op))
    return name if hasattr(math, name) else None
