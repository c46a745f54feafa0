"""short-circuit: memory block coalescing (the study's chapter 5, "short-circuiting").

At level 2 a copy, each part of a concatenation and an in-place update of a slice are
all one op, `mem.copy %src, %dst` (the destination a whole array or a view of part of
one). When `%src` is an array made in this body and dead after the copy, it can be made
directly where the copy would put it: the view `%src` is replaced by (a view equal to)
`%dst`, so whatever made `%src` writes into the destination's memory, and the copy and
`%src`'s block disappear. Because the replacement is a view *derived from* the
destination's own view, arrays merged earlier into `%src`'s memory follow it: chains of
copies, concatenations and in-place updates compose (the study's `rebase`, with the
digest's correction that the base is the source's new index function).

A copy is short-circuited when the study's five safety conditions hold, checked on the
current IR top-down (earlier merges included):

1. last use: the copy is the last statement of its body that touches `%src`'s memory,
   and the body does not pass that memory on;
2. the destination's block exists before `%src` is made (hoist-allocations sees to it);
3. nothing between the making of `%src` and the copy reads or writes the bytes of the
   destination (region-wise: other parts of a concatenation may be written), and the
   statement that makes `%src` touches them only if each of its lanes reads a row
   before writing the same bytes (an index-access exception, which the study proposes
   for LUD and Futhark does today);
4. `%src` is a fresh array: the only view of its own block, not a slice of another;
5. the destination's view can be computed where `%src` is made (its index values are
   known there: cloned pure code, never a value read after `%src` is made).

If `%src` is the result of an `scf.if`, each branch's array is coalesced instead (the
extra condition for `if`): at least one branch makes its array inside the branch; a
branch array made inside must leave the destination and the other branches' arrays
alone from its making to the end of the branch; one made before the `if` must satisfy
the conditions up to the `if`, and its branch must not touch the destination. Past
the study, a branch whose array is neither (a parameter, a row of another array, an
array used after the `if`) copies it into the destination at its end, where the copy
after the `if` would have, so that the other branches still build theirs in place.
Arrays from loops are not coalesced (the study's limitation: loop-carried memory would
need index functions of its own).

A copy checks that its source has the destination's shape, and at level 1 only that
check may make the sizes equal. Where the sizes are not provably equal, the check stays
when the copy goes: a `cf.assert` (passes/utils/size_checks.py) before the source is
made in the destination, unless the op that makes it checks the same itself. An `if`'s
array made before the `if` is coalesced only where every branch yields its sizes.

A map's lambda that yields an `if`'s array for an output row copies it into the row
when it ends. That copy is made explicit and coalesced like the others; where it cannot
be, the lambda is left as it was. (Gauss-Jordan's elimination step yields the pivot row
or a row reduced by it: afterwards the first is copied into the output row and the
second made there, with no scratch row per lane, and convert-mem-to-gpu can share each
row among a group of threads.)

At the end, allocations that hoisting moved up for nothing move back down to their
first use, and dead views and allocations are erased. `report=true` prints, per
function, the copies removed, the blocks merged and the bytes no longer allocated.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from soacc.dialects import mem
from soacc.dialects.soac import SliceSpec
from soacc.passes.analysis.interference import lambda_params, map_exception
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases, root_view
from soacc.passes.analysis.memory_liveness import BlockLiveness
from soacc.passes.analysis.sizes import Poly
from soacc.passes.analysis.symbolic import Symbolic, equal_outer_sizes
from soacc.passes.utils.function_analyses import FunctionAnalyses
from soacc.passes.utils.size_checks import insert_size_check
from soacc.passes.utils.memory_motion import (
    Materialiser,
    dominates,
    drop_if_results,
    sink_allocation,
)


@dataclass
class Merge:
    """One array made directly in a destination's memory."""

    source: str
    destination: str
    bytes: Poly


@dataclass
class ShortCircuit:
    """Coalesces copies in one function."""

    function: func.FuncOp
    merges: list[Merge] = field(default_factory=list)
    copies_removed: int = 0
    bytes_saved: Poly = field(default_factory=lambda: Poly.const(0))

    def __post_init__(self) -> None:
        self.sizes = Symbolic(self.function)  # for the report: one set of atoms throughout
        self.analyses = FunctionAnalyses(self.function)
        self.rewriter = PatternRewriter(self.function)  # every change to the function goes through it

    @property
    def aliases(self) -> MemoryAliases:
        return self.analyses.aliases

    @property
    def symbolic(self) -> Symbolic:
        return self.analyses.symbolic()

    def live(self, block: Block) -> BlockLiveness:
        return self.analyses.liveness(block)

    def run(self) -> None:
        self.visit(self.function.body.block)
        for alloc in [op for op in self.function.walk() if isinstance(op, mem.AllocOp)]:
            sink_allocation(alloc)
        region_dce(self.function.body)

    def visit(self, block: Block) -> None:
        for op in list(block.ops):
            if op.parent is None:
                continue  # erased by an earlier merge
            if isinstance(op, mem.CopyOp):
                if self.coalesce(op):
                    self.analyses.changed()
                continue
            for region in op.regions:
                for inner in region.blocks:
                    self.visit(inner)
            if isinstance(op, mem.MapOp):
                self.coalesce_lambda_results(op)

    def coalesce_lambda_results(self, op: mem.MapOp) -> None:
        """A map's lambda that yields an `if`'s array for an output row copies it into
        the row when it ends (the kernel does, and so does the reference executor).
        That copy is made explicit and coalesced like any other (each branch then
        builds its array in the row, or copies it there); where it cannot be, the
        lambda is left as it was."""
        body = op.body.block
        terminator = body.last_op
        assert terminator is not None
        _, rows = lambda_params(op)
        for index, row in enumerate(rows):
            yielded = terminator.operands[index]
            if row is None or yielded is row or not isinstance(yielded.owner, scf.IfOp):
                continue
            if yielded.owner.parent_block() is not body or any(use.operation is not terminator for use in row.uses):
                continue
            kept = self.analyses.kept()
            copy = mem.CopyOp(yielded, row)
            self.rewriter.insert(copy, InsertPoint.before(terminator))
            terminator.operands = [row if i == index else v for i, v in enumerate(terminator.operands)]
            self.analyses.changed()
            branch_op = yielded.owner
            if self.coalesce(copy):
                # every branch now leaves its rows in the output row: the `if` need not
                # yield them (and a kernel need not carry a view out of it)
                if not yielded.uses:
                    drop_if_results(branch_op, [yielded.index])
                self.analyses.changed()
            else:
                terminator.operands = [yielded if i == index else v for i, v in enumerate(terminator.operands)]
                self.rewriter.erase(copy)
                self.analyses.restore(kept)  # the IR is as it was

    # --- the safety conditions ------------------------------------------------------------

    def coalesce(self, copy: mem.CopyOp) -> bool:
        src, dst = copy.source, copy.dest
        if mem.space_of(src.type) != mem.space_of(dst.type):
            return False
        if isinstance(src.owner, scf.IfOp):
            return self.coalesce_if(copy, src.owner)
        block = copy.parent_block()
        assert block is not None
        fresh = self.fresh_array(src, block)
        if fresh is None:
            return False
        alloc, root = fresh
        memory = alloc.block
        live = self.live(block)
        at = live.index(copy)
        if live.last_use.get(memory) != at:  # 1: last use
            return False
        made = live.first_use.get(memory)
        if made is None or made >= at:
            return False
        if not self.destination_ready(copy, live.statements[made]):  # 2 (and 5 below)
            return False
        if not self.untouched_between(dst, live, made, at, memory):  # 3
            return False
        point = self.first_user(root, block)
        if point is None or not Materialiser(point).possible(dst):  # 5
            return False
        self.merged(_name(src), _name(dst), alloc)
        self.rewrite(root, alloc, dst, point)
        self.rewriter.erase(copy)
        self.copies_removed += 1
        return True

    def merged(self, source: str, destination: str, alloc: mem.AllocOp) -> None:
        size = self.sizes.expr(alloc.bytes)
        self.merges.append(Merge(source, destination, size))
        self.bytes_saved = self.bytes_saved + size

    def fresh_array(
        self, view: SSAValue, block: Block, passed_by: Operation | None = None
    ) -> tuple[mem.AllocOp, mem.ViewOp] | None:
        """4: the view is the only view of a block allocated in `block` (whose block
        value nothing else uses, but for `passed_by`, a branch's yield)."""
        root = view.owner
        if not isinstance(root, mem.ViewOp) or root.parent_block() is not block:
            return None
        alloc = root.block.owner
        if not isinstance(alloc, mem.AllocOp) or alloc.parent_block() is not block:
            return None
        users = [use.operation for use in alloc.block.uses]
        if users.count(root) != 1 or any(u is not root and u is not passed_by for u in users):
            return None  # other views of it, or the block itself passed on
        return alloc, root

    def destination_ready(self, copy: mem.CopyOp, made: Operation) -> bool:
        """2: the destination's block is available where the source is made."""
        ixfun = self.symbolic.index_function(copy.dest)
        block_value = ixfun.block if ixfun is not None else None
        if block_value is None:
            root = root_view(copy.dest)
            if root is None:
                return False
            block_value = root.block
        return dominates(block_value, made)

    def untouched_between(
        self, dst: SSAValue, live: BlockLiveness, start: int, stop: int, source: SSAValue | None = None
    ) -> bool:
        """3: no statement from `start` to before `stop` touches the destination's
        bytes, but for the index-access exception of the statement at `start` that
        makes `source`."""
        targets = self.aliases.memories(dst)
        if not targets:
            return False
        for i in range(start, min(stop, len(live.statements))):
            statement = live.statements[i]
            if not live.touches[i] & targets:
                continue
            if self.only_apart(statement, dst, targets):
                continue
            if (
                i == start
                and source is not None
                and len(targets) == 1
                and map_exception(statement, next(iter(targets)), source, self.aliases, self.symbolic, new_view=dst)
            ):
                continue
            return False
        return True

    def only_apart(self, statement: Operation, dst: SSAValue, targets: frozenset[SSAValue]) -> bool:
        """Every access of the statement to the destination's memories is to bytes
        apart from the destination's."""
        where = self.symbolic.index_function(dst)
        if where is None:
            return False
        for _, access in nested_accesses(statement):
            if access.opaque and self.aliases.memories_of_all(access.opaque) & targets:
                return False
            for view in access.reads + access.writes:
                if not self.aliases.memories(view) & targets:
                    continue
                other = self.symbolic.index_function(view)
                if other is None or not self.symbolic.disjoint(where, other):
                    return False
        return True

    @staticmethod
    def first_user(root: mem.ViewOp, block: Block) -> Operation | None:
        """The first statement of the block using the source's view."""
        first: Operation | None = None
        for use in root.result.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None:
                return None
            if first is None or user.is_before_in_block(first):
                first = user
        return first

    # --- the rewrite -----------------------------------------------------------------------

    def rewrite(self, root: mem.ViewOp, alloc: mem.AllocOp | None, dst: SSAValue, point: Operation) -> None:
        """The source's view becomes the destination's (made before `point`), with the
        removed copy's size check before it."""
        new = Materialiser(point).value(dst)
        self.keep_size_check(root, dst, new, point)
        new = _with_type(new, root.result.type, point, root)
        if root.result.name_hint and not new.name_hint:
            new.name_hint = root.result.name_hint
        self.rewriter.replace_all_uses_with(root.result, new)
        self.rewriter.erase(root)
        if alloc is not None and not alloc.block.uses:
            self.rewriter.erase(alloc)

    def unproven_sizes(self, root: mem.ViewOp, dst: SSAValue) -> list[tuple[int, SSAValue | int]]:
        """The dimensions the removed copy compared (the source's size there) that the
        sizes do not prove equal: level 1 states no sizes in types, so often only the
        copy's own check made them equal."""
        shape = root.result.type.get_shape()
        dynamic = iter(root.sizes)
        made = [next(dynamic) if d == DYNAMIC_INDEX else d for d in shape]
        return [
            (axis, made[axis])
            for axis in range(len(shape))
            if not self.symbolic.equal(self.symbolic.size_of(root.result, axis), self.symbolic.size_of(dst, axis))
        ]

    def branches_agree(self, branch_op: Operation, terminator: Operation, root: mem.ViewOp) -> bool:
        """Every branch of the `if` yields, where `terminator` yields `root`, an array
        of `root`'s sizes."""
        k = list(terminator.operands).index(root.result)
        shape = self.symbolic.shape(root.result)
        for region in branch_op.regions:
            other = self.symbolic.shape(region.block.last_op.operands[k])
            if shape is None or other is None or not all(self.symbolic.equal(a, b) for a, b in zip(shape, other)):
                return False
        return True

    def maker_checks(self, maker: Operation, root: mem.ViewOp, axis: int) -> bool:
        """The op that makes the source checks, when it runs, that this dimension of
        what it writes equals one of an array of provably the source's size (a map's
        inputs and outputs have one outer size, a copy's two arrays one shape): once
        it writes the destination, that is the removed copy's check."""
        size = self.symbolic.size_of(root.result, axis)
        for group in equal_outer_sizes(maker):
            if (root.result, axis) in group and any(
                view is not root.result and self.symbolic.equal(self.symbolic.size_of(view, a), size)
                for view, a in group
            ):
                return True
        return False

    def keep_size_check(self, root: mem.ViewOp, dst: SSAValue, new: SSAValue, point: Operation) -> None:
        """The copy checked that its source has the destination's shape; with the copy
        gone the check stays, before the source is made (a kernel must not make it in
        a view of another size: the GPU's kernels check no sizes)."""
        for axis, made in self.unproven_sizes(root, dst):
            if self.maker_checks(point, root, axis):
                continue
            size = mem.SizeOp(new, axis)
            self.rewriter.insert(size, InsertPoint.before(point))
            insert_size_check(
                InsertPoint.before(point), made, size.result,
                f"{_name(root.result)} does not fit {_name(dst)}, where it is written "
                f"(their sizes differ in dimension {axis})",
            )

    # --- if ------------------------------------------------------------------------------------

    def coalesce_if(self, copy: mem.CopyOp, branch_op: scf.IfOp) -> bool:
        """The extra condition for `if`: coalesces each branch's array."""
        src, dst = copy.source, copy.dest
        block = copy.parent_block()
        if branch_op.parent_block() is not block or len(branch_op.regions) != 2 or not branch_op.false_region.blocks:
            return False
        k = list(branch_op.results).index(src)
        block_result = None
        if k > 0 and isinstance(branch_op.results[k - 1].type, mem.BlockType):
            block_result = k - 1
        live = self.live(block)
        at = live.index(copy)
        at_if = live.index(branch_op)
        targets = self.aliases.memories(dst)
        sources = self.aliases.memories(src)
        if not targets or sources & targets:
            return False
        # 1: nothing after the copy touches the if's arrays, nor passes them on
        if any(live.touches[i] & sources for i in range(at + 1, len(live.statements))):
            return False
        terminator = block.last_op
        if terminator is not None and self.aliases.memories_of_all(terminator.operands) & sources:
            return False
        if not self.untouched_between(dst, live, at_if + 1, at):
            return False
        if not dominates(self._destination_block(dst), branch_op):
            return False
        plans = []
        for region in branch_op.regions:
            inner = region.block
            yielded = inner.last_op.operands[k]
            fresh_inside = self.fresh_array(yielded, inner, inner.last_op)
            if fresh_inside is not None:
                plans.append(("inside", inner, fresh_inside))
                continue
            fresh_outside = self.fresh_array(yielded, block, inner.last_op)
            if fresh_outside is not None:
                plans.append(("outside", inner, fresh_outside))
            elif block_result is None and Materialiser(inner.last_op).possible(dst):
                # an array that is not fresh (a parameter, a row of another array, one
                # still used later): its branch copies it into the destination at its
                # end, where the copy after the `if` did (nothing between touches the
                # destination, and the array's memory is not the destination's)
                plans.append(("copy", inner, None))
            else:
                return False
        if not any(kind == "inside" for kind, _, _ in plans):
            return False  # made before the if, or copied, in every branch: nothing gained
        fresh_plans = [fresh for _, _, fresh in plans if fresh is not None]
        if len({id(fresh[1]) for fresh in fresh_plans}) != len(fresh_plans):
            return False
        memories = [fresh[0].block if fresh is not None else None for _, _, fresh in plans]
        outside = any(kind == "outside" for kind, _, _ in plans)
        for n, (kind, inner, fresh) in enumerate(plans):
            others = frozenset(m for j, m in enumerate(memories) if j != n and m is not None)
            if kind == "inside":
                alloc, root = fresh
                if not self.branch_array_safe(inner, alloc, root, dst, others, block_result, outside):
                    return False
            elif kind == "outside":
                alloc, root = fresh
                if not self.outside_array_safe(block, live, at_if, at, alloc, root, dst, targets, inner, block_result):
                    return False
        # all or nothing: every plan is safe; rewrite them
        destination_block = self._destination_block(dst)
        if block_result is not None and not isinstance(destination_block.type, mem.BlockType):
            return False  # the `if` must yield the destination's block, and none is known
        for kind, inner, fresh in plans:
            if kind == "copy":
                terminator = inner.last_op
                self.rewriter.insert(mem.CopyOp(terminator.operands[k], Materialiser(terminator).value(dst)), InsertPoint.before(terminator))
                continue
            alloc, root = fresh
            where = inner if kind == "inside" else block
            point = self.first_user(root, where)
            assert point is not None
            terminator = inner.last_op
            if block_result is not None:
                terminator.operands = [
                    destination_block if (i == block_result and v is alloc.block) else v
                    for i, v in enumerate(terminator.operands)
                ]
            self.merged(_name(root.result) if root.result.name_hint else _name(src), _name(dst), alloc)
            self.rewrite(root, alloc, dst, point)
        self.rewriter.erase(copy)
        self.copies_removed += 1
        return True

    def _destination_block(self, dst: SSAValue) -> SSAValue:
        """What the destination's memory is known by: its block, or, where no block is
        known, the array it is a view of (a lambda's output row, an array an `if`
        gives): it exists where that value does."""
        ixfun = self.symbolic.index_function(dst)
        if ixfun is not None:
            return ixfun.block
        root = root_view(dst)
        if root is not None:
            return root.block
        base = dst
        while isinstance(base, OpResult) and isinstance(base.op, mem.SliceOp | mem.TransposeOp):
            base = base.op.operands[0]  # a part of a lambda's output row, say
        return base

    def branch_array_safe(self, inner: Block, alloc, root, dst, others, block_result, outside: bool) -> bool:
        """A branch array made inside its branch: from its making to the branch's end,
        the destination and the other branches' arrays are left alone (and, when
        another branch's array is made before the `if` and so already lives in the
        destination, the destination from the branch's start)."""
        memory = alloc.block
        if block_result is not None and inner.last_op.operands[block_result] is not memory:
            return False
        live = self.live(inner)
        made = live.first_use.get(memory)
        if made is None or made >= live.results:
            return False
        if live.last_use.get(memory) != live.results:
            return False
        if any(live.touches[i] & others for i in range(made, len(live.statements))):
            return False
        if outside and not self.untouched_between(dst, live, 0, made):
            return False
        if not self.untouched_between(dst, live, made, live.results, memory):
            return False
        point = self.first_user(root, inner)
        return point is not None and Materialiser(point).possible(dst)

    def outside_array_safe(self, block, live, at_if, at, alloc, root, dst, targets, inner, block_result) -> bool:
        """A branch array made before the `if`: the conditions up to the `if`, and its
        branch does not touch the destination."""
        memory = alloc.block
        if block_result is not None and inner.last_op.operands[block_result] is not memory:
            return False
        if self.unproven_sizes(root, dst) and not self.branches_agree(inner.parent_op(), inner.last_op, root):
            # it is made in the destination whichever branch runs, and its check with it:
            # that is the copy's check only where every branch yields an array of its sizes
            return False
        if live.last_use.get(memory, -1) > at:
            return False
        made = live.first_use.get(memory)
        if made is None or made >= at_if:
            return False
        if not dominates(self._destination_block(dst), live.statements[made]):
            return False
        if not self.untouched_between(dst, live, made, at_if, memory):
            return False
        inner_live = self.live(inner)
        if any(t & targets for t in inner_live.touches):
            return False
        point = self.first_user(root, block)
        return point is not None and Materialiser(point).possible(dst)


def _with_type(view: SSAValue, wanted, point: Operation, root: mem.ViewOp) -> SSAValue:
    """`view` as a view of type `wanted` (the same shape; static sizes may differ):
    a full slice of it, when the types differ."""
    if view.type == wanted:
        return view
    assert isinstance(wanted, MemRefType)
    from soacc.passes.utils.memory_motion import index_constant_before

    zero = index_constant_before(point, 0)
    spec: list[SSAValue] = []
    dynamic = iter(root.sizes)
    for d in wanted.get_shape():
        count = next(dynamic) if d < 0 else index_constant_before(point, d)
        spec += [zero, count]
    slice_op = mem.SliceOp(view, [SliceSpec.RANGE] * wanted.get_num_dims(), spec, wanted)
    Rewriter.insert_op(slice_op, InsertPoint.before(point))
    return slice_op.result


def _name(value: SSAValue) -> str:
    if value.name_hint:
        return f"%{value.name_hint}"
    root = root_view(value)
    if root is not None and root.result.name_hint:
        return f"a part of %{root.result.name_hint}"
    return "an array"


@dataclass(frozen=True)
class ShortCircuitPass(ModulePass):
    """Memory block coalescing of copies, concatenations and in-place updates."""

    name = "short-circuit"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
            sc = ShortCircuit(f)
            sc.run()
            if self.report:
                print(
                    f"short-circuit: @{f.sym_name.data}: {sc.copies_removed} copies removed, "
                    f"{len(sc.merges)} blocks merged, {sc.sizes.describe(sc.bytes_saved)} bytes "
                    "no longer allocated",
                    file=sys.stderr,
                )
                for m in sc.merges:
                    print(
                        f"short-circuit: @{f.sym_name.data}: {m.source} made in {m.destination} "
                        f"({sc.sizes.describe(m.bytes)} bytes)",
                        file=sys.stderr,
                    )
