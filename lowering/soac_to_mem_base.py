"""convert-soac-to-mem's common ground: how level-1 values stand at level 2 (arrays as
(block, view) pairs, or views alone inside lambdas), the scope of converted values, the
calling conventions, and the building blocks every op's conversion uses (allocations,
destinations, sizes computed where they are needed)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from soacc.dialects import mem
from soacc.dialects.shared.provenance import record_origin
from soacc.passes.analysis.ownership import can_consume
from soacc.passes.analysis.sizes import ArraySizes, Dim, Poly, Select, UnknownSize


@dataclass(frozen=True)
class Array:
    """A level-1 array at level 2: a view, and (outside lambdas) the block it lives in."""

    view: SSAValue
    block: SSAValue | None


@dataclass(frozen=True)
class DeviceScalar:
    """A kernel's scalar result that only device code uses: it stays in device memory
    (a 0-d view) and is loaded where a lambda or gpu_body uses it, never by the host."""

    view: SSAValue


class CannotBufferise(Exception):
    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def is_array(t: Attribute) -> bool:
    return isinstance(t, TensorType)


@dataclass
class Scope:
    """Translated values visible at the insertion point: one layer per region."""

    layers: list[dict[SSAValue, SSAValue | Array]] = field(default_factory=lambda: [{}])

    def __getitem__(self, value: SSAValue) -> SSAValue | Array:
        for layer in reversed(self.layers):
            if value in layer:
                return layer[value]
        raise KeyError(value)

    def __contains__(self, value: SSAValue) -> bool:
        return any(value in layer for layer in self.layers)

    def __setitem__(self, value: SSAValue, new: SSAValue | Array) -> None:
        self.layers[-1][value] = new


# Function conventions: how arrays cross a function's boundary.
ENTRY = "entry"  # host (block, view) pairs: called from outside the program
DEVICE = "device"  # device (block, view) pairs: called at host level within the program
LANE = "lane"  # views alone: called inside a lambda


class ConversionBase:
    """What the conversion of one function to level 2 (under one convention) keeps, and
    the building blocks of its ops' conversions."""

    HANDLERS: dict[type[Operation], Callable[[ConversionBase, Operation], None]] = {}
    """How each op converts (filled in by the converter that puts the parts together)."""

    def __init__(self, module_converter, old: func.FuncOp, convention: str):
        self.modules = module_converter
        self.old = old
        self.convention = convention
        self.scope = Scope()
        self.depth = 0 if convention != LANE else 1  # lambdas we are inside
        self.hints: dict[SSAValue, Array] = {}  # destinations chosen for arrays ahead of time
        self.builder: Builder

    # --- types --------------------------------------------------------------------------

    def boundary_types(self, types: Sequence[Attribute]) -> list[Attribute]:
        space = mem.HOST if self.convention == ENTRY else mem.DEVICE
        return self._level2_types(types, space, self.convention != LANE)

    def carried_types(self, types: Sequence[Attribute]) -> list[Attribute]:
        """Types of values carried through control flow at the current depth."""
        return self._level2_types(types, mem.DEVICE, self.depth == 0)

    @staticmethod
    def _level2_types(types: Sequence[Attribute], space, with_blocks: bool) -> list[Attribute]:
        """Arrays as (block, view) types in `space` (views alone without blocks)."""
        out: list[Attribute] = []
        for t in types:
            if is_array(t):
                if with_blocks:
                    out.append(mem.BlockType(space))
                out.append(mem.view_type_of(t, space))
            else:
                out.append(t)
        return out

    def flatten(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        """Level-1 values as carried level-2 values (arrays as (block, view) at host level)."""
        out: list[SSAValue] = []
        for v in values:
            new = self.scope[v]
            if isinstance(new, Array):
                if self.depth == 0:
                    if new.block is None:
                        raise CannotBufferise(v.owner if isinstance(v.owner, Operation) else v.owner.parent_op(), "an array without a block at host level")
                    out.append(new.block)
                out.append(new.view)
            else:
                out.append(new)
        return out

    def unflatten(self, old: Sequence[SSAValue], new: Sequence[SSAValue]) -> None:
        """Binds level-1 values to the carried level-2 values (the inverse of flatten)."""
        it = iter(new)
        for v in old:
            if is_array(v.type):
                block = next(it) if self.depth == 0 else None
                view = next(it)
                self._name(view, v)
                if block is not None:
                    self._name(block, v, "_mem")
                self.scope[v] = Array(view, block)
            else:
                new_value = next(it)
                self._name(new_value, v)
                self.scope[v] = new_value

    @staticmethod
    def _name(new: SSAValue, old: SSAValue, suffix: str = "") -> None:
        if old.name_hint and not new.name_hint:
            new.name_hint = old.name_hint + suffix

    # --- building blocks ---------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        self.builder.insert(op)
        if self.converting is not None:
            record_origin(op, self.converting)  # for errors found in lowered code
        return op

    def size_arithmetic(self, op_type: type[arith.AddiOp | arith.MuliOp], a: SSAValue, b: SSAValue) -> SSAValue:
        """`a + b` or `a * b` of sizes, marked `overflow<nsw>`: a size past 64 bits is an
        error where it is computed, not a wrapped byte count (runtime/array_sizes.py).
        A constant goes on the right: xDSL 0.74's canonicalisation moves it there and
        drops the flags as it does."""
        if isinstance(a.owner, arith.ConstantOp) and not isinstance(b.owner, arith.ConstantOp):
            a, b = b, a
        return self.insert(op_type(a, b, overflow=arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW]))).results[0]

    def index_constant(self, n: int) -> SSAValue:
        return self.insert(arith.ConstantOp(IntegerAttr(n, IndexType()))).results[0]

    def array(self, v: SSAValue) -> Array:
        new = self.scope[v]
        assert isinstance(new, Array), v
        return new

    # --- sizes ---------------------------------------------------------------------------

    def dimension(self, value: SSAValue, axis: int, where: Operation) -> SSAValue:
        """Dimension `axis` of a level-1 array, computed at the insertion point (from the
        array when it is converted, else from what the ops that make it state)."""
        sizes = ArraySizes()  # one table per size: its atoms in the order they are met
        return self.size_of(sizes, sizes.dim(value, axis), where)

    def size_of(self, sizes: ArraySizes, size: Poly, where: Operation) -> SSAValue:
        """Computes a stated size at the insertion point."""
        total: SSAValue | None = None
        for monomial, coefficient in size.terms or (((), 0),):
            assert coefficient > 0, "a stated size is a sum of sizes"
            term: SSAValue | None = None if monomial else self.index_constant(coefficient)
            for a in monomial:
                factor = self.atom_of(sizes, a, where)
                term = factor if term is None else self.size_arithmetic(arith.MuliOp, term, factor)
            if monomial and coefficient != 1:
                term = self.size_arithmetic(arith.MuliOp, term, self.index_constant(coefficient))
            total = term if total is None else self.size_arithmetic(arith.AddiOp, total, term)
        assert total is not None
        return total

    def atom_of(self, sizes: ArraySizes, i: int, where: Operation) -> SSAValue:
        key = sizes.key(i)
        match key:
            case Select(condition=c, if_true=a, if_false=b):
                if self.computable_value(c) and self.computable(sizes, a) and self.computable(sizes, b):
                    cond = self.value_of(c, where)
                    x, y = self.size_of(sizes, a, where), self.size_of(sizes, b, where)
                    return self.insert(arith.SelectOp(cond, x, y)).result
                # either will do: a regular program makes them equal
                for option in (a, b):
                    if self.computable(sizes, option):
                        return self.size_of(sizes, option, where)
                raise CannotBufferise(where, "no branch's size of an array it makes can be computed before it")
            case Dim(array=a, axis=axis):
                static = a.type.get_shape()[axis]
                if static != DYNAMIC_INDEX:
                    return self.index_constant(static)
                if a in self.scope:
                    return self.insert(mem.SizeOp(self.array(a).view, axis)).result
                try:
                    return self.size_of(sizes, sizes.derive_dim(a, axis), where)
                except UnknownSize as error:
                    raise CannotBufferise(where, str(error)) from None
        assert isinstance(key, SSAValue)
        return self.value_of(key, where)

    def value_of(self, v: SSAValue, where: Operation) -> SSAValue:
        """A level-1 index value at the insertion point: converted, or computed again."""
        if v in self.scope:
            new = self.scope[v]
            assert isinstance(new, SSAValue)
            return new
        owner = v.owner
        if isinstance(owner, Operation) and not owner.regions and owner.dialect_name() == "arith":
            # a size computed by scalar arithmetic: compute it here too
            operands = [self.value_of(o, where) for o in owner.operands]
            return self.insert(owner.clone(value_mapper=dict(zip(owner.operands, operands)))).results[0]
        raise CannotBufferise(where, "the size of an array it makes depends on values computed per row")

    def computable(self, sizes: ArraySizes, size: Poly, depth: int = 0) -> bool:
        """Whether size_of(size) can succeed here (without building anything)."""
        if depth > 64:
            return False
        for i in size.atoms():
            match sizes.key(i):
                case Select(if_true=a, if_false=b):
                    ok = self.computable(sizes, a, depth + 1) or self.computable(sizes, b, depth + 1)
                case Dim(array=a, axis=axis):
                    ok = a.type.get_shape()[axis] != DYNAMIC_INDEX or a in self.scope
                    if not ok:
                        try:
                            ok = self.computable(sizes, sizes.derive_dim(a, axis), depth + 1)
                        except UnknownSize:
                            ok = False
                case key:
                    ok = self.computable_value(key, depth + 1)
            if not ok:
                return False
        return True

    def computable_value(self, v: SSAValue, depth: int = 0) -> bool:
        if depth > 64:
            return False
        if v in self.scope:
            return True
        owner = v.owner
        return (
            isinstance(owner, Operation)
            and not owner.regions
            and owner.dialect_name() == "arith"
            and all(self.computable_value(o, depth + 1) for o in owner.operands)
        )

    def shape_of(self, value: SSAValue, where: Operation) -> list[SSAValue]:
        t = value.type
        assert isinstance(t, TensorType)
        return [self.dimension(value, axis, where) for axis in range(t.get_num_dims())]

    def byte_count(self, t: TensorType, dims: Sequence[SSAValue]) -> SSAValue:
        """The bytes of an array of type `t` and the given dimensions."""
        total: SSAValue | None = None
        for d in dims:
            total = d if total is None else self.size_arithmetic(arith.MuliOp, total, d)
        elem_bytes = self.index_constant(t.element_type.compile_time_size)
        return elem_bytes if total is None else self.size_arithmetic(arith.MuliOp, total, elem_bytes)

    def allocate(self, t: TensorType, dims: Sequence[SSAValue], name: str | None) -> Array:
        """A fresh device block holding an array of type `t` and the given dimensions."""
        block = self.insert(mem.AllocOp(self.byte_count(t, dims), mem.DEVICE)).block
        zero = self.index_constant(0)
        dynamic = [d for d, s in zip(dims, t.get_shape()) if s == DYNAMIC_INDEX]
        view = self.insert(mem.ViewOp(block, zero, dynamic, mem.view_type_of(t, mem.DEVICE))).result
        if name:
            view.name_hint = name
            block.name_hint = name + "_mem"
        return Array(view, block)

    def destination(self, result: SSAValue, where: Operation) -> Array:
        """Where a new array is built: a destination chosen ahead (an output row), or a
        fresh allocation."""
        hint = self.hints.pop(result, None)
        if hint is not None:
            return hint
        assert isinstance(result.type, TensorType)
        return self.allocate(result.type, self.shape_of(result, where), result.name_hint)

    def writable_copy(self, source: SSAValue, result: SSAValue, op: Operation) -> Array:
        """The array an in-place op writes: its source when that may be consumed, else a
        copy of it."""
        if can_consume(source, op, self.convention == ENTRY) and result not in self.hints:
            return self.array(source)
        target = self.destination(result, op)
        self.insert(mem.CopyOp(self.array(source).view, target.view))
        return target

    # --- functions ---------------------------------------------------------------------


    # --- ops ---------------------------------------------------------------------------

    def convert_ops(self, block: Block) -> None:
        for op in block.ops:
            try:
                self.convert_op(op)
            except CannotBufferise:
                raise
            except KeyError as error:
                raise CannotBufferise(op, f"uses a value the conversion has not seen ({error})") from None


    converting: Operation | None = None
    """The op being converted: what the ops inserted now are made from."""

    def convert_op(self, op: Operation) -> None:
        outer, self.converting = self.converting, op
        try:
            self._convert_op(op)
        finally:
            self.converting = outer

    def _convert_op(self, op: Operation) -> None:
        handler = self.HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
            return
        if op.dialect_name() in ("arith", "math") and not op.regions:
            if any(is_array(r.type) for r in op.results):
                raise CannotBufferise(op, f"{op.name} on arrays cannot be bufferised")
            self.insert_clone(op)
            return
        raise CannotBufferise(op, f"{op.name} cannot be bufferised (no rule for it)")


    def insert_clone(self, op: Operation) -> None:
        new = op.clone(value_mapper={v: self.scope[v] for v in op.operands})
        self.insert(new)
        for old_r, new_r in zip(op.results, new.results):
            self.scope[old_r] = new_r


    def convert_ops_until_yield(self, block: Block) -> None:
        for op in block.ops:
            if op is block.last_op:
                return
            self.convert_op(op)

    def _view_or_scalar(self, v: SSAValue) -> SSAValue:
        new = self.scope[v]
        return new.view if isinstance(new, Array) else new

