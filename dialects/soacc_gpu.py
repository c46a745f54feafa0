"""
The `soacc_gpu` dialect: what kernels need that xDSL's `gpu` dialect lacks.

Kernels at level 3 are `gpu.func`s whose bodies are `arith`/`math`/`scf`/`memref` and
`gpu` ids and barriers. Cooperation within a block and between blocks needs a little
more, and only that is here (named `soacc_gpu` so it cannot clash with xDSL's `gpu`):

- `soacc_gpu.shuffle`: a warp shuffle (CUDA's `__shfl_*_sync` over the full warp);
- `soacc_gpu.shared`: a statically sized array in the block's shared memory;
- `soacc_gpu.atomic_rmw` / `soacc_gpu.atomic_cas`: atomic read-modify-write and
  compare-and-swap on global or shared memory, returning the old value;
- `soacc_gpu.load_volatile` / `soacc_gpu.store_volatile`: loads and stores that go to
  memory (not a register or a non-coherent cache), for flags other blocks publish;
- `soacc_gpu.view`: a typed array at a byte offset of a kernel's scratch buffer (the
  arrays a thread allocates, expanded into one allocation before the launch);
- `soacc_gpu.row`: a row of a view as a view value (xDSL's memref.subview would do,
  but its rank-reducing dynamic form is clumsy to build and to check);
- `soacc_gpu.stride`: a view's stride along one dimension (kernels that load tiles pick
  the order of their loads by it);
- `soacc_gpu.fence`: orders this thread's writes before its later ones for the whole
  device (`__threadfence`);
- `soacc_gpu.vector_load` / `soacc_gpu.vector_store` / `soacc_gpu.vectorizable`: 2 or 4
  consecutive elements in one load or store instruction (CUDA's float4, int4, double2, ...), and the test that a view allows
  it (contiguous, its first element aligned to the vector's size): kernels that read a
  view sequentially take 16-byte loads (and stores) where it does.

```mlir
%up = soacc_gpu.shuffle up %x, %c1 : f32
%s = soacc_gpu.shared : memref<8xf32>
%old = soacc_gpu.atomic_rmw addi %one, %h[%bin] : i32, memref<?xi32, strided<[?], offset: ?>>
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

SHUFFLE_MODES = ("down", "up", "xor", "idx")

ATOMIC_KINDS = ("addi", "addf", "maxs", "mins", "maxu", "minu", "andi", "ori", "xori", "exch")
"""Kinds of atomic_rmw: the ones CUDA has atomics for (on some types; the cuda target
says which combinations it can write)."""

_T = VarConstraint("T", AnyAttr())


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


def _check_indexed(name: str, ref: SSAValue, indices: Sequence[SSAValue], value_type: Attribute | None = None) -> MemRefType:
    t = ref.type
    assert isinstance(t, MemRefType)
    if len(indices) != t.get_num_dims():
        raise VerifyException(f"{name} needs {t.get_num_dims()} indices for a memref of rank {t.get_num_dims()}, got {len(indices)}")
    if value_type is not None and value_type != t.element_type:
        raise VerifyException(f"{name} of a {value_type} on a memref of {t.element_type}")
    return t


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """Exchanges a value within the warp; every lane of the warp must execute it.
    `down k`: lane i gets lane i+k's value (its own where i+k is past the warp);
    `up k`: lane i gets lane i-k's (its own where i < k); `xor k`: lane i^k's;
    `idx k`: lane k's."""

    name = "soacc_gpu.shuffle"
    mode = prop_def(StringAttr)
    value = operand_def(_T)
    offset = operand_def(i32)
    result = result_def(_T)
    traits = traits_def(Pure())
    assembly_format = "$mode $value `,` $offset attr-dict `:` type($value)"

    def __init__(self, mode: str, value: SSAValue, offset: SSAValue):
        super().__init__(operands=[value, offset], result_types=[value.type], properties={"mode": StringAttr(mode)})

    def verify_(self) -> None:
        if self.mode.data not in SHUFFLE_MODES:
            raise VerifyException(f"soacc_gpu.shuffle mode is one of {', '.join(SHUFFLE_MODES)}, not '{self.mode.data}'")
        if not _is_scalar(self.value.type):
            raise VerifyException(f"soacc_gpu.shuffle exchanges scalars, not {self.value.type}")
        if self.result.type != self.value.type:
            raise VerifyException("soacc_gpu.shuffle result type must be its value's type")


@irdl_op_definition
class SharedOp(IRDLOperation):
    """An array in the block's shared memory, static in shape, uninitialised; every
    thread of the block sees the same one."""

    name = "soacc_gpu.shared"
    result = result_def(MemRefType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, t: MemRefType):
        super().__init__(result_types=[t])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, MemRefType)
        if not t.has_static_shape():
            raise VerifyException(f"soacc_gpu.shared arrays have a static shape, not {t}")
        if not _is_scalar(t.element_type):
            raise VerifyException(f"soacc_gpu.shared arrays hold scalars, not {t.element_type}")


class _AtomicOp(IRDLOperation):
    """Shared by atomic_rmw and atomic_cas: an atomic update of `ref[indices]` by the
    values (of type _T) that come first; the result is the old value."""

    ref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(_T)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class AtomicRMWOp(_AtomicOp):
    """`ref[indices] = ref[indices] <kind> value`, atomically; the result is the old value."""

    name = "soacc_gpu.atomic_rmw"
    kind = prop_def(StringAttr)
    value = operand_def(_T)
    assembly_format = "$kind $value `,` $ref `[` $indices `]` attr-dict `:` type($value) `,` type($ref)"

    def __init__(self, kind: str, value: SSAValue, ref: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(operands=[value, ref, indices], result_types=[value.type], properties={"kind": StringAttr(kind)})

    def verify_(self) -> None:
        if self.kind.data not in ATOMIC_KINDS:
            raise VerifyException(f"soacc_gpu.atomic_rmw kind is one of {', '.join(ATOMIC_KINDS)}, not '{self.kind.data}'")
        _check_indexed(self.name, self.ref, self.indices, self.value.type)


@irdl_op_definition
class AtomicCasOp(_AtomicOp):
    """If `ref[indices]` has the bits of `expected`, it becomes `desired`, atomically;
    the result is the old value (compare its bits with `expected` to know)."""

    name = "soacc_gpu.atomic_cas"
    expected = operand_def(_T)
    desired = operand_def(_T)
    assembly_format = "$expected `,` $desired `,` $ref `[` $indices `]` attr-dict `:` type($expected) `,` type($ref)"

    def __init__(self, expected: SSAValue, desired: SSAValue, ref: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(operands=[expected, desired, ref, indices], result_types=[expected.type])

    def verify_(self) -> None:
        _check_indexed(self.name, self.ref, self.indices, self.expected.type)
        if self.desired.type != self.expected.type:
            raise VerifyException("soacc_gpu.atomic_cas expected and desired values have one type")


@irdl_op_definition
class LoadVolatileOp(IRDLOperation):
    """A load that always reads memory (another block may have written it)."""

    name = "soacc_gpu.load_volatile"
    ref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def()
    traits = traits_def(MemoryReadEffect())
    assembly_format = "$ref `[` $indices `]` attr-dict `:` type($ref) `->` type($result)"

    def __init__(self, ref: SSAValue, indices: Sequence[SSAValue]):
        t = ref.type
        assert isinstance(t, MemRefType)
        super().__init__(operands=[ref, indices], result_types=[t.element_type])

    def verify_(self) -> None:
        _check_indexed(self.name, self.ref, self.indices, self.result.type)


@irdl_op_definition
class StoreVolatileOp(IRDLOperation):
    """A store that goes to memory at once (other blocks wait for it)."""

    name = "soacc_gpu.store_volatile"
    value = operand_def()
    ref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$value `,` $ref `[` $indices `]` attr-dict `:` type($value) `,` type($ref)"

    def __init__(self, value: SSAValue, ref: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(operands=[value, ref, indices])

    def verify_(self) -> None:
        _check_indexed(self.name, self.ref, self.indices, self.value.type)


@irdl_op_definition
class ViewOp(IRDLOperation):
    """A typed array at a byte offset of a buffer (memory a kernel was given for its
    threads' own arrays): all sizes and strides (in elements) given."""

    name = "soacc_gpu.view"
    buffer = operand_def(MemRefType)
    byte_offset = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$buffer `[` $byte_offset `]` `sizes` `(` $sizes `)` `strides` `(` $strides `)` "
        "attr-dict `:` type($buffer) `->` type($result)"
    )

    def __init__(self, buffer: SSAValue, byte_offset: SSAValue, sizes: Sequence[SSAValue], strides: Sequence[SSAValue], t: MemRefType):
        super().__init__(operands=[buffer, byte_offset, sizes, strides], result_types=[t])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, MemRefType)
        rank = t.get_num_dims()
        if len(self.sizes) != rank or len(self.strides) != rank:
            raise VerifyException(f"soacc_gpu.view of rank {rank} needs {rank} sizes and {rank} strides")


@irdl_op_definition
class RowOp(IRDLOperation):
    """The part of a view with its leading indices fixed (`view[i, j, ...]`), as a view
    of the remaining dimensions: a row of an array as a value of its own (for example
    to choose one of two rows by an `scf.if`)."""

    name = "soacc_gpu.row"
    source = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    assembly_format = "$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, indices: Sequence[SSAValue], t: MemRefType):
        super().__init__(operands=[source, indices], result_types=[t])

    def verify_(self) -> None:
        s, r = self.source.type, self.result.type
        assert isinstance(s, MemRefType) and isinstance(r, MemRefType)
        if s.get_num_dims() - len(self.indices) != r.get_num_dims() or s.element_type != r.element_type:
            raise VerifyException(f"soacc_gpu.row of {s} with {len(self.indices)} indices cannot be a {r}")


@irdl_op_definition
class SliceOp(IRDLOperation):
    """A part of a view as a view, as mem.slice (kinds: 0 a fixed index, 1 a range
    offset:count, 2 a strided range offset:count:stride; dimensions past them whole)."""

    name = "soacc_gpu.slice"
    source = operand_def(MemRefType)
    spec = var_operand_def(IndexType)
    kinds = prop_def(DenseArrayBase.constr(I64))
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    assembly_format = "$source `[` $spec `]` `kinds` $kinds attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, kinds: Sequence[int], spec: Sequence[SSAValue], t: MemRefType):
        super().__init__(operands=[source, spec], result_types=[t], properties={"kinds": DenseArrayBase.from_list(i64, kinds)})

    def verify_(self) -> None:
        kinds = self.kinds.get_values()
        if any(k not in (0, 1, 2) for k in kinds) or len(self.spec) != sum(k + 1 for k in kinds):
            raise VerifyException("soacc_gpu.slice kinds are 0, 1 or 2, with 1, 2 or 3 operands each")
        s, r = self.source.type, self.result.type
        assert isinstance(s, MemRefType) and isinstance(r, MemRefType)
        if s.get_num_dims() - kinds.count(0) != r.get_num_dims() or len(kinds) > s.get_num_dims():
            raise VerifyException(f"soacc_gpu.slice of {s} with kinds {list(kinds)} cannot be a {r}")


@irdl_op_definition
class FenceOp(IRDLOperation):
    """The thread's writes before it are seen by every thread of the device before its
    writes after it (`__threadfence()`)."""

    name = "soacc_gpu.fence"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class SyncWarpOp(IRDLOperation):
    """The warp's threads wait for each other, and each sees the others' writes before
    it (`__syncwarp()`): a warp's barrier."""

    name = "soacc_gpu.sync_warp"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class StrideOp(IRDLOperation):
    """The distance, in elements, between neighbours along one dimension of a view (its
    layout is only known at run time: a kernel that reads tiles of a matrix picks the
    order of its loads by it, so that neighbouring threads read neighbouring addresses
    whether the matrix is stored by rows or, transposed, by columns)."""

    name = "soacc_gpu.stride"
    ref = operand_def(MemRefType)
    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "$ref `[` $dim `]` attr-dict `:` type($ref)"

    def __init__(self, ref: SSAValue, dim: int):
        super().__init__(operands=[ref], result_types=[IndexType()], properties={"dim": IntegerAttr(dim, i64)})

    def verify_(self) -> None:
        t = self.ref.type
        assert isinstance(t, MemRefType)
        if not 0 <= self.dim.value.data < t.get_num_dims():
            raise VerifyException(f"soacc_gpu.stride of dimension {self.dim.value.data} of a rank-{t.get_num_dims()} view")


VECTOR_BYTES = 16
"""The bytes of one vector load: CUDA's widest (float4, int4, double2, longlong2)."""


def vector_width(element: Attribute) -> int | None:
    """Elements per vector load of `element` (None: no vector type for it)."""
    if isinstance(element, IndexType):
        return 2
    if isinstance(element, IntegerType) and element.width.data in (32, 64):
        return VECTOR_BYTES * 8 // element.width.data
    if isinstance(element, AnyFloat) and element.bitwidth in (32, 64):
        return VECTOR_BYTES * 8 // element.bitwidth
    return None


def _check_vector(name: str, ref: SSAValue, types: Sequence[Attribute], verb: str) -> None:
    """A vector access: a rank-1 view of elements with a vector type, as many values of
    the element type as one vector holds."""
    t = ref.type
    assert isinstance(t, MemRefType)
    width = vector_width(t.element_type)
    if t.get_num_dims() != 1 or width is None:
        raise VerifyException(f"{name} takes a rank-1 view of 32- or 64-bit elements, not {t}")
    if len(types) != width or any(x != t.element_type for x in types):
        raise VerifyException(f"{name} of {t.element_type} {verb} {width} values of that type")


@irdl_op_definition
class VectorizableOp(IRDLOperation):
    """Whether elements i, i+1, ... of a rank-1 view may be read by vector_load for
    every i that is a multiple of the vector width: its stride is 1 and its first
    element's address is a multiple of the vector's size."""

    name = "soacc_gpu.vectorizable"
    ref = operand_def(MemRefType)
    result = result_def(IntegerType(1))
    traits = traits_def(Pure())
    assembly_format = "$ref attr-dict `:` type($ref)"

    def __init__(self, ref: SSAValue):
        super().__init__(operands=[ref], result_types=[IntegerType(1)])

    def verify_(self) -> None:
        t = self.ref.type
        assert isinstance(t, MemRefType)
        if t.get_num_dims() != 1 or vector_width(t.element_type) is None:
            raise VerifyException(f"soacc_gpu.vectorizable takes a rank-1 view of 32- or 64-bit elements, not {t}")


@irdl_op_definition
class VectorLoadOp(IRDLOperation):
    """Elements i .. i+w-1 of a rank-1 view in one load (w = 16 bytes / element size),
    where soacc_gpu.vectorizable holds for the view and i is a multiple of w."""

    name = "soacc_gpu.vector_load"
    ref = operand_def(MemRefType)
    index = operand_def(IndexType)
    results_ = var_result_def()
    traits = traits_def(MemoryReadEffect())
    assembly_format = "$ref `[` $index `]` attr-dict `:` type($ref) `->` type($results_)"

    def __init__(self, ref: SSAValue, index: SSAValue):
        t = ref.type
        assert isinstance(t, MemRefType)
        width = vector_width(t.element_type) or 1
        super().__init__(operands=[ref, index], result_types=[[t.element_type] * width])

    def verify_(self) -> None:
        _check_vector(self.name, self.ref, [r.type for r in self.results_], "gives")


@irdl_op_definition
class VectorStoreOp(IRDLOperation):
    """Writes values to elements i .. i+w-1 of a rank-1 view in one store, under
    vector_load's conditions."""

    name = "soacc_gpu.vector_store"
    values = var_operand_def()
    ref = operand_def(MemRefType)
    index = operand_def(IndexType)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "`(` $values `)` `,` $ref `[` $index `]` attr-dict `:` `(` type($values) `)` `,` type($ref)"

    def __init__(self, values: Sequence[SSAValue], ref: SSAValue, index: SSAValue):
        super().__init__(operands=[values, ref, index])

    def verify_(self) -> None:
        _check_vector(self.name, self.ref, [v.type for v in self.values], "takes")


SOACC_GPU = Dialect(
    "soacc_gpu",
    [ShuffleOp, SharedOp, AtomicRMWOp, AtomicCasOp, LoadVolatileOp, StoreVolatileOp, ViewOp, RowOp, SliceOp, FenceOp, SyncWarpOp, StrideOp, VectorizableOp, VectorLoadOp, VectorStoreOp],
    [],
)
