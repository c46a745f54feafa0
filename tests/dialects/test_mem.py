"""Builder, verifier and round-trip tests of the `mem` dialect (soacc.dialects.mem):
ops are built in Python, without parsing, and verified inside a func.func of a
builtin.module."""

from __future__ import annotations

import re
from collections.abc import Sequence
from io import StringIO

import pytest
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, llvm
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Builtin,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.func import Func, FuncOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from soacc.dialects import mem
from soacc.dialects.mem import (
    DEVICE,
    ThresholdOp,
    HOST,
    MEM,
    AllocOp,
    ArrayOp,
    BlockType,
    CopyOp,
    FillOp,
    GpuBodyOp,
    HistOp,
    IotaOp,
    LoadOp,
    MapOp,
    MemorySpaceAttr,
    ReduceOp,
    ScanOp,
    ScatterOp,
    SizeOp,
    SliceOp,
    StoreOp,
    TransposeOp,
    ViewOp,
    YieldOp,
    row_view_type,
    space_of,
    view_type,
    view_type_of,
)
from soacc.dialects.shared.traits import is_host_kernel, kernel_space
from soacc.dialects.soac import SliceSpec, build_lambda

from tests.support.ir_building import Body, const, fails, in_func, only, verified

index = IndexType()
DYN = DYNAMIC_INDEX
DEVICE2 = MemorySpaceAttr("device", 2)


def view(elem: Attribute, *shape: int, space: MemorySpaceAttr = DEVICE) -> MemRefType:
    return view_type(elem, shape, space)


def lam(param_types: Sequence[Attribute], body: Body) -> Region:
    """A level-2 lambda, ended by mem.yield."""
    return build_lambda(param_types, body, yield_type=YieldOp)


def add(b: Builder, p: tuple[SSAValue, ...]) -> list[SSAValue]:
    op = arith.AddfOp(*p) if p[0].type in (f32, f64) else arith.AddiOp(*p)
    return [b.insert(op).result]


def reduce_op(
    inputs: Sequence[SSAValue],
    neutral: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    body: Body,
    result_types: Sequence[Attribute] = (),
    commutative: bool = False,
) -> ReduceOp:
    """ReduceOp has no builder of its own: the generic one, with a lambda over pairs."""
    elems = [row_view_type(v.type) for v in inputs]
    return ReduceOp.build(
        operands=[inputs, neutral, outputs],
        result_types=[result_types],
        properties={"commutative": UnitAttr() if commutative else None},
        regions=[lam([*elems, *elems], body)],
    )


def scan_op(
    inputs: Sequence[SSAValue], neutral: Sequence[SSAValue], outputs: Sequence[SSAValue], body: Body
) -> ScanOp:
    elems = [row_view_type(v.type) for v in inputs]
    return ScanOp.build(
        operands=[inputs, neutral, outputs], regions=[lam([*elems, *elems], body)]
    )


# --------------------------------------------------------------------------------------
# Spaces, blocks and view types
# --------------------------------------------------------------------------------------


def test_memory_space_constructors():
    assert HOST == MemorySpaceAttr("host")
    assert DEVICE == MemorySpaceAttr("device") == MemorySpaceAttr("device", 0)
    assert DEVICE2 != DEVICE
    assert DEVICE2.kind == StringAttr("device") and DEVICE2.device == IntAttr(2)
    assert HOST.kind == StringAttr("host") and HOST.device == IntAttr(0)


def test_memory_space_describe_and_is_device():
    assert HOST.describe() == "host"
    assert DEVICE.describe() == "device"
    assert DEVICE2.describe() == "device 2"
    assert not HOST.is_device
    assert DEVICE.is_device and DEVICE2.is_device


def test_block_type_constructor():
    assert BlockType(DEVICE).space == DEVICE
    assert BlockType(DEVICE2) == BlockType(MemorySpaceAttr("device", 2))
    assert BlockType(HOST) != BlockType(DEVICE)


@pytest.mark.parametrize(
    "attr, text",
    [
        (HOST, "#mem.space<host>"),
        (DEVICE, "#mem.space<device>"),
        (DEVICE2, "#mem.space<device 2>"),
        (BlockType(HOST), "!mem.block<host>"),
        (BlockType(DEVICE), "!mem.block<device>"),
        (BlockType(DEVICE2), "!mem.block<device 2>"),
    ],
)
def test_space_and_block_print_and_parse(attr: Attribute, text: str):
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    assert out.getvalue() == text
    assert Parser(make_context(), text).parse_attribute() == attr


def test_device_0_parses_as_device():
    assert Parser(make_context(), "#mem.space<device 0>").parse_attribute() == DEVICE
    assert Parser(make_context(), "!mem.block<device 0>").parse_attribute() == BlockType(DEVICE)


def test_view_type_has_a_fully_dynamic_strided_layout():
    t = view(f32, DYN, 4, space=DEVICE2)
    assert t.element_type == f32
    assert t.get_shape() == (DYN, 4)
    assert t.memory_space == DEVICE2
    assert isinstance(t.layout, StridedLayoutAttr)
    assert isinstance(t.layout.offset, NoneAttr)
    assert [type(s) for s in t.layout.strides.data] == [NoneAttr, NoneAttr]
    assert space_of(t) == DEVICE2


def test_view_type_of_rank_0():
    t = view(i64)
    assert t.get_shape() == ()
    assert isinstance(t.layout, StridedLayoutAttr) and t.layout.strides.data == ()
    assert isinstance(t.layout.offset, NoneAttr)


def test_view_type_of_tensors_and_scalars():
    assert view_type_of(TensorType(f32, [DYN, 4]), DEVICE) == view(f32, DYN, 4)
    assert view_type_of(TensorType(i32, [3]), HOST) == view(i32, 3, space=HOST)
    assert view_type_of(f32, DEVICE) == f32
    assert view_type_of(index, HOST) == index


def test_row_view_type():
    assert row_view_type(view(f32, DYN)) == f32
    assert row_view_type(view(f32, DYN, 4)) == view(f32, 4)
    assert row_view_type(view(i1, 2, DYN, 3, space=HOST)) == view(i1, DYN, 3, space=HOST)
    assert row_view_type(view(index, 5, 6, space=DEVICE2)) == view(index, 6, space=DEVICE2)


# --------------------------------------------------------------------------------------
# Blocks and views
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("space", [HOST, DEVICE, DEVICE2], ids=["host", "device", "device2"])
def test_alloc_gives_a_block_in_its_space(space: MemorySpaceAttr):
    op = only(verified([index], lambda b, a: [b.insert(AllocOp(a[0], space)).block]), AllocOp)
    assert op.block.type == BlockType(space)


def test_view_with_sizes_without_sizes_with_strides_and_of_rank_0():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        nbytes, off, n = args
        blk = b.insert(AllocOp(nbytes, DEVICE)).block
        return [
            b.insert(ViewOp(blk, off, [n], view(f32, DYN))).result,
            b.insert(ViewOp(blk, off, [], view(i32, 4, 8))).result,
            b.insert(ViewOp(blk, off, [n, n], view(f64, DYN, DYN), strides=[n, n])).result,
            b.insert(ViewOp(blk, off, [], view(index))).result,
        ]

    module = verified([index, index, index], body)
    ops = [o for o in module.walk() if isinstance(o, ViewOp)]
    assert [len(o.sizes) for o in ops] == [1, 0, 2, 0]
    assert [len(o.strides) for o in ops] == [0, 0, 2, 0]
    assert [o.result.type for o in ops] == [
        view(f32, DYN),
        view(i32, 4, 8),
        view(f64, DYN, DYN),
        view(index),
    ]


def test_static_view_that_fits_its_block():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        blk = b.insert(AllocOp(const(b, 64, index), HOST)).block
        return [b.insert(ViewOp(blk, const(b, 32, index), [], view(f64, 2, 2, space=HOST))).result]

    verified([], body)


def test_slice_fixed_range_and_strided_entries():
    k = SliceSpec

    def body(b: Builder, args: tuple[SSAValue, ...]):
        m, i, n, s = args
        return [
            b.insert(SliceOp(m, [k.FIXED], [i], view(f32, 4))).result,
            b.insert(SliceOp(m, [k.RANGE], [i, n], view(f32, DYN, 4))).result,
            b.insert(SliceOp(m, [k.STRIDED, k.FIXED], [i, n, s, i], view(f32, DYN))).result,
            b.insert(SliceOp(m, [k.FIXED, k.FIXED], [i, i], view(f32))).result,
        ]

    module = verified([view(f32, DYN, 4), index, index, index], body)
    ops = [o for o in module.walk() if isinstance(o, SliceOp)]
    assert [tuple(o.kinds.get_values()) for o in ops] == [(0,), (1,), (2, 0), (0, 0)]
    assert [len(o.spec) for o in ops] == [1, 2, 4, 2]
    assert ops[2].kinds == DenseArrayBase.from_list(i64, [2, 0])


def test_transpose_permutes_the_result_type():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        m, t3 = args
        return [
            b.insert(TransposeOp(m, [1, 0])).result,
            b.insert(TransposeOp(t3, [2, 0, 1])).result,
        ]

    module = verified([view(f32, DYN, 4), view(i64, 2, DYN, 3, space=HOST)], body)
    tr2, tr3 = [o for o in module.walk() if isinstance(o, TransposeOp)]
    assert tr2.result.type == view(f32, 4, DYN)
    assert tr3.result.type == view(i64, 3, 2, DYN, space=HOST)
    assert tuple(tr3.permutation.get_values()) == (2, 0, 1)


def test_size():
    op = only(verified([view(i1, DYN, 4)], lambda b, a: [b.insert(SizeOp(a[0], 1)).result]), SizeOp)
    assert op.result.type == index
    assert op.dim == IntegerAttr(1, i64)


# --------------------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, dst",
    [(HOST, DEVICE), (DEVICE, HOST), (DEVICE, DEVICE2), (HOST, HOST)],
    ids=["host-device", "device-host", "device-device", "host-host"],
)
def test_copy_between_any_two_spaces(src: MemorySpaceAttr, dst: MemorySpaceAttr):
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(CopyOp(*args))
        return []

    op = only(verified([view(f32, DYN, 4, space=src), view(f32, 8, DYN, space=dst)], body), CopyOp)
    assert space_of(op.source.type) == src and space_of(op.dest.type) == dst


def test_load_gives_the_element_type_and_store_writes_it():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        m, s, i = args
        x = b.insert(LoadOp(m, [i, i])).result
        y = b.insert(LoadOp(s, [])).result
        b.insert(StoreOp(x, m, [i, i]))
        b.insert(StoreOp(y, s, []))
        return [x, y]

    module = verified([view(f64, DYN, 4), view(i32, space=HOST), index], body)
    loads = [o for o in module.walk() if isinstance(o, LoadOp)]
    assert [o.result.type for o in loads] == [f64, i32]
    assert [len(o.indices) for o in loads] == [2, 0]
    stores = [o for o in module.walk() if isinstance(o, StoreOp)]
    assert [len(o.indices) for o in stores] == [2, 0]


# --------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------


def test_map_lambda_params_are_input_rows_then_array_output_rows():
    ins = [view(f32, DYN), view(f32, DYN, 4)]
    outs = [view(f32, DYN), view(i32, DYN, 2), view(f64, DYN, 3, 5)]
    assert MapOp.lambda_params(ins, outs) == [f32, view(f32, 4), view(i32, 2), view(f64, 3, 5)]


def test_map_with_two_inputs_and_two_outputs():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, c, s, lt = args

        def fn(lb: Builder, p: tuple[SSAValue, ...]):
            x, y = p
            return [
                lb.insert(arith.AddfOp(x, y)).result,
                lb.insert(arith.CmpfOp(x, y, "olt")).result,
            ]

        params = MapOp.lambda_params([a.type, c.type], [s.type, lt.type])
        b.insert(MapOp([a, c], [s, lt], lam(params, fn)))
        return []

    op = only(verified([view(f32, DYN)] * 3 + [view(i1, DYN)], body), MapOp)
    assert [a.type for a in op.body.block.args] == [f32, f32]
    assert isinstance(op.body.block.last_op, YieldOp)
    assert len(op.body.block.last_op.values) == 2


def test_map_with_a_row_output_yields_the_output_row():
    """A 2-D output: the lambda gets its row after the input rows, fills it and yields
    it (a map nested in the map writes the row)."""

    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, m, out = args

        def fn(lb: Builder, p: tuple[SSAValue, ...]):
            x, in_row, out_row = p
            inner = lam([f32], lambda ib, q: [ib.insert(arith.MulfOp(q[0], x)).result])
            lb.insert(MapOp([in_row], [out_row], inner))
            return [out_row]

        params = MapOp.lambda_params([a.type, m.type], [out.type])
        b.insert(MapOp([a, m], [out], lam(params, fn)))
        return []

    module = verified([view(f32, DYN), view(f32, DYN, 4), view(f32, DYN, 4)], body)
    outer, inner = [o for o in module.walk() if isinstance(o, MapOp)]
    assert [a.type for a in outer.body.block.args] == [f32, view(f32, 4), view(f32, 4)]
    assert inner.parent_op() is outer
    assert inner.outputs[0] is outer.body.block.args[2]
    assert outer.body.block.last_op.values[0] is outer.body.block.args[2]


def test_reduce_with_outs_and_reduce_with_scalar_results_in_a_map():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, m, r, sums = args
        zero = const(b, 0.0, f32)
        b.insert(reduce_op([a], [zero], [r], add, commutative=True))

        def row_sum(lb: Builder, p: tuple[SSAValue, ...]):
            return lb.insert(reduce_op([p[0]], [zero], [], add, result_types=[f32])).results

        b.insert(MapOp([m], [sums], lam([view(f32, 8)], row_sum)))
        return []

    module = verified([view(f32, DYN), view(f32, DYN, 8), view(f32), view(f32, DYN)], body)
    top, nested = [o for o in module.walk() if isinstance(o, ReduceOp)]
    assert top.commutative == UnitAttr() and nested.commutative is None
    assert not top.results and [o.type for o in top.outputs] == [view(f32)]
    assert [r.type for r in nested.results] == [f32] and not nested.outputs
    assert isinstance(nested.parent_op(), MapOp)


def test_scan_scatter_hist_and_gpu_body():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, p, is_, bins, r = args
        zero = const(b, 0, i32)
        b.insert(scan_op([a], [zero], [p], add))
        b.insert(ScatterOp(p, is_, a))
        b.insert(HistOp.build(operands=[bins, is_, a, zero], regions=[lam([i32, i32], add)]))
        load = lambda lb, q: [lb.insert(LoadOp(a, [const(lb, 0, index)])).result]  # noqa: E731
        b.insert(GpuBodyOp.build(operands=[[r]], regions=[lam([], load)]))
        return []

    verified([view(i32, DYN), view(i32, DYN), view(index, DYN), view(i32, 16), view(i32, 1)], body)


@pytest.mark.parametrize("elem", [index, i32, i64])
def test_iota(elem: Attribute):
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(IotaOp(args[0]))
        return []

    op = only(verified([view(elem, DYN)], body), IotaOp)
    assert op.output.type == view(elem, DYN)


def test_fill_with_a_scalar_and_with_a_row():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        x, v, row, m = args
        b.insert(FillOp(x, v))
        b.insert(FillOp(row, m))
        return []

    module = verified([f32, view(f32, DYN), view(f32, 4), view(f32, DYN, 4)], body)
    assert [o.value.type for o in module.walk() if isinstance(o, FillOp)] == [f32, view(f32, 4)]


def test_array_of_scalars_and_of_rows():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        x, y, v, row, m = args
        b.insert(ArrayOp([x, y, x], v))
        b.insert(ArrayOp([row, row], m))
        return []

    module = verified([i64, i64, view(i64, 3, space=HOST), view(f32, 4), view(f32, DYN, 4)], body)
    lit, rows = [o for o in module.walk() if isinstance(o, ArrayOp)]
    assert len(lit.elements) == 3 and len(rows.elements) == 2


# --------------------------------------------------------------------------------------
# Verifier failures
# --------------------------------------------------------------------------------------


def test_view_outside_its_block_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        blk = b.insert(AllocOp(const(b, 64, index), DEVICE)).block
        return [b.insert(ViewOp(blk, const(b, 16, index), [], view(f32, 4, 4))).result]

    fails("mem.view covers bytes [16, 80) of a block of 64 bytes", [], body)


def test_view_in_another_space_than_its_block_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        blk = b.insert(AllocOp(args[0], DEVICE2)).block
        return [b.insert(ViewOp(blk, args[0], [args[0]], view(f32, DYN))).result]

    fails(
        f"mem.view of a block in device 2 memory gives {view(f32, DYN)}; the spaces must agree",
        [index],
        body,
    )


def test_view_with_wrong_number_of_sizes_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        blk = b.insert(AllocOp(args[0], DEVICE)).block
        return [b.insert(ViewOp(blk, args[0], [], view(f32, DYN, 4))).result]

    fails("has 1 dynamic dimension(s) but 0 sizes are given", [index], body)


def test_memref_without_space_fails():
    plain = MemRefType(f32, [DYN])

    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(CopyOp(args[0], args[1]))
        return []

    fails(
        "mem.copy source memref<?xf32> has no #mem.space<...> memory space",
        [plain, view(f32, DYN)],
        body,
    )


def test_memref_with_a_static_layout_fails():
    static = MemRefType(f32, [DYN], StridedLayoutAttr([1], None), DEVICE)

    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(IotaOp(args[0]))
        return []

    fails("must have a fully dynamic strided layout", [static], body)


def test_copy_of_another_shape_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(CopyOp(*args))
        return []

    fails("shapes and element types must agree", [view(f32, 3, space=HOST), view(f32, 4)], body)


def test_load_with_too_few_indices_fails():
    fails(
        "mem.load has 1 indices for a view of rank 2",
        [view(f32, DYN, 4), index],
        lambda b, a: [b.insert(LoadOp(a[0], [a[1]])).result],
    )


def test_store_of_the_wrong_type_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(StoreOp(args[0], args[1], [args[2]]))
        return []

    fails("mem.store of a f64 into a view of f32", [f64, view(f32, DYN), index], body)


def test_transpose_with_a_repeated_dimension_fails():
    fails(
        "mem.transpose permutation [1, 1] is not a permutation",
        [view(f32, 3, 3)],
        lambda b, a: [b.insert(TransposeOp(a[0], [1, 1])).result],
    )


def test_kernel_on_host_memory_is_a_host_kernel():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(IotaOp(args[0]))
        return []

    iota = only(verified([view(index, DYN, space=HOST)], body), IotaOp)
    assert is_host_kernel(iota) and kernel_space(iota) == HOST


def test_kernel_with_host_and_device_arrays_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, o = args
        b.insert(MapOp([a], [o], lam([f32], lambda lb, p: [p[0]])))
        return []

    fails(
        "mem.map uses arrays in device, host memory; a kernel runs in one place",
        [view(f32, DYN, space=HOST), view(f32, DYN)],
        body,
    )


def test_kernel_on_two_devices_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, o = args
        b.insert(MapOp([a], [o], lam([f32], lambda lb, p: [p[0]])))
        return []

    fails(
        "mem.map uses arrays in device, device 2 memory; a kernel runs in one place",
        [view(f32, DYN), view(f32, DYN, space=DEVICE2)],
        body,
    )


def test_map_lambda_without_the_output_row_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        a, o = args
        b.insert(MapOp([a], [o], lam([view(f32, 4)], lambda lb, p: [p[0]])))
        return []

    fails(
        f"mem.map lambda parameters are ({view(f32, 4)}); "
        f"expected ({view(f32, 4)}, {view(f32, 4)})",
        [view(f32, DYN, 4), view(f32, DYN, 4)],
        body,
    )


def test_map_lambda_ending_in_another_terminator_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(MapOp([args[0]], [], Region(Block([llvm.UnreachableOp()], arg_types=[f32]))))
        return []

    fails("mem.map lambda must end with mem.yield", [view(f32, DYN)], body)


def test_reduce_with_missing_neutral_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(reduce_op([args[0]], [], [args[1]], add))
        return []

    fails(
        "mem.reduce has 1 input array(s) but 0 neutral element(s)",
        [view(f32, DYN), view(f32)],
        body,
    )


def test_reduce_with_outs_and_results_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        zero = const(b, 0.0, f32)
        return b.insert(reduce_op([args[0]], [zero], [args[1]], add, result_types=[f32])).results

    fails(
        "mem.reduce needs one output per input (and then no results)",
        [view(f32, DYN), view(f32)],
        body,
    )


def test_scan_without_outs_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(scan_op([args[0]], [const(b, 0, i32)], [], add))
        return []

    fails("mem.scan needs one output per input", [view(i32, DYN)], body)


def test_scatter_values_with_other_rows_fail():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(ScatterOp(*args))
        return []

    fails(
        "do not have the rows of",
        [view(f32, DYN, 4), view(i32, DYN), view(f32, DYN, 5)],
        body,
    )


def test_gpu_body_output_with_two_rows_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(GpuBodyOp.build(operands=[[args[0]]], regions=[lam([], lambda lb, p: [args[1]])]))
        return []

    fails(
        f"mem.gpu_body output 0 has type {view(f32, 2)}; outputs have one row",
        [view(f32, 2), f32],
        body,
    )


def test_iota_of_floats_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(IotaOp(args[0]))
        return []

    fails("mem.iota output must be a rank-1 view of index, i32 or i64", [view(f32, DYN)], body)


def test_fill_of_the_wrong_type_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(FillOp(*args))
        return []

    fails("mem.fill of a i32 into rows of i64", [i32, view(i64, DYN)], body)


def test_array_with_too_many_elements_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        x, v = args
        b.insert(ArrayOp([x, x, x], v))
        return []

    fails(f"mem.array writes 3 rows into {view(f32, 2)}", [f32, view(f32, 2)], body)


def test_element_type_outside_the_soac_set_fails():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(IotaOp(args[0]))
        return []

    fails("mem.iota output has element type i8", [view(i8, DYN)], body)


def test_yield_outside_a_lambda_fails():
    block = Block([YieldOp()])
    module = ModuleOp([FuncOp("f", ([], []), Region(block))])
    with pytest.raises(
        VerifyException,
        match=re.escape(
            "'mem.yield' expects parent op to be one of 'mem.map', 'mem.reduce', "
            "'mem.scan', 'mem.hist', 'mem.gpu_body'"
        ),
    ):
        module.verify()


# --------------------------------------------------------------------------------------
# Printing and parsing
# --------------------------------------------------------------------------------------


def make_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, MEM):
        ctx.load_dialect(dialect)
    return ctx


def print_op(op: Operation, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def every_op_module() -> ModuleOp:
    """One module, built in Python, holding every mem op."""
    k = SliceSpec

    def body(b: Builder, args: tuple[SSAValue, ...]):
        host, n, i, x = args
        c0 = const(b, 0, index)
        nbytes = const(b, 4096, index)
        blk = b.insert(AllocOp(nbytes, DEVICE)).block
        blk2 = b.insert(AllocOp(nbytes, DEVICE2)).block
        a = b.insert(ViewOp(blk, c0, [n], view(f32, DYN))).result
        m = b.insert(ViewOp(blk, c0, [n], view(f32, DYN, 4), strides=[i, i])).result
        r = b.insert(ViewOp(blk, c0, [], view(f32))).result
        idx = b.insert(ViewOp(blk, c0, [n], view(index, DYN))).result
        one = b.insert(ViewOp(blk, c0, [], view(f32, 1))).result
        pair = b.insert(ViewOp(blk2, c0, [], view(f32, 2, space=DEVICE2))).result
        b.insert(CopyOp(host, a))
        row = b.insert(SliceOp(m, [k.FIXED], [i], view(f32, 4))).result
        part = b.insert(
            SliceOp(m, [k.STRIDED, k.RANGE], [i, n, i, c0, i], view(f32, DYN, DYN))
        ).result
        tr = b.insert(TransposeOp(part, [1, 0])).result
        sz = b.insert(SizeOp(tr, 1)).result
        b.insert(ThresholdOp("map0.tiled_from", 32))
        b.insert(FillOp(x, a))
        b.insert(FillOp(row, m))
        b.insert(IotaOp(idx))
        b.insert(ArrayOp([x, x], pair))

        def scale(lb: Builder, p: tuple[SSAValue, ...]):
            y, out_row = p
            lb.insert(FillOp(y, out_row))
            return [out_row]

        b.insert(MapOp([a], [m], lam(MapOp.lambda_params([a.type], [m.type]), scale)))
        zero = const(b, 0.0, f32)
        b.insert(reduce_op([a], [zero], [r], add, commutative=True))
        b.insert(scan_op([a], [zero], [a], add))
        b.insert(ScatterOp(a, idx, a))
        b.insert(HistOp.build(operands=[a, idx, a, zero], regions=[lam([f32, f32], add)]))
        read = lambda lb, p: [lb.insert(LoadOp(r, [])).result]  # noqa: E731
        b.insert(GpuBodyOp.build(operands=[[one]], regions=[lam([], read)]))
        # the fused kernels (soac-fusion's forms)
        flags = {"commutative": DenseArrayBase.from_list(i1, [1])}
        twice = lambda lb, p: [p[0], p[0]]  # noqa: E731
        b.insert(mem.RedomapOp.build(operands=[[a], [zero], [r, a], []], result_types=[[]], regions=[lam([f32], twice), [lam([f32, f32], add)]], properties=flags))
        b.insert(
            mem.ScanomapOp.build(
                operands=[[a], [zero], [a], []],
                regions=[lam([f32], twice), [lam([f32, f32], add)], [lam([f32, f32], add)]],
                properties=flags,
            )
        )
        b.insert(mem.ScatteromapOp.build(operands=[a, [idx, a], [], []], regions=[lam([index, f32], lambda lb, p: list(p))]))
        b.insert(
            mem.HistomapOp.build(
                operands=[a, [idx, a], [a], zero, []],
                regions=[lam([index, f32], lambda lb, p: [p[0], p[1], p[1]]), lam([f32, f32], add)],
            )
        )
        b.insert(StoreOp(x, a, [sz]))
        return [b.insert(LoadOp(tr, [i, i])).result]

    module = in_func([view(f32, DYN, space=HOST), index, index, f32], body)
    module.verify()
    return module


def test_every_op_module_uses_every_mem_op():
    """Guards the round-trip tests below: a new op must be added to every_op_module."""
    used = {op.name for op in every_op_module().walk()}
    assert {op.name for op in MEM.operations} <= used


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_print_parse_round_trip_of_every_op(generic: bool):
    module = every_op_module()
    text = print_op(module, generic)
    parsed = Parser(make_context(), text).parse_module()
    parsed.verify()
    assert print_op(parsed, generic) == text
    assert print_op(parsed) == print_op(module)
    assert parsed.is_structurally_equivalent(module)


def test_custom_syntax():
    text = print_op(every_op_module())
    d = re.escape("#mem.space<device>")
    assert re.search(r"mem\.alloc %\w+ : !mem\.block<device 2>", text)
    assert re.search(
        r"mem\.view %\w+\[%\w+\] sizes\(%\w+\) strides\(%\w+, %\w+\) : "
        r"!mem\.block<device> -> memref<\?x4xf32",
        text,
    )
    assert re.search(r"mem\.slice %\w+\[%\w+:%\w+:%\w+, %\w+:%\w+\] : ", text)
    assert re.search(r"mem\.transpose %\w+ \[1, 0\] : ", text)
    assert re.search(r"mem\.size %\w+\[1\] : ", text)
    assert re.search(r"mem\.load %\w+\[\] : memref<f32, strided<\[\], offset: \?>, " + d, text)
    assert re.search(
        r"mem\.array \[%\w+, %\w+\] outs\(%\w+ : "
        r"memref<2xf32, strided<\[\?\], offset: \?>, #mem\.space<device 2>>\)",
        text,
    )
    assert re.search(
        r"mem\.reduce ins\(%\w+ : [^)]*\) neutral\(%\w+ : f32\) commutative outs\(", text
    )
    assert re.search(r"mem\.hist %\w+\[%\w+\], %\w+ neutral\(%\w+ : f32\) : ", text)


def test_module_helpers_are_exported():
    """The helpers the lowering uses live on the dialect module."""
    for name in ("view_type", "view_type_of", "row_view_type", "space_of", "check_view"):
        assert callable(getattr(mem, name))


# --------------------------------------------------------------------------------------
# Verifier and parser checks added after these tests found them missing
# --------------------------------------------------------------------------------------


def test_array_parse_of_a_2d_memref_without_space_is_a_parse_error():
    from xdsl.utils.exceptions import ParseError

    text = (
        "func.func @f(%a: memref<2x4xf32>, %r: memref<4xf32>) {\n"
        "  mem.array [%r, %r] outs(%a : memref<2x4xf32>)\n"
        "  func.return\n"
        "}\n"
    )
    with pytest.raises((ParseError, VerifyException)):
        Parser(make_context(), text).parse_module().verify()


def test_slice_result_must_keep_the_unsliced_dimensions():
    fails(
        "mem.slice",
        [view(f32, DYN, 4), index],
        lambda b, a: [b.insert(SliceOp(a[0], [SliceSpec.FIXED], [a[1]], view(f32, 5))).result],
    )


def test_scatter_indices_and_values_must_have_one_outer_size():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(ScatterOp(*args))
        return []

    fails("mem.scatter", [view(f32, DYN), view(index, 3), view(f32, 5)], body)


def test_hist_indices_and_values_must_have_one_outer_size():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        bins, is_, vs = args
        zero = const(b, 0, i32)
        b.insert(HistOp.build(operands=[bins, is_, vs, zero], regions=[lam([i32, i32], add)]))
        return []

    fails("mem.hist", [view(i32, 16), view(index, 3), view(i32, 5)], body)


def test_scan_output_must_have_the_input_shape():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        b.insert(scan_op([args[0]], [const(b, 0, i32)], [args[1]], add))
        return []

    fails("mem.scan output 0", [view(i32, 4), view(i32, 7)], body)


def test_gpu_body_outputs_on_two_devices_fail():
    def body(b: Builder, args: tuple[SSAValue, ...]):
        r, r2, x = args
        b.insert(GpuBodyOp.build(operands=[[r, r2]], regions=[lam([], lambda lb, p: [x, x])]))
        return []

    fails(
        "mem.gpu_body uses arrays in device, device 2 memory",
        [view(f32, 1), view(f32, 1, space=DEVICE2), f32],
        body,
    )


@pytest.mark.parametrize("kind, device", [("gpu", 0), ("host", 3), ("device", -1)])
def test_bad_memory_spaces_fail(kind: str, device: int):
    with pytest.raises(VerifyException):
        MemorySpaceAttr(kind, device)


# --------------------------------------------------------------------------------------
# Speculation: views and slices are checked when made, so they may fail
# --------------------------------------------------------------------------------------

SPECULATION = """
func.func @f(%n: index, %i: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %blk = mem.alloc %c16 : !mem.block<device>
  %dyn = mem.alloc %k : !mem.block<device>
  scf.for %j = %c0 to %n step %c1 {
    %fits = mem.view %blk[%c0] : !mem.block<device> -> memref<1x2xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
    %row = mem.slice %fits[%c0] : memref<1x2xi64, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<2xi64, strided<[?], offset: ?>, #mem.space<device>>
    %some_row = mem.slice %fits[%i] : memref<1x2xi64, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<2xi64, strided<[?], offset: ?>, #mem.space<device>>
    %past = mem.slice %fits[%c2] : memref<1x2xi64, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<2xi64, strided<[?], offset: ?>, #mem.space<device>>
    %of_dyn = mem.view %dyn[%c0] : !mem.block<device> -> memref<2xi64, strided<[?], offset: ?>, #mem.space<device>>
    %cols = mem.slice %row[%c0:%c2] : memref<2xi64, strided<[?], offset: ?>, #mem.space<device>> -> memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>
    %none = mem.slice %row[%c2:%c0] : memref<2xi64, strided<[?], offset: ?>, #mem.space<device>> -> memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}
"""


def test_views_and_slices_are_speculatable_only_where_they_surely_fit():
    """xDSL's licm moves ops that have no memory effect and are speculatable: a view or
    slice only when its run-time check provably passes (a loop that does not run must
    not fail on a view it would never have made). Each op here is loop-invariant."""
    from xdsl.dialects.scf import Scf
    from xdsl.traits import is_side_effect_free, is_speculatable
    from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass

    ctx = make_context()
    ctx.load_dialect(Scf)
    module = Parser(ctx, SPECULATION).parse_module()
    module.verify()
    ops = {op.results[0].name_hint: op for op in module.walk() if isinstance(op, ViewOp | SliceOp)}
    assert all(is_side_effect_free(op) for op in ops.values())
    speculatable = {name for name, op in ops.items() if is_speculatable(op)}
    # %past: row 2 of 1; %some_row: a row not known; %of_dyn: a block of unknown size;
    # %cols slices a row made in the loop, but the row itself fits: it moves too
    assert speculatable == {"fits", "row", "cols", "none"}
    LoopInvariantCodeMotionPass().apply(ctx, module)
    loop = next(op for op in module.walk() if op.name == "scf.for")
    inside = {op.results[0].name_hint for op in loop.walk() if isinstance(op, ViewOp | SliceOp)}
    assert inside == {"some_row", "past", "of_dyn"}
