"""Building ops in Python for the dialect tests (tests/dialects): a func.func around
ops a callback builds, verified or expected to fail, and small builders."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pytest
from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, f32, f64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

Body = Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]]


def in_func(arg_types: Sequence[Attribute], body: Body) -> ModuleOp:
    """`func.func @f(arg_types)` whose body is built by `body(builder, args)` and returns
    the values `body` returns, in a module; not verified."""
    block = Block(arg_types=arg_types)
    builder = Builder(InsertPoint.at_end(block))
    results = body(builder, block.args)
    builder.insert(ReturnOp(*results))
    func = FuncOp("f", (arg_types, [r.type for r in results]), Region(block))
    return ModuleOp([func])


def verified(arg_types: Sequence[Attribute], body: Body) -> ModuleOp:
    module = in_func(arg_types, body)
    module.verify()
    return module


def fails(message: str, arg_types: Sequence[Attribute], body: Body) -> None:
    """The module built by `body` does not verify, with exactly `message`."""
    module = in_func(arg_types, body)
    with pytest.raises(VerifyException, match=re.escape(message)):
        module.verify()


def only(module: ModuleOp, op_type: type[Operation]) -> Operation:
    (op,) = [o for o in module.walk() if isinstance(o, op_type)]
    return op


def const(b: Builder, value: float | int, t: Attribute) -> SSAValue:
    attr = FloatAttr(value, t) if t in (f32, f64) else IntegerAttr(value, t)
    return b.insert(arith.ConstantOp(attr)).result
