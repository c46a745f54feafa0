"""convert-soac-to-mem: bufferisation, from level 1 (soac on tensors) to level 2 (mem).

Every array gets a memory block and a view of it:

- arrays live in device memory; an entry point's array arguments arrive in host memory
  (a (block, view) pair each) and are copied to the device where used; its array
  results are copied back into host memory;
- allocations are explicit, sized from the program's own sizes. A map whose rows are
  arrays needs its rows' size before it runs: the size is derived symbolically and
  computed outside the lambda (a diagnostic says so when it depends on the row);
- combinators write into their outputs (destination passing); an array a lambda
  returns is built directly in its output row when it is made there;
- `update`, `scatter` and `hist` write in place when their source owns its memory and
  has no other use, and into a copy otherwise;
- `slice`, `transpose` and partial `index` are views of their source, not copies;
- a host-level `soac.index`, and a reduction result used by host code, become
  `mem.load`s: synchronous device-to-host reads;
- `scf.if`, `scf.for` and `scf.while` carry arrays as (block, view) pairs: their blocks
  are existential, and no copy is made where none is needed.

Inside lambdas arrays are rows or per-row allocations and are carried as views alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from soacc.passes.utils.diagnostics import located_failure
from soacc.dialects import mem, soac
from soacc.passes.utils.memory_motion import stop_carrying
from soacc.dialects.dtypes import numpy_dtype



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


def used_only_on_device(value: SSAValue) -> bool:
    """Every use of `value` is inside a kernel lambda or a gpu_body."""

    def on_device(op: Operation) -> bool:
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            if isinstance(parent, (soac.GpuBodyOp, soac.MapOp, soac.ReduceOp, soac.ScanOp, soac.HistOp, *soac.FUSED_OPS)):
                return True
            parent = parent.parent_op()
        return False

    return all(on_device(use.operation) for use in value.uses)


class CannotBufferise(Exception):
    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


# --------------------------------------------------------------------------------------
# Symbolic sizes: how big an array is, in terms of values available elsewhere
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class Scalar:
    value: SSAValue  # a level-1 index value


@dataclass(frozen=True)
class Dim:
    array: SSAValue  # a level-1 array
    axis: int


@dataclass(frozen=True)
class Sum:
    terms: tuple


@dataclass(frozen=True)
class Alternatives:
    """Sizes that a regular program makes equal (the branches of an `if`): any one that
    can be computed will do; a row that turns out otherwise is an error when written."""

    options: tuple


@dataclass(frozen=True)
class Choice:
    """The size of an `if`'s result: one branch's or the other's, by its condition."""

    condition: SSAValue
    if_true: object
    if_false: object


SizeExpr = Const | Scalar | Dim | Sum | Alternatives | Choice


def _lambda_input(arg: BlockArgument) -> tuple[Operation, SSAValue] | None:
    """For a lambda parameter: the combinator and the array whose row it is."""
    op = arg.block.parent_op()
    if isinstance(op, soac.MapOp):
        return op, op.inputs[arg.index]
    if isinstance(op, soac.ReduceOp | soac.ScanOp):
        k = len(op.inputs)
        return op, op.inputs[arg.index % k]
    if isinstance(op, soac.HistOp):
        return op, op.dest
    if isinstance(op, soac.FUSED_OPS) and arg.block is op.map_body.block:
        return op, op.inputs[arg.index]
    return None


def derive_dim(value: SSAValue, axis: int) -> SizeExpr:
    """Dimension `axis` of a level-1 array, from how the array is made."""
    t = value.type
    assert isinstance(t, TensorType)
    static = t.get_shape()[axis]
    if static != DYNAMIC_INDEX:
        return Const(static)
    if isinstance(value, BlockArgument):
        found = _lambda_input(value)
        if found is not None:
            return Dim(found[1], axis + 1)
        owner = value.block.parent_op()
        if isinstance(owner, soac.ScanomapOp) and owner.post is not None and value.block is owner.post.block:
            # a post-lambda parameter: the map lambda's value of that row
            return Dim(owner.map_body.block.last_op.operands[value.index], axis)
        raise _unknown(value)
    op = value.owner
    assert isinstance(op, Operation)
    index = value.index if isinstance(value, OpResult) else 0

    def yielded(region: Region, position: int | None = None) -> SSAValue:
        return region.block.last_op.operands[index if position is None else position]

    match op:
        case soac.MapOp():
            return Dim(op.inputs[0], 0) if axis == 0 else Dim(yielded(op.body), axis - 1)
        case soac.ReduceOp():
            return Dim(op.inputs[index], axis + 1)
        case soac.ScanOp():
            return Dim(op.inputs[index], axis)
        case soac.ScatterOp() | soac.HistOp():
            return Dim(op.dest, axis)
        case soac.ScatteromapOp() | soac.HistomapOp():
            if index == 0:
                return Dim(op.dest, axis)
            return Dim(op.inputs[0], 0) if axis == 0 else Dim(yielded(op.map_body, index + 1), axis - 1)
        case soac.RedomapOp() | soac.ScanomapOp():
            # reduced and scanned values are scalars: only mapped arrays have rows
            if axis == 0:
                return Dim(op.inputs[0], 0)
            if isinstance(op, soac.ScanomapOp) and op.post is not None:
                return Dim(yielded(op.post), axis - 1)
            return Dim(yielded(op.map_body), axis - 1)
        case soac.UpdateOp():
            return Dim(op.source, axis)
        case soac.CopyOp():
            return Dim(op.input, axis)
        case soac.IotaOp():
            return Scalar(op.count)
        case soac.ReplicateOp():
            return Scalar(op.count) if axis == 0 else Dim(op.value, axis - 1)
        case soac.ArrayOp():
            return Const(len(op.elements)) if axis == 0 else Dim(op.elements[0], axis - 1)
        case soac.IndexOp():
            return Dim(op.array, axis + len(op.indices))
        case soac.TransposeOp():
            return Dim(op.input, op.permutation.get_values()[axis])
        case soac.ConcatOp():
            if axis == 0:
                return Sum(tuple(Dim(v, 0) for v in op.inputs))
            return Dim(op.inputs[0], axis)
        case soac.GpuBodyOp():
            return Const(1) if axis == 0 else Dim(yielded(op.body), axis - 1)
        case soac.SliceOp():
            entries = list(soac.SliceSpec.entries(op.kinds.get_values(), op.spec))
            ranges = [vals for kind, vals in entries if kind != soac.SliceSpec.FIXED]
            if axis < len(ranges):
                return Scalar(ranges[axis][1])
            return Dim(op.source, len(entries) + axis - len(ranges))
        case scf.IfOp():
            sizes = [canonical(Dim(yielded(r), axis)) for r in op.regions if r.blocks]
            if len(set(sizes)) == 1:
                return sizes[0]
            # decided by the condition when it is known before the combinator runs;
            # otherwise a regular program makes the branches agree (checked when written)
            return Choice(op.cond, sizes[0], sizes[1])
        case arith.SelectOp():
            sizes = [canonical(Dim(v, axis)) for v in op.operands[1:]]
            if len(set(sizes)) == 1:
                return sizes[0]
            return Choice(op.cond, sizes[0], sizes[1])
        case scf.ForOp():
            carried = list(op.body.block.args[1:])
            proved = _loop_keeps_sizes(op.iter_args, carried, carried, yielded_values(op.body))
            if proved is not None:
                return proved[(carried[index], axis)]
        case scf.WhileOp():
            before = list(op.before_region.block.args)
            condition = op.before_region.block.last_op
            after = list(op.after_region.block.args)
            proved = _loop_keeps_sizes(op.arguments, before, after, yielded_values(op.after_region), condition.args)
            if proved is not None:
                return proved[("forwarded", index, axis)]
    raise _unknown(value)


def yielded_values(region: Region) -> list[SSAValue]:
    return list(region.block.last_op.operands)


def _array_axes(values: Sequence[SSAValue]):
    for i, v in enumerate(values):
        if isinstance(v.type, TensorType):
            for axis in range(v.type.get_num_dims()):
                yield i, v, axis


def _loop_keeps_sizes(inits, carried, after_args, after_yields, forwarded=None):
    """Whether a loop keeps the size of every array it carries (by induction: assume the
    carried arrays have their initial sizes, and check each iteration yields those
    sizes). Returns the sizes (of the carried arrays, and of the values a while
    forwards), or None when that cannot be shown."""
    assumed = {(c, axis): canonical(Dim(inits[i], axis)) for i, c, axis in _array_axes(carried)}
    sizes: dict = dict(assumed)
    if forwarded is not None:
        # a while: the before region forwards values to the after region and the results
        for i, f, axis in _array_axes(forwarded):
            sizes[("forwarded", i, axis)] = canonical(Dim(f, axis), assumed)
        assumed_after = assumed | {(after_args[i], axis): sizes[("forwarded", i, axis)] for i, _, axis in _array_axes(forwarded)}
    else:
        assumed_after = assumed
    for i, y, axis in _array_axes(after_yields):
        if canonical(Dim(y, axis), assumed_after) != assumed.get((carried[i], axis)):
            return None
    return sizes


def canonical(expr: SizeExpr, assumed: dict | None = None, depth: int = 0) -> SizeExpr:
    """A size expression followed back through array-making ops as far as it goes, so
    that two ways of computing one size compare equal. `assumed` gives sizes taken for
    granted (a loop-carried array's size, while checking that the loop keeps it)."""
    assumed = assumed or {}
    if depth > 64:
        return expr
    match expr:
        case Sum(terms=terms):
            return Sum(tuple(canonical(t, assumed, depth + 1) for t in terms))
        case Alternatives(options=options):
            return Alternatives(tuple(canonical(o, assumed, depth + 1) for o in options))
        case Choice(condition=c, if_true=a, if_false=b):
            return Choice(c, canonical(a, assumed, depth + 1), canonical(b, assumed, depth + 1))
        case Dim(array=a, axis=axis):
            if (a, axis) in assumed:
                return assumed[(a, axis)]
            if isinstance(a, BlockArgument) and isinstance(a.block.parent_op(), func.FuncOp):
                return expr
            try:
                derived = derive_dim(a, axis)
            except CannotBufferise:
                return expr
            return canonical(derived, assumed, depth + 1)
    return expr


def _unknown(value: SSAValue) -> CannotBufferise:
    owner = value.owner if isinstance(value.owner, Operation) else value.owner.parent_op()
    return CannotBufferise(
        owner,
        "the size of this array is only known once it exists (it comes from control flow "
        "or a call), but it is needed beforehand to allocate the rows of an enclosing "
        "combinator",
    )


# --------------------------------------------------------------------------------------
# Ownership: may an update write into its source's memory?
# --------------------------------------------------------------------------------------

_FRESH_ARRAYS = (
    soac.MapOp,
    soac.ReduceOp,
    soac.ScanOp,
    soac.ScatterOp,
    soac.HistOp,
    soac.UpdateOp,
    soac.CopyOp,
    soac.IotaOp,
    soac.ReplicateOp,
    soac.ArrayOp,
    soac.ConcatOp,
    soac.GpuBodyOp,
    *soac.FUSED_OPS,
    arith.ConstantOp,
)


_REPEATING = (scf.ForOp, scf.WhileOp, soac.MapOp, soac.ReduceOp, soac.ScanOp, soac.HistOp, *soac.FUSED_OPS)
"""Ops whose regions run many times (loop iterations, or the lanes of a lambda): memory
from outside them is the same memory every time."""


def repeating_ancestor(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, (*_REPEATING, func.FuncOp)):
        parent = parent.parent_op()
    return parent if isinstance(parent, _REPEATING) else None


def _defined_within(value: SSAValue, region_op: Operation | None) -> bool:
    """`value` is made inside `region_op`'s regions (anywhere, when it is None)."""
    if region_op is None:
        return True
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op()
        return owner is not None and region_op.is_ancestor(owner)
    return value.op is not region_op and region_op.is_ancestor(value.op)


def owns_memory(
    value: SSAValue, entry: bool, within: Operation | None = None, seen: frozenset = frozenset()
) -> bool:
    """Whether no other array shares this array's memory (so that, if this is its last
    use, it may be overwritten). Views, lambda rows, call results and parameters of
    non-entry functions may share; an entry point's arrays are our own device copies.
    Memory that flows through control flow is owned only if every array it may come from
    is owned, used nowhere else, and made inside `within` (the innermost loop or lambda
    around the write): memory from outside it would be written again every iteration or
    lane. A loop's initial value is checked against the loop's own surroundings, and what
    an iteration feeds back must be made inside the loop."""
    if value in seen:
        return True  # a loop-carried array owns its memory if every other path does
    seen = seen | {value}
    if not _defined_within(value, within):
        return False
    if isinstance(value, OpResult):
        op = value.op
        if isinstance(op, _FRESH_ARRAYS):
            return True
        if isinstance(op, scf.IfOp):
            return all(
                _exclusive(r.block.last_op.operands[value.index], entry, within, seen) for r in op.regions
            )
        if isinstance(op, scf.ForOp):
            i = value.index
            return _exclusive(op.iter_args[i], entry, repeating_ancestor(op), seen) and _exclusive(
                op.body.block.last_op.operands[i], entry, op, seen
            )
        if isinstance(op, scf.WhileOp):
            forwarded = op.before_region.block.last_op.args[value.index]
            return _exclusive(forwarded, entry, op, seen)
        return False  # calls and views
    assert isinstance(value, BlockArgument)
    parent = value.block.parent_op()
    if isinstance(parent, func.FuncOp):
        return entry
    if isinstance(parent, scf.ForOp) and value.index > 0:
        i = value.index - 1
        return _exclusive(parent.iter_args[i], entry, repeating_ancestor(parent), seen) and _exclusive(
            parent.body.block.last_op.operands[i], entry, parent, seen
        )
    if isinstance(parent, scf.WhileOp):
        i = value.index
        if value.block is parent.before_region.block:
            # fed by the initial value, then by what the after region yields
            return _exclusive(parent.arguments[i], entry, repeating_ancestor(parent), seen) and _exclusive(
                parent.after_region.block.last_op.operands[i], entry, parent, seen
            )
        # the after region gets what the condition forwards
        return _exclusive(parent.before_region.block.last_op.args[i], entry, parent, seen)
    return False


def _exclusive(value: SSAValue, entry: bool, within: Operation | None, seen: frozenset) -> bool:
    return _consumed_by_one_use(value) and owns_memory(value, entry, within, seen)


def copy_loop_starts_updated_in_place(module: ModuleOp) -> None:
    """A loop that updates a carried array in place in every iteration, but starts from
    an array it may not overwrite (a lambda's row, an array used again later), gets a
    copy of that start before it: then the loop owns its array and updates it in place,
    where otherwise every iteration would copy it whole. (Futhark's uniqueness rules
    make its programmer write this copy.)"""
    for f in module.ops:
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        entry = f.sym_visibility is None or f.sym_visibility.data != "private"
        for loop in [op for op in f.walk() if isinstance(op, scf.ForOp)]:
            for k, start in enumerate(loop.iter_args):
                if (
                    _is_array(start.type)
                    and not _exclusive(start, entry, repeating_ancestor(loop), frozenset())
                    and _updated_in_place_each_iteration(loop, k)
                ):
                    copy = soac.CopyOp(start)
                    copy.result.name_hint = start.name_hint
                    loop.parent_block().insert_op_before(copy, loop)
                    loop.operands = [*loop.operands[: 3 + k], copy.result, *loop.operands[4 + k :]]


def _updated_in_place_each_iteration(loop: scf.ForOp, k: int) -> bool:
    """The loop's k-th carried array is yielded as a chain of updates of itself, each of
    which could write in place (its other uses are reads before it)."""
    carried = loop.body.block.args[k + 1]
    value = loop.body.block.last_op.operands[k]
    updates = 0
    while (
        isinstance(value, OpResult)
        and isinstance(value.op, soac.UpdateOp)
        and value.op.parent_block() is loop.body.block
        and _consumed_by_one_use(value.op.source, value.op)
    ):
        value = value.op.source
        updates += 1
    return updates > 0 and value is carried


def _reads_scalars_only(use_op: Operation) -> bool:
    """A use that takes nothing of the array's memory with it: an element read or a size."""
    if isinstance(use_op, soac.SizeOp):
        return True
    return isinstance(use_op, soac.IndexOp) and not isinstance(use_op.result.type, TensorType)


def _consumed_by_one_use(value: SSAValue, consumer: Operation | None = None) -> bool:
    """`value` has one use that may take its memory (`consumer`, when given), and every
    other use is an element read or a size that is done before that use: in the same
    block, earlier, or inside an op that is (a tridiagonal solve's loop reads b[i - 1]
    and b[i], then updates b[i]). As level 1's `update` consumes its source, this is
    what makes that update in place without the memory passes, as in Futhark."""
    takers = [use.operation for use in value.uses if not _reads_scalars_only(use.operation)]
    if len(takers) != 1 or (consumer is not None and takers[0] is not consumer):
        return False
    taker = takers[0]
    block = taker.parent_block()
    for use in value.uses:
        reader = use.operation
        if reader is taker:
            continue
        while reader is not None and reader.parent_block() is not block:
            reader = reader.parent_op()
        if reader is None or reader is taker or not reader.is_before_in_block(taker):
            return False
    return True


def _loop_operand_index(op: Operation, result_index: int) -> int:
    return result_index + (3 if isinstance(op, scf.ForOp) else 0)


def can_consume(source: SSAValue, op: Operation, entry: bool) -> bool:
    """An in-place write into `source` is safe: this op is its only use apart from
    element reads done before it, it is defined in this block (a loop would otherwise
    overwrite it every iteration) and it owns its memory."""
    defined_here = (
        source.owner.parent_block() is op.parent_block()
        if isinstance(source, OpResult)
        else source.owner is op.parent_block()
    )
    return (
        _consumed_by_one_use(source, op)
        and defined_here
        and owns_memory(source, entry, repeating_ancestor(op))
    )


# --------------------------------------------------------------------------------------
# The conversion
# --------------------------------------------------------------------------------------


def _is_array(t: Attribute) -> bool:
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


class FunctionConverter:
    """Converts one function to level 2 under one convention."""

    def __init__(self, module_converter: ModuleConverter, old: func.FuncOp, convention: str):
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
        out: list[Attribute] = []
        for t in types:
            if _is_array(t):
                if self.convention != LANE:
                    out.append(mem.BlockType(space))
                out.append(mem.view_type_of(t, space))
            else:
                out.append(t)
        return out

    def carried_types(self, types: Sequence[Attribute]) -> list[Attribute]:
        """Types of values carried through control flow at the current depth."""
        out: list[Attribute] = []
        for t in types:
            if _is_array(t):
                if self.depth == 0:
                    out.append(mem.BlockType(mem.DEVICE))
                out.append(mem.view_type_of(t, mem.DEVICE))
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
            if _is_array(v.type):
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
        return op

    def index_constant(self, n: int) -> SSAValue:
        return self.insert(arith.ConstantOp(IntegerAttr(n, IndexType()))).results[0]

    def array(self, v: SSAValue) -> Array:
        new = self.scope[v]
        assert isinstance(new, Array), v
        return new

    def size_of(self, expr: SizeExpr, where: Operation) -> SSAValue:
        """Computes a symbolic size at the insertion point."""
        match expr:
            case Const(value=n):
                return self.index_constant(n)
            case Alternatives(options=options):
                for option in options:
                    if self.computable(option):
                        return self.size_of(option, where)
                raise CannotBufferise(where, "no branch's size of an array it makes can be computed before it")
            case Choice(condition=c, if_true=a, if_false=b):
                if self.computable(Scalar(c)) and self.computable(a) and self.computable(b):
                    cond, x, y = self.size_of(Scalar(c), where), self.size_of(a, where), self.size_of(b, where)
                    return self.insert(arith.SelectOp(cond, x, y)).result
                return self.size_of(Alternatives((a, b)), where)
            case Sum(terms=terms):
                total = self.size_of(terms[0], where)
                for t in terms[1:]:
                    total = self.insert(arith.AddiOp(total, self.size_of(t, where))).results[0]
                return total
            case Scalar(value=v):
                if v in self.scope:
                    new = self.scope[v]
                    assert isinstance(new, SSAValue)
                    return new
                owner = v.owner
                if isinstance(owner, Operation) and not owner.regions and owner.dialect_name() == "arith":
                    # a size computed by scalar arithmetic: compute it here too
                    operands = [self.size_of(Scalar(o), where) for o in owner.operands]
                    return self.insert(owner.clone(value_mapper=dict(zip(owner.operands, operands)))).results[0]
                raise CannotBufferise(
                    where, "the size of an array it makes depends on values computed per row"
                )
            case Dim(array=a, axis=axis):
                static = a.type.get_shape()[axis]
                if static != DYNAMIC_INDEX:
                    return self.index_constant(static)
                if a in self.scope:
                    return self.insert(mem.SizeOp(self.array(a).view, axis)).result
                try:
                    return self.size_of(derive_dim(a, axis), where)
                except CannotBufferise as error:
                    raise CannotBufferise(where, str(error)) from None
        raise AssertionError(expr)

    def computable(self, expr: SizeExpr, depth: int = 0) -> bool:
        """Whether size_of(expr) can succeed here (without building anything)."""
        if depth > 64:
            return False
        match expr:
            case Const():
                return True
            case Sum(terms=terms):
                return all(self.computable(t, depth + 1) for t in terms)
            case Alternatives(options=options):
                return any(self.computable(o, depth + 1) for o in options)
            case Choice(if_true=a, if_false=b):
                return self.computable(a, depth + 1) or self.computable(b, depth + 1)
            case Scalar(value=v):
                if v in self.scope:
                    return True
                owner = v.owner
                return (
                    isinstance(owner, Operation)
                    and not owner.regions
                    and owner.dialect_name() == "arith"
                    and all(self.computable(Scalar(o), depth + 1) for o in owner.operands)
                )
            case Dim(array=a, axis=axis):
                if a.type.get_shape()[axis] != DYNAMIC_INDEX or a in self.scope:
                    return True
                try:
                    return self.computable(derive_dim(a, axis), depth + 1)
                except CannotBufferise:
                    return False
        return False

    def shape_of(self, value: SSAValue, where: Operation) -> list[SSAValue]:
        t = value.type
        assert isinstance(t, TensorType)
        return [self.size_of(Dim(value, axis), where) for axis in range(t.get_num_dims())]

    def allocate(self, t: TensorType, dims: Sequence[SSAValue], name: str | None) -> Array:
        """A fresh device block holding an array of type `t` and the given dimensions."""
        elem_bytes = numpy_dtype(t.element_type).itemsize
        total = self.index_constant(elem_bytes)
        for d in dims:
            total = self.insert(arith.MuliOp(total, d)).results[0]
        block = self.insert(mem.AllocOp(total, mem.DEVICE)).block
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

    def convert(self, name: str) -> func.FuncOp:
        old_type = self.old.function_type
        inputs = self.boundary_types(old_type.inputs.data)
        outputs = self.boundary_types(old_type.outputs.data)
        body = Block(arg_types=inputs)
        self.builder = Builder(InsertPoint.at_end(body))
        old_block = self.old.body.block
        args = iter(body.args)
        for old_arg in old_block.args:
            if not _is_array(old_arg.type):
                new = next(args)
                self._name(new, old_arg)
                self.scope[old_arg] = new
                continue
            block = next(args) if self.convention != LANE else None
            view = next(args)
            self._name(view, old_arg)
            if block is not None:
                self._name(block, old_arg, "_mem")
            if self.convention == ENTRY and old_arg.uses:
                # the argument arrives in host memory: its device copy is what the program uses
                host_view = view
                host_view.name_hint = (old_arg.name_hint or "arg") + "_host"
                if block is not None:
                    block.name_hint = (old_arg.name_hint or "arg") + "_host_mem"
                device = self.allocate(old_arg.type, [self.insert(mem.SizeOp(host_view, a)).result for a in range(old_arg.type.get_num_dims())], old_arg.name_hint or "arg")
                self.insert(mem.CopyOp(host_view, device.view))
                self.scope[old_arg] = device
            else:
                self.scope[old_arg] = Array(view, block)
        self.convert_ops(old_block)
        new = func.FuncOp(name, FunctionType.from_lists(inputs, outputs), Region(body))
        if self.convention == ENTRY:
            new.attributes[mem.ENTRY_SIGNATURE] = old_type
        if self.convention != ENTRY:
            new.sym_visibility = StringAttr("private")
        return new

    def convert_ops(self, block: Block) -> None:
        for op in block.ops:
            try:
                self.convert_op(op)
            except CannotBufferise:
                raise
            except KeyError as error:
                raise CannotBufferise(op, f"uses a value the conversion has not seen ({error})") from None

    def convert_region(self, old: Region, new_block: Block, old_args: Sequence[SSAValue] = ()) -> None:
        """Converts the body of `old` into `new_block` (whose arguments stand for
        `old_args`, flattened) in a new scope layer."""
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(new_block))
        self.scope.layers.append({})
        try:
            self.unflatten(old_args, new_block.args)
            self.convert_ops(old.block)
        finally:
            self.scope.layers.pop()
            self.builder = outer

    # --- ops ---------------------------------------------------------------------------

    def convert_op(self, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
            return
        if op.dialect_name() in ("arith", "math") and not op.regions:
            if any(_is_array(r.type) for r in op.results):
                raise CannotBufferise(op, f"{op.name} on arrays cannot be bufferised")
            self.insert_clone(op)
            return
        raise CannotBufferise(op, f"{op.name} cannot be bufferised (no rule for it)")

    def convert_select(self, op: arith.SelectOp) -> None:
        if not _is_array(op.result.type):
            self.insert_clone(op)
            return
        cond = self.scope[op.cond]
        a, b = self.array(op.lhs), self.array(op.rhs)
        view = self.insert(arith.SelectOp(cond, a.view, b.view)).result
        self._name(view, op.result)
        block = None
        if self.depth == 0 and a.block is not None and b.block is not None:
            block = self.insert(arith.SelectOp(cond, a.block, b.block)).result
        self.scope[op.result] = Array(view, block)

    def insert_clone(self, op: Operation) -> None:
        new = op.clone(value_mapper={v: self.scope[v] for v in op.operands})
        self.insert(new)
        for old_r, new_r in zip(op.results, new.results):
            self.scope[old_r] = new_r

    def convert_constant(self, op: arith.ConstantOp) -> None:
        if not _is_array(op.result.type):
            new = self.insert(op.clone())
            self.scope[op.result] = new.results[0]
            return
        t = op.result.type
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        values = list(value.get_values())
        shape = t.get_shape()
        count = 1
        for d in shape:
            count *= d
        if len(values) == 1:
            values = values * count
        flat = TensorType(t.element_type, [count])
        attr = FloatAttr if isinstance(t.element_type, AnyFloat) else IntegerAttr
        elements = [self.insert(arith.ConstantOp(attr(v, t.element_type))).results[0] for v in values]
        target = self.destination(op.result, op)
        flat_view = target.view
        if len(shape) != 1:
            # literal elements are written row-major through a flat view of the same block
            zero = self.index_constant(0)
            flat_view = self.insert(mem.ViewOp(target.block, zero, [], mem.view_type_of(flat, mem.DEVICE))).result
        self.insert(mem.ArrayOp(elements, flat_view))
        self.scope[op.result] = target

    def convert_map(self, op: soac.MapOp) -> None:
        outs = [self.destination(r, op) for r in op.outputs]
        ins = [self.array(v).view for v in op.inputs]
        out_types = [o.view.type for o in outs]
        params = mem.MapOp.lambda_params([v.type for v in ins], out_types)
        body = Block(arg_types=params)
        old_block = op.body.block
        yields = old_block.last_op.operands
        # output rows of array-valued results are lambda parameters: build those rows in place
        row_params = iter(body.args[len(ins) :])
        for j, r in enumerate(op.outputs):
            if r.type.get_num_dims() > 1:
                row = next(row_params)
                if r.name_hint:
                    row.name_hint = r.name_hint + "_row"
                y = yields[j]
                if _made_here_for(y, old_block):
                    self.hints[y] = Array(row, None)
        self.convert_lambda(old_block, body)
        self.insert(mem.MapOp(ins, [o.view for o in outs], Region(body)))
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def convert_ops_until_yield(self, block: Block) -> None:
        for op in block.ops:
            if op is block.last_op:
                return
            self.convert_op(op)

    def _view_or_scalar(self, v: SSAValue) -> SSAValue:
        new = self.scope[v]
        return new.view if isinstance(new, Array) else new

    def operator_region(self, old: Region) -> Region:
        """An operator lambda (reduce, scan, hist) at level 2; it runs one lane deeper."""
        old_block = old.block
        params = []
        for a in old_block.args:
            params.append(mem.view_type_of(a.type, mem.DEVICE) if _is_array(a.type) else a.type)
        body = Block(arg_types=params)
        self.convert_lambda(old_block, body)
        return Region(body)

    def convert_lambda(self, old_block: Block, body: Block) -> None:
        """Converts a lambda's body into `body`, one lane deeper: its leading parameters
        stand for the old ones (rows are views without a block of their own)."""
        self.depth += 1
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.scope.layers.append({})
        try:
            for old_arg, new_arg in zip(old_block.args, body.args):
                self._name(new_arg, old_arg)
                self.scope[old_arg] = Array(new_arg, None) if _is_array(old_arg.type) else new_arg
            self.load_device_scalars(old_block)
            self.convert_ops_until_yield(old_block)
            self.insert(mem.YieldOp(*[self._view_or_scalar(v) for v in old_block.last_op.operands]))
        finally:
            self.scope.layers.pop()
            self.builder = outer
            self.depth -= 1

    def load_device_scalars(self, old_block: Block) -> None:
        """Device code reads the DeviceScalars it uses from device memory, once, at its top."""
        for inner in old_block.walk():
            for v in inner.operands:
                if v in self.scope and isinstance(self.scope[v], DeviceScalar):
                    load = self.insert(mem.LoadOp(self.scope[v].view, []))
                    self._name(load.result, v)
                    self.scope[v] = load.result

    def convert_reduce(self, op: soac.ReduceOp) -> None:
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        scalar_results = all(not _is_array(r.type) for r in op.outputs)
        region = self.operator_region(op.body)
        commutative = op.commutative is not None
        if self.depth > 0 and scalar_results:
            new = mem.ReduceOp.build(
                operands=[ins, neutral, []],
                result_types=[[r.type for r in op.outputs]],
                regions=[region],
                properties={"commutative": op.commutative} if commutative else {},
            )
            self.insert(new)
            for r, n in zip(op.outputs, new.results):
                self._name(n, r)
                self.scope[r] = n
            return
        outs: list[Array] = []
        for r in op.outputs:
            if _is_array(r.type):
                outs.append(self.destination(r, op))
            else:
                zero_d = TensorType(r.type, [])
                outs.append(self.allocate(zero_d, [], (r.name_hint or "red") + "_dev"))
        self.insert(
            mem.ReduceOp.build(
                operands=[ins, neutral, [o.view for o in outs]],
                result_types=[[]],
                regions=[region],
                properties={"commutative": op.commutative} if commutative else {},
            )
        )
        for r, o in zip(op.outputs, outs):
            if _is_array(r.type):
                self.scope[r] = o
            elif r.uses and used_only_on_device(r):
                self.scope[r] = DeviceScalar(o.view)  # no read: only kernels use it
            elif r.uses:
                # the result is in device memory; host code reads it (a synchronous read)
                load = self.insert(mem.LoadOp(o.view, []))
                self._name(load.result, r)
                self.scope[r] = load.result

    def convert_scan(self, op: soac.ScanOp) -> None:
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        outs = [self.destination(r, op) for r in op.outputs]
        region = self.operator_region(op.body)
        self.insert(
            mem.ScanOp.build(
                operands=[ins, neutral, [o.view for o in outs]],
                regions=[region],
                properties={"commutative": op.commutative} if op.commutative is not None else {},
            )
        )
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def convert_scatter(self, op: soac.ScatterOp) -> None:
        target = self.writable_copy(op.dest, op.result, op)
        self.insert(mem.ScatterOp(target.view, self.array(op.indices).view, self.array(op.values).view))
        self.scope[op.result] = target

    def convert_hist(self, op: soac.HistOp) -> None:
        target = self.writable_copy(op.dest, op.result, op)
        region = self.operator_region(op.body)
        self.insert(
            mem.HistOp.build(
                operands=[target.view, self.array(op.indices).view, self.array(op.values).view, self._view_or_scalar(op.neutral)],
                regions=[region],
            )
        )
        self.scope[op.result] = target

    # --- fused combinators: their lambdas stay in the op, so no intermediate array -----

    def fused_lambda(self, old: Region, params: Sequence[Attribute], results: Sequence[SSAValue], outs: Sequence[Array]) -> Region:
        """A fused op's lambda at level 2: the parameters of `old`, then the rows of the
        array-valued outputs among `outs` (which take `results`' values); a yielded row
        made in the lambda is built in its output row."""
        body = Block(arg_types=[*params, *[mem.row_view_type(o.view.type) for o in outs if o.view.type.get_num_dims() > 1]])
        old_block = old.block
        yields = old_block.last_op.operands
        row_params = iter(body.args[len(params) :])
        position = {r: j for j, r in enumerate(old.parent_op().results)}
        for r, o in zip(results, outs):
            if o.view.type.get_num_dims() > 1:
                row = next(row_params)
                if r.name_hint:
                    row.name_hint = r.name_hint + "_row"
                y = yields[self._yield_position(old.parent_op(), old, position[r])]
                if _made_here_for(y, old_block):
                    self.hints[y] = Array(row, None)
        self.convert_lambda(old_block, body)
        return Region(body)

    @staticmethod
    def _yield_position(op: Operation, region: Region, result_index: int) -> int:
        """Which value `region` yields for result `result_index` of the fused op."""
        if isinstance(op, soac.ScatteromapOp | soac.HistomapOp):
            return result_index + 1  # after the index and the value
        return result_index  # redomap/scanomap: the operands' results come first, in order

    def _row_params(self, inputs: Sequence[SSAValue]) -> list[Attribute]:
        return [mem.row_view_type(self.array(v).view.type) for v in inputs]

    def _properties(self, op: Operation) -> dict:
        return {"commutative": op.commutative}

    def convert_redomap(self, op: soac.RedomapOp) -> None:
        k = op.num_operands_reduced
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        mapped = list(op.outputs[k:])
        outs = [self.destination(r, op) for r in mapped]
        map_body = self.fused_lambda(op.map_body, self._row_params(op.inputs), mapped, outs)
        operators = [self.operator_region(r) for r in op.operators]
        reduced = list(op.outputs[:k])
        if self.depth > 0:
            new = mem.RedomapOp.build(
                operands=[ins, neutral, [o.view for o in outs], []],
                result_types=[[r.type for r in reduced]],
                regions=[map_body, operators],
                properties=self._properties(op),
            )
            self.insert(new)
            for r, n in zip(reduced, new.results):
                self._name(n, r)
                self.scope[r] = n
        else:
            red_outs = [self.allocate(TensorType(r.type, []), [], (r.name_hint or "red") + "_dev") for r in reduced]
            self.insert(
                mem.RedomapOp.build(
                    operands=[ins, neutral, [o.view for o in [*red_outs, *outs]], []],
                    result_types=[[]],
                    regions=[map_body, operators],
                    properties=self._properties(op),
                )
            )
            for r, o in zip(reduced, red_outs):
                if r.uses and used_only_on_device(r):
                    self.scope[r] = DeviceScalar(o.view)  # no read: only kernels use it
                elif r.uses:
                    # the result is in device memory; host code reads it (a synchronous read)
                    load = self.insert(mem.LoadOp(o.view, []))
                    self._name(load.result, r)
                    self.scope[r] = load.result
        for r, o in zip(mapped, outs):
            self.scope[r] = o

    def convert_scanomap(self, op: soac.ScanomapOp) -> None:
        k = op.num_operands_scanned
        ins = [self.array(v).view for v in op.inputs]
        neutral = [self._view_or_scalar(v) for v in op.neutral]
        outs = [self.destination(r, op) for r in op.outputs]
        params = self._row_params(op.inputs)
        if op.post is None:
            map_body = self.fused_lambda(op.map_body, params, op.outputs[k:], outs[k:])
            post = []
        else:
            map_body = Block(arg_types=params)
            self.convert_lambda(op.map_body.block, map_body)
            map_body = Region(map_body)
            post_params = [mem.view_type_of(a.type, mem.DEVICE) for a in op.post.block.args]
            post = [self.fused_lambda(op.post, post_params, op.outputs, outs)]
        operators = [self.operator_region(r) for r in op.operators]
        self.insert(
            mem.ScanomapOp.build(
                operands=[ins, neutral, [o.view for o in outs], []],
                regions=[map_body, operators, post],
                properties=self._properties(op),
            )
        )
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def _dest_fused(self, op: soac.ScatteromapOp | soac.HistomapOp) -> tuple[Array, list[SSAValue], list[Array], Region]:
        target = self.writable_copy(op.dest, op.outputs[0], op)
        mapped = list(op.outputs[1:])
        outs = [self.destination(r, op) for r in mapped]
        map_body = self.fused_lambda(op.map_body, self._row_params(op.inputs), mapped, outs)
        return target, [self.array(v).view for v in op.inputs], outs, map_body

    def convert_scatteromap(self, op: soac.ScatteromapOp) -> None:
        target, ins, outs, map_body = self._dest_fused(op)
        self.insert(mem.ScatteromapOp.build(operands=[target.view, ins, [o.view for o in outs], []], regions=[map_body]))
        self.scope[op.outputs[0]] = target
        for r, o in zip(op.outputs[1:], outs):
            self.scope[r] = o

    def convert_histomap(self, op: soac.HistomapOp) -> None:
        target, ins, outs, map_body = self._dest_fused(op)
        operator = self.operator_region(op.operator)
        self.insert(
            mem.HistomapOp.build(
                operands=[target.view, ins, [o.view for o in outs], self._view_or_scalar(op.neutral), []],
                regions=[map_body, operator],
            )
        )
        self.scope[op.outputs[0]] = target
        for r, o in zip(op.outputs[1:], outs):
            self.scope[r] = o

    def convert_gpu_body(self, op: soac.GpuBodyOp) -> None:
        outs = [self.destination(r, op) for r in op.outputs]
        # an array the body makes only to yield it is built in its output's row (as a
        # map's rows are), not in memory of its own that the kernel would need
        for value, out in zip(op.body.block.last_op.operands, outs):
            if _is_array(value.type) and _made_here_for(value, op.body.block) and value not in self.hints:
                row_type = mem.view_type_of(value.type, mem.space_of(out.view.type))
                zero = self.index_constant(0)
                row = self.insert(mem.SliceOp(out.view, [soac.SliceSpec.FIXED], [zero], row_type)).result
                self.hints[value] = Array(row, None)
        body = Block()
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(body))
        self.scope.layers.append({})
        try:
            self.load_device_scalars(op.body.block)
            self.convert_ops_until_yield(op.body.block)
            self.insert(mem.YieldOp(*[self._view_or_scalar(v) for v in op.body.block.last_op.operands]))
        finally:
            self.scope.layers.pop()
            self.builder = outer
        self.insert(mem.GpuBodyOp.build(operands=[[o.view for o in outs]], regions=[Region(body)]))
        for r, o in zip(op.outputs, outs):
            self.scope[r] = o

    def convert_iota(self, op: soac.IotaOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.IotaOp(target.view))
        self.scope[op.result] = target

    def convert_replicate(self, op: soac.ReplicateOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.FillOp(self._view_or_scalar(op.value), target.view))
        self.scope[op.result] = target

    def convert_array(self, op: soac.ArrayOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.ArrayOp([self._view_or_scalar(e) for e in op.elements], target.view))
        self.scope[op.result] = target

    def convert_copy(self, op: soac.CopyOp) -> None:
        target = self.destination(op.result, op)
        self.insert(mem.CopyOp(self.array(op.input).view, target.view))
        self.scope[op.result] = target

    def convert_concat(self, op: soac.ConcatOp) -> None:
        target = self.destination(op.result, op)
        offset = self.index_constant(0)
        for v in op.inputs:
            part = self.array(v).view
            count = self.insert(mem.SizeOp(part, 0)).result
            piece = self.insert(
                mem.SliceOp(target.view, [soac.SliceSpec.RANGE], [offset, count], part.type)
            ).result
            self.insert(mem.CopyOp(part, piece))
            offset = self.insert(arith.AddiOp(offset, count)).results[0]
        self.scope[op.result] = target

    def convert_index(self, op: soac.IndexOp) -> None:
        source = self.array(op.array)
        indices = [self.scope[i] for i in op.indices]
        if not _is_array(op.result.type):
            load = self.insert(mem.LoadOp(source.view, indices))
            self._name(load.result, op.result)
            self.scope[op.result] = load.result
            return
        view = self.insert(
            mem.SliceOp(source.view, [soac.SliceSpec.FIXED] * len(indices), indices, mem.view_type_of(op.result.type, mem.space_of(source.view.type)))
        ).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_slice(self, op: soac.SliceOp) -> None:
        source = self.array(op.source)
        view = self.insert(
            mem.SliceOp(source.view, op.kinds.get_values(), [self.scope[s] for s in op.spec], mem.view_type_of(op.result.type, mem.space_of(source.view.type)))
        ).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_transpose(self, op: soac.TransposeOp) -> None:
        source = self.array(op.input)
        view = self.insert(mem.TransposeOp(source.view, op.permutation.get_values())).result
        self._name(view, op.result)
        self.scope[op.result] = Array(view, source.block)

    def convert_update(self, op: soac.UpdateOp) -> None:
        target = self.writable_copy(op.source, op.result, op)
        kinds = op.kinds.get_values()
        spec = [self.scope[s] for s in op.spec]
        if not _is_array(op.value.type):
            self.insert(mem.StoreOp(self.scope[op.value], target.view, spec))
        else:
            value = self.array(op.value).view
            part = self.insert(
                mem.SliceOp(target.view, kinds, spec, mem.view_type_of(op.value.type, mem.space_of(target.view.type)))
            ).result
            self.insert(mem.CopyOp(value, part))
        self.scope[op.result] = target

    def convert_size(self, op: soac.SizeOp) -> None:
        self.scope[op.result] = self.size_of(Dim(op.array, op.dim.value.data), op)

    def convert_if(self, op: scf.IfOp) -> None:
        result_types = self.carried_types([r.type for r in op.results])
        regions = []
        for old_region in op.regions:
            if not old_region.blocks:
                regions.append(Region())
                continue
            block = Block()
            self.convert_structured_body(old_region, block)
            regions.append(Region(block))
        new = self.insert(scf.IfOp(self.scope[op.cond], result_types, regions[0], regions[1]))
        self.unflatten(op.results, new.results)

    def convert_structured_body(
        self,
        old: Region,
        new_block: Block,
        old_args: Sequence[SSAValue] = (),
        bound: dict[SSAValue, SSAValue] | None = None,
    ) -> None:
        """Converts an scf body: `old_args` stand for `new_block`'s arguments after those
        already in `bound`."""
        outer = self.builder
        self.builder = Builder(InsertPoint.at_end(new_block))
        self.scope.layers.append({})
        try:
            for old_value, new_value in (bound or {}).items():
                self.scope[old_value] = new_value
            self.unflatten(old_args, new_block.args[len(bound or {}) :])
            self.convert_ops_until_yield(old.block)
            term = old.block.last_op
            if isinstance(term, scf.ConditionOp):
                self.insert(scf.ConditionOp(self.scope[term.condition], *self.flatten(term.args)))
            else:
                self.insert(scf.YieldOp(*self.flatten(term.operands)))
        finally:
            self.scope.layers.pop()
            self.builder = outer

    def convert_for(self, op: scf.ForOp) -> None:
        inits = self.flatten(op.iter_args)
        carried = self.carried_types([v.type for v in op.iter_args])
        old_iv, *old_carried = op.body.block.args
        body = Block(arg_types=[old_iv.type, *carried])
        self._name(body.args[0], old_iv)
        self.convert_structured_body(op.body, body, old_carried, {old_iv: body.args[0]})
        new = self.insert(scf.ForOp(self.scope[op.lb], self.scope[op.ub], self.scope[op.step], inits, Region(body)))
        # an array updated in place is carried unchanged: it is its initial value throughout
        # (and kernels cannot carry arrays through loops)
        yielded = body.last_op.operands
        unchanged = [k for k, v in enumerate(yielded) if v is body.args[k + 1]]
        if not unchanged:
            self.unflatten(op.results, new.results)
            return
        kept = iter(stop_carrying(new, unchanged).results)
        self.unflatten(op.results, [inits[k] if k in unchanged else next(kept) for k in range(len(inits))])

    def convert_while(self, op: scf.WhileOp) -> None:
        inits = self.flatten(op.arguments)
        before_types = self.carried_types([a.type for a in op.before_region.block.args])
        after_types = self.carried_types([a.type for a in op.after_region.block.args])
        before = Block(arg_types=before_types)
        after = Block(arg_types=after_types)
        self.convert_structured_body(op.before_region, before, op.before_region.block.args)
        self.convert_structured_body(op.after_region, after, op.after_region.block.args)
        new = self.insert(scf.WhileOp(inits, self.carried_types([r.type for r in op.results]), Region(before), Region(after)))
        self.unflatten(op.results, new.results)

    def convert_call(self, op: func.CallOp) -> None:
        convention = LANE if self.depth > 0 else DEVICE
        callee = self.modules.function(op.callee.root_reference.data, convention, op)
        new = self.insert(func.CallOp(callee, self.flatten(op.arguments), self.carried_types([r.type for r in op.results])))
        self.unflatten(op.results, new.results)

    def convert_return(self, op: func.ReturnOp) -> None:
        if self.convention != ENTRY:
            self.insert(func.ReturnOp(*self.flatten(op.arguments)))
            return
        values: list[SSAValue] = []
        for v in op.arguments:
            new = self.scope[v]
            if not isinstance(new, Array):
                values.append(new)
                continue
            # results leave in host memory
            dims = [self.insert(mem.SizeOp(new.view, a)).result for a in range(v.type.get_num_dims())]
            elem_bytes = numpy_dtype(v.type.element_type).itemsize
            total = self.index_constant(elem_bytes)
            for d in dims:
                total = self.insert(arith.MuliOp(total, d)).results[0]
            block = self.insert(mem.AllocOp(total, mem.HOST)).block
            zero = self.index_constant(0)
            dynamic = [d for d, s in zip(dims, v.type.get_shape()) if s == DYNAMIC_INDEX]
            view = self.insert(mem.ViewOp(block, zero, dynamic, mem.view_type_of(v.type, mem.HOST))).result
            name = (v.name_hint or "result") + "_host"
            view.name_hint, block.name_hint = name, name + "_mem"
            self.insert(mem.CopyOp(new.view, view))
            values += [block, view]
        self.insert(func.ReturnOp(*values))


def _made_here_for(value: SSAValue, block: Block) -> bool:
    """`value` is made by an array-making op of `block` and only returned: it can be
    built directly where it is returned to."""
    return (
        isinstance(value, OpResult)
        and value.op.parent_block() is block
        and value.has_one_use()
        and isinstance(
            value.op,
            soac.MapOp | soac.ScanOp | soac.IotaOp | soac.ReplicateOp | soac.ArrayOp | soac.ConcatOp | soac.CopyOp
            | soac.RedomapOp | soac.ScanomapOp,
        )
    )


_HANDLERS: dict[type[Operation], Callable[[FunctionConverter, Operation], None]] = {
    arith.ConstantOp: FunctionConverter.convert_constant,
    arith.SelectOp: FunctionConverter.convert_select,
    soac.MapOp: FunctionConverter.convert_map,
    soac.ReduceOp: FunctionConverter.convert_reduce,
    soac.ScanOp: FunctionConverter.convert_scan,
    soac.ScatterOp: FunctionConverter.convert_scatter,
    soac.HistOp: FunctionConverter.convert_hist,
    soac.RedomapOp: FunctionConverter.convert_redomap,
    soac.ScanomapOp: FunctionConverter.convert_scanomap,
    soac.ScatteromapOp: FunctionConverter.convert_scatteromap,
    soac.HistomapOp: FunctionConverter.convert_histomap,
    soac.GpuBodyOp: FunctionConverter.convert_gpu_body,
    soac.IotaOp: FunctionConverter.convert_iota,
    soac.ReplicateOp: FunctionConverter.convert_replicate,
    soac.ArrayOp: FunctionConverter.convert_array,
    soac.CopyOp: FunctionConverter.convert_copy,
    soac.ConcatOp: FunctionConverter.convert_concat,
    soac.IndexOp: FunctionConverter.convert_index,
    soac.SliceOp: FunctionConverter.convert_slice,
    soac.TransposeOp: FunctionConverter.convert_transpose,
    soac.UpdateOp: FunctionConverter.convert_update,
    soac.SizeOp: FunctionConverter.convert_size,
    scf.IfOp: FunctionConverter.convert_if,
    scf.ForOp: FunctionConverter.convert_for,
    scf.WhileOp: FunctionConverter.convert_while,
    func.CallOp: FunctionConverter.convert_call,
    func.ReturnOp: FunctionConverter.convert_return,
}


class ModuleConverter:
    """Converts every function, making the variants calls need on demand."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.old_functions = {
            f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks
        }
        self.converted: dict[tuple[str, str], str] = {}
        self.new_functions: list[func.FuncOp] = []

    def function(self, name: str, convention: str, caller: Operation | None = None) -> str:
        """The name of `name` converted under `convention`, converting it if needed."""
        key = (name, convention)
        if key in self.converted:
            return self.converted[key]
        old = self.old_functions.get(name)
        if old is None:
            raise CannotBufferise(caller or self.module, f"@{name} has no body to bufferise")
        public = old.sym_visibility is None or old.sym_visibility.data != "private"
        new_name = name if (convention == ENTRY or (not public and convention == DEVICE)) else f"{name}.{convention}"
        self.converted[key] = new_name
        self.new_functions.append(FunctionConverter(self, old, convention).convert(new_name))
        return new_name

    def convert(self) -> None:
        for name, f in self.old_functions.items():
            if f.sym_visibility is None or f.sym_visibility.data != "private":
                self.function(name, ENTRY)
        # private functions nobody calls still get their (device) conversion
        for name in self.old_functions:
            if not any(key[0] == name for key in self.converted):
                self.function(name, DEVICE)


def _fail(error: CannotBufferise) -> PassFailedException:
    return located_failure(error.op, f"convert-soac-to-mem: cannot bufferise {error.op.name}: {error}")


class ConvertSoacToMemPass(ModulePass):
    """Bufferisation: level 1 (soac on tensors) to level 2 (mem on explicit memory)."""

    name = "convert-soac-to-mem"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        copy_loop_starts_updated_in_place(op)
        converter = ModuleConverter(op)
        try:
            converter.convert()
        except CannotBufferise as error:
            raise _fail(error) from None
        for f in list(op.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                op.body.block.erase_op(f, safe_erase=False)
        for f in converter.new_functions:
            op.body.block.add_op(f)
