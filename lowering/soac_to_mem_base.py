"""convert-soac-to-mem's common ground: how level-1 values stand at level 2 (arrays as
(block, view) pairs, or views alone inside lambdas), the scope of converted values, the
calling conventions, and the building blocks every op's conversion uses (allocations,
destinations, sizes computed where they are needed)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem, soac
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


class RowDependent(CannotBufferise):
    """A size needed before the combinator `op` runs depends on values computed per row
    (of `combinator`, when it is a row parameter of that combinator's map lambda)."""

    def __init__(self, op: Operation, combinator: Operation | None = None):
        super().__init__(op, "the size of an array it makes depends on values computed per row")
        self.combinator = combinator


def _is_row_parameter(arg: BlockArgument) -> bool:
    """Whether `arg` is a row of an input of a map lambda (a map's, or a fused op's)."""
    op = arg.block.parent_op()
    if isinstance(op, soac.MapOp):
        return arg.index < len(op.inputs)
    if isinstance(op, soac.RedomapOp | soac.ScatteromapOp | soac.HistomapOp | soac.ScanomapOp):
        return arg.block is op.map_body.block and arg.index < len(op.inputs)
    return False


NO_ROW = object()
"""What a lambda's parameters stand for while a row size is computed for no rows."""


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
        self.scalar_hints: dict[SSAValue, SSAValue] = {}  # 0-d device views chosen for reduced values
        self.without_rows = False  # sizing a combinator's rows when it has none
        self.from_first_row = False  # sizing a combinator's rows from its first row
        self.sized_by_first_row: set[SSAValue] = set()  # results whose rows may disagree
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
        array when it is converted, else from what the ops that make it state). A row
        size that depends on the rows of the combinator `where` (an `if` whose condition
        is computed per row) is computed from its first row."""
        try:
            return self._attempt(lambda: self._stated_dimension(value, axis, where))
        except RowDependent:
            if not self._sizes_rows_of(value, where):
                raise
        if not self._same_in_every_row(value, axis, where):
            self.sized_by_first_row.add(value)
        return self._dimension_from_first_row(value, axis, where)

    def _same_in_every_row(self, value: SSAValue, axis: int, where: Operation) -> bool:
        """Whether a row size is computed from nothing of the row (only from elements of
        captured arrays, which level 1 reads once per row): every row has it, so rows
        may be built in place. Nothing is left built."""
        outer = self.from_first_row
        self.from_first_row = True
        try:
            block, _ = self._build_block(lambda: self._stated_dimension(value, axis, where))
        except CannotBufferise:
            return False
        finally:
            self.from_first_row = outer
        for op in reversed(list(block.ops)):
            op.detach()
            op.erase(safe_erase=False)
        return True

    def _stated_dimension(self, value: SSAValue, axis: int, where: Operation) -> SSAValue:
        sizes = ArraySizes()  # one table per size: its atoms in the order they are met
        return self.size_of(sizes, sizes.dim(value, axis), where)

    def _attempt(self, build: Callable[[], SSAValue]) -> SSAValue:
        """`build()` at the insertion point, or nothing built when it fails (a size that
        cannot be computed here leaves no half-computed ops behind)."""
        block, result = self._build_block(build)
        for op in list(block.ops):
            op.detach()
            self.insert(op)
        return result

    def _build_block(self, build: Callable[[], SSAValue]) -> tuple[Block, SSAValue]:
        """A new block holding what `build()` builds, and its result; when it fails,
        what it built is erased (no use of it is left on the values it used)."""
        outer = self.builder
        block = Block()
        self.builder = Builder(InsertPoint.at_end(block))
        try:
            return block, build()
        except CannotBufferise:
            for op in reversed(list(block.ops)):
                op.detach()
                op.erase(safe_erase=False)
            raise
        finally:
            self.builder = outer

    def _size_block(self, build: Callable[[], SSAValue]) -> Region:
        """A region computing a size and yielding it (a branch of an `scf.if`)."""
        block, size = self._build_block(build)
        block.add_op(scf.YieldOp(size))
        return Region(block)

    @staticmethod
    def _sizes_rows_of(value: SSAValue, where: Operation) -> bool:
        """Whether `value` is an array-valued result of the combinator `where` whose rows
        its map lambda makes (row by row, from rows of its inputs)."""
        if not (isinstance(value, OpResult) and value.op is where):
            return False
        if isinstance(where, soac.ScanomapOp):
            return where.post is None  # a post lambda's rows are not its inputs'
        return isinstance(where, soac.MapOp | soac.RedomapOp | soac.ScatteromapOp | soac.HistomapOp)

    def _dimension_from_first_row(self, value: SSAValue, axis: int, where: Operation) -> SSAValue:
        """A row size that depends on the row: the first row's (a regular map's rows all
        have it; a row that does not is found when it is copied into its output row,
        which is why such rows are not built in place). With no rows it is what level 1
        gives: a per-row condition takes its false branch, a per-row size is 0."""
        return self._over_first_row(where, lambda: self._stated_dimension(value, axis, where))

    def _over_first_row(self, combinator: Operation, size: Callable[[], SSAValue]) -> SSAValue:
        """`size()` with the parameters of `combinator`'s map lambda standing for its
        first row (read inside the branch that has one), or for no row; a lambda nested
        in it whose rows the size also depends on is sized so in turn."""
        lambda_block = (combinator.body if isinstance(combinator, soac.MapOp) else combinator.map_body).block
        inputs = list(combinator.inputs)
        count = self.dimension(inputs[0], 0, combinator)
        nonempty = self.insert(arith.CmpiOp(count, self.index_constant(0), "ne")).result

        def bound(first_row: bool) -> SSAValue:
            for param, array in zip(lambda_block.args, inputs):
                self.scope[param] = self._first_row(array) if first_row else NO_ROW
            try:
                return self._attempt(size)
            except RowDependent as error:
                nested = error.combinator
                if not first_row or nested is None or nested is combinator or not all(self._available(i) for i in nested.inputs):
                    raise
                return self._over_first_row(nested, size)

        branches: list[Region] = []
        for first_row in (True, False):
            self.scope.layers.append({})
            outer_modes = self.without_rows, self.from_first_row
            self.without_rows, self.from_first_row = not first_row, first_row
            try:
                branches.append(self._size_block(lambda: bound(first_row)))
            finally:
                self.without_rows, self.from_first_row = outer_modes
                self.scope.layers.pop()
        return self.insert(scf.IfOp(nonempty, [IndexType()], branches[0], branches[1])).results[0]

    def _first_row(self, array: SSAValue) -> SSAValue | Array:
        """Row 0 of a converted array: a scalar read (synchronous at host level) or a view."""
        source = self.array(array)
        zero = self.index_constant(0)
        t = array.type
        assert isinstance(t, TensorType)
        if t.get_num_dims() == 1:
            return self.insert(mem.LoadOp(source.view, [zero])).result
        row_type = mem.view_type_of(TensorType(t.element_type, t.get_shape()[1:]), mem.space_of(source.view.type))
        view = self.insert(mem.SliceOp(source.view, [soac.SliceSpec.FIXED], [zero], row_type)).result
        return Array(view, source.block)

    def size_of(self, sizes: ArraySizes, size: Poly, where: Operation) -> SSAValue:
        """Computes a stated size at the insertion point."""
        total: SSAValue | None = None
        for monomial, coefficient in size.terms:
            term: SSAValue | None = None if monomial else self.index_constant(abs(coefficient))
            for a in monomial:
                factor = self.atom_of(sizes, a, where)
                term = factor if term is None else self.size_arithmetic(arith.MuliOp, term, factor)
            if monomial and abs(coefficient) != 1:
                term = self.size_arithmetic(arith.MuliOp, term, self.index_constant(abs(coefficient)))
            assert term is not None
            if total is None:
                total = term if coefficient > 0 else self.insert(arith.SubiOp(self.index_constant(0), term)).result
            elif coefficient > 0:
                total = self.size_arithmetic(arith.AddiOp, total, term)
            else:
                total = self.insert(arith.SubiOp(total, term)).result
        return total if total is not None else self.index_constant(0)

    def atom_of(self, sizes: ArraySizes, i: int, where: Operation) -> SSAValue:
        key = sizes.key(i)
        match key:
            case Select(condition=c, if_true=a, if_false=b):
                try:
                    cond = self._attempt(lambda: self.value_of(c, where))
                except RowDependent:
                    if self.without_rows:
                        return self.size_of(sizes, b, where)  # no row takes the true branch
                    raise
                return self._size_if(cond, sizes, a, b, where)
            case Dim(array=a, axis=axis):
                static = a.type.get_shape()[axis]
                if static != DYNAMIC_INDEX:
                    return self.index_constant(static)
                if a in self.scope and self.scope[a] is not NO_ROW:
                    return self.insert(mem.SizeOp(self.array(a).view, axis)).result
                try:
                    return self.size_of(sizes, sizes.derive_dim(a, axis), where)
                except UnknownSize as error:
                    raise CannotBufferise(where, str(error)) from None
        assert isinstance(key, SSAValue)
        try:
            return self._attempt(lambda: self.value_of(key, where))
        except RowDependent:
            if self.without_rows:
                return self.index_constant(0)  # as level 1 sizes an array of no rows
            raise

    def _size_if(self, cond: SSAValue, sizes: ArraySizes, a: Poly, b: Poly, where: Operation) -> SSAValue:
        """`a` if `cond` else `b`, each computed only where it is the size (a branch's
        size may read memory that only that branch makes sense of)."""
        then, otherwise = (self._size_block(lambda size=size: self.size_of(sizes, size, where)) for size in (a, b))
        return self.insert(scf.IfOp(cond, [IndexType()], then, otherwise)).results[0]

    def value_of(self, v: SSAValue, where: Operation) -> SSAValue:
        """A level-1 index (or condition) value at the insertion point: converted, or
        computed again from what it is computed from: scalar arithmetic, sizes, and
        reads of arrays available here. A value computed per row raises RowDependent."""
        if v in self.scope:
            new = self.scope[v]
            if new is NO_ROW:
                raise RowDependent(where)
            if isinstance(new, DeviceScalar):
                return self.insert(mem.LoadOp(new.view, [])).result
            assert isinstance(new, SSAValue)
            return new
        owner = v.owner
        if isinstance(owner, Operation) and not owner.regions and owner.dialect_name() == "arith":
            # a size computed by scalar arithmetic: compute it here too
            operands = [self.value_of(o, where) for o in owner.operands]
            clone = owner.clone(value_mapper=dict(zip(owner.operands, operands)))
            if self.from_first_row or self.without_rows:
                for r in clone.results:
                    r.name_hint = None  # a row's value: the name stays with the lambda's
            return self.insert(clone).results[0]
        if isinstance(owner, soac.SizeOp):
            # a size of an array: from the array where it is available, else as stated
            sizes = ArraySizes()
            return self.size_of(sizes, sizes.dim(owner.array, owner.dim.value.data), where)
        if isinstance(v, BlockArgument) and _is_row_parameter(v):
            raise RowDependent(where, v.block.parent_op())
        if isinstance(owner, soac.IndexOp) and not is_array(v.type) and self._available(owner.array):
            if not self.from_first_row:
                # level 1 reads an element in the lambda once per row, so a map of no
                # rows reads none (its size is then 0): read it for the first row
                raise RowDependent(where)
            # an element of an array available here (at host level a synchronous read)
            indices = [self.value_of(i, where) for i in owner.indices]
            return self.insert(mem.LoadOp(self.array(owner.array).view, indices)).result
        raise RowDependent(where)

    def _available(self, array: SSAValue) -> bool:
        return array in self.scope and isinstance(self.scope[array], Array)

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

