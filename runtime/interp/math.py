"""`math` on NumPy, one vectorised call per op."""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from soacc.dialects.shared.dtypes import unsigned_dtype


def _round_half_away(x):
    # floor(|x| + 0.5) would round twice (0.49999997f -> 1); compare the fraction instead.
    x = np.asarray(x)
    t = np.trunc(x)
    away = np.abs(x - t) >= x.dtype.type(0.5)
    return np.where(away, t + np.copysign(x.dtype.type(1), x), t).astype(x.dtype)


def _fma(a, b, c):
    """a*b + c rounded once, as MLIR's and CUDA's fma: exact rational arithmetic per
    element (fma is rare; exactness matters more than speed here)."""
    from fractions import Fraction

    a, b, c = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    dtype = a.dtype

    def one(x, y, z):
        if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
            return x * y + z
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        if dtype == np.float64:
            return float(exact)  # Fraction -> float rounds correctly, once
        # f32: round the exact value to f32 directly (via f64 could round twice)
        return _fraction_to_f32(exact)

    result = np.vectorize(one, otypes=[dtype])(a, b, c).astype(dtype)
    return result[()] if result.ndim == 0 else result


def _fraction_to_f32(q) -> np.float32:
    """The f32 nearest to a rational (ties to even)."""
    approx = np.float32(float(q))
    # Among approx and its neighbours, take the nearest to q (ties to even mantissa).
    candidates = [np.nextafter(approx, np.float32(-np.inf)), approx, np.nextafter(approx, np.float32(np.inf))]
    from fractions import Fraction

    def distance(v):
        return abs(Fraction(float(v)) - q)

    best = min(candidates, key=lambda v: (distance(v), int(np.float32(v).view(np.int32)) & 1))
    return np.float32(best)


def _erf(x):
    x = np.asarray(x)
    # NumPy has no erf; math.erf per element is exact, and erf is rare enough.
    return np.vectorize(pymath.erf, otypes=[x.dtype])(x).astype(x.dtype)


def _bit_count(fn_name: str) -> Callable:
    def count(x):
        x = np.asarray(x)
        if x.dtype == np.bool_:  # a 1-bit integer: ctpop is x, ctlz and cttz are !x
            return x.copy() if fn_name == "ctpop" else ~x
        u = x.view(unsigned_dtype(x.dtype))
        width = u.dtype.itemsize * 8
        if fn_name == "ctpop":
            return np.bitwise_count(u).astype(x.dtype)
        result = np.full(u.shape, width, dtype=x.dtype)
        # Scan the bits from the side being counted; the first set bit stops the count.
        found = np.zeros(u.shape, dtype=bool)
        order = range(width - 1, -1, -1) if fn_name == "ctlz" else range(width)
        for position, bit in enumerate(order):
            is_set = ((u >> u.dtype.type(bit)) & u.dtype.type(1)).astype(bool) & ~found
            result = np.where(is_set, position, result)
            found |= is_set
        return result

    return count


def _ipowi(base, exp):
    # Integer power with wrap-around; negative exponents give 0 except for bases 1 and -1.
    base, exp = np.broadcast_arrays(np.asarray(base), np.asarray(exp))
    result = np.ones_like(base)
    b, e = base.copy(), exp.copy()
    while np.any(e > 0):
        odd = (e & 1).astype(bool) & (e > 0)
        result = np.where(odd, result * b, result)
        b = b * b
        e = np.where(e > 0, e >> 1, e)
    neg = exp < 0
    if np.any(neg):
        one = base == 1
        minus_one = base == -1
        result = np.where(
            neg, np.where(one, 1, np.where(minus_one, np.where(exp % 2 == 0, 1, -1), 0)), result
        ).astype(base.dtype)
    return result[()] if result.ndim == 0 else result


FUNCTIONS: dict[type[Operation], Callable] = {
    math.AbsFOp: np.abs,
    math.AbsIOp: np.abs,
    math.AcosOp: np.arccos,
    math.AcoshOp: np.arccosh,
    math.AsinOp: np.arcsin,
    math.AsinhOp: np.arcsinh,
    math.AtanOp: np.arctan,
    math.Atan2Op: np.arctan2,
    math.AtanhOp: np.arctanh,
    math.CbrtOp: np.cbrt,
    math.CeilOp: np.ceil,
    math.CopySignOp: np.copysign,
    math.CosOp: np.cos,
    math.CoshOp: np.cosh,
    math.CountLeadingZerosOp: _bit_count("ctlz"),
    math.CountTrailingZerosOp: _bit_count("cttz"),
    math.CtPopOp: _bit_count("ctpop"),
    math.ErfOp: _erf,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.ExpOp: np.exp,
    math.FPowIOp: lambda x, n: np.power(x, np.asarray(n).astype(np.asarray(x).dtype)),
    math.FloorOp: np.floor,
    math.FmaOp: _fma,
    math.IPowIOp: _ipowi,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.LogOp: np.log,
    math.PowFOp: np.power,
    math.RoundEvenOp: np.rint,
    math.RoundOp: _round_half_away,
    math.RsqrtOp: lambda x: np.asarray(1, dtype=np.asarray(x).dtype) / np.sqrt(x),
    math.SinOp: np.sin,
    math.SinhOp: np.sinh,
    math.SqrtOp: np.sqrt,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
    math.TruncOp: np.trunc,
}


def _impl(fn: Callable):
    def run(self, interpreter: Interpreter, op: Operation, args):
        return (fn(*args),)

    return run


class MathFunctions(InterpreterFunctions):
    pass


for _op_type, _fn in FUNCTIONS.items():
    setattr(MathFunctions, f"run_{_op_type.name.split('.')[1]}", impl(_op_type)(_impl(_fn)))
MathFunctions = register_impls(MathFunctions)
