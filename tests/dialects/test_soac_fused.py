"""Builders and verifiers of the fused combinators (soac.redomap, soac.scanomap,
soac.scatteromap, soac.histomap) built in Python; their verifier messages, one each,
are in tests/filecheck/dialects/soac/invalid.mlir."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType, f32, i32, i64
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.soac import (
    FUSED_OPS,
    HistomapOp,
    RedomapOp,
    ScanomapOp,
    ScatteromapOp,
    is_index_scalar,
    split_by_operators,
)

from tests.support.ir_building import const, in_func, only, verified

DYN = DYNAMIC_INDEX


def add(b, p):
    op = arith.AddfOp(*p) if p[0].type == f32 else arith.AddiOp(*p)
    return [b.insert(op).result]


def test_redomap_from_lambdas_splits_operands_by_operator():
    """Two operators (a pair and a single), one mapped result of the inputs' outer size."""

    def body(b, args):
        (a,) = args
        zero, izero = const(b, 0.0, f32), const(b, 0, i32)

        def lam(lb, p):
            (x,) = p
            n = lb.insert(arith.FPToSIOp(x, i32)).result
            return [x, x, n, x]

        def pair(lb, p):
            return [*add(lb, (p[0], p[2])), *add(lb, (p[1], p[3]))]

        op = b.insert(RedomapOp.from_lambdas([a], lam, [([zero, zero], pair, True), ([izero], add, False)], [f32]))
        return op.results

    op = only(verified([TensorType(f32, [7])], body), RedomapOp)
    assert op.num_operands_reduced == 3
    assert [r.type for r in op.results] == [f32, f32, i32, TensorType(f32, [7])]
    assert [op.is_commutative(j) for j in range(2)] == [True, False]
    assert [len(x) for x in split_by_operators(list(op.neutral), op.operators)] == [2, 1]


def test_scanomap_from_lambdas_with_a_post_lambda_gives_the_post_rows():
    def body(b, args):
        (a,) = args
        zero = const(b, 0, i64)
        post = (lambda lb, p: [lb.insert(arith.SubiOp(*p)).result], [i64])
        op = b.insert(ScanomapOp.from_lambdas([a], lambda lb, p: [p[0], p[0]], [([zero], add, True)], [i64], post))
        return op.results

    op = only(verified([TensorType(i64, [DYN])], body), ScanomapOp)
    assert op.post is not None and [a.type for a in op.post.block.args] == [i64, i64]
    assert [r.type for r in op.results] == [TensorType(i64, [DYN])]


def test_scatteromap_and_histomap_give_the_destination_first():
    def body(b, args):
        d, h, is_ = args
        one, zero = const(b, 1.0, f32), const(b, 0, i32)
        s = b.insert(ScatteromapOp.from_lambda(d, [is_], lambda lb, p: [p[0], one, p[0]], [IndexType()]))
        hm = b.insert(HistomapOp.from_lambdas(h, [is_], zero, lambda lb, p: [p[0], zero], add))
        return [*s.results, *hm.results]

    module = verified([TensorType(f32, [DYN]), TensorType(i32, [16]), TensorType(IndexType(), [5])], body)
    s, hm = only(module, ScatteromapOp), only(module, HistomapOp)
    assert [r.type for r in s.results] == [TensorType(f32, [DYN]), TensorType(IndexType(), [5])]
    assert [r.type for r in hm.results] == [TensorType(i32, [16])]


def test_a_reduce_operand_must_be_a_scalar():
    def body(b, args):
        (m,) = args
        zero = b.insert(arith.ConstantOp.from_int_and_width(0, 32)).result
        op = b.insert(RedomapOp.from_lambdas([m], lambda lb, p: [zero, p[0]], [([zero], add, True)], [TensorType(f32, [4])]))
        op.map_body.block.last_op.operands = [op.map_body.block.args[0], op.map_body.block.args[0]]
        return [op.results[0]]

    module = in_func([TensorType(f32, [DYN, 4])], body)
    with pytest.raises(VerifyException, match=re.escape("soac.redomap operand 0 has type tensor<4xf32>")):
        module.verify()


@pytest.mark.parametrize("t, ok", [(IndexType(), True), (i32, True), (i64, True), (f32, False)])
def test_index_scalars(t, ok):
    assert is_index_scalar(t) == ok


def test_fused_ops_are_the_four():
    assert {op.name for op in FUSED_OPS} == {"soac.redomap", "soac.scanomap", "soac.scatteromap", "soac.histomap"}
