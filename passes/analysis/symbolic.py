"""Index-valued SSA values as polynomials, and views as symbolic index functions.

The memory passes ask questions about sizes and places that SSA names alone cannot
answer: are two allocation sizes equal (`4*n` computed twice, or `n` and the size of a
view of `n` rows)? Do two views of one block overlap (the parts of a concat)? Do a
kernel's input and output address the same bytes per row (an index-access
exception)? This analysis answers them by rewriting every index value as a polynomial
of sizes.py's algebra in normal form (over atoms it cannot see through: parameters,
loads, loop-carried values, and divisions, maxima and the like kept as structured
atoms, so that `n/2` computed twice is one atom), a view's sizes by sizes.py's rules for
views, and every view as an `IndexFunction`: its block, its byte offset, its sizes and
its strides in elements.

Equalities the program asserts at run time (a map's inputs and outputs have one outer
size, a copy's source and destination one shape) are *facts*: atoms known equal, used
by `equal` when the caller says which ops' facts hold where it asks. Never changes IR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.ir import BlockArgument, Operation, SSAValue

from soacc.dialects import husk, mem
from soacc.dialects.soac import SliceSpec
from soacc.passes.analysis.sizes import ONE, Dim, Poly, Select, Sizes, asserted_equal_sizes, derive_view_dim


@dataclass(frozen=True)
class IndexFunction:
    """Where a view's elements are: element (i, j, ...) of the view is at byte
    `offset + (i*strides[0] + j*strides[1] + ...) * element_bytes` of `block`."""

    block: SSAValue
    offset: Poly
    sizes: tuple[Poly, ...]
    strides: tuple[Poly, ...]
    element_bytes: int

    def rebased(self, block: SSAValue) -> IndexFunction:
        return IndexFunction(block, self.offset, self.sizes, self.strides, self.element_bytes)


_NONNEGATIVE_IF_OPERANDS_ARE = ("arith.divui", "arith.ceildivui", "arith.remui", "arith.maxui", "arith.minui",
                                "arith.divsi", "arith.ceildivsi", "arith.floordivsi", "arith.minsi",
                                "arith.shrui", "arith.andi")


class Symbolic(Sizes):
    """Polynomials of index values and index functions of views, inside `root`."""

    def __init__(self, root: Operation):
        super().__init__()
        self._exprs: dict[SSAValue, Poly] = {}
        self._ixfuns: dict[SSAValue, IndexFunction | None] = {}
        self._shapes: dict[SSAValue, tuple[Poly, ...] | None] = {}
        self._nonnegative: set[int] = set()
        self._parent: dict[int, int] = {}
        self._mark_nonnegative(root)

    # --- atoms --------------------------------------------------------------------------

    def describe_atom(self, i: int) -> str:
        key = self.key(i)
        if isinstance(key, SSAValue):
            return f"%{key.name_hint}" if key.name_hint else "%?"
        if isinstance(key, Dim):
            return f"dim({_name(key.array)}, {key.axis})"
        if isinstance(key, Select):
            return f"select({_name(key.condition)}, {self.describe(key.if_true)}, {self.describe(key.if_false)})"
        if isinstance(key, tuple):
            return f"{key[0].split('.')[-1]}({', '.join(self.describe(p) if isinstance(p, Poly) else _name(p) for p in key[1:])})"
        return "?"

    def describe(self, p: Poly) -> str:
        """A readable form: `4*%n*%m + 8`."""
        if not p.terms:
            return "0"
        parts = []
        for m, c in p.terms:
            factors = sorted(self.describe_atom(a) for a in m)
            if c != 1 or not factors:
                factors.insert(0, str(c))
            parts.append((len(m) == 0, "*".join(factors[1:] if c != 1 and factors[1:] else factors), "*".join(factors)))
        # a stable order: by the names in each term, constants last
        return " + ".join(text for _, _, text in sorted(parts)).replace("+ -", "- ")

    # --- index values as polynomials ------------------------------------------------------

    def expr(self, value: SSAValue) -> Poly:
        """`value` in normal form."""
        cached = self._exprs.get(value)
        if cached is None:
            cached = self._expr(value)
            self._exprs[value] = cached
        return cached

    def _expr(self, value: SSAValue) -> Poly:
        op = value.owner
        if isinstance(op, mem.SizeOp):
            return self.size_of(op.view, op.dim.value.data)
        found = self.arithmetic(value, self.expr)
        return self.atom(value) if found is None else found

    # --- views as index functions ----------------------------------------------------------

    def index_function(self, view: SSAValue) -> IndexFunction | None:
        if view not in self._ixfuns:
            self._ixfuns[view] = self._index_function(view)
        return self._ixfuns[view]

    def _dims(self, t: MemRefType, dynamic: Sequence[SSAValue]) -> tuple[Poly, ...]:
        it = iter(dynamic)
        return tuple(self.expr(next(it)) if d == DYNAMIC_INDEX else Poly.const(d) for d in t.get_shape())

    def _index_function(self, view: SSAValue) -> IndexFunction | None:
        op = view.owner
        t = view.type
        if not isinstance(t, MemRefType):
            return None
        if isinstance(view, BlockArgument) and isinstance(view.owner.parent_op(), scf.ForOp):
            return self._carried_index_function(view)
        if isinstance(view, BlockArgument) and isinstance(view.owner.parent_op(), husk.RunOp):
            return self._husk_rows(view.owner.parent_op(), view)
        if isinstance(op, mem.ViewOp):
            sizes = self._dims(t, op.sizes)
            if op.strides:
                strides = tuple(self.expr(s) for s in op.strides)
            else:
                strides_list = [ONE] * len(sizes)
                for axis in range(len(sizes) - 2, -1, -1):
                    strides_list[axis] = strides_list[axis + 1] * sizes[axis + 1]
                strides = tuple(strides_list)
            return IndexFunction(op.block, self.expr(op.byte_offset), sizes, strides, t.element_type.compile_time_size)
        if isinstance(op, mem.SliceOp):
            source = self.index_function(op.source)
            if source is None:
                return None
            offset = source.offset
            sizes: list[Poly] = []
            strides: list[Poly] = []
            entries = list(SliceSpec.entries(op.kinds.get_values(), op.spec))
            for axis, (kind, values) in enumerate(entries):
                stride = source.strides[axis]
                start = self.expr(values[0])
                offset = offset + (start * stride).scale(source.element_bytes)
                if kind == SliceSpec.FIXED:
                    continue
                sizes.append(self.expr(values[1]))
                strides.append(stride if kind == SliceSpec.RANGE else self.expr(values[2]) * stride)
            sizes += source.sizes[len(entries) :]
            strides += source.strides[len(entries) :]
            return IndexFunction(source.block, offset, tuple(sizes), tuple(strides), source.element_bytes)
        if isinstance(op, mem.TransposeOp):
            source = self.index_function(op.input)
            if source is None:
                return None
            perm = op.permutation.get_values()
            return IndexFunction(
                source.block,
                source.offset,
                tuple(source.sizes[p] for p in perm),
                tuple(source.strides[p] for p in perm),
                source.element_bytes,
            )
        return None

    def _husk_rows(self, run: husk.RunOp, arg: BlockArgument) -> IndexFunction | None:
        """A husk body's parameter as device 0 sees it: the rows [offset, offset + size)
        of a source or an out, or row `device` of a slot array (a slice of it)."""
        found = run.array_of(arg)
        if found is None:
            return None
        group, array = found
        source = self.index_function(array)
        if source is None:
            return None
        if group == "slots":
            start, sizes, strides = self.expr(run.device_arg), source.sizes[1:], source.strides[1:]
        else:
            start, sizes, strides = self.expr(run.offset_arg), (self.expr(run.size_arg), *source.sizes[1:]), source.strides
        offset = source.offset + (start * source.strides[0]).scale(source.element_bytes)
        return IndexFunction(source.block, offset, tuple(sizes), tuple(strides), source.element_bytes)

    def _carried_index_function(self, view: BlockArgument) -> IndexFunction | None:
        """A loop-carried array's index function, by induction: when the loop starts it
        with a view of some block, and every iteration yields a view with the same
        offset, sizes and strides (polynomials of values from outside the loop) of the
        block it yields in the place of that block, every iteration sees that index
        function on the carried block. (The study's L2 and L3 ask for this.)"""
        loop, k, terminator = _carried_position(view)
        if k < 0 or terminator is None:
            return None
        inits = list(loop.iter_args)
        start = self.index_function(inits[k])
        if start is None or inits.count(start.block) != 1:
            return None
        q = inits.index(start.block)
        assumed = start.rebased(view.owner.args[q + 1])

        def step_keeps_it(step: IndexFunction | None) -> bool:
            return (
                step is not None
                and step.block is terminator.operands[q]
                and (step.offset, step.sizes, step.strides, step.element_bytes)
                == (assumed.offset, assumed.sizes, assumed.strides, assumed.element_bytes)
            )

        yielded = terminator.operands[k]
        holds = self._by_induction(self._ixfuns, view, assumed, lambda: step_keeps_it(self.index_function(yielded)))
        return assumed if holds else None

    def _by_induction(
        self, assumptions: dict, view: BlockArgument, hypothesis: object, step_holds: Callable[[], bool]
    ) -> bool:
        """Whether the yield keeps what is assumed of the carried `view`
        (`assumptions[view] = hypothesis`, while `step_holds` looks at the yield);
        nothing computed under a hypothesis that fails stays."""
        saved = dict(self._exprs), dict(self._ixfuns), dict(self._shapes)
        assumptions[view] = hypothesis
        if step_holds():
            return True
        self._exprs, self._ixfuns, self._shapes = saved
        return False

    def shape(self, view: SSAValue) -> tuple[Poly, ...] | None:
        """A view's sizes: its index function's, or, where that is unknown because a
        loop carries the array in a layout that changes between iterations (a
        transpose yielded in place of its source, say), the sizes alone, by the same
        induction as the index function's."""
        if view not in self._shapes:
            ixfun = self.index_function(view)
            self._shapes[view] = ixfun.sizes if ixfun is not None else self._shape(view)
        return self._shapes[view]

    def _shape(self, view: SSAValue) -> tuple[Poly, ...] | None:
        t = view.type
        if not isinstance(t, MemRefType):
            return None
        if isinstance(view, BlockArgument) and isinstance(view.owner.parent_op(), scf.ForOp):
            return self._carried_shape(view)
        shape = []
        for axis in range(t.get_num_dims()):
            stated = derive_view_dim(self, view, axis)
            size = None if stated is None else self._normal(stated)
            if size is None:
                return None
            shape.append(size)
        return tuple(shape)

    def _normal(self, stated: Poly) -> Poly | None:
        """A stated size (`derive_view_dim`'s) in normal form: its values as polynomials,
        its dimensions by their views' shapes; None where a view has no known shape."""
        unknown: list[Dim] = []

        def atom(i: int) -> Poly:
            key = self.key(i)
            if isinstance(key, SSAValue):
                return self.expr(key)
            if isinstance(key, Dim):
                shape = self.shape(key.array)
                if shape is None:
                    unknown.append(key)
                    return Poly.atom(i)
                return shape[key.axis]
            return Poly.atom(i)

        normal = stated.substitute(atom)
        return None if unknown else normal

    def _carried_shape(self, view: BlockArgument) -> tuple[Poly, ...] | None:
        loop, k, terminator = _carried_position(view)
        if k < 0 or terminator is None:
            return None
        start = self.shape(loop.iter_args[k])
        if start is None:
            return None
        yielded = terminator.operands[k]
        holds = self._by_induction(self._shapes, view, start, lambda: self.shape(yielded) == start)
        return start if holds else None

    def size_of(self, view: SSAValue, axis: int) -> Poly:
        shape = self.shape(view)
        if shape is not None:
            return shape[axis]
        t = view.type
        assert isinstance(t, MemRefType)
        static = t.get_shape()[axis]
        if static != DYNAMIC_INDEX:
            return Poly.const(static)
        return self.dim(view, axis)

    def extent(self, ixfun: IndexFunction) -> tuple[Poly, Poly] | None:
        """[first byte, end byte) of a view with non-negative strides (None otherwise):
        one past its last element when it has elements."""
        if not all(self.nonnegative(s) for s in ixfun.strides):
            return None
        span = ONE
        for size, stride in zip(ixfun.sizes, ixfun.strides):
            span = span + (size - ONE) * stride
        return ixfun.offset, ixfun.offset + span.scale(ixfun.element_bytes)

    def disjoint(self, a: IndexFunction, b: IndexFunction) -> bool:
        """The two views certainly share no byte (same block, ranges apart)."""
        if a.block is not b.block:
            return False
        ea, eb = self.extent(a), self.extent(b)
        if ea is None or eb is None:
            return False
        return self.nonnegative(eb[0] - ea[1]) or self.nonnegative(ea[0] - eb[1])

    def same_addresses(self, a: IndexFunction, b: IndexFunction) -> bool:
        """Element (i, j, ...) of both is at the same byte, both of one element size."""
        return (
            a.element_bytes == b.element_bytes
            and len(a.sizes) == len(b.sizes)
            and self.equal(a.offset, b.offset)
            and all(self.equal(x, y) for x, y in zip(a.sizes, b.sizes))
            and all(self.equal(x, y) for x, y in zip(a.strides, b.strides))
        )

    # --- signs ------------------------------------------------------------------------------

    def _mark_nonnegative(self, root: Operation) -> None:
        """Values used as sizes, offsets, counts or indices of views and allocations
        are never negative in a run that does not fail, and neither are sizes."""
        for op in root.walk():
            if isinstance(op, mem.ViewOp):
                values = [op.byte_offset, *op.sizes]
            elif isinstance(op, mem.SliceOp):
                # offsets, counts and fixed indices (a stride may be negative)
                entries = SliceSpec.entries(op.kinds.get_values(), op.spec)
                values = [v for _, vals in entries for v in vals[:2]]
            elif isinstance(op, mem.AllocOp):
                values = [op.bytes]
            elif isinstance(op, mem.LoadOp | mem.StoreOp):
                values = list(op.indices)
            elif isinstance(op, husk.RunOp):
                # a device's number, offset and size: never negative
                values = list(op.body.block.args[:3])
            elif isinstance(op, scf.ForOp):
                values = [op.lb]
                if self._is_nonnegative_value(op.lb):
                    self._nonnegative |= self.expr(op.body.block.args[0]).atoms()
                continue
            else:
                continue
            for v in values:
                p = self.expr(v)
                if p.single_atom is not None:
                    self._nonnegative.add(p.single_atom)

    def _is_nonnegative_value(self, v: SSAValue) -> bool:
        return self.nonnegative(self.expr(v))

    def _atom_nonnegative(self, i: int) -> bool:
        if i in self._nonnegative:
            return True
        key = self.key(i)
        if isinstance(key, Dim):
            return True
        if isinstance(key, Select):
            return self.nonnegative(key.if_true) and self.nonnegative(key.if_false)
        if isinstance(key, tuple) and key:
            if key[0] in _NONNEGATIVE_IF_OPERANDS_ARE:
                return all(self.nonnegative(p) for p in key[1:] if isinstance(p, Poly))
            if key[0] == "arith.maxsi":
                return any(self.nonnegative(p) for p in key[1:] if isinstance(p, Poly))
        return False

    def nonnegative(self, p: Poly) -> bool:
        """Provably >= 0: non-negative coefficients over non-negative atoms."""
        p = p.rename(self._find)
        return all(c >= 0 and all(self._atom_nonnegative(a) for a in m) for m, c in p.terms)

    # --- facts --------------------------------------------------------------------------------

    def _find(self, i: int) -> int:
        while self._parent.get(i, i) != i:
            i = self._parent[i]
        return i

    def assume_equal(self, a: Poly, b: Poly) -> None:
        ia, ib = a.single_atom, b.single_atom
        if ia is None or ib is None:
            return
        ra, rb = self._find(ia), self._find(ib)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    def assume_facts_of(self, ops: Iterable[Operation]) -> None:
        """Takes as true the equal sizes that these ops check when they run (a
        combinator's outer sizes, a copy's shapes, a size check a pass left)."""
        for op in ops:
            asserted = asserted_equal_sizes(op)
            if asserted is not None:
                self.assume_equal(self.expr(asserted[0]), self.expr(asserted[1]))
            for group in equal_outer_sizes(op):
                first = self.size_of(group[0][0], group[0][1])
                for view, axis in group[1:]:
                    self.assume_equal(first, self.size_of(view, axis))

    def canonical(self, p: Poly) -> Poly:
        """`p` with every atom replaced by the representative of the atoms known equal."""
        return p.rename(self._find)

    def equal(self, a: Poly, b: Poly) -> bool:
        return a.rename(self._find) == b.rename(self._find)


def _carried_position(view: BlockArgument) -> tuple[scf.ForOp, int, Operation | None]:
    """The loop that carries `view`, its position among the carried values (-1 for
    the induction variable) and the body's yield."""
    body = view.owner
    loop = body.parent_op()
    assert isinstance(loop, scf.ForOp)
    return loop, view.index - 1, body.last_op


def equal_outer_sizes(op: Operation) -> list[list[tuple[SSAValue, int]]]:
    """Groups of (view, axis) whose sizes the op requires equal."""
    if isinstance(op, mem.MapOp):
        return [[(v, 0) for v in (*op.inputs, *op.outputs)]]
    if isinstance(op, mem.ReduceOp | mem.ScanOp):
        return [[(v, 0) for v in op.inputs]]
    if isinstance(op, mem.ScatterOp | mem.HistOp):
        return [[(op.indices, 0), (op.values, 0)]]
    if isinstance(op, mem.CopyOp):
        rank = op.source.type.get_num_dims()
        return [[(op.source, axis), (op.dest, axis)] for axis in range(rank)]
    return []


def _name(value: object) -> str:
    if isinstance(value, SSAValue):
        return f"%{value.name_hint}" if value.name_hint else "%?"
    return str(value)
