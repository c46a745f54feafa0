"""Builder, verifier and round-trip tests of the `soac` dialect (soacc.dialects.soac):
ops are built in Python, without parsing, and verified inside a func.func of a
builtin.module."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math, scf
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Builtin,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.func import Func, FuncOp
from xdsl.dialects.math import Math
from xdsl.dialects.scf import Scf
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.soac import (
    DeviceIndexOp,
    DeviceUpdateOp,
    SOAC,
    ArrayOp,
    HistomapOp,
    RedomapOp,
    ScanomapOp,
    ScatteromapOp,
    ConcatOp,
    CopyOp,
    GpuBodyOp,
    HistOp,
    IndexOp,
    IotaOp,
    MapOp,
    ReduceOp,
    ReplicateOp,
    ScanOp,
    ScatterOp,
    SizeOp,
    SliceOp,
    SliceSpec,
    TransposeOp,
    UpdateOp,
    YieldOp,
    array_of,
    build_lambda,
    is_element_type,
    row_type,
    types_compatible,
)

from tests.support.ir_building import const, fails, in_func, only, verified

index = IndexType()
DYN = DYNAMIC_INDEX


def tensor(elem: Attribute, *shape: int) -> TensorType:
    return TensorType(elem, shape)


# --------------------------------------------------------------------------------------
# Type helpers
# --------------------------------------------------------------------------------------


def test_row_type_drops_the_outer_dimension():
    assert row_type(tensor(f32, DYN, 4)) == tensor(f32, 4)
    assert row_type(tensor(f32, 2, 3, 4)) == tensor(f32, 3, 4)


def test_row_type_of_a_vector_is_its_element_type():
    assert row_type(tensor(i64, 3)) == i64
    assert row_type(tensor(index, DYN)) == index


def test_array_of_adds_an_outer_dimension():
    assert array_of(f32) == tensor(f32, DYN)
    assert array_of(i1, 7) == tensor(i1, 7)
    assert array_of(tensor(f64, DYN, 4), 3) == tensor(f64, 3, DYN, 4)


@pytest.mark.parametrize("t", [f32, i32, tensor(f64, 5), tensor(index, DYN, 2)])
def test_array_of_is_the_inverse_of_row_type(t: Attribute):
    assert row_type(array_of(t)) == t
    assert row_type(array_of(t, 9)) == t


def test_types_compatible_lets_dynamic_dimensions_match_any_size():
    assert types_compatible(tensor(f32, DYN, 4), tensor(f32, 8, 4))
    assert types_compatible(tensor(f32, 8, 4), tensor(f32, 8, DYN))
    assert types_compatible(tensor(f32, DYN), tensor(f32, DYN))


def test_types_compatible_rejects_other_sizes_ranks_and_element_types():
    assert not types_compatible(tensor(f32, 3), tensor(f32, 4))
    assert not types_compatible(tensor(f32, DYN), tensor(f32, DYN, DYN))
    assert not types_compatible(tensor(f32, DYN), tensor(f64, DYN))
    assert not types_compatible(tensor(f32, 1), f32)


def test_types_compatible_on_scalars_is_equality():
    assert types_compatible(i32, i32)
    assert not types_compatible(i32, i64)
    assert not types_compatible(index, i64)


@pytest.mark.parametrize("t", [i1, i32, i64, index, f32, f64])
def test_element_types(t: Attribute):
    assert is_element_type(t)


@pytest.mark.parametrize("t", [i8, i16, f16, tensor(f32, 2)])
def test_not_element_types(t: Attribute):
    assert not is_element_type(t)


# --------------------------------------------------------------------------------------
# Combinators
# --------------------------------------------------------------------------------------


def test_map_from_lambda_gives_the_lambda_one_row_per_input():
    """Two inputs, two results; the lambda's parameters are the inputs' row types."""

    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, m = args

        def lam(lb: Builder, p: tuple[SSAValue, ...]):
            x, row = p
            return [lb.insert(arith.AddfOp(x, x)).result, row]

        op = b.insert(MapOp.from_lambda([a, m], [tensor(f32, DYN), tensor(f32, DYN, 4)], lam))
        return op.results

    module = verified([tensor(f32, DYN), tensor(f32, 8, 4)], body)
    op = only(module, MapOp)
    assert [a.type for a in op.body.block.args] == [f32, tensor(f32, 4)]
    assert [r.type for r in op.outputs] == [tensor(f32, DYN), tensor(f32, DYN, 4)]
    assert isinstance(op.body.block.last_op, YieldOp)


def test_map_of_reduce_builds_a_segmented_reduction():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        (m,) = args
        zero = const(b, 0.0, f64)

        def row_sum(lb: Builder, p: tuple[SSAValue, ...]):
            red = ReduceOp.from_lambda(
                [p[0]], [zero], lambda rb, q: [rb.insert(arith.AddfOp(*q)).result], True
            )
            return lb.insert(red).results

        return b.insert(MapOp.from_lambda([m], [tensor(f64, DYN)], row_sum)).results

    module = verified([tensor(f64, DYN, 8)], body)
    red = only(module, ReduceOp)
    assert isinstance(red.parent_op(), MapOp)
    assert red.inputs[0].type == tensor(f64, 8)
    assert red.outputs[0].type == f64


def test_reduce_from_lambda_commutative():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        zero = const(b, 0, i32)
        op = ReduceOp.from_lambda(
            [args[0]], [zero], lambda lb, p: [lb.insert(arith.AddiOp(*p)).result], commutative=True
        )
        return b.insert(op).results

    op = only(verified([tensor(i32, 16)], body), ReduceOp)
    assert op.commutative == UnitAttr()
    assert [r.type for r in op.outputs] == [i32]
    assert [a.type for a in op.body.block.args] == [i32, i32]


def test_reduce_is_not_commutative_by_default():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        zero = const(b, 0, i32)
        op = ReduceOp.from_lambda([args[0]], [zero], lambda lb, p: [p[0]])
        return b.insert(op).results

    op = only(verified([tensor(i32, DYN)], body), ReduceOp)
    assert op.commutative is None


def test_reduce_over_two_arrays_is_an_operator_on_pairs():
    """argmax: (value, index) pairs; the operator takes the left pair, then the right."""

    def argmax(b: Builder, p: tuple[SSAValue, ...]):
        v1, i1_, v2, i2 = p
        gt = b.insert(arith.CmpfOp(v2, v1, "ogt")).result
        return [
            b.insert(arith.SelectOp(gt, v2, v1)).result,
            b.insert(arith.SelectOp(gt, i2, i1_)).result,
        ]

    def body(b: Builder, args: tuple[SSAValue, ...]):
        ninf = const(b, float("-inf"), f32)
        i0 = b.insert(arith.ConstantOp.from_int_and_width(0, index)).result
        return b.insert(ReduceOp.from_lambda(list(args), [ninf, i0], argmax)).results

    op = only(verified([tensor(f32, DYN), tensor(index, DYN)], body), ReduceOp)
    assert [a.type for a in op.body.block.args] == [f32, index, f32, index]
    assert [r.type for r in op.outputs] == [f32, index]
    assert op.commutative is None


def test_scan_results_have_the_input_types():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        zero = const(b, 0, i64)
        op = ScanOp.from_lambda([args[0]], [zero], lambda lb, p: [lb.insert(arith.AddiOp(*p)).result])
        return b.insert(op).results

    op = only(verified([tensor(i64, 5)], body), ScanOp)
    assert [r.type for r in op.outputs] == [tensor(i64, 5)]
    assert [a.type for a in op.body.block.args] == [i64, i64]
    assert op.commutative is None


def test_scatter_result_is_the_destination_type():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        return [b.insert(ScatterOp(*args)).result]

    op = only(verified([tensor(f32, 10, 3), tensor(i32, DYN), tensor(f32, DYN, 3)], body), ScatterOp)
    assert op.result.type == tensor(f32, 10, 3)


def test_hist_from_lambda_combines_destination_rows():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        z = const(b, 0, i32)
        op = HistOp.from_lambda(*args, z, lambda lb, p: [lb.insert(arith.AddiOp(*p)).result])
        return [b.insert(op).result]

    op = only(verified([tensor(i32, 256), tensor(i64, DYN), tensor(i32, DYN)], body), HistOp)
    assert op.result.type == tensor(i32, 256)
    assert [a.type for a in op.body.block.args] == [i32, i32]


@pytest.mark.parametrize("n_results", [0, 1, 2])
def test_gpu_body_with_build_lambda(n_results: int):
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, i = args

        def region(lb: Builder, p: tuple[SSAValue, ...]):
            assert p == ()
            x = lb.insert(IndexOp(a, [i])).result
            return [x, i][:n_results]

        types = [tensor(f32, 1), tensor(index, 1)][:n_results]
        return b.insert(GpuBodyOp(types, build_lambda([], region))).results

    op = only(verified([tensor(f32, DYN), index], body), GpuBodyOp)
    assert len(op.outputs) == n_results
    assert not op.body.block.args
    assert isinstance(op.body.block.last_op, YieldOp)
    assert len(op.body.block.last_op.values) == n_results


# --------------------------------------------------------------------------------------
# Array constructors, accessors, manipulation
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("elem", [index, i32, i64])
def test_iota(elem: Attribute):
    op = only(
        verified([index], lambda b, a: [b.insert(IotaOp(a[0], tensor(elem, DYN))).result]), IotaOp
    )
    assert op.result.type == tensor(elem, DYN)


def test_replicate_of_a_scalar():
    op = only(verified([index, i1], lambda b, a: [b.insert(ReplicateOp(*a)).result]), ReplicateOp)
    assert op.result.type == tensor(i1, DYN)


def test_replicate_of_an_array_with_static_count():
    op = only(
        verified([index, tensor(f32, DYN)], lambda b, a: [b.insert(ReplicateOp(*a, outer=4)).result]),
        ReplicateOp,
    )
    assert op.result.type == tensor(f32, 4, DYN)


def test_array_of_scalars_and_of_rows():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        x, y, r = args
        return [
            b.insert(ArrayOp([x, y, x], tensor(i64, 3))).result,
            b.insert(ArrayOp([r, r], tensor(f32, 2, 2))).result,
        ]

    module = verified([i64, i64, tensor(f32, 2)], body)
    lit, rows = [o for o in module.walk() if isinstance(o, ArrayOp)]
    assert len(lit.elements) == 3 and lit.result.type == tensor(i64, 3)
    assert rows.result.type == tensor(f32, 2, 2)


def test_index_full_gives_the_element_and_partial_gives_a_sub_array():
    t = tensor(f32, DYN, DYN, 4)

    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, i = args
        return [
            b.insert(IndexOp(a, [i, i, i])).result,
            b.insert(IndexOp(a, [i])).result,
            b.insert(IndexOp(a, [i, i])).result,
        ]

    module = verified([t, index], body)
    assert [o.result.type for o in module.walk() if isinstance(o, IndexOp)] == [
        f32,
        tensor(f32, DYN, 4),
        tensor(f32, 4),
    ]
    assert IndexOp.result_type_for(t, 3) == f32
    assert IndexOp.result_type_for(t, 1) == tensor(f32, DYN, 4)


def test_slice_fixed_range_and_strided_entries():
    k = SliceSpec

    def body(b: Builder, args: tuple[SSAValue, ...]):
        m, v, i, n, s = args
        return [
            b.insert(SliceOp(m, [k.FIXED, k.RANGE], [i, i, n], tensor(f32, DYN))).result,
            b.insert(SliceOp(m, [k.RANGE], [i, n], tensor(f32, DYN, 4))).result,
            b.insert(SliceOp(v, [k.STRIDED], [i, n, s], tensor(f32, DYN))).result,
        ]

    module = verified([tensor(f32, DYN, 4), tensor(f32, DYN), index, index, index], body)
    ops = [o for o in module.walk() if isinstance(o, SliceOp)]
    assert [tuple(o.kinds.get_values()) for o in ops] == [(0, 1), (1,), (2,)]
    assert [len(o.spec) for o in ops] == [3, 2, 3]
    assert ops[0].kinds == DenseArrayBase.from_list(i64, [0, 1])


def test_update_of_an_element_and_of_a_row_range():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        vec, m, x, row, i, n = args
        return [
            b.insert(UpdateOp(vec, [SliceSpec.FIXED], [i], x)).result,
            b.insert(UpdateOp(m, [SliceSpec.FIXED, SliceSpec.RANGE], [i, i, n], row)).result,
        ]

    module = verified(
        [tensor(f32, DYN), tensor(f32, DYN, DYN), f32, tensor(f32, DYN), index, index], body
    )
    u1, u2 = [o for o in module.walk() if isinstance(o, UpdateOp)]
    assert u1.result.type == tensor(f32, DYN)
    assert u2.result.type == tensor(f32, DYN, DYN)
    assert tuple(u2.kinds.get_values()) == (0, 1)


def test_concat():
    op = only(
        verified(
            [tensor(i32, 3), tensor(i32, 4)],
            lambda b, a: [b.insert(ConcatOp(list(a), tensor(i32, 7))).result],
        ),
        ConcatOp,
    )
    assert op.result.type == tensor(i32, 7)


def test_transpose_permutes_the_result_type():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        m, t3 = args
        return [b.insert(TransposeOp(m, [1, 0])).result, b.insert(TransposeOp(t3, [2, 0, 1])).result]

    module = verified([tensor(f32, DYN, 4), tensor(i64, 2, 3, 4)], body)
    tr2, tr3 = [o for o in module.walk() if isinstance(o, TransposeOp)]
    assert tr2.result.type == tensor(f32, 4, DYN)
    assert tr3.result.type == tensor(i64, 4, 2, 3)
    assert tuple(tr3.permutation.get_values()) == (2, 0, 1)


def test_copy_and_size():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        cp = b.insert(CopyOp(args[0])).result
        return [cp, b.insert(SizeOp(cp, 1)).result]

    module = verified([tensor(i1, DYN, 4)], body)
    assert only(module, CopyOp).result.type == tensor(i1, DYN, 4)
    size = only(module, SizeOp)
    assert size.result.type == index
    assert size.dim == IntegerAttr(1, i64)


# --------------------------------------------------------------------------------------
# Verifier failures
# --------------------------------------------------------------------------------------


def test_map_lambda_yielding_the_wrong_type_fails():
    fails(
        "soac.map lambda yields (f32); expected (i32)",
        [tensor(f32, DYN)],
        lambda b, a: b.insert(MapOp.from_lambda([a[0]], [tensor(i32, DYN)], lambda lb, p: [p[0]])).results,
    )


def test_map_inputs_of_different_outer_sizes_fail():
    fails(
        "soac.map input 1 has outer size 4, but an earlier one has 3",
        [tensor(f32, 3), tensor(f32, 4)],
        lambda b, a: b.insert(MapOp.from_lambda(list(a), [tensor(f32, 3)], lambda lb, p: [p[0]])).results,
    )


def test_reduce_neutral_of_the_wrong_type_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        z = const(b, 0, i64)
        return b.insert(ReduceOp.from_lambda([args[0]], [z], lambda lb, p: [p[0]])).results

    fails("soac.reduce neutral element 0 has type i64; expected i32", [tensor(i32, DYN)], body)


def test_reduce_with_missing_neutral_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        return b.insert(ReduceOp.from_lambda([args[0]], [], lambda lb, p: [p[0]])).results

    fails(
        "soac.reduce has 1 input array(s) but 0 neutral element(s); expected one neutral element per array",
        [tensor(i32, DYN)],
        body,
    )


def test_scan_operator_with_wrong_result_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        z = const(b, 0, i32)

        def lam(lb: Builder, p: tuple[SSAValue, ...]):
            return [lb.insert(arith.CmpiOp(p[0], p[1], "slt")).result]

        return b.insert(ScanOp.from_lambda([args[0]], [z], lam)).results

    fails("soac.scan lambda yields (i1); expected (i32)", [tensor(i32, DYN)], body)


def test_scatter_with_boolean_indices_fails():
    fails(
        "soac.scatter indices must be a rank-1 tensor of index, i32 or i64, found tensor<?xi1>",
        [tensor(f32, DYN), tensor(i1, DYN), tensor(f32, DYN)],
        lambda b, a: [b.insert(ScatterOp(*a)).result],
    )


def test_hist_values_of_another_type_fail():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        z = const(b, 0, i32)
        return [b.insert(HistOp.from_lambda(*args, z, lambda lb, p: [p[0]])).result]

    fails(
        "soac.hist values have rows of type f32; expected the destination's row type i32",
        [tensor(i32, 8), tensor(index, DYN), tensor(f32, DYN)],
        body,
    )


def test_gpu_body_result_must_have_one_row():
    region = build_lambda([], lambda b, p: [const(b, 1.0, f32)])
    fails(
        "soac.gpu_body result 0 has type tensor<2xf32>; results must have outer size 1",
        [],
        lambda b, a: b.insert(GpuBodyOp([tensor(f32, 2)], region)).results,
    )


def test_iota_of_floats_fails():
    fails(
        "soac.iota result must be a rank-1 tensor of index, i32 or i64, found tensor<?xf32>",
        [index],
        lambda b, a: [b.insert(IotaOp(a[0], tensor(f32, DYN))).result],
    )


def test_array_with_too_few_elements_fails():
    fails(
        "soac.array result tensor<3xf32> has outer size 3, but 2 elements are given",
        [f32],
        lambda b, a: [b.insert(ArrayOp([a[0], a[0]], tensor(f32, 3))).result],
    )


def test_index_without_indices_fails():
    fails(
        "soac.index has 0 indices for an array of rank 2; expected 1 to 2",
        [tensor(f32, DYN, DYN)],
        lambda b, a: [b.insert(IndexOp(a[0], [])).result],
    )


def test_slice_fixing_every_dimension_fails():
    fails(
        "soac.slice fixes every dimension; use soac.index for an element",
        [tensor(f32, DYN), index],
        lambda b, a: [b.insert(SliceOp(a[0], [SliceSpec.FIXED], [a[1]], tensor(f32, DYN))).result],
    )


def test_slice_with_more_entries_than_dimensions_fails():
    fails(
        "soac.slice: 2 slice entries for an array of rank 1",
        [tensor(f32, DYN), index],
        lambda b, a: [
            b.insert(SliceOp(a[0], [SliceSpec.RANGE, SliceSpec.FIXED], [a[1]] * 3, tensor(f32, DYN))).result
        ],
    )


def test_update_with_value_of_the_wrong_rank_fails():
    fails(
        "soac.update value has type f32; expected a tensor of rank 1 of f32",
        [tensor(f32, DYN, DYN), index, f32],
        lambda b, a: [b.insert(UpdateOp(a[0], [SliceSpec.FIXED], [a[1]], a[2])).result],
    )


def test_concat_with_wrong_result_size_fails():
    fails(
        "soac.concat result has outer size 8; the inputs add up to 7",
        [tensor(i32, 3), tensor(i32, 4)],
        lambda b, a: [b.insert(ConcatOp(list(a), tensor(i32, 8))).result],
    )


def test_transpose_with_a_repeated_dimension_fails():
    fails(
        "soac.transpose permutation [0, 0] is not a permutation of the 2 dimensions of tensor<2x3xf32>",
        [tensor(f32, 2, 3)],
        lambda b, a: [b.insert(TransposeOp(a[0], [0, 0])).result],
    )


def test_size_of_a_missing_dimension_fails():
    fails(
        "soac.size dimension 2 is out of range for an array of rank 2",
        [tensor(f32, DYN, 4)],
        lambda b, a: [b.insert(SizeOp(a[0], 2)).result],
    )


def test_copy_of_an_unsupported_element_type_fails():
    fails(
        "soac.copy input has element type f16; expected one of i1, i32, i64, index, f32, f64",
        [tensor(f16, DYN)],
        lambda b, a: [b.insert(CopyOp(a[0])).result],
    )


def test_yield_outside_a_lambda_fails():
    """soac.yield ends a function body in place of func.return."""
    block = Block([YieldOp()])
    module = ModuleOp([FuncOp("f", ([], []), Region(block))])
    with pytest.raises(
        VerifyException,
        match=re.escape(
            "'soac.yield' expects parent op to be one of 'soac.map', 'soac.reduce', "
            "'soac.scan', 'soac.hist', 'soac.gpu_body'"
        ),
    ):
        module.verify()


# --------------------------------------------------------------------------------------
# Printing and parsing
# --------------------------------------------------------------------------------------


def make_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Math, Scf, SOAC):
        ctx.load_dialect(dialect)
    return ctx


def print_op(op: Operation, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def every_op_module() -> ModuleOp:
    """One module, built in Python, holding every soac op (lambdas use arith, math and
    scf)."""
    k = SliceSpec

    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, m, is_, n, i, flag = args
        zero = const(b, 0.0, f32)

        def lam(lb: Builder, p: tuple[SSAValue, ...]):
            (x,) = p
            root = lb.insert(math.SqrtOp(x)).result
            pick = lb.insert(scf.IfOp(flag, [f32], [scf.YieldOp(root)], [scf.YieldOp(x)]))
            return [pick.results[0]]

        mapped = b.insert(MapOp.from_lambda([a], [tensor(f32, DYN)], lam)).results[0]
        add = lambda lb, p: [lb.insert(arith.AddfOp(*p)).result]  # noqa: E731
        total = b.insert(ReduceOp.from_lambda([mapped], [zero], add, commutative=True)).results[0]
        prefix = b.insert(ScanOp.from_lambda([mapped], [zero], add)).results[0]
        iota = b.insert(IotaOp(n, tensor(index, DYN))).result
        scattered = b.insert(ScatterOp(prefix, is_, mapped)).result
        hist = b.insert(
            HistOp.from_lambda(
                scattered, iota, mapped, zero, lambda lb, p: [lb.insert(arith.MaximumfOp(*p)).result]
            )
        ).result
        rep = b.insert(ReplicateOp(n, zero)).result
        arr = b.insert(ArrayOp([total, zero], tensor(f32, 2))).result
        elem = b.insert(IndexOp(hist, [i])).result
        sl = b.insert(SliceOp(hist, [k.STRIDED], [i, n, i], tensor(f32, DYN))).result
        up = b.insert(UpdateOp(rep, [k.FIXED], [i], elem)).result
        cat = b.insert(ConcatOp([up, arr], tensor(f32, DYN))).result
        mat = b.insert(ReplicateOp(n, cat)).result
        tr = b.insert(TransposeOp(mat, [1, 0])).result
        cp = b.insert(CopyOp(m)).result
        sz = b.insert(SizeOp(cp, 1)).result
        dev = b.insert(
            GpuBodyOp(
                [tensor(f32, 1), tensor(index, 1)],
                build_lambda([], lambda lb, p: [lb.insert(IndexOp(sl, [sz])).result, sz]),
            )
        ).results
        # the fused forms (soac-fusion makes them)
        square = lambda lb, p: [lb.insert(arith.MulfOp(p[0], p[0])).result] * 2  # noqa: E731
        redo = b.insert(RedomapOp.from_lambdas([a], square, [([zero], add, True)], [f32])).results
        scano = b.insert(
            ScanomapOp.from_lambdas(
                [redo[1]], lambda lb, p: [p[0], p[0]], [([zero], add, False)], [f32],
                post=(lambda lb, p: [lb.insert(arith.SubfOp(*p)).result], [f32]),
            )
        ).results
        scat = b.insert(ScatteromapOp.from_lambda(scano[0], [is_, a], lambda lb, p: [p[0], p[1], p[1]], [f32])).results
        histo = b.insert(
            HistomapOp.from_lambdas(
                scat[0], [is_], zero, lambda lb, p: [p[0], zero], add
            )
        ).results
        picked = b.insert(DeviceIndexOp(cp, [dev[1]])).result
        put = b.insert(DeviceUpdateOp(cp, [dev[1]], picked)).result
        return [tr, dev[0], dev[1], redo[0], scat[1], histo[0], put]

    module = in_func(
        [tensor(f32, DYN), tensor(f32, DYN, 4), tensor(index, DYN), index, index, i1], body
    )
    module.verify()
    return module


def test_every_op_module_uses_every_soac_op():
    """Guards the round-trip tests below: a new op must be added to every_op_module."""
    used = {op.name for op in every_op_module().walk()}
    assert {op.name for op in SOAC.operations} <= used


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_print_parse_round_trip_of_every_op(generic: bool):
    module = every_op_module()
    text = print_op(module, generic)
    parsed = Parser(make_context(), text).parse_module()
    parsed.verify()
    assert print_op(parsed, generic) == text
    assert print_op(parsed) == print_op(module)
    assert parsed.is_structurally_equivalent(module)


def test_custom_syntax_of_slice_update_and_transpose():
    text = print_op(every_op_module())
    assert re.search(r"soac\.slice %\w+\[%\w+:%\w+:%\w+\] : tensor<\?xf32> -> tensor<\?xf32>", text)
    assert re.search(r"soac\.update %\w+\[%\w+\] = %\w+ : tensor<\?xf32>, f32", text)
    assert re.search(r"soac\.transpose %\w+ \[1, 0\] : tensor<\?x\?xf32> -> tensor<\?x\?xf32>", text)
    assert re.search(r"soac\.reduce\(%\w+\) neutral\(%\w+ : f32\) commutative :", text)
    assert re.search(r"soac\.gpu_body -> tensor<1xf32>, tensor<1xindex> \{", text)
