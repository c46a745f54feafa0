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
from xdsl.dialects import arith as xdsl_arith

from soacc.dialects.shared.host_abi import op_function_name
from soacc.dialects.shared.overflow import EXACT
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


# --- 64-bit integers (index and i64), the host code's sizes and loop counters -------------
#
# NumPy's vectorised functions take 1.6-9 us per call on a scalar, and a host loop makes
# dozens of such calls per iteration (sizes, grid shapes), so an op on two np.int64 gets
# the same result from Python integers, wrapped to 64 bits (about 0.4 us). Division by
# zero divides by one, as the reference executor's functions do. Other types (i1, i32,
# floats) take the reference functions. tests/runtime/test_host_scalars.py checks both
# paths agree on edge and random values.

_INT64 = np.int64
_BITS = 1 << 64
_HALF = 1 << 63


def _wrap(x: int) -> np.int64:
    x &= _BITS - 1
    return _INT64(x - _BITS if x >= _HALF else x)


def _u(x: int) -> int:
    return x & (_BITS - 1)


def _nonzero(b: int) -> int:
    return b if b else 1


def _truncating_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _truncating_rem(a: int, b: int) -> int:
    r = abs(a) % abs(b)
    return -r if a < 0 else r


_INT64_BINARY: dict[str, Callable[[int, int], np.int64]] = {
    "addi": lambda a, b: _wrap(a + b),
    "subi": lambda a, b: _wrap(a - b),
    "muli": lambda a, b: _wrap(a * b),
    "divsi": lambda a, b: _wrap(_truncating_div(a, _nonzero(b))),
    "remsi": lambda a, b: _wrap(_truncating_rem(a, _nonzero(b))),
    "floordivsi": lambda a, b: _wrap(a // _nonzero(b)),
    "ceildivsi": lambda a, b: _wrap(-(-a // _nonzero(b))),
    "divui": lambda a, b: _wrap(_u(a) // _nonzero(_u(b))),
    "remui": lambda a, b: _wrap(_u(a) % _nonzero(_u(b))),
    "ceildivui": lambda a, b: _wrap(-(-_u(a) // _nonzero(_u(b)))),
    "minsi": lambda a, b: _INT64(min(a, b)),
    "maxsi": lambda a, b: _INT64(max(a, b)),
    "minui": lambda a, b: _INT64(a if _u(a) <= _u(b) else b),
    "maxui": lambda a, b: _INT64(a if _u(a) >= _u(b) else b),
    "andi": lambda a, b: _INT64(a & b),
    "ori": lambda a, b: _INT64(a | b),
    "xori": lambda a, b: _INT64(a ^ b),
}

_INT64_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": lambda a, b: _u(a) < _u(b),
    "ule": lambda a, b: _u(a) <= _u(b),
    "ugt": lambda a, b: _u(a) > _u(b),
    "uge": lambda a, b: _u(a) >= _u(b),
}


def _with_int64_path(fast: Callable[[int, int], object], general: Callable) -> Callable:
    def binary(a, b):
        if type(a) is _INT64 and type(b) is _INT64:
            return fast(int(a), int(b))
        return _as_scalar(general(a, b))

    return binary


def _compare_with_int64_path(fast: Callable[[int, int], bool], general: Callable) -> Callable:
    return _with_int64_path(lambda a, b: np.bool_(fast(a, b)), general)


_BINARY = {op_function_name(t): fn for t, fn in arith_impl.BINARY.items()}

arith = SimpleNamespace(
    **{
        name: _with_int64_path(_INT64_BINARY[name], fn) if name in _INT64_BINARY else _scalar_function(fn)
        for name, fn in _BINARY.items()
    },
    **{op_function_name(t): _scalar_function(fn) for t, fn in arith_impl.CASTS.items()},
    **{f"cmpi_{p}": _compare_with_int64_path(_INT64_COMPARE[p], fn) for p, fn in arith_impl.CMPI.items()},
    **{f"cmpf_{p}": _scalar_function(fn) for p, fn in arith_impl.CMPF.items()},
    negf=_scalar_function(np.negative),
)
"""`arith` ops on scalars, by their names (comparisons as cmpi_<predicate>)."""


def _checked(op_type: type, flags: frozenset, wrapping: Callable) -> Callable:
    """An op with overflow flags (`arith.muli_nsw`): its result, or the reference
    executor's error when it does not fit (runtime/interp/arith.overflow_error)."""
    _, exact_result = EXACT[op_type]
    signed_only = flags == {xdsl_arith.IntegerOverflowFlag.NSW}

    def binary(a, b):
        if signed_only and type(a) is _INT64 and type(b) is _INT64:
            exact = exact_result(int(a), int(b))
            if -_HALF <= exact < _HALF:  # (the fast path of sizes: no NumPy call)
                return _INT64(exact)
        error = arith_impl.overflow_error(op_type, flags, a, b)
        if error is not None:
            raise error
        return wrapping(a, b)

    return binary


for _op_type in (xdsl_arith.AddiOp, xdsl_arith.SubiOp, xdsl_arith.MuliOp):
    _name = op_function_name(_op_type)
    for _flags in ({"nsw"}, {"nuw"}, {"nsw", "nuw"}):
        _set = frozenset(xdsl_arith.IntegerOverflowFlag(f) for f in _flags)
        setattr(arith, _name + "".join(f"_{f}" for f in sorted(_flags)), _checked(_op_type, _set, getattr(arith, _name)))


REFERENCE_ARITH = SimpleNamespace(
    **{name: _scalar_function(fn) for name, fn in _BINARY.items()},
    **{f"cmpi_{p}": _scalar_function(fn) for p, fn in arith_impl.CMPI.items()},
)
"""The integer ops as the reference executor computes them (to check the fast path)."""

math = SimpleNamespace(**{op_function_name(t): _scalar_function(fn) for t, fn in math_impl.FUNCTIONS.items()})
"""`math` ops on scalars, by their names."""


def provides(function: str) -> bool:
    """Whether host code can call `function` (`arith.addi`, `math.sqrt`; the names of
    dialects/shared/host_abi.py)."""
    namespace, _, name = function.partition(".")
    return hasattr({"arith": arith, "math": math}.get(namespace), name)
