"""`arith` on NumPy: each op is one vectorised NumPy call over all lanes, with MLIR's
semantics (wrapping integers, truncating signed division, unsigned variants read the
same bits as unsigned, i1 arithmetic modulo 2)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from soacc.dialects.shared.dtypes import constant_value, numpy_dtype, unsigned_dtype
from soacc.dialects.shared.overflow import EXACT
from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.lanes import constant_array, lanes, scalar, select_lanes


def _unsigned(x) -> np.ndarray:
    x = np.asarray(x)
    return x.view(unsigned_dtype(x.dtype))


def _signed_like(x, like) -> np.ndarray:
    return np.asarray(x).view(np.asarray(like).dtype)


def _as_signed(x):
    """i1 read as a signed integer: true is -1."""
    x = np.asarray(x)
    return -x.astype(np.int8) if x.dtype == np.bool_ else x


def _signed_compare(fn):
    return lambda a, b: fn(_as_signed(a), _as_signed(b))


def _signed_extremum(int_fn, bool_fn):
    # For i1 read as signed, true (-1) < false (0): min is `or`, max is `and`.
    return _bool_aware(int_fn, bool_fn)


def _float_extremum(fn, pick_negative_zero: bool):
    """maximumf/minimumf: NaN-propagating, and -0.0 < +0.0 (NumPy treats them as equal)."""

    def extremum(a, b):
        result = fn(a, b)
        tie = (np.asarray(a) == np.asarray(b)) & (np.asarray(a) == 0)
        if np.any(tie):
            either = np.signbit(a) | np.signbit(b) if pick_negative_zero else np.signbit(a) & np.signbit(b)
            zero = np.where(either, -np.zeros_like(result), np.zeros_like(result))
            result = np.where(tie, zero, result)
        return result

    return extremum


def _divsi(a, b):
    # C division truncates toward zero; a - fmod(a, b) is an exact multiple of b.
    return (a - np.fmod(a, b)) // np.where(b == 0, 1, b)


def _ceildivsi(a, b):
    b1 = np.where(b == 0, 1, b)
    return a // b1 + (a % b1 != 0)


def _ceildivui(a, b):
    ua, ub = _unsigned(a), _unsigned(b)
    ub1 = np.where(ub == 0, 1, ub)
    return _signed_like(ua // ub1 + (ua % ub1 != 0).astype(ua.dtype), a)


def _bool_aware(int_fn, bool_fn):
    """i1 arithmetic is modulo 2 (add and sub are xor, mul is and)."""

    def fn(a, b):
        if np.asarray(a).dtype == np.bool_:
            return bool_fn(a, b)
        return int_fn(a, b)

    return fn


def _unsigned_binary(fn):
    return lambda a, b: _signed_like(fn(_unsigned(a), _unsigned(b)), a)


BINARY: dict[type[Operation], Callable] = {
    arith.AddiOp: _bool_aware(np.add, np.logical_xor),
    arith.SubiOp: _bool_aware(np.subtract, np.logical_xor),
    arith.MuliOp: _bool_aware(np.multiply, np.logical_and),
    arith.DivSIOp: lambda a, b: _divsi(a, b),
    arith.DivUIOp: _unsigned_binary(lambda a, b: a // np.where(b == 0, 1, b)),
    arith.RemSIOp: lambda a, b: np.fmod(a, np.where(b == 0, 1, b)),
    arith.RemUIOp: _unsigned_binary(lambda a, b: a % np.where(b == 0, 1, b)),
    arith.FloorDivSIOp: lambda a, b: a // np.where(b == 0, 1, b),
    arith.CeilDivSIOp: _ceildivsi,
    arith.CeilDivUIOp: _ceildivui,
    arith.MinSIOp: _signed_extremum(np.minimum, np.logical_or),
    arith.MaxSIOp: _signed_extremum(np.maximum, np.logical_and),
    arith.MinUIOp: _unsigned_binary(np.minimum),
    arith.MaxUIOp: _unsigned_binary(np.maximum),
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.ShLIOp: np.left_shift,
    arith.ShRSIOp: np.right_shift,
    arith.ShRUIOp: _unsigned_binary(np.right_shift),
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    arith.MaximumfOp: _float_extremum(np.maximum, pick_negative_zero=False),
    arith.MinimumfOp: _float_extremum(np.minimum, pick_negative_zero=True),
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
}

CMPI: dict[str, Callable] = {
    "eq": np.equal,
    "ne": np.not_equal,
    "slt": _signed_compare(np.less),
    "sle": _signed_compare(np.less_equal),
    "sgt": _signed_compare(np.greater),
    "sge": _signed_compare(np.greater_equal),
    "ult": lambda a, b: _unsigned(a) < _unsigned(b),
    "ule": lambda a, b: _unsigned(a) <= _unsigned(b),
    "ugt": lambda a, b: _unsigned(a) > _unsigned(b),
    "uge": lambda a, b: _unsigned(a) >= _unsigned(b),
}


def _unordered(a, b):
    return np.isnan(a) | np.isnan(b)


CMPF: dict[str, Callable] = {
    "false": lambda a, b: np.zeros(np.broadcast_shapes(np.shape(a), np.shape(b)), bool),
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda a, b: (a != b) & ~_unordered(a, b),
    "ord": lambda a, b: ~_unordered(a, b),
    "ueq": lambda a, b: (a == b) | _unordered(a, b),
    "ugt": lambda a, b: (a > b) | _unordered(a, b),
    "uge": lambda a, b: (a >= b) | _unordered(a, b),
    "ult": lambda a, b: (a < b) | _unordered(a, b),
    "ule": lambda a, b: (a <= b) | _unordered(a, b),
    "une": np.not_equal,
    "uno": _unordered,
    "true": lambda a, b: np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), bool),
}


def _cast(x, dtype: np.dtype):
    x = np.asarray(x)
    if dtype == np.bool_ and x.dtype != np.bool_:
        return (x & 1).astype(np.bool_)  # trunci to i1 keeps the lowest bit
    return x.astype(dtype)


def _signed_cast(x, dtype: np.dtype):
    """extsi/sitofp read i1 as signed: true becomes -1."""
    return _cast(_as_signed(x), dtype)


def _binary_impl(fn: Callable):
    def run(self, interpreter: Interpreter, op: Operation, args):
        return (fn(*args),)

    return run




def overflow_error(op_type: type[Operation], flags, a, b) -> ExecutionError | None:
    """The error of an integer op with overflow flags (`nsw`, `nuw`) whose exact result
    does not fit its type, or None. MLIR makes such a result poison; soacc's lowerings
    mark their size arithmetic so, and the executors check the promise and report a
    broken one, naming the values, rather than run on with a wrapped size."""
    if not flags:
        return None
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.bool_:
        return None
    symbol, exact = EXACT[op_type]
    bits = a.dtype.itemsize * 8
    small = 2 ** (bits // 2 - 1)
    if np.all((a > -small) & (a < small) & (b > -small) & (b < small)) and (np.all(a >= 0) and np.all(b >= 0) or arith.IntegerOverflowFlag.NUW not in flags):
        return None  # (the common case, without exact arithmetic: nothing near the limits)
    for flag, lo, hi, read in (
        (arith.IntegerOverflowFlag.NSW, -(2 ** (bits - 1)), 2 ** (bits - 1) - 1, lambda x: x),
        (arith.IntegerOverflowFlag.NUW, 0, 2**bits - 1, _unsigned),
    ):
        if flag not in flags:
            continue
        x, y = np.broadcast_arrays(np.atleast_1d(read(a)).astype(object), np.atleast_1d(read(b)).astype(object))
        wide = np.asarray(exact(x, y), dtype=object)
        bad = np.flatnonzero((wide < lo) | (wide > hi))
        if bad.size:
            i = bad[0]
            signed = "signed" if flag == arith.IntegerOverflowFlag.NSW else "unsigned"
            return ExecutionError(
                f"{x.flat[i]} {symbol} {y.flat[i]} = {wide.flat[i]} is past {bits} bits ({signed}; "
                f"{op_type.name} with overflow<{flag.value}> promises it fits, as soacc's size arithmetic does)"
            )
    return None


def _flagged_impl(op_type: type[Operation], fn: Callable):
    """An op that may carry overflow flags: it wraps without them and checks with them."""

    def run(self, interpreter: Interpreter, op: Operation, args):
        flags = op.overflow_flags.data
        if flags:  # (most integer ops carry none: they pay nothing for the check)
            error = overflow_error(op_type, flags, *args)
            if error is not None:
                raise error
        return (fn(*args),)

    return run


def _typed_cast_impl(convert: Callable[[np.ndarray, np.dtype], np.ndarray]):
    def run(self, interpreter: Interpreter, op: Operation, args):
        (x,) = args
        return (convert(x, numpy_dtype(op.results[0].type)),)

    return run


def _from_unsigned(x, dtype):
    return _unsigned(x).astype(dtype)


def _float_to_unsigned(x, dtype):
    return np.asarray(x).astype(unsigned_dtype(dtype)).view(dtype)


def _bitcast(x, dtype):
    return np.asarray(x).view(dtype)


CASTS: dict[type[Operation], Callable[[np.ndarray, np.dtype], np.ndarray]] = {
    arith.ExtSIOp: _signed_cast,
    arith.TruncIOp: _cast,
    arith.IndexCastOp: _cast,
    arith.SIToFPOp: _signed_cast,
    arith.FPToSIOp: _cast,
    arith.ExtFOp: _cast,
    arith.TruncFOp: _cast,
    arith.ExtUIOp: _from_unsigned,
    arith.UIToFPOp: _from_unsigned,
    arith.FPToUIOp: _float_to_unsigned,
    arith.BitcastOp: _bitcast,
}
"""Casts by op: (value, result dtype) -> value."""


class ArithFunctions(InterpreterFunctions):
    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args):
        try:
            value = constant_value(op.value, op.result.type)
        except TypeError as error:
            raise ExecutionError(str(error)) from None
        state = lanes(interpreter)
        if value.ndim == 0:
            return (scalar(state, value[()], value.dtype),)
        return (constant_array(state, value),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args):
        return (CMPI[arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]](*args),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, interpreter: Interpreter, op: arith.CmpfOp, args):
        return (CMPF[arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]](*args),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args):
        cond, a, b = args
        depth = lanes(interpreter).depth
        if depth == 0:
            return (a if cond else b,)
        return (select_lanes(cond, a, b, depth),)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args):
        return (np.negative(args[0]),)


# The binary ops and casts come from the tables, then the class is registered once, complete.
for _op_type, _fn in BINARY.items():
    _run = _flagged_impl(_op_type, _fn) if _op_type in EXACT else _binary_impl(_fn)
    setattr(ArithFunctions, f"run_{_op_type.name.split('.')[1]}", impl(_op_type)(_run))
for _op_type, _convert in CASTS.items():
    setattr(ArithFunctions, f"run_{_op_type.name.split('.')[1]}", impl(_op_type)(_typed_cast_impl(_convert)))
ArithFunctions = register_impls(ArithFunctions)
