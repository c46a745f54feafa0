"""The ops whose fields, builders, syntax or verifiers come from a shared base or helper
(soac and mem reduce/scan and fused combinators, the transposes and slices of both
levels, soacc_gpu's atomics): each keeps its own operands, regions and traits, and its
verifier names the op in its messages."""

from __future__ import annotations

import pytest
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.arith import AddfOp, Arith, ConstantOp
from xdsl.dialects.builtin import Builtin, FloatAttr, ModuleOp, TensorType, f32
from xdsl.dialects.func import Func
from xdsl.ir import Block, SSAValue
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from soacc.dialects import mem, soac, soacc_gpu
from soacc.dialects.shared.traits import ConsumesOperand, KernelOp, OperandEffects

VIEW = "memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>"
VIEW2 = "memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>"


def _parse(text: str) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, soac.SOAC, mem.MEM, soacc_gpu.SOACC_GPU):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()


def _verify_error(text: str) -> str:
    with pytest.raises(VerifyException) as info:
        _parse(text).verify()
    return str(info.value)


def _fields(op: type) -> tuple[list[str], list[str], list[str]]:
    d = op.get_irdl_definition()
    return [n for n, _ in d.operands], [n for n, _ in d.results], [n for n, _ in d.regions]


@pytest.mark.parametrize(
    ("op", "operands", "results", "regions"),
    [
        (soac.ReduceOp, ["inputs", "neutral"], ["outputs"], ["body"]),
        (soac.ScanOp, ["inputs", "neutral"], ["outputs"], ["body"]),
        (soac.RedomapOp, ["inputs", "neutral"], ["outputs"], ["map_body", "operators"]),
        (soac.ScanomapOp, ["inputs", "neutral"], ["outputs"], ["map_body", "operators", "post"]),
        (soac.ScatteromapOp, ["dest", "inputs"], ["outputs"], ["map_body"]),
        (soac.HistomapOp, ["dest", "inputs", "neutral"], ["outputs"], ["map_body", "operator"]),
        (mem.ReduceOp, ["inputs", "neutral", "outputs"], ["results_"], ["body"]),
        (mem.ScanOp, ["inputs", "neutral", "outputs"], [], ["body"]),
        (mem.RedomapOp, ["inputs", "neutral", "outputs", "row_count"], ["results_"], ["map_body", "operators"]),
        (mem.ScanomapOp, ["inputs", "neutral", "outputs", "row_count"], [], ["map_body", "operators", "post"]),
        (mem.ScatteromapOp, ["dest", "inputs", "outputs", "row_count"], [], ["map_body"]),
        (mem.HistomapOp, ["dest", "inputs", "outputs", "neutral", "row_count"], [], ["map_body", "operator"]),
        (soacc_gpu.AtomicRMWOp, ["value", "ref", "indices"], ["result"], []),
        (soacc_gpu.AtomicCasOp, ["expected", "desired", "ref", "indices"], ["result"], []),
    ],
)
def test_fields_in_order(op, operands, results, regions):
    """Fields from a base class come after the subclass's own where the operand order
    needs it (xDSL collects them along the MRO)."""
    assert _fields(op) == (operands, results, regions)


def test_traits_kept():
    for op in (soac.ReduceOp, soac.ScanOp, soac.RedomapOp, soac.ScanomapOp, mem.ReduceOp, mem.ScanomapOp):
        assert op.get_trait(KernelOp) is not None, op.name
    for op in (soac.ScatteromapOp, soac.HistomapOp):
        assert op.get_trait(ConsumesOperand) == ConsumesOperand("dest")
    effects = mem.ScatteromapOp.get_trait(OperandEffects)
    assert effects == OperandEffects(reads=("dest", "inputs"), writes=("dest",), creates=("outputs",))
    assert mem.ReduceOp.get_trait(OperandEffects) == OperandEffects(
        reads=("inputs", "neutral"), creates=("outputs",)
    )


def test_fused_from_lambdas():
    """redomap and scanomap share from_lambdas; their results differ."""
    block = Block(arg_types=[TensorType(f32, [8])])
    (a,) = block.args
    zero = ConstantOp(FloatAttr(0.0, f32))
    block.add_op(zero)

    def add(b: Builder, xs: tuple[SSAValue, ...]):
        return [b.insert(AddfOp(xs[0], xs[1])).result]

    red = soac.RedomapOp.from_lambdas([a], lambda b, xs: [xs[0], xs[0]], [([zero.result], add, True)], [f32])
    assert [r.type for r in red.outputs] == [f32, TensorType(f32, [8])]
    assert red.num_operands_reduced == 1 and red.is_commutative(0)
    scan = soac.ScanomapOp.from_lambdas(
        [a], lambda b, xs: [xs[0]], [([zero.result], add, False)], post=(lambda b, xs: [xs[0], xs[0]], [f32, f32])
    )
    assert [r.type for r in scan.outputs] == [TensorType(f32, [8])] * 2
    assert scan.post is not None and scan.num_operands_scanned == 1 and not scan.is_commutative(0)
    for op in (red, scan):
        block.add_op(op)
        op.verify()


def test_transpose_messages():
    msg = _verify_error(
        f"""func.func @f(%m: {VIEW2}) {{
  %t = mem.transpose %m [1, 0] : {VIEW2} -> {VIEW2}
  func.return
}}"""
    )
    assert msg == (
        f"mem.transpose result has type {VIEW2}; expected "
        "memref<4x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>"
    )
    msg = _verify_error(
        """func.func @f(%m: tensor<3x4xf32>) {
  %t = soac.transpose %m [1, 0] : tensor<3x4xf32> -> tensor<3x4xf32>
  func.return
}"""
    )
    assert msg == "soac.transpose result has type tensor<3x4xf32>; expected tensor<4x3xf32>"


def test_slice_keeps_unsliced_dimensions():
    bad = "memref<?x5xf32, strided<[?, ?], offset: ?>, #mem.space<device>>"
    msg = _verify_error(
        f"""func.func @f(%m: {VIEW2}, %i: index, %n: index) {{
  %r = mem.slice %m[%i:%n] : {VIEW2} -> {bad}
  func.return
}}"""
    )
    assert msg == f"mem.slice result {bad} does not keep the unsliced dimensions of {VIEW2}"
    msg = _verify_error(
        """func.func @f(%m: tensor<?x4xf32>, %i: index, %n: index, %v: tensor<?x5xf32>) {
  %r = soac.update %m[%i:%n] = %v : tensor<?x4xf32>, tensor<?x5xf32>
  func.return
}"""
    )
    assert msg == "soac.update value tensor<?x5xf32> does not keep the unsliced dimensions of tensor<?x4xf32>"


def test_atomic_messages():
    ref = "memref<?xi32, strided<[?], offset: ?>>"
    msg = _verify_error(
        f"""func.func @f(%h: {ref}, %i: index, %x: i32) {{
  %old = soacc_gpu.atomic_rmw "mul" %x, %h[%i] : i32, {ref}
  func.return
}}"""
    )
    assert msg == (
        "soacc_gpu.atomic_rmw kind is one of addi, addf, maxs, mins, maxu, minu, andi, ori, xori, exch, not 'mul'"
    )
    msg = _verify_error(
        f"""func.func @f(%h: {ref}, %i: index, %x: i32) {{
  %old = soacc_gpu.atomic_cas %x, %x, %h[%i, %i] : i32, {ref}
  func.return
}}"""
    )
    assert msg == "soacc_gpu.atomic_cas needs 1 indices for a memref of rank 1, got 2"
