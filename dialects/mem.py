"""
The `mem` dialect: explicit memory (level 2 of DESIGN.md).

Memory is a set of *blocks* (`!mem.block<space>`), each made by `mem.alloc` of a byte
size in a space: `host`, `device` (GPU 0) or `device N`. An array is a *view* of a
block: a builtin memref bound to the block at a byte offset with a strided layout (its
index function). Every memref at this level has a fully dynamic strided layout and a
`#mem.space<...>` memory space, so one array type serves every view of it:

```mlir
%blk = mem.alloc %bytes : !mem.block<device>
%v = mem.view %blk[%c0] sizes(%n) : !mem.block<device>
       -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
```

Combinators are in destination-passing style: they read their `ins` and write their
`outs` (or, for `scatter`/`hist`, update their destination in place), declare those
memory effects (so a kernel without results is not dead code), and are kernels:
their arrays are in device memory. Inside a lambda, a row of an array is a memref view
(or a scalar), and a lambda produces array rows by writing the output row views it is
given. `scf.if` and loops carry arrays as (block, view) pairs: the block of an `if`
result or of a loop-carried array is *existential*, known only at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I1,
    I64,
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    ConditionallySpeculatable,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.shared.traits import AllocatesItsResult, KernelOp, OperandEffects
from soacc.dialects.soac import (
    FusedSyntax,
    MapOperators,
    PermutedSyntax,
    SlicedSyntax,
    SliceSpec,
    check_dimension,
    commutative_flags,
    check_lambda,
    is_element_type,
    is_index_scalar,
    lambda_yields,
    parse_typed_operands,
    print_typed_operands,
    types_compatible,
)

ENTRY_SIGNATURE = "soacc.entry_signature"
"""The attribute convert-soac-to-mem sets on each entry point: its level-1 signature (a
FunctionType of tensors and scalars), by which executors take and return NumPy values."""


def entry_signature(function: Operation) -> FunctionType | None:
    """The level-1 signature of a level-2 or level-3 entry point (None at level 1, or
    when the attribute is not a function type)."""
    signature = function.attributes.get(ENTRY_SIGNATURE)
    return signature if isinstance(signature, FunctionType) else None


# --------------------------------------------------------------------------------------
# Spaces and blocks
# --------------------------------------------------------------------------------------


def _parse_space(parser: AttrParser) -> tuple[StringAttr, IntAttr]:
    parser.parse_punctuation("<")
    pos = parser.pos
    kind = parser.parse_identifier()
    if kind not in ("host", "device"):
        parser.raise_error(f"a memory space is `host`, `device` or `device N`, not `{kind}`", pos)
    device = 0
    if kind == "device":
        number = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        device = 0 if number is None else number
    parser.parse_punctuation(">")
    return StringAttr(kind), IntAttr(device)


def _print_space(printer: Printer, kind: StringAttr, device: IntAttr) -> None:
    printer.print_string(f"<{kind.data}")
    if kind.data == "device" and device.data != 0:
        printer.print_string(f" {device.data}")
    printer.print_string(">")


@irdl_attr_definition
class MemorySpaceAttr(ParametrizedAttribute):
    """Where memory lives: `#mem.space<host>`, `#mem.space<device>` (GPU 0) or
    `#mem.space<device N>`."""

    name = "mem.space"
    kind: StringAttr = param_def(StringAttr)
    device: IntAttr = param_def(IntAttr)

    def __init__(self, kind: str, device: int = 0):
        super().__init__(StringAttr(kind), IntAttr(device))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_space(parser)

    def print_parameters(self, printer: Printer) -> None:
        _print_space(printer, self.kind, self.device)

    def verify(self) -> None:
        if self.kind.data not in ("host", "device"):
            raise VerifyException(
                f"a memory space is `host`, `device` or `device N`, not `{self.kind.data}`"
            )
        if self.device.data < 0 or (self.kind.data == "host" and self.device.data != 0):
            raise VerifyException(
                f"a memory space is `host`, `device` or `device N`, not `{self.kind.data} {self.device.data}`"
            )

    @property
    def is_device(self) -> bool:
        return self.kind.data == "device"

    def describe(self) -> str:
        if not self.is_device:
            return "host"
        return "device" if self.device.data == 0 else f"device {self.device.data}"


HOST = MemorySpaceAttr("host")
DEVICE = MemorySpaceAttr("device")


@irdl_attr_definition
class BlockType(ParametrizedAttribute, TypeAttribute):
    """A memory block in one space: `!mem.block<device>`."""

    name = "mem.block"
    space: MemorySpaceAttr = param_def(MemorySpaceAttr)

    def __init__(self, space: MemorySpaceAttr):
        super().__init__(space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (MemorySpaceAttr.new(_parse_space(parser)),)

    def print_parameters(self, printer: Printer) -> None:
        _print_space(printer, self.space.kind, self.space.device)


# --------------------------------------------------------------------------------------
# Array (view) types
# --------------------------------------------------------------------------------------


def view_type(element_type: Attribute, shape: Sequence[int], space: MemorySpaceAttr) -> MemRefType:
    """The level-2 type of an array: a memref with a fully dynamic strided layout."""
    return MemRefType(
        element_type, list(shape), StridedLayoutAttr([None] * len(shape), None), space
    )


def view_type_of(t: Attribute, space: MemorySpaceAttr) -> Attribute:
    """The level-2 type of a level-1 type (tensors become views; scalars stay)."""
    if isinstance(t, TensorType):
        return view_type(t.element_type, t.get_shape(), space)
    return t


def space_of(t: Attribute) -> MemorySpaceAttr:
    assert isinstance(t, MemRefType) and isinstance(t.memory_space, MemorySpaceAttr)
    return t.memory_space


def row_view_type(t: MemRefType) -> Attribute:
    """A row of a view: a scalar for rank 1, else a view of one rank less."""
    shape = t.get_shape()
    if len(shape) == 1:
        return t.element_type
    # t's memory space as is (not space_of(t)): parsers call this before verification.
    return MemRefType(
        t.element_type, shape[1:], StridedLayoutAttr([None] * (len(shape) - 1), None), t.memory_space
    )


def check_view(what: str, t: Attribute, *, rank_at_least: int = 0) -> MemRefType:
    """A level-2 array: a memref of a soac element type, with a fully dynamic strided
    layout and a mem.space. (A kernel's arrays are in one space, host or one device:
    the KernelOp trait checks it.)"""
    if not isinstance(t, MemRefType):
        raise VerifyException(f"{what} must be a memref view, found {t}")
    if not is_element_type(t.element_type):
        raise VerifyException(
            f"{what} has element type {t.element_type}; expected one of i1, i32, i64, index, f32, f64"
        )
    if not isinstance(t.memory_space, MemorySpaceAttr):
        raise VerifyException(f"{what} {t} has no #mem.space<...> memory space")
    layout = t.layout
    if not (
        isinstance(layout, StridedLayoutAttr)
        and isinstance(layout.offset, NoneAttr)
        and all(isinstance(s, NoneAttr) for s in layout.strides.data)
    ):
        raise VerifyException(
            f"{what} {t} must have a fully dynamic strided layout (strided<[?, ...], offset: ?>)"
        )
    if t.get_num_dims() < rank_at_least:
        raise VerifyException(f"{what} must have rank >= {rank_at_least}, found {t}")
    return t


def _check_same_outer(what: str, types: Sequence[MemRefType]) -> None:
    outer = DYNAMIC_INDEX
    for i, t in enumerate(types):
        d = t.get_shape()[0]
        if outer != DYNAMIC_INDEX and d != DYNAMIC_INDEX and d != outer:
            raise VerifyException(
                f"{what} {i} has outer size {d}, but an earlier one has {outer}; all must match"
            )
        if d != DYNAMIC_INDEX:
            outer = d



# --------------------------------------------------------------------------------------
# Blocks and views
# --------------------------------------------------------------------------------------


@irdl_op_definition
class AllocOp(IRDLOperation):
    """A new block of `bytes` bytes.

    ```mlir
    %blk = mem.alloc %bytes : !mem.block<device>
    ```
    """

    name = "mem.alloc"
    bytes = operand_def(IndexType)
    block = result_def(BlockType)
    traits = traits_def(AllocatesItsResult())
    assembly_format = "$bytes attr-dict `:` type($block)"

    def __init__(self, bytes: SSAValue | Operation, space: MemorySpaceAttr):
        super().__init__(operands=[bytes], result_types=[BlockType(space)])


class SpeculatableInBounds(ConditionallySpeculatable):
    """A view or slice is checked to lie inside its block or source when it is made, so
    it may fail: it is speculatable (may move out of a loop that might not run, as
    xDSL's licm moves it) only where the check provably passes at compile time."""

    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        assert isinstance(op, ViewOp | SliceOp)
        return op.statically_in_bounds()


@irdl_op_definition
class ViewOp(IRDLOperation):
    """An array bound to a block: element (i, j, ...) is at byte
    `offset + (i*s0 + j*s1 + ...) * element size`. Sizes are given for the dynamic
    dimensions; strides (in elements) default to row-major. The view must lie inside
    its block (checked here when sizes are static, and when the view is made at run time).

    ```mlir
    %v = mem.view %blk[%off] sizes(%n) : !mem.block<device>
           -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %t = mem.view %blk[%off] sizes(%n) strides(%c1, %n) : ...
    ```
    """

    name = "mem.view"
    block = operand_def(BlockType)
    byte_offset = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect(), SpeculatableInBounds())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$block `[` $byte_offset `]` (`sizes` `(` $sizes^ `)`)? (`strides` `(` $strides^ `)`)? "
        "attr-dict `:` type($block) `->` type($result)"
    )

    def __init__(
        self,
        block: SSAValue,
        byte_offset: SSAValue,
        sizes: Sequence[SSAValue],
        result_type: Attribute,
        strides: Sequence[SSAValue] = (),
    ):
        super().__init__(operands=[block, byte_offset, sizes, strides], result_types=[result_type])

    def verify_(self) -> None:
        t = check_view("mem.view result", self.result.type)
        blk = self.block.type
        assert isinstance(blk, BlockType)
        if space_of(t) != blk.space:
            raise VerifyException(
                f"mem.view of a block in {blk.space.describe()} memory gives {t}; the spaces must agree"
            )
        dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)
        if len(self.sizes) != dynamic:
            raise VerifyException(
                f"mem.view result {t} has {dynamic} dynamic dimension(s) but {len(self.sizes)} sizes are given"
            )
        if self.strides and len(self.strides) != t.get_num_dims():
            raise VerifyException(
                f"mem.view gives {len(self.strides)} strides for a view of rank {t.get_num_dims()}"
            )
        self._check_static_bounds(t)

    def _check_static_bounds(self, t: MemRefType) -> None:
        """With constant offset, sizes, strides and block size, the view must fit."""
        extent = self.static_extent()
        if extent is None:
            return
        offset, end, count, block_bytes = extent
        if offset < 0 or (count and end > block_bytes):
            raise VerifyException(
                f"mem.view covers bytes [{offset}, {end}) of a block of {block_bytes} bytes"
            )

    def static_extent(self) -> tuple[int, int, int, int] | None:
        """(first byte, end byte, element count, block bytes) of a row-major view with
        a static shape, a constant offset, of a block of constant size; else None."""

        t = self.result.type
        if self.strides or not isinstance(t, MemRefType) or DYNAMIC_INDEX in t.get_shape():
            return None
        offset = const_evaluate_operand(self.byte_offset)
        alloc = self.block.owner
        block_bytes = const_evaluate_operand(alloc.bytes) if isinstance(alloc, AllocOp) else None
        if offset is None or block_bytes is None:
            return None
        count = 1
        for d in t.get_shape():
            count *= d
        return offset, offset + count * t.element_type.compile_time_size, count, block_bytes

    def statically_in_bounds(self) -> bool:
        """Whether the run-time check that the view fits its block surely passes."""
        extent = self.static_extent()
        if extent is None:
            return False
        offset, end, count, block_bytes = extent
        return (0 <= offset <= block_bytes) and (not count or end <= block_bytes)


@irdl_op_definition
class SliceOp(SlicedSyntax, IRDLOperation):
    """A view of part of a view (fixed indices and strided ranges, as soac.slice).

    ```mlir
    %row = mem.slice %m[%i, %c0:%n] : memref<...> -> memref<...>
    ```
    """

    name = "mem.slice"
    source = operand_def(MemRefType)
    spec = var_operand_def(IndexType)
    kinds = prop_def(DenseArrayBase.constr(I64))
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect(), SpeculatableInBounds())

    def verify_(self) -> None:
        src = check_view("mem.slice source", self.source.type, rank_at_least=1)
        res = check_view("mem.slice result", self.result.type)
        kinds, rank = SliceSpec.check(self, src)
        if res.get_num_dims() != rank or res.element_type != src.element_type or space_of(res) != space_of(src):
            raise VerifyException(
                f"mem.slice result has type {res}; expected a view of rank {rank} of "
                f"{src.element_type} in the source's space"
            )
        SliceSpec.check_kept(self, "result", src, kinds, res, rank)

    def statically_in_bounds(self) -> bool:
        """Whether the run-time bounds checks of every entry surely pass: constant
        entries within the source's static sizes (the runtime's View.slice checks)."""

        shape = self.source.type.get_shape() if isinstance(self.source.type, MemRefType) else ()
        for dim, (kind, operands) in enumerate(SliceSpec.entries(self.kinds.get_values(), self.spec)):
            values = [const_evaluate_operand(v) for v in operands]
            if dim >= len(shape) or shape[dim] == DYNAMIC_INDEX or None in values:
                return False
            size = shape[dim]
            if kind == SliceSpec.FIXED:
                if not 0 <= values[0] < size:
                    return False
                continue
            start, count = values[0], values[1]
            step = values[2] if kind == SliceSpec.STRIDED else 1
            if count < 0 or (count > 1 and step == 0):
                return False
            if count and not (0 <= start < size and 0 <= start + (count - 1) * step < size):
                return False
        return True


@irdl_op_definition
class TransposeOp(PermutedSyntax, IRDLOperation):
    """A view with permuted dimensions: result dimension i is source dimension perm[i].

    ```mlir
    %t = mem.transpose %m [1, 0] : memref<...> -> memref<...>
    ```
    """

    name = "mem.transpose"
    input = operand_def(MemRefType)
    permutation = prop_def(DenseArrayBase.constr(I64))
    result = result_def(MemRefType)
    traits = traits_def(Pure())

    @staticmethod
    def _check_input(what: str, t: Attribute) -> MemRefType:
        return check_view(what, t, rank_at_least=1)

    @staticmethod
    def _permuted(t: MemRefType, shape: Sequence[int]) -> MemRefType:
        return view_type(t.element_type, shape, space_of(t))


class SizeOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (SizeOfView(),)


@irdl_op_definition
class SizeOp(IRDLOperation):
    """The size of one dimension of a view.

    ```mlir
    %n = mem.size %v[0] : memref<...>
    ```
    """

    name = "mem.size"
    view = operand_def(MemRefType)
    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure(), SizeOpHasCanonicalizationPatterns())
    assembly_format = "$view `[` $dim `]` attr-dict `:` type($view)"

    def __init__(self, view: SSAValue, dim: int):
        super().__init__(operands=[view], result_types=[IndexType()], properties={"dim": IntegerAttr(dim, i64)})

    def verify_(self) -> None:
        check_dimension(self, check_view("mem.size view", self.view.type), "a view")


@irdl_op_definition
class ThresholdOp(IRDLOperation):
    """A size at which host code switches between versions of a kernel (a tiled matrix
    product or another strategy, a block or a warp per row): `default` unless the run
    was given a tuning that names it (soacc-run --tuning, `program.tuning`). Constant
    during a call; convert-mem-to-gpu names it after its kernels (`map0.tiled_from`).

    ```mlir
    %t = mem.threshold "map0.tiled_from" default 32
    ```
    """

    name = "mem.threshold"
    threshold = prop_def(StringAttr)
    default = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "$threshold `default` $default attr-dict"

    def __init__(self, threshold: str, default: int):
        super().__init__(
            result_types=[IndexType()], properties={"threshold": StringAttr(threshold), "default": IntegerAttr(default, i64)}
        )

    def verify_(self) -> None:
        if not self.threshold.data:
            raise VerifyException("mem.threshold needs a name")
        if self.default.value.data < 0:
            raise VerifyException(f"mem.threshold's default is a size, not {self.default.value.data}")


# --------------------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------------------


BORROWABLE = "borrowable"
"""A unit attribute on an argument's upload (borrow-arguments): its destination's block
is written by nothing else, so where the argument is already in device memory the
block may stand for it and the copy be skipped. Executors that cannot (the reference
executor) copy."""


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copies every element of `source` to `dest` (same shape), between any two spaces:
    host→device, device→host, device→device or host→host. `{borrowable}`: see
    BORROWABLE.

    ```mlir
    mem.copy %src, %dst : memref<...#mem.space<host>>, memref<...#mem.space<device>>
    ```
    """

    name = "mem.copy"
    source = operand_def(MemRefType)
    dest = operand_def(MemRefType)
    traits = traits_def(OperandEffects(reads=("source",), creates=("dest",)))
    assembly_format = "$source `,` $dest attr-dict `:` type($source) `,` type($dest)"

    def __init__(self, source: SSAValue, dest: SSAValue):
        super().__init__(operands=[source, dest])

    def verify_(self) -> None:
        s = check_view("mem.copy source", self.source.type)
        d = check_view("mem.copy destination", self.dest.type)
        if s.element_type != d.element_type or s.get_num_dims() != d.get_num_dims() or not all(
            a == DYNAMIC_INDEX or b == DYNAMIC_INDEX or a == b for a, b in zip(s.get_shape(), d.get_shape())
        ):
            raise VerifyException(f"mem.copy between {s} and {d}: shapes and element types must agree")


def _check_full_index(op_name: str, view: SSAValue, indices: Sequence[SSAValue]) -> MemRefType:
    t = check_view(f"{op_name} view", view.type)
    if len(indices) != t.get_num_dims():
        raise VerifyException(f"{op_name} has {len(indices)} indices for a view of rank {t.get_num_dims()}")
    return t


def _print_indexed(printer: Printer, op: LoadOp | StoreOp) -> None:
    """` %view[%i, ...] {attrs} : T`: how mem.load and mem.store end."""
    printer.print_string(" ")
    printer.print_operand(op.view)
    printer.print_string("[")
    printer.print_list(op.indices, printer.print_operand)
    printer.print_string("]")
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.view.type)


def _parse_indexed(parser: Parser, op_name: str):
    """What _print_indexed prints: (the view, its indices (both unresolved), the
    attributes, the view's type)."""
    view = parser.parse_unresolved_operand()
    idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    t = parser.parse_type()
    if not isinstance(t, MemRefType):
        parser.raise_error(f"{op_name} needs a memref type, got {t}")
    return view, idx, attrs, t


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Reads one element. At host level, a load from device memory is a synchronous
    device→host read (what `reduce-device-syncs` removes).

    ```mlir
    %x = mem.load %v[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    ```
    """

    name = "mem.load"
    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def()
    traits = traits_def(OperandEffects(reads=("view",)))

    def __init__(self, view: SSAValue, indices: Sequence[SSAValue]):
        t = view.type
        assert isinstance(t, MemRefType)
        super().__init__(operands=[view, indices], result_types=[t.element_type])

    def print(self, printer: Printer) -> None:
        _print_indexed(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        view, idx, attrs, t = _parse_indexed(parser, "mem.load")
        op = cls(parser.resolve_operand(view, t), [parser.resolve_operand(i, IndexType()) for i in idx])
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = _check_full_index("mem.load", self.view, self.indices)
        if self.result.type != t.element_type:
            raise VerifyException(f"mem.load result has type {self.result.type}; expected {t.element_type}")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Writes one element. At host level, a store into device memory is a host→device
    transfer.

    ```mlir
    mem.store %x, %v[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    ```
    """

    name = "mem.store"
    value = operand_def()
    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    traits = traits_def(OperandEffects(writes=("view",)))

    def __init__(self, value: SSAValue, view: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(operands=[value, view, indices])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(",")
        _print_indexed(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        view, idx, attrs, t = _parse_indexed(parser, "mem.store")
        op = cls(
            parser.resolve_operand(value, t.element_type),
            parser.resolve_operand(view, t),
            [parser.resolve_operand(i, IndexType()) for i in idx],
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = _check_full_index("mem.store", self.view, self.indices)
        if self.value.type != t.element_type:
            raise VerifyException(f"mem.store of a {self.value.type} into a view of {t.element_type}")


# --------------------------------------------------------------------------------------
# Kernels: combinators in destination-passing style
# --------------------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a level-2 lambda or gpu_body and gives its results."""

    name = "mem.yield"
    values = var_operand_def()
    traits = lazy_traits_def(
        lambda: (IsTerminator(), HasParent(MapOp, ReduceOp, ScanOp, HistOp, GpuBodyOp, *FUSED_KERNELS), Pure())
    )
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


_DPS_FORMAT = "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)`"


@irdl_op_definition
class MapOp(IRDLOperation):
    """Applies the lambda to every row of `ins` and writes row i of each of `outs`.
    The lambda's parameters are the input rows followed by the output rows of the
    array-valued outputs (views it may write in place); it yields one value per output:
    a scalar, or a row view that is copied into the output row (no copy when it is that
    output row). An `indexed` map's lambda takes the row number i last (an index), as a
    map over `iota n` would read it without the array (fuse-iota makes them); it may
    then have no inputs at all, and its outputs give the row count.

    ```mlir
    mem.map ins(%a, %b : memref<...>, memref<...>) outs(%c : memref<...>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      mem.yield %s : f32
    }
    mem.map ins(%a : memref<...>) outs(%c : memref<...>) indexed {
    ^bb0(%x: f32, %i: index):
      ...
    }
    ```
    """

    name = "mem.map"
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    indexed = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("inputs",), creates=("outputs",)))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = _DPS_FORMAT + " (`indexed` $indexed^)? attr-dict-with-keyword $body"

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], body: Region, indexed: bool = False):
        super().__init__(
            operands=[inputs, outputs], regions=[body], properties={"indexed": UnitAttr() if indexed else None}
        )

    @staticmethod
    def lambda_params(inputs: Sequence[Attribute], outputs: Sequence[Attribute], indexed: bool = False) -> list[Attribute]:
        rows_out = [row_view_type(t) for t in outputs if t.get_num_dims() > 1]
        return [row_view_type(t) for t in inputs] + rows_out + ([IndexType()] if indexed else [])

    @property
    def row_index(self) -> BlockArgument | None:
        """The lambda's row-number parameter (the last) of an indexed map."""
        return self.body.block.args[-1] if self.indexed is not None else None

    @property
    def rows_of(self) -> SSAValue:
        """An array whose outer size is the map's row count."""
        return (*self.inputs, *self.outputs)[0]

    def verify_(self) -> None:
        if not self.inputs and (self.indexed is None or not self.outputs):
            raise VerifyException("mem.map needs at least one input array (an indexed map: one input or output)")
        ins = [check_view(f"mem.map input {i}", v.type, rank_at_least=1) for i, v in enumerate(self.inputs)]
        outs = [check_view(f"mem.map output {i}", v.type, rank_at_least=1) for i, v in enumerate(self.outputs)]
        _check_same_outer("mem.map input/output", [*ins, *outs])
        check_lambda(
            self, self.body, MapOp.lambda_params(ins, outs, self.indexed is not None), [row_view_type(t) for t in outs], YieldOp
        )


class _OperatorOp(IRDLOperation):
    """Shared operands, traits and verification of reduce and scan: k inputs, k neutral
    elements, an operator over k-tuples, and either k outputs or (reduce only) k results."""

    inputs = var_operand_def(MemRefType)
    neutral = var_operand_def()
    outputs = var_operand_def(MemRefType)
    commutative = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("inputs", "neutral"), creates=("outputs",)))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _verify_operator(self, inputs, neutral, outputs, results, out_rank_drop: int) -> None:
        name = self.name
        if not inputs:
            raise VerifyException(f"{name} needs at least one input array")
        ins = [check_view(f"{name} input {i}", v.type, rank_at_least=1) for i, v in enumerate(inputs)]
        _check_same_outer(f"{name} input", ins)
        elems = [row_view_type(t) for t in ins]
        if len(neutral) != len(ins):
            raise VerifyException(
                f"{name} has {len(ins)} input array(s) but {len(neutral)} neutral element(s)"
            )
        for i, (n, e) in enumerate(zip(neutral, elems)):
            if not types_compatible(n.type, e):
                raise VerifyException(f"{name} neutral element {i} has type {n.type}; expected {e}")
        if outputs:
            if len(outputs) != len(ins) or results:
                raise VerifyException(f"{name} needs one output per input (and then no results)")
            for i, (o, t) in enumerate(zip(outputs, ins)):
                ot = check_view(f"{name} output {i}", o.type)
                if (
                    ot.get_num_dims() != t.get_num_dims() - out_rank_drop
                    or ot.element_type != t.element_type
                    or not all(
                        a == DYNAMIC_INDEX or b == DYNAMIC_INDEX or a == b
                        for a, b in zip(ot.get_shape(), t.get_shape()[out_rank_drop:])
                    )
                ):
                    raise VerifyException(f"{name} output {i} has type {ot}, which does not fit input {t}")
        elif [r.type for r in results] != elems or any(isinstance(e, MemRefType) for e in elems):
            raise VerifyException(
                f"{name} without outputs gives scalar results of its inputs' element types"
            )
        check_lambda(self, self.body, [*elems, *elems], elems, YieldOp)


@irdl_op_definition
class ReduceOp(_OperatorOp):
    """Reduces k arrays with an associative operator over k-tuples (as soac.reduce),
    writing each result to its 0-d (or row) output view; inside a lambda, scalar results
    may instead be SSA results (no outputs).

    ```mlir
    mem.reduce ins(%a : memref<...>) neutral(%z : f32) outs(%r : memref<f32, ...>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      mem.yield %s : f32
    }
    ```
    """

    name = "mem.reduce"
    results_ = var_result_def()
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `neutral` `(` $neutral `:` type($neutral) `)` "
        "(`commutative` $commutative^)? (`outs` `(` $outputs^ `:` type($outputs) `)`)? "
        "(`->` type($results_)^)? attr-dict-with-keyword $body"
    )

    def verify_(self) -> None:
        self._verify_operator(self.inputs, self.neutral, self.outputs, self.results_, 1)


@irdl_op_definition
class ScanOp(_OperatorOp):
    """Inclusive scan (as soac.scan) of k arrays into k output views of their shapes.

    ```mlir
    mem.scan ins(%a : memref<...>) neutral(%z : i32) outs(%p : memref<...>) { ... }
    ```
    """

    name = "mem.scan"
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `neutral` `(` $neutral `:` type($neutral) `)` "
        "(`commutative` $commutative^)? `outs` `(` $outputs `:` type($outputs) `)` attr-dict-with-keyword $body"
    )

    def verify_(self) -> None:
        if not self.outputs:
            raise VerifyException("mem.scan needs one output per input")
        self._verify_operator(self.inputs, self.neutral, self.outputs, (), 0)


def _check_index_view(what: str, t: Attribute) -> None:
    t = check_view(what, t)
    if t.get_num_dims() != 1 or t.element_type == IntegerType(1) or not isinstance(t.element_type, IndexType | IntegerType):
        raise VerifyException(f"{what} must be a rank-1 view of index, i32 or i64, found {t}")


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """Writes `values[i]` to row `indices[i]` of `dest`, in place; out-of-bounds
    indices are ignored.

    ```mlir
    mem.scatter %dest[%is] = %vs : memref<...>, memref<...>, memref<...>
    ```
    """

    name = "mem.scatter"
    dest = operand_def(MemRefType)
    indices = operand_def(MemRefType)
    values = operand_def(MemRefType)
    traits = traits_def(KernelOp(), OperandEffects(reads=("dest", "indices", "values"), writes=("dest",)))
    assembly_format = "$dest `[` $indices `]` `=` $values attr-dict `:` type($dest) `,` type($indices) `,` type($values)"

    def __init__(self, dest: SSAValue, indices: SSAValue, values: SSAValue):
        super().__init__(operands=[dest, indices, values])

    def verify_(self) -> None:
        dest = check_view("mem.scatter destination", self.dest.type, rank_at_least=1)
        _check_index_view("mem.scatter indices", self.indices.type)
        vals = check_view("mem.scatter values", self.values.type, rank_at_least=1)
        _check_same_outer("mem.scatter indices/values operand", [self.indices.type, vals])
        if not types_compatible(row_view_type(vals), row_view_type(dest)):
            raise VerifyException(f"mem.scatter values {vals} do not have the rows of {dest}")


@irdl_op_definition
class HistOp(IRDLOperation):
    """Reduce-by-index into `dest`, in place (as soac.hist).

    ```mlir
    mem.hist %bins[%is], %vs neutral(%z : i32) : memref<...>, memref<...>, memref<...> { ... }
    ```
    """

    name = "mem.hist"
    dest = operand_def(MemRefType)
    indices = operand_def(MemRefType)
    values = operand_def(MemRefType)
    neutral = operand_def()
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("dest", "indices", "values", "neutral"), writes=("dest",)))
    assembly_format = (
        "$dest `[` $indices `]` `,` $values `neutral` `(` $neutral `:` type($neutral) `)` "
        "`:` type($dest) `,` type($indices) `,` type($values) attr-dict-with-keyword $body"
    )

    def verify_(self) -> None:
        dest = check_view("mem.hist destination", self.dest.type, rank_at_least=1)
        _check_index_view("mem.hist indices", self.indices.type)
        vals = check_view("mem.hist values", self.values.type, rank_at_least=1)
        _check_same_outer("mem.hist indices/values operand", [self.indices.type, vals])
        elem = row_view_type(dest)
        if not types_compatible(row_view_type(vals), elem):
            raise VerifyException(f"mem.hist values {vals} do not have the rows of {dest}")
        if not types_compatible(self.neutral.type, elem):
            raise VerifyException(f"mem.hist neutral element has type {self.neutral.type}; expected {elem}")
        check_lambda(self, self.body, [elem, elem], [elem], YieldOp)


@irdl_op_definition
class GpuBodyOp(IRDLOperation):
    """A single-threaded device region (as soac.gpu_body): yielded value i is written
    to element 0 of output i (a one-row view).

    ```mlir
    mem.gpu_body outs(%r : memref<1xf32, ...>) {
      ...
      mem.yield %x : f32
    }
    ```
    """

    name = "mem.gpu_body"
    outputs = var_operand_def(MemRefType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(parallel=False), OperandEffects(creates=("outputs",)))
    assembly_format = "`outs` `(` $outputs `:` type($outputs) `)` attr-dict-with-keyword $body"

    def verify_(self) -> None:
        rows = []
        for i, o in enumerate(self.outputs):
            t = check_view(f"mem.gpu_body output {i}", o.type, rank_at_least=1)
            if t.get_shape()[0] not in (1, DYNAMIC_INDEX):
                raise VerifyException(f"mem.gpu_body output {i} has type {t}; outputs have one row")
            rows.append(row_view_type(t))
        check_lambda(self, self.body, [], rows, YieldOp)


# --------------------------------------------------------------------------------------
# Fused kernels: the level-2 forms of soac-fusion's combinators. Each keeps its map
# lambda inside the op, so no intermediate array exists: per row, the map lambda reads
# the input rows and yields the combinator's operands (scalars) and then the mapped
# values, which are written to the mapped outputs (a row view yielded for an array-valued
# output is copied into the output row, unless it is that row). The lambda that produces
# the mapped outputs gets, after the input rows, the output rows of the array-valued
# ones to build them in place, as mem.map's lambda does.
# --------------------------------------------------------------------------------------


_print_views = print_typed_operands


def _parse_views(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword(%v, ... : T, ...)`, or nothing (no views)."""
    if parser.parse_optional_keyword(keyword) is None:
        return []
    return parse_typed_operands(parser, f"{keyword} views")


def _fused_inputs(op: Operation, inputs: Sequence[SSAValue]) -> list[MemRefType]:
    if not inputs and getattr(op, "row_count", None) is None:
        raise VerifyException(f"{op.name} needs at least one input array (or, indexed, its row count)")
    ins = [check_view(f"{op.name} input {i}", v.type, rank_at_least=1) for i, v in enumerate(inputs)]
    _check_same_outer(f"{op.name} input", ins)
    return ins


class IndexedRows:
    """Shared by the fused kernels: the row number of a fused op made `indexed(%n)` (by
    fuse-iota), whose map lambda takes the row number last (an index) and `%n` is its
    row count, so that it may have no input arrays (as a map over `iota n` reads none);
    and the verification of their inputs, outputs and map lambda."""

    @property
    def row_index(self) -> BlockArgument | None:
        """The map lambda's row-number parameter (the last), where indexed."""
        return self.map_body.block.args[-1] if self.row_count is not None else None  # type: ignore[attr-defined]

    def row_params(self) -> list[Attribute]:
        """What the map lambda takes after its other parameters."""
        return [IndexType()] if self.row_count is not None else []  # type: ignore[attr-defined]

    def _output_views(self, outputs: Sequence[SSAValue]) -> list[MemRefType]:
        """Outputs that take a row per row: device views of rank >= 1."""
        return [check_view(f"{self.name} output {i}", o.type, rank_at_least=1) for i, o in enumerate(outputs)]  # type: ignore[attr-defined]

    def _map_yields(self, ins: Sequence[MemRefType], outs: Sequence[MemRefType]) -> list[Attribute]:
        """What the map lambda yields; it takes the input rows, the rows of the
        array-valued `outs` it builds in place, then the row number where indexed."""
        params = [*[row_view_type(t) for t in ins], *_row_params(outs), *self.row_params()]
        return lambda_yields(self, self.map_body, params, YieldOp, what="map ")  # type: ignore[attr-defined]


def _print_row_count(printer: Printer, op: Operation) -> None:
    if op.row_count is not None:  # type: ignore[attr-defined]
        printer.print_string(" indexed(")
        printer.print_operand(op.row_count)  # type: ignore[attr-defined]
        printer.print_string(")")


def _parse_row_count(parser: Parser) -> list[SSAValue]:
    """` indexed(%n)`, or nothing: the operand list of a fused op's row count."""
    if parser.parse_optional_keyword("indexed") is None:
        return []
    parser.parse_punctuation("(")
    n = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
    parser.parse_punctuation(")")
    return [n]


def _row_params(outputs: Sequence[MemRefType]) -> list[Attribute]:
    """Row views of the array-valued outputs: trailing parameters of the lambda that
    produces them."""
    return [row_view_type(t) for t in outputs if t.get_num_dims() > 1]


def _print_fused(printer: Printer, op: FusedKernel) -> None:
    """` [ins(...)] [outs(...)] [-> T, ...] [indexed(%n)] {attrs} map {lambda}`: the
    syntax of the fused kernels up to their operators."""
    if op.inputs:
        _print_views(printer, "ins", op.inputs)
    if op.outputs:
        _print_views(printer, "outs", op.outputs)
    if op.results:
        printer.print_string(" -> ")
        printer.print_list([r.type for r in op.results], printer.print_attribute)
    _print_row_count(printer, op)
    printer.print_op_attributes(op.attributes, print_keyword=True)
    printer.print_string(" map ")
    printer.print_region(op.map_body)


def _parse_fused(parser: Parser, with_results: bool = False):
    """What _print_fused prints: (inputs, outputs, result types, row count operands,
    attributes, map lambda)."""
    inputs = _parse_views(parser, "ins")
    outputs = _parse_views(parser, "outs")
    results = []
    if with_results and parser.parse_optional_punctuation("->") is not None:
        results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    row_count = _parse_row_count(parser)
    attrs = parser.parse_optional_attr_dict_with_keyword()
    parser.parse_keyword("map")
    return inputs, outputs, results, row_count, attrs, parser.parse_region()


def _with_attributes(op: Operation, attrs) -> Operation:
    if attrs is not None:
        op.attributes |= attrs.data
    return op


def _check_mapped_outputs(
    op: Operation, outputs: Sequence[SSAValue], yields: Sequence[Attribute], inputs: Sequence[MemRefType], first: int
) -> list[MemRefType]:
    """Outputs `first`, ... take one yielded value per row: arrays of the inputs' outer
    size on the device."""
    if len(outputs) != len(yields):
        raise VerifyException(f"{op.name} has {len(outputs) + first} outputs for {len(yields) + first} values per row")
    outs = []
    for i, (o, y) in enumerate(zip(outputs, yields), start=first):
        t = check_view(f"{op.name} output {i}", o.type, rank_at_least=1)
        if not types_compatible(y, row_view_type(t)):
            raise VerifyException(f"{op.name} output {i} has rows of {row_view_type(t)}, but the lambda yields {y}")
        outs.append(t)
    _check_same_outer(f"{op.name} input/output", [*inputs, *outs])
    return outs


def _check_scalar_outputs(op: Operation, outputs: Sequence[SSAValue], types: Sequence[Attribute]) -> None:
    """One 0-d device view per reduced value."""
    for i, (o, e) in enumerate(zip(outputs, types)):
        t = check_view(f"{op.name} output {i}", o.type)
        if t.get_num_dims() != 0 or t.element_type != e:
            raise VerifyException(f"{op.name} output {i} has type {t}; expected a 0-d view of {e}")


class _MapOperatorsKernel(IndexedRows, MapOperators, IRDLOperation):
    """Shared by mem.redomap and mem.scanomap: their operands, traits and syntax."""

    inputs = var_operand_def(MemRefType)
    neutral = var_operand_def()
    outputs = var_operand_def(MemRefType)
    row_count = opt_operand_def(IndexType)
    commutative = prop_def(DenseArrayBase.constr(I1))
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("inputs", "neutral"), creates=("outputs",)))

    def print(self, printer: Printer) -> None:
        _print_fused(printer, self)
        FusedSyntax._print_operators(printer, self.KEYWORD, self)
        if self.POST:
            self._print_post(printer)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        with_results = bool(cls.get_irdl_definition().results)
        inputs, outputs, results, row_count, attrs, map_body = _parse_fused(parser, with_results)
        operators, neutral, flags = FusedSyntax._parse_operators(parser, cls.KEYWORD)
        regions = [map_body, operators]
        if cls.POST:  # a scanomap's post lambda, if any
            post = cls._parse_post(parser)
            regions.append([post] if post is not None else [])
        op = cls.build(
            operands=[inputs, neutral, outputs, row_count],
            result_types=[results] if with_results else [],
            regions=regions,
            properties={"commutative": commutative_flags(flags)},
        )
        return _with_attributes(op, attrs)


@irdl_op_definition
class RedomapOp(_MapOperatorsKernel):
    """soac.redomap at level 2: per row, the map lambda yields K scalar operands and M
    mapped values; the mapped values are written to the last M outputs, and each
    operator's reduction of its operands to one 0-d output (the first K outputs). Inside
    a lambda the reduced values may instead be SSA results (then there are only the M
    mapped outputs).

    ```mlir
    mem.redomap ins(%a : memref<...>) outs(%s, %sq : memref<f32, ...>, memref<?xf32, ...>) map {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %x : f32
      mem.yield %y, %y : f32, f32
    } reduce(%zero : f32) commutative {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      mem.yield %t : f32
    }
    ```
    """

    name = "mem.redomap"
    KEYWORD: ClassVar[str] = "reduce"
    results_ = var_result_def()
    map_body = region_def("single_block")
    operators = var_region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    num_operands_reduced = MapOperators.num_operator_operands

    @property
    def mapped_outputs(self) -> Sequence[SSAValue]:
        return self.outputs if self.results_ else self.outputs[self.num_operands_reduced :]

    @property
    def reduce_outputs(self) -> Sequence[SSAValue]:
        return () if self.results_ else self.outputs[: self.num_operands_reduced]

    def verify_(self) -> None:
        ins = _fused_inputs(self, self.inputs)
        k = self.num_operands_reduced
        if not self.results_ and len(self.outputs) < k:
            raise VerifyException(f"mem.redomap has {len(self.outputs)} outputs; expected {k} for the reduced values, then the mapped outputs")
        mapped = self.mapped_outputs
        yields = self._map_yields(ins, self._output_views(mapped))
        self._check_operators(yields, YieldOp)
        if self.results_:
            if [r.type for r in self.results_] != list(yields[:k]):
                raise VerifyException("mem.redomap results must be the reduced values (the operators' operand types)")
        else:
            _check_scalar_outputs(self, self.outputs[:k], yields[:k])
        _check_mapped_outputs(self, mapped, yields[k:], ins, len(self.outputs) - len(mapped))


@irdl_op_definition
class ScanomapOp(_MapOperatorsKernel):
    """soac.scanomap at level 2: per row, the map lambda yields K scalar operands and M
    mapped values; each operator scans its operands over the rows. Without a post
    lambda, the K scanned arrays and the M mapped values are written to the outputs (in
    that order). With one, the post lambda gets per row the K scanned values and the M
    mapped values (then its array-valued output rows) and yields one value per output.

    ```mlir
    mem.scanomap ins(%a : memref<...>) outs(%p : memref<...>) map {
    ^bb0(%x: i32):
      mem.yield %x, %x : i32, i32
    } scan(%zero : i32) commutative { ... } post {
    ^bb0(%s: i32, %x: i32):
      %e = arith.subi %s, %x : i32
      mem.yield %e : i32
    }
    ```
    """

    name = "mem.scanomap"
    KEYWORD: ClassVar[str] = "scan"
    POST: ClassVar[bool] = True
    map_body = region_def("single_block")
    operators = var_region_def("single_block")
    post = opt_region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True), AttrSizedRegionSegments(as_property=True))

    num_operands_scanned = MapOperators.num_operator_operands

    def verify_(self) -> None:
        ins = _fused_inputs(self, self.inputs)
        outs = self._output_views(self.outputs)
        yields = self._map_yields(ins, outs[self.num_operands_scanned :] if self.post is None else [])
        self._check_operators(yields, YieldOp)
        if self.post is not None:
            yields = lambda_yields(self, self.post, [*yields, *_row_params(outs)], YieldOp, what="post ")
        _check_mapped_outputs(self, self.outputs, yields, ins, 0)


def _print_destination_map(printer: Printer, op: ScatteromapOp | HistomapOp) -> None:
    """` %dest : D ins(...) [outs(...)] {attrs} map {lambda}`: scatteromap's and
    histomap's syntax up to their operator."""
    printer.print_string(" ")
    printer.print_operand(op.dest)
    printer.print_string(" : ")
    printer.print_attribute(op.dest.type)
    _print_fused(printer, op)


def _parse_destination_map(parser: Parser):
    """What _print_destination_map prints: (dest, inputs, outputs, row count operands,
    attributes, map lambda)."""
    dest = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    dest = parser.resolve_operand(dest, parser.parse_type())
    inputs, outputs, _, row_count, attrs, map_body = _parse_fused(parser)
    return dest, inputs, outputs, row_count, attrs, map_body


def _check_fused_dest(op: Operation, dest: SSAValue, yields: Sequence[Attribute]) -> None:
    t = check_view(f"{op.name} destination", dest.type, rank_at_least=1)
    if len(yields) < 2 or not is_index_scalar(yields[0]) or not types_compatible(yields[1], row_view_type(t)):
        raise VerifyException(
            f"{op.name} map lambda must yield an index (index, i32 or i64), then an element "
            f"of {t}, then the mapped values"
        )


class _DestinationMapKernel(IndexedRows, IRDLOperation):
    """Shared by mem.scatteromap and mem.histomap: their verification, around the check
    of the operator that only histomap has (`_check_combiner`)."""

    def print(self, printer: Printer) -> None:
        _print_destination_map(printer, self)

    def _check_combiner(self) -> None:
        pass

    def verify_(self) -> None:
        ins = _fused_inputs(self, self.inputs)
        yields = self._map_yields(ins, self._output_views(self.outputs))
        _check_fused_dest(self, self.dest, yields)
        self._check_combiner()
        _check_mapped_outputs(self, self.outputs, yields[2:], ins, 0)


@irdl_op_definition
class ScatteromapOp(_DestinationMapKernel):
    """soac.scatteromap at level 2: per row, the map lambda yields an index j, a value v
    and M mapped values; v is written to element j of `dest`, in place (out-of-bounds
    indices are ignored), and the mapped values to the outputs.

    ```mlir
    mem.scatteromap %dest : memref<...> ins(%is, %xs : memref<...>, memref<...>) map {
    ^bb0(%i: i64, %x: f32):
      mem.yield %i, %x : i64, f32
    }
    ```
    """

    name = "mem.scatteromap"
    dest = operand_def(MemRefType)
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    row_count = opt_operand_def(IndexType)
    map_body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("dest", "inputs"), writes=("dest",), creates=("outputs",)))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> ScatteromapOp:
        dest, inputs, outputs, row_count, attrs, map_body = _parse_destination_map(parser)
        return _with_attributes(cls.build(operands=[dest, inputs, outputs, row_count], regions=[map_body]), attrs)


@irdl_op_definition
class HistomapOp(_DestinationMapKernel):
    """soac.histomap at level 2: per row, the map lambda yields an index j, a value v and
    M mapped values; v is combined into element j of `dest` by the operator, in place
    (out-of-bounds indices are ignored), and the mapped values are written to the outputs.

    ```mlir
    mem.histomap %bins : memref<256xi32, ...> ins(%xs : memref<...>) map {
    ^bb0(%x: f32):
      %b = arith.fptosi %x : f32 to i32
      mem.yield %b, %one : i32, i32
    } hist(%zero : i32) { ... }
    ```
    """

    name = "mem.histomap"
    dest = operand_def(MemRefType)
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    neutral = operand_def()
    row_count = opt_operand_def(IndexType)
    map_body = region_def("single_block")
    operator = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), OperandEffects(reads=("dest", "inputs", "neutral"), writes=("dest",), creates=("outputs",)))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def print(self, printer: Printer) -> None:
        super().print(printer)
        FusedSyntax._print_operator(printer, "hist", [self.neutral], self.operator, False)

    @classmethod
    def parse(cls, parser: Parser) -> HistomapOp:
        dest, inputs, outputs, row_count, attrs, map_body = _parse_destination_map(parser)
        regions, neutral, _ = FusedSyntax._parse_operators(parser, "hist", single=True)
        if len(neutral) != 1:
            parser.raise_error(f"mem.histomap takes one neutral element, found {len(neutral)}")
        op = cls.build(operands=[dest, inputs, outputs, neutral[0], row_count], regions=[map_body, regions[0]])
        return _with_attributes(op, attrs)

    def _check_combiner(self) -> None:
        elem = row_view_type(self.dest.type)
        if not types_compatible(self.neutral.type, elem):
            raise VerifyException(f"mem.histomap neutral element has type {self.neutral.type}; expected {elem}")
        check_lambda(self, self.operator, [elem, elem], [elem], YieldOp)


FUSED_KERNELS = (RedomapOp, ScanomapOp, ScatteromapOp, HistomapOp)
"""The level-2 forms of the combinators soac-fusion makes."""

FusedKernel = RedomapOp | ScanomapOp | ScatteromapOp | HistomapOp


# --------------------------------------------------------------------------------------
# Constructors into a destination
# --------------------------------------------------------------------------------------


@irdl_op_definition
class IotaOp(IRDLOperation):
    """Writes 0, 1, ..., n-1 into the rank-1 view (n its size).

    ```mlir
    mem.iota outs(%v : memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>)
    ```
    """

    name = "mem.iota"
    output = operand_def(MemRefType)
    traits = traits_def(KernelOp(), OperandEffects(creates=("output",)))
    assembly_format = "`outs` `(` $output `:` type($output) `)` attr-dict"

    def __init__(self, output: SSAValue):
        super().__init__(operands=[output])

    def verify_(self) -> None:
        _check_index_view("mem.iota output", self.output.type)


@irdl_op_definition
class FillOp(IRDLOperation):
    """Writes `value` (a scalar, or a view of one row) to every row of the view
    (soac.replicate).

    ```mlir
    mem.fill %x, %v : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    ```
    """

    name = "mem.fill"
    value = operand_def()
    output = operand_def(MemRefType)
    traits = traits_def(KernelOp(), OperandEffects(reads=("value",), creates=("output",)))
    assembly_format = "$value `,` $output attr-dict `:` type($value) `,` type($output)"

    def __init__(self, value: SSAValue, output: SSAValue):
        super().__init__(operands=[value, output])

    def verify_(self) -> None:
        t = check_view("mem.fill output", self.output.type, rank_at_least=1)
        if not types_compatible(row_view_type(t), self.value.type):
            raise VerifyException(f"mem.fill of a {self.value.type} into rows of {row_view_type(t)}")


@irdl_op_definition
class ArrayOp(IRDLOperation):
    """Writes the given rows (scalars, or views of one row each) to the view (a soac.array
    literal). At host level into device memory, one host→device transfer.

    ```mlir
    mem.array [%x, %y] outs(%v : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
    ```
    """

    name = "mem.array"
    elements = var_operand_def()
    output = operand_def(MemRefType)
    traits = traits_def(OperandEffects(reads=("elements",), creates=("output",)))

    def __init__(self, elements: Sequence[SSAValue], output: SSAValue):
        super().__init__(operands=[elements, output])

    def print(self, printer: Printer) -> None:
        printer.print_string(" [")
        printer.print_list(self.elements, printer.print_operand)
        printer.print_string("] outs(")
        printer.print_operand(self.output)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> ArrayOp:
        elements = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_keyword("outs")
        parser.parse_punctuation("(")
        out = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        if not isinstance(t, MemRefType) or t.get_num_dims() < 1:
            parser.raise_error(f"mem.array needs a memref output of rank >= 1, got {t}")
        row = row_view_type(t)
        op = cls([parser.resolve_operand(e, row) for e in elements], parser.resolve_operand(out, t))
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = check_view("mem.array output", self.output.type, rank_at_least=1)
        n = t.get_shape()[0]
        if n != DYNAMIC_INDEX and n != len(self.elements):
            raise VerifyException(f"mem.array writes {len(self.elements)} rows into {t}")
        for i, e in enumerate(self.elements):
            if not types_compatible(e.type, row_view_type(t)):
                raise VerifyException(f"mem.array element {i} has type {e.type}; expected {row_view_type(t)}")


class SizeOfView(RewritePattern):
    """`mem.size` of a `mem.view` is the view's size: its static size, or the size
    operand it was made with. Host code then computes a kernel's grid from values made
    once, which loop-invariant code motion can take out of a loop, instead of asking
    each iteration's view again."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SizeOp, rewriter: PatternRewriter) -> None:
        view = op.view.owner
        if not isinstance(view, ViewOp):
            return
        shape = view.result.type.get_shape()
        dim = op.dim.value.data
        if shape[dim] != DYNAMIC_INDEX:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(shape[dim], IndexType())))
            return
        dynamic = [d for d, n in enumerate(shape) if n == DYNAMIC_INDEX]
        rewriter.replace(op, [], [view.sizes[dynamic.index(dim)]])


MEM = Dialect(
    "mem",
    [
        ThresholdOp,
        AllocOp,
        ViewOp,
        SliceOp,
        TransposeOp,
        SizeOp,
        CopyOp,
        LoadOp,
        StoreOp,
        MapOp,
        ReduceOp,
        ScanOp,
        ScatterOp,
        HistOp,
        GpuBodyOp,
        IotaOp,
        FillOp,
        ArrayOp,
        YieldOp,
        RedomapOp,
        ScanomapOp,
        ScatteromapOp,
        HistomapOp,
    ],
    [MemorySpaceAttr, BlockType],
)
