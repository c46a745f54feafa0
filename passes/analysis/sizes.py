"""Sizes: one symbolic algebra for how big arrays are, at level 1 and at level 2.

A size is a `Poly`: a polynomial with integer coefficients over *atoms*, what the
algebra does not see through. A `Sizes` table numbers the atoms: an index value (a
parameter, a load, a loop's counter), `Dim(array, axis)` (a dimension of a level-1
tensor or of a level-2 view), `Select` (one of two sizes, by a condition) and opaque
arithmetic (`n/2`, a maximum: the op's name and its operands' polynomials, so that
`n/2` computed twice is one atom).

A size has two degrees of simplification:
- *stated*: one step back from the array, as the ops that make it state it, values as
  the program names them (what convert-soac-to-mem computes again where it allocates,
  and what hoist-allocations and fuse-iota replace `mem.size` with);
- *normal*: dimensions followed back as far as they go, constants folded and index
  arithmetic (`+`, `-`, `*`, casts) expanded, so that two ways of computing one size
  compare equal (an `if`'s branches, a loop's iterations; `Symbolic.expr`).

The rules that state a dimension are here once for each level: `ArraySizes.derive_dim`
for level-1 arrays (from the soac ops that make them), `derive_view_dim` for level-2
views (from mem's view ops, lambda rows and loops). Never changes IR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue

from soacc.dialects import husk, mem, soac
from soacc.dialects.soac import SliceSpec
from soacc.passes.analysis.memory_aliases import lambda_row_sources

Monomial = tuple[int, ...]


@dataclass(frozen=True)
class Poly:
    """Σ coefficient · Π atoms, kept sorted so that equal polynomials compare equal."""

    terms: tuple[tuple[Monomial, int], ...] = ()

    @staticmethod
    def const(c: int) -> Poly:
        return Poly(((((), c),) if c else ()))

    @staticmethod
    def atom(i: int) -> Poly:
        return Poly((((i,), 1),))

    @staticmethod
    def _of(d: dict[Monomial, int]) -> Poly:
        return Poly(tuple(sorted((m, c) for m, c in d.items() if c)))

    def __add__(self, other: Poly) -> Poly:
        d = dict(self.terms)
        for m, c in other.terms:
            d[m] = d.get(m, 0) + c
        return Poly._of(d)

    def __neg__(self) -> Poly:
        return Poly(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        d: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = tuple(sorted(m1 + m2))
                d[m] = d.get(m, 0) + c1 * c2
        return Poly._of(d)

    def scale(self, k: int) -> Poly:
        return self * Poly.const(k)

    @property
    def constant(self) -> int | None:
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def single_atom(self) -> int | None:
        if len(self.terms) == 1 and len(self.terms[0][0]) == 1 and self.terms[0][1] == 1:
            return self.terms[0][0][0]
        return None

    def atoms(self) -> set[int]:
        return {a for m, _ in self.terms for a in m}

    def rename(self, representative) -> Poly:
        d: dict[Monomial, int] = {}
        for m, c in self.terms:
            key = tuple(sorted(representative(a) for a in m))
            d[key] = d.get(key, 0) + c
        return Poly._of(d)

    def substitute(self, atom: Callable[[int], Poly]) -> Poly:
        """Every atom replaced by the polynomial `atom` gives for it."""
        total = ZERO
        for m, c in self.terms:
            term = Poly.const(c)
            for a in m:
                term = term * atom(a)
            total = total + term
        return total


ZERO = Poly.const(0)
ONE = Poly.const(1)


@dataclass(frozen=True)
class Dim:
    """An atom: dimension `axis` of an array (a level-1 tensor or a level-2 view)."""

    array: SSAValue
    axis: int


@dataclass(frozen=True)
class Select:
    """An atom: `if_true` when `condition` holds, else `if_false` (an `if`'s size, a
    select's)."""

    condition: SSAValue
    if_true: Poly
    if_false: Poly


OPAQUE_BINARY = (
    arith.DivUIOp,
    arith.DivSIOp,
    arith.CeilDivUIOp,
    arith.CeilDivSIOp,
    arith.FloorDivSIOp,
    arith.RemUIOp,
    arith.RemSIOp,
    arith.MaxUIOp,
    arith.MaxSIOp,
    arith.MinUIOp,
    arith.MinSIOp,
    arith.ShLIOp,
    arith.ShRUIOp,
    arith.ShRSIOp,
    arith.AndIOp,
    arith.OrIOp,
)
"""Index arithmetic kept as structured atoms (the op's name, its operands' polynomials)."""


class Sizes:
    """A table of atoms, and index values as polynomials of them."""

    def __init__(self) -> None:
        self._atom_ids: dict[object, int] = {}
        self._atom_keys: list[object] = []

    def atom(self, key: object) -> Poly:
        i = self._atom_ids.get(key)
        if i is None:
            i = len(self._atom_keys)
            self._atom_ids[key] = i
            self._atom_keys.append(key)
        return Poly.atom(i)

    def key(self, i: int) -> object:
        """What atom `i` stands for: an SSA value, a `Dim`, a `Select` or an opaque op
        (its name, then its operands' polynomials)."""
        return self._atom_keys[i]

    def dim(self, array: SSAValue, axis: int) -> Poly:
        """A dimension, stated as itself (an atom, whether its type fixes it or not)."""
        return self.atom(Dim(array, axis))

    def arithmetic(self, value: SSAValue, operand: Callable[[SSAValue], Poly]) -> Poly | None:
        """`value` as a polynomial when a constant or index arithmetic makes it (its
        operands' polynomials from `operand`); None for other values."""
        op = value.owner
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return Poly.const(op.value.value.data)
        if isinstance(op, arith.AddiOp):
            return operand(op.lhs) + operand(op.rhs)
        if isinstance(op, arith.SubiOp):
            return operand(op.lhs) - operand(op.rhs)
        if isinstance(op, arith.MuliOp):
            return operand(op.lhs) * operand(op.rhs)
        if isinstance(op, arith.IndexCastOp | arith.ExtSIOp | arith.ExtUIOp):
            return operand(op.input)
        if isinstance(op, OPAQUE_BINARY):
            return self.atom((op.name, operand(op.lhs), operand(op.rhs)))
        if isinstance(op, arith.SelectOp) and not isinstance(value.type, TensorType | MemRefType):
            return self.atom(Select(op.cond, operand(op.lhs), operand(op.rhs)))
        return None


# --------------------------------------------------------------------------------------
# Level 1: how big a tensor is, in terms of values available elsewhere
# --------------------------------------------------------------------------------------


class UnknownSize(Exception):
    """A level-1 array whose size only running the program tells."""

    def __init__(self, value: SSAValue):
        super().__init__(
            "the size of this array is only known once it exists (it comes from control flow "
            "or a call), but it is needed beforehand to allocate the rows of an enclosing "
            "combinator"
        )
        self.value = value
        self.op = value.owner if isinstance(value.owner, Operation) else value.owner.parent_op()


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


def yielded_values(region: Region) -> list[SSAValue]:
    return list(region.block.last_op.operands)


def _array_axes(values: Sequence[SSAValue]):
    for i, v in enumerate(values):
        if isinstance(v.type, TensorType):
            for axis in range(v.type.get_num_dims()):
                yield i, v, axis


class ArraySizes(Sizes):
    """Sizes of level-1 arrays. A `Select` is an `if`'s (or a select's) size whose
    branches' sizes cannot be shown equal: its condition decides."""

    def __init__(self) -> None:
        super().__init__()
        self._proving: set[Operation] = set()  # loops whose induction is under way

    def derive_dim(self, value: SSAValue, axis: int) -> Poly:
        """Dimension `axis` of a level-1 array, stated one step back, from how the array
        is made; UnknownSize when only running the program tells."""
        t = value.type
        assert isinstance(t, TensorType)
        static = t.get_shape()[axis]
        if static != DYNAMIC_INDEX:
            return Poly.const(static)
        dim = self.dim
        if isinstance(value, BlockArgument):
            found = _lambda_input(value)
            if found is not None:
                return dim(found[1], axis + 1)
            owner = value.block.parent_op()
            if isinstance(owner, husk.HuskOp) and value.index >= 2:
                # a partition: the husk's rows of this device, whole rows of the source
                return self.atom(owner.size_arg) if axis == 0 else dim(owner.sources[value.index - 2], axis)
            if isinstance(owner, soac.ScanomapOp) and owner.post is not None and value.block is owner.post.block:
                # a post-lambda parameter: the map lambda's value of that row
                return dim(owner.map_body.block.last_op.operands[value.index], axis)
            # an array a loop carries, inside the loop: the size it starts with, when
            # every iteration keeps it
            proved = self._loop_sizes(owner)
            if isinstance(owner, scf.WhileOp) and value.block is owner.after_region.block:
                key = ("forwarded", value.index, axis)
            else:
                key = (value, axis)
            if key in proved:
                return proved[key]
            raise UnknownSize(value)
        op = value.owner
        assert isinstance(op, Operation)
        index = value.index if isinstance(value, OpResult) else 0

        def yielded(region: Region, position: int | None = None) -> SSAValue:
            return region.block.last_op.operands[index if position is None else position]

        match op:
            case soac.MapOp():
                return dim(op.inputs[0], 0) if axis == 0 else dim(yielded(op.body), axis - 1)
            case soac.ReduceOp():
                return dim(op.inputs[index], axis + 1)
            case soac.ScanOp():
                return dim(op.inputs[index], axis)
            case soac.ScatterOp() | soac.HistOp():
                return dim(op.dest, axis)
            case soac.ScatteromapOp() | soac.HistomapOp():
                if index == 0:
                    return dim(op.dest, axis)
                return dim(op.inputs[0], 0) if axis == 0 else dim(yielded(op.map_body, index + 1), axis - 1)
            case soac.RedomapOp() | soac.ScanomapOp():
                # reduced and scanned values are scalars: only mapped arrays have rows
                if axis == 0:
                    return dim(op.inputs[0], 0)
                if isinstance(op, soac.ScanomapOp) and op.post is not None:
                    return dim(yielded(op.post), axis - 1)
                return dim(yielded(op.map_body), axis - 1)
            case soac.UpdateOp() | soac.DeviceUpdateOp():
                return dim(op.source, axis)
            case soac.CopyOp():
                return dim(op.input, axis)
            case soac.IotaOp():
                return self.atom(op.count)
            case soac.ReplicateOp():
                return self.atom(op.count) if axis == 0 else dim(op.value, axis - 1)
            case soac.ArrayOp():
                return Poly.const(len(op.elements)) if axis == 0 else dim(op.elements[0], axis - 1)
            case soac.IndexOp():
                return dim(op.array, axis + len(op.indices))
            case soac.DeviceIndexOp():
                entries = list(SliceSpec.entries(op.slice_kinds(), op.indices))
                ranges = [vals for kind, vals in entries if kind != SliceSpec.FIXED]
                if axis < len(ranges):
                    return self.atom(ranges[axis][1])  # a count: always on the host
                return dim(op.array, len(entries) + axis - len(ranges))
            case soac.TransposeOp():
                return dim(op.input, op.permutation.get_values()[axis])
            case soac.ConcatOp():
                if axis == 0:
                    total = ZERO
                    for v in op.inputs:
                        total = total + dim(v, 0)
                    return total
                return dim(op.inputs[0], axis)
            case soac.GpuBodyOp():
                return ONE if axis == 0 else dim(yielded(op.body), axis - 1)
            case husk.HuskOp():
                if index < len(op.reduced):  # a reduced array: as its neutral element
                    return dim(op.neutral[index], axis)
                if op.is_scatter and index == 0:  # the updated destination: as it was
                    return dim(op.dest, axis)
                # a concatenated array: the husk's rows, each as the body's (a scatter
                # husk's body yields its pairs before them)
                at = index + op.pairs - op.is_scatter
                return self.atom(op.size) if axis == 0 else dim(yielded(op.body, at), axis)
            case soac.SliceOp():
                entries = list(SliceSpec.entries(op.kinds.get_values(), op.spec))
                ranges = [vals for kind, vals in entries if kind != SliceSpec.FIXED]
                if axis < len(ranges):
                    return self.atom(ranges[axis][1])
                return dim(op.source, len(entries) + axis - len(ranges))
            case scf.IfOp():
                return self._either(op.cond, [dim(yielded(r), axis) for r in op.regions if r.blocks])
            case arith.SelectOp():
                return self._either(op.cond, [dim(v, axis) for v in op.operands[1:]])
            case scf.ForOp():
                carried = op.body.block.args[1:]
                proved = self._loop_sizes(op)
                if (carried[index], axis) in proved:
                    return proved[(carried[index], axis)]
            case scf.WhileOp():
                proved = self._loop_sizes(op)
                if ("forwarded", index, axis) in proved:
                    return proved[("forwarded", index, axis)]
        raise UnknownSize(value)

    def _either(self, condition: SSAValue, options: list[Poly]) -> Poly:
        """The size of an `if`'s or a select's result: the branches' when they are equal,
        else decided by the condition when it is known before the array is made
        (otherwise a regular program makes the branches agree, checked when written)."""
        sizes = [self.canonical(o) for o in options]
        if all(self.equal(s, sizes[0]) for s in sizes[1:]):
            return sizes[0]
        return self.atom(Select(condition, sizes[0], sizes[1]))

    def _loop_sizes(self, op: Operation) -> dict:
        """The sizes a `scf.for` or `scf.while` keeps (`_loop_keeps_sizes`); none for
        other ops, and none for a loop whose own induction asks (it cannot assume what
        it is proving)."""
        if op in self._proving or not isinstance(op, scf.ForOp | scf.WhileOp):
            return {}
        self._proving.add(op)
        try:
            if isinstance(op, scf.ForOp):
                carried = list(op.body.block.args[1:])
                return self._loop_keeps_sizes(op.iter_args, carried, carried, yielded_values(op.body))
            before = list(op.before_region.block.args)
            condition = op.before_region.block.last_op
            after = list(op.after_region.block.args)
            return self._loop_keeps_sizes(op.arguments, before, after, yielded_values(op.after_region), condition.args)
        finally:
            self._proving.discard(op)

    def _loop_keeps_sizes(self, inits, carried, after_args, after_yields, forwarded=None):
        """The sizes a loop keeps, by induction: assume the carried arrays have their
        initial sizes, and check each iteration yields those sizes. An array whose size
        changes is dropped from the assumption and the rest checked again, so that one
        growing array leaves the others' sizes known. Returns the sizes proved (of
        carried arrays by (array, axis), of the values a while forwards by
        ("forwarded", position, axis))."""
        kept = {(c, axis) for _, c, axis in _array_axes(carried)}
        while True:
            assumed = {
                (c, axis): self.canonical(self.dim(inits[i], axis))
                for i, c, axis in _array_axes(carried)
                if (c, axis) in kept
            }
            sizes: dict = dict(assumed)
            assumed_after = assumed
            if forwarded is not None:
                # a while: the before region forwards values to the after region and the results
                for i, f, axis in _array_axes(forwarded):
                    sizes[("forwarded", i, axis)] = self.canonical(self.dim(f, axis), assumed)
                assumed_after = assumed | {
                    (after_args[i], axis): sizes[("forwarded", i, axis)] for i, _, axis in _array_axes(forwarded)
                }
            changed = {
                (carried[i], axis)
                for i, y, axis in _array_axes(after_yields)
                if (carried[i], axis) in kept and not self.equal(self.dim(y, axis), assumed[(carried[i], axis)], assumed_after)
            }
            if not changed:
                return sizes
            kept -= changed

    def canonical(self, p: Poly, assumed: dict | None = None, depth: int = 0, into_loops: bool = False) -> Poly:
        """`p` with its dimensions followed back through array-making ops as far as they
        go (still stated: values as the program names them, so it can be computed
        again). `assumed` gives sizes taken for granted (a loop-carried array's size,
        while checking that the loop keeps it). An array a loop carries is followed back
        to the loop's start only `into_loops` (to compare sizes): where it is computed,
        the carried array states its size where it is used."""
        assumed = assumed or {}
        if depth > 64:
            return p

        def atom(i: int) -> Poly:
            key = self.key(i)
            if isinstance(key, Select):
                return self.atom(
                    Select(
                        key.condition,
                        self.canonical(key.if_true, assumed, depth + 1, into_loops),
                        self.canonical(key.if_false, assumed, depth + 1, into_loops),
                    )
                )
            if not isinstance(key, Dim):
                return Poly.atom(i)
            if (key.array, key.axis) in assumed:
                return assumed[(key.array, key.axis)]
            if isinstance(key.array, BlockArgument) and isinstance(key.array.block.parent_op(), func.FuncOp):
                return Poly.atom(i)
            if (
                not into_loops
                and isinstance(key.array, BlockArgument)
                and isinstance(key.array.block.parent_op(), scf.ForOp | scf.WhileOp)
            ):
                return Poly.atom(i)
            try:
                derived = self.derive_dim(key.array, key.axis)
            except UnknownSize:
                return Poly.atom(i)
            return self.canonical(derived, assumed, depth + 1, into_loops)

        return p.substitute(atom)

    def normal(self, p: Poly, assumed: dict | None = None, depth: int = 0) -> Poly:
        """`p` canonical, then its values expanded through index arithmetic and sizes, and
        a `Select` of equal branches replaced by them: equal sizes compare equal."""
        if depth > 64:
            return p

        def value(v: SSAValue) -> Poly:
            op = v.owner
            if isinstance(op, soac.SizeOp):
                return self.normal(self.dim(op.array, op.dim.value.data), assumed, depth + 1)
            found = self.arithmetic(v, value)
            return self.atom(v) if found is None else found

        def atom(i: int) -> Poly:
            key = self.key(i)
            if isinstance(key, SSAValue):
                return value(key)
            if isinstance(key, Select):
                a, b = self.normal(key.if_true, assumed, depth + 1), self.normal(key.if_false, assumed, depth + 1)
                return a if a == b else self.atom(Select(key.condition, a, b))
            if isinstance(key, Dim) and key.array.type.get_shape()[key.axis] != DYNAMIC_INDEX:
                return Poly.const(key.array.type.get_shape()[key.axis])
            return Poly.atom(i)

        return self.canonical(p, assumed, depth + 1, into_loops=True).substitute(atom)

    def equal(self, a: Poly, b: Poly, assumed: dict | None = None) -> bool:
        return self.normal(a, assumed) == self.normal(b, assumed)


# --------------------------------------------------------------------------------------
# Level 2: how big a view is, as the ops that make it state it
# --------------------------------------------------------------------------------------


def derive_view_dim(sizes: Sizes, view: SSAValue, axis: int) -> Poly | None:
    """Dimension `axis` of a level-2 view, stated one step back by the op that makes it
    (a `mem.view`'s size, a slice's count, its source's dimension), a lambda's row by its
    array's, a loop's result by its carried array's; None where no op states it (a
    loop-carried array needs induction: see `stated_size` and `Symbolic`)."""
    t = view.type
    assert isinstance(t, MemRefType)
    op = view.owner
    if isinstance(view, OpResult) and isinstance(view.op, scf.ForOp):
        return sizes.dim(view.op.body.block.args[view.index + 1], axis)
    if isinstance(view, BlockArgument):
        parent = view.owner.parent_op()
        if isinstance(parent, mem.MapOp):
            sources = lambda_row_sources(parent, view)
            if (
                len(sources) == 1
                and isinstance(sources[0].type, MemRefType)
                and sources[0].type.get_num_dims() == t.get_num_dims() + 1
            ):
                return sizes.dim(sources[0], axis + 1)
        return None
    if isinstance(op, mem.ViewOp):
        dynamic = [d for d, s in enumerate(t.get_shape()) if s == DYNAMIC_INDEX]
        if axis not in dynamic:
            return Poly.const(t.get_shape()[axis])
        return sizes.atom(op.sizes[dynamic.index(axis)])
    if isinstance(op, mem.SliceOp):
        entries = list(SliceSpec.entries(op.kinds.get_values(), op.spec))
        ranges = [values for kind, values in entries if kind != SliceSpec.FIXED]
        if axis < len(ranges):
            return sizes.atom(ranges[axis][1])
        return sizes.dim(op.source, len(entries) + axis - len(ranges))
    if isinstance(op, mem.TransposeOp):
        return sizes.dim(op.input, op.permutation.get_values()[axis])
    return None


def stated_size(view: SSAValue, axis: int, _pending: frozenset[SSAValue] = frozenset()) -> SSAValue | int | None:
    """The size of a view's dimension as the ops that make it state it: a constant, a
    value, or None when only running the program tells (`derive_view_dim` followed
    back to a value). A loop-carried array has the size it starts with when every
    iteration yields an array of the size it was given (by induction)."""
    t = view.type
    assert isinstance(t, MemRefType)
    static = t.get_shape()[axis]
    if static != DYNAMIC_INDEX:
        return static
    if view in _pending:
        return None
    pending = _pending | {view}
    if isinstance(view, BlockArgument) and isinstance(view.owner.parent_op(), scf.ForOp):
        parent = view.owner.parent_op()
        if view.index < 1:
            return None
        k = view.index - 1
        start = stated_size(parent.iter_args[k], axis, pending)
        terminator = parent.body.block.last_op
        assert terminator is not None
        step = stated_size(terminator.operands[k], axis, pending)
        itself = (
            isinstance(step, OpResult)
            and isinstance(step.op, mem.SizeOp)
            and step.op.view is view
            and step.op.dim.value.data == axis
        )
        return start if start is not None and (step == start or itself) else None
    sizes = Sizes()
    stated = derive_view_dim(sizes, view, axis)
    if stated is None or stated.single_atom is None:
        return None
    key = sizes.key(stated.single_atom)
    if isinstance(key, Dim):
        return stated_size(key.array, key.axis, pending)
    assert isinstance(key, SSAValue)
    return key


def outer_size(view: SSAValue) -> SSAValue | int | None:
    """What the outer size of a view is stated as (`stated_size`), followed through
    `mem.size` of views whose outer size is stated; None when not stated."""
    if not isinstance(view.type, MemRefType) or not view.type.get_num_dims():
        return None
    size = stated_size(view, 0)
    return size if size is None or isinstance(size, int) else size_value(size)


def size_value(value: SSAValue) -> SSAValue | int:
    """A size, with `mem.size %v[0]` replaced by what %v's outer size is stated as."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    if isinstance(op, mem.SizeOp) and op.dim.value.data == 0:
        stated = outer_size(op.view)
        if stated is not None:
            return stated
    return value


def asserted_equal_sizes(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """The two index values a run-time size check (`cf.assert` of `arith.cmpi eq`, as
    passes/utils/size_checks.py makes them) requires equal; None for any other op."""
    if not isinstance(op, cf.AssertOp):
        return None
    compare = op.arg.owner
    if not isinstance(compare, arith.CmpiOp) or compare.predicate.value.data != 0:  # 0: eq
        return None
    if not all(isinstance(v.type, IndexType) for v in compare.operands):
        return None
    return compare.lhs, compare.rhs
