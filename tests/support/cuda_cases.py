"""Elementwise test cases for the cuda target: each builds one op from its operands, so
the same op can run in a gpu kernel and in a soac.map on the reference executor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, func, gpu, memref, scf
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    IndexType,
    ModuleOp,
    StridedLayoutAttr,
    SymbolRefAttr,
    TensorType,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import soac

MakeOp = Callable[[Builder, list[SSAValue]], SSAValue]


Defined = Callable[[list[np.ndarray]], np.ndarray]


@dataclass(frozen=True)
class Case:
    name: str
    inputs: tuple[Attribute, ...]
    output: Attribute
    make: MakeOp
    exact: bool = True
    defined: Defined | None = None
    """Where MLIR defines the result (division by zero, INT_MIN / -1 and shifts by the
    bit width or more are undefined behaviour: results there are not compared)."""

    def kernel_module(self) -> ModuleOp:
        """gpu.module @kernels { gpu.func @<name>(ins..., out, n) kernel }"""
        views = [_view(t) for t in self.inputs]
        block = Block(arg_types=[*views, _view(self.output), IndexType()])
        *ins, out, n = block.args
        b = Builder(InsertPoint.at_end(block))
        i = b.insert(gpu.GlobalIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result
        inside = b.insert(arith.CmpiOp(i, n, "ult")).result
        then = Block()
        tb = Builder(InsertPoint.at_end(then))
        xs = [tb.insert(memref.LoadOp.get(a, [i])).res for a in ins]
        tb.insert(memref.StoreOp.get(self.make(tb, xs), out, [i]))
        tb.insert(scf.YieldOp())
        b.insert(scf.IfOp(inside, [], Region(then)))
        b.insert(gpu.ReturnOp([]))
        kernel = gpu.FuncOp(self.name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True)
        return ModuleOp([gpu.ModuleOp(SymbolRefAttr("kernels"), Region(Block([kernel])))])

    def soac_module(self) -> ModuleOp:
        """func @main(ins...) -> out { soac.map over the inputs applying the op }"""
        arrays = [TensorType(t, [DYNAMIC_INDEX]) for t in self.inputs]
        block = Block(arg_types=arrays)
        b = Builder(InsertPoint.at_end(block))
        mapped = b.insert(
            soac.MapOp.from_lambda(list(block.args), [TensorType(self.output, [DYNAMIC_INDEX])], lambda lb, xs: [self.make(lb, list(xs))])
        )
        b.insert(func.ReturnOp(mapped.results[0]))
        return ModuleOp([func.FuncOp("main", FunctionType.from_lists(arrays, [TensorType(self.output, [DYNAMIC_INDEX])]), Region(block))])


def _view(t: Attribute):
    return memref.MemRefType(t, [DYNAMIC_INDEX], StridedLayoutAttr([None], None))


def _bin(op_type) -> MakeOp:
    return lambda b, xs: b.insert(op_type(xs[0], xs[1])).results[0]


def _un(op_type) -> MakeOp:
    return lambda b, xs: b.insert(op_type(xs[0])).results[0]


def _cast(op_type, to) -> MakeOp:
    return lambda b, xs: b.insert(op_type(xs[0], to)).results[0]


def _cmpi(pred: str) -> MakeOp:
    return lambda b, xs: b.insert(arith.CmpiOp(xs[0], xs[1], pred)).results[0]


def _cmpf(pred: str) -> MakeOp:
    return lambda b, xs: b.insert(arith.CmpfOp(xs[0], xs[1], pred)).results[0]


INT_BINARY = [
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp, arith.RemSIOp, arith.DivUIOp,
    arith.RemUIOp, arith.FloorDivSIOp, arith.CeilDivSIOp, arith.CeilDivUIOp, arith.MinSIOp,
    arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp,
]
SHIFTS = [arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp]
FLOAT_BINARY = [
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp,
    arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp,
]
MATH_UNARY_EXACT = [mathd.AbsFOp, mathd.CeilOp, mathd.FloorOp, mathd.RoundOp, mathd.RoundEvenOp, mathd.TruncOp, mathd.SqrtOp]
MATH_UNARY = [mathd.ExpOp, mathd.LogOp, mathd.SinOp, mathd.CosOp, mathd.TanhOp, mathd.AtanOp, mathd.Exp2Op, mathd.Log2Op, mathd.Log1pOp, mathd.ExpM1Op, mathd.CbrtOp, mathd.ErfOp, mathd.RsqrtOp]


def _short(op_type) -> str:
    return op_type.name.split(".")[1]


DIVISIONS = {
    arith.DivSIOp, arith.RemSIOp, arith.DivUIOp, arith.RemUIOp, arith.FloorDivSIOp,
    arith.CeilDivSIOp, arith.CeilDivUIOp,
}


def _division_defined(xs: list[np.ndarray]) -> np.ndarray:
    a, b = xs
    return (b != 0) & ~((a == np.iinfo(a.dtype).min) & (b == -1))


def _shift_defined(xs: list[np.ndarray]) -> np.ndarray:
    return (xs[1] >= 0) & (xs[1] < xs[1].dtype.itemsize * 8)


def cases() -> list[Case]:
    out: list[Case] = []
    for t, tn in ((i32, "i32"), (i64, "i64")):
        out += [
            Case(f"{_short(o)}_{tn}", (t, t), t, _bin(o), defined=_division_defined if o in DIVISIONS else None)
            for o in INT_BINARY
        ]
        out += [Case(f"{_short(o)}_{tn}", (t, t), t, _bin(o), defined=_shift_defined) for o in SHIFTS]
        out += [Case(f"cmpi_{p}_{tn}", (t, t), i1, _cmpi(p)) for p in arith.CMPI_COMPARISON_OPERATIONS]
        out.append(Case(f"absi_{tn}", (t,), t, _un(mathd.AbsIOp)))
        out.append(Case(f"ctpop_{tn}", (t,), t, _un(mathd.CtPopOp)))
        out.append(Case(f"ctlz_{tn}", (t,), t, _un(mathd.CountLeadingZerosOp)))
        out.append(Case(f"cttz_{tn}", (t,), t, _un(mathd.CountTrailingZerosOp)))
    for t, tn in ((f32, "f32"), (f64, "f64")):
        out += [Case(f"{_short(o)}_{tn}", (t, t), t, _bin(o)) for o in FLOAT_BINARY]
        out += [Case(f"cmpf_{p}_{tn}", (t, t), i1, _cmpf(p)) for p in arith.CMPF_COMPARISON_OPERATIONS]
        out.append(Case(f"negf_{tn}", (t,), t, _un(arith.NegfOp)))
        out += [Case(f"{_short(o)}_{tn}", (t,), t, _un(o)) for o in MATH_UNARY_EXACT]
        out += [Case(f"{_short(o)}_{tn}", (t,), t, _un(o), exact=False) for o in MATH_UNARY]
        out.append(Case(f"powf_{tn}", (t, t), t, _bin(mathd.PowFOp), exact=False))
        out.append(Case(f"atan2_{tn}", (t, t), t, _bin(mathd.Atan2Op), exact=False))
        out.append(Case(f"copysign_{tn}", (t, t), t, _bin(mathd.CopySignOp)))
    out += [
        Case("extsi_i32_i64", (i32,), i64, _cast(arith.ExtSIOp, i64)),
        Case("extui_i32_i64", (i32,), i64, _cast(arith.ExtUIOp, i64)),
        Case("trunci_i64_i32", (i64,), i32, _cast(arith.TruncIOp, i32)),
        Case("sitofp_i32_f32", (i32,), f32, _cast(arith.SIToFPOp, f32)),
        Case("sitofp_i64_f64", (i64,), f64, _cast(arith.SIToFPOp, f64)),
        Case("uitofp_i32_f64", (i32,), f64, _cast(arith.UIToFPOp, f64)),
        Case("extf_f32_f64", (f32,), f64, _cast(arith.ExtFOp, f64)),
        Case("truncf_f64_f32", (f64,), f32, _cast(arith.TruncFOp, f32)),
        Case("bitcast_f32_i32", (f32,), i32, _cast(arith.BitcastOp, i32)),
        Case("bitcast_i64_f64", (i64,), f64, _cast(arith.BitcastOp, f64)),
        Case("select_i32", (i32, i32), i32, lambda b, xs: b.insert(arith.SelectOp(b.insert(arith.CmpiOp(xs[0], xs[1], "slt")).results[0], xs[0], xs[1])).results[0]),
        Case("fma_f32", (f32, f32), f32, lambda b, xs: b.insert(mathd.FmaOp(xs[0], xs[1], xs[0])).results[0]),
        Case("ipowi_i32", (i32, i32), i32, _bin(mathd.IPowIOp)),
    ]
    return out


def inputs_for(t: Attribute, n: int, rng: np.random.Generator, exact: bool) -> np.ndarray:
    """Random values with the edge cases an op may treat specially."""
    if t in (i32, i64):
        dt = np.int32 if t == i32 else np.int64
        info = np.iinfo(dt)
        special = np.array([0, 1, -1, 2, -2, 7, -7, 31, 33, info.min, info.max, info.min + 1], dtype=dt)
        body = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        small = rng.integers(-40, 40, n, dtype=dt)
        values = np.concatenate([special, np.where(rng.random(n) < 0.5, body, small)])
    else:
        dt = np.float32 if t == f32 else np.float64
        special = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, np.inf, -np.inf, np.nan, 1e-30], dtype=dt)
        body = (rng.standard_normal(n) * np.where(rng.random(n) < 0.3, 1e3, 3.0)).astype(dt)
        values = np.concatenate([special, body])
    return values[: max(n, 1) + 12]
