"""hoist-allocations: allocation hoisting and allocation-size hoisting (the study's
chapter 7), the enabling transformations of short-circuit and memory-reuse.

- *Sizes*: every `mem.size` of a view whose size the view's own op states (a `mem.view`
  size operand, a slice's count, a static dimension; a lambda's row has its input's
  row size, and a loop-carried array, or a loop's result, the size the loop starts it
  with when every iteration yields an array of the size it was given) is replaced by
  that value, so sizes no longer wait for the arrays they describe, and sizes in loops
  and kernels are known before them; then the computation of every
  allocation's size moves as far up its block as its operands allow. memory-reuse can
  then compute `max(size_a, size_b)` where the earlier block is allocated (the max
  trick).
- *Allocations*: the allocation of every block that a copy writes into (a copy, a part
  of a concatenation, an in-place update), and the views made directly of it, move as
  far up as their sizes allow, so that the block exists before the array copied into
  it is made (safety condition 2 of short-circuit).
- *Creations*: when the copy writes a part of an array made earlier (an in-place update
  `dst[i] = src`), hoisting the allocation is not enough: the statement that makes
  `dst` would overwrite `src` once it lives in `dst`. So that statement moves too, to
  just before the first statement that makes an array which will end up in `dst` (the
  chain of copies into it), or as close to it as it can go.

Nothing moves out of its block (a loop or lambda body treats what is outside it as
given), and the study's heuristic applies: a statement that makes an array never moves
past a loop or kernel that is not part of the chain being merged, nor past a statement
that uses a block it will itself be copied into (hoisting there would block the next
merge in the chain, the study's Figure 7.11). Allocations and scalar code move freely.
short-circuit moves allocations that enabled nothing back down to their first use.

Options: `sizes=false` and `allocations=false` turn either part off; `report=true`
prints what moved to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from soacc.dialects import mem
from soacc.passes.analysis.sizes import stated_size
from soacc.passes.analysis.memory_access import access_of, is_kernel, is_loop
from soacc.passes.analysis.memory_aliases import MemoryAliases, root_view
from soacc.passes.analysis.memory_liveness import BlockLiveness, memories_in_run
from soacc.passes.utils.function_analyses import FunctionAnalyses
from soacc.passes.utils.memory_motion import dependencies_after, hoist_as_high_as_possible, is_pure, move_before
from xdsl.passes import ModulePass

# --------------------------------------------------------------------------------------
# Sizes
# --------------------------------------------------------------------------------------


class FoldStatedSize(RewritePattern):
    """A `mem.size` whose value the view's ops state is replaced by that value."""

    def __init__(self) -> None:
        self.folded = 0

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.SizeOp, rewriter: PatternRewriter) -> None:
        size = stated_size(op.view, op.dim.value.data)
        if size is None:
            return
        if isinstance(size, int):
            constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
            rewriter.insert(constant, InsertPoint.before(op))
            size = constant.result
        if size.type != op.result.type:
            return
        if op.result.name_hint and not size.name_hint:
            size.name_hint = op.result.name_hint
        rewriter.replace(op, [], [size])
        self.folded += 1


def fold_view_sizes(root: Operation) -> int:
    """Replaces `mem.size`s whose value the view's ops state; returns how many."""
    pattern = FoldStatedSize()
    walker = PatternRewriteWalker(pattern, apply_recursively=False)  # one sweep, in order
    for region in root.regions:
        walker.rewrite_region(region)
    return pattern.folded


def hoist_allocation_sizes(root: Operation) -> int:
    """Moves the computation of every allocation's size as far up as it goes."""
    moved = 0
    for alloc in [op for op in root.walk() if isinstance(op, mem.AllocOp)]:
        definer = alloc.bytes.owner
        if isinstance(definer, Operation) and definer.parent_block() is alloc.parent_block() and is_pure(definer):
            before = _position(definer)
            hoist_as_high_as_possible(definer)
            moved += _position(definer) != before
    return moved


def _position(op: Operation) -> int:
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)


# --------------------------------------------------------------------------------------
# Copy destinations
# --------------------------------------------------------------------------------------


def destination_alloc(copy: mem.CopyOp) -> tuple[mem.AllocOp, mem.ViewOp] | None:
    """The allocation and root view of the array a copy writes into, when it is one."""
    root = root_view(copy.dest)
    if root is None or not isinstance(root.block.owner, mem.AllocOp):
        return None
    return root.block.owner, root


def _local_memories(value: SSAValue, block: Block, aliases: MemoryAliases) -> frozenset[SSAValue] | None:
    """The memories of `value` when all are allocated in `block` or in ops nested in it."""
    memories = aliases.memories(value)
    if not memories:
        return None
    for m in memories:
        alloc = m.owner
        if not isinstance(alloc, mem.AllocOp) or block.find_ancestor_op_in_block(alloc) is None:
            return None
    return memories


def candidate_copy(copy: mem.CopyOp, aliases: MemoryAliases, live: BlockLiveness) -> frozenset[SSAValue] | None:
    """The source memories of a copy that short-circuit may merge into its destination:
    in the same space, made in this block (or its nested bodies), and last used by the
    copy (safety condition 1). None otherwise."""
    if mem.space_of(copy.source.type) != mem.space_of(copy.dest.type):
        return None
    if not isinstance(copy.source.owner, mem.ViewOp | scf.IfOp):
        return None  # a slice or transpose of an array is not an array of its own
    block = copy.parent_block()
    assert block is not None
    memories = _local_memories(copy.source, block, aliases)
    if memories is None or memories & aliases.memories(copy.dest):
        return None
    i = live.index(copy)
    if any(live.last_use.get(m) != i for m in memories):
        return None
    return memories


@dataclass
class Hoisting:
    """Hoists in one function; counts what moved."""

    function: func.FuncOp
    sizes_folded: int = 0
    sizes_moved: int = 0
    allocations_moved: int = 0
    creations_moved: int = 0

    def run(self, sizes: bool, allocations: bool) -> None:
        self.sizes_folded = fold_view_sizes(self.function)
        if sizes:
            self.sizes_moved = hoist_allocation_sizes(self.function)
        if allocations:
            self.hoist_destinations()

    def hoist_destinations(self) -> None:
        # hoisting only moves ops within their blocks: the aliases hold throughout,
        # a block's liveness until something in it moves
        analyses = FunctionAnalyses(self.function)
        copies = [op for op in self.function.walk() if isinstance(op, mem.CopyOp)]
        for copy in copies:
            if copy.parent is None:
                continue
            block = copy.parent_block()
            assert block is not None
            sources = candidate_copy(copy, analyses.aliases, analyses.liveness(block))
            found = destination_alloc(copy)
            if sources is None or found is None:
                continue
            alloc, root = found
            before = _position(alloc)
            hoist_as_high_as_possible(alloc)
            for view in [use.operation for use in alloc.block.uses]:
                if isinstance(view, mem.ViewOp) and view.parent_block() is alloc.parent_block():
                    hoist_as_high_as_possible(view)
            analyses.moved()
            self.allocations_moved += _position(alloc) != before
            if copy.dest is not root.result and alloc.parent_block() is block:
                self.creations_moved += self.hoist_creation(copy, alloc, root, analyses)

    # --- in-place targets ------------------------------------------------------------------

    def hoist_creation(self, copy: mem.CopyOp, alloc: mem.AllocOp, root: mem.ViewOp, analyses: FunctionAnalyses) -> bool:
        """Moves the statement that makes the in-place target above the arrays that
        will be merged into it, when it can and should."""
        block = copy.parent_block()
        assert block is not None
        aliases = analyses.aliases
        live = analyses.liveness(block)
        target = alloc.block
        created_at = live.first_use.get(target)
        if created_at is None or created_at >= live.index(copy):
            return False
        creation = live.statements[created_at]
        if root.result not in access_of(creation).creates:
            return False
        chain = self.chain_sources(copy, block, aliases, live)
        positions = sorted({live.first_use[m] for m in chain if m in live.first_use and live.first_use[m] < created_at})
        if not positions:
            return False
        downstream = self.destinations(target, block, aliases, live)
        for p in positions:
            anchor = live.statements[p]
            # what the creation needs comes along: scalar code, allocations, and the
            # arrays it is made from (a replicate of a row) when they are made simply
            deps = _needed(creation, anchor, aliases)
            if deps is None or anchor in deps:
                continue  # something it needs cannot move, or is the anchor itself
            moving = [*deps, creation]
            # a creation that copies an array at its last use could take that array's
            # place (short-circuit): moving it above other uses of the array would
            # spoil that
            spoiled = candidate_copy(creation, aliases, live) if isinstance(creation, mem.CopyOp) else None
            downstream_here = downstream | (spoiled or frozenset())
            if self.may_cross(moving, live.statements[p:created_at], chain | {target}, downstream_here, aliases):
                move_before(moving, anchor)
                analyses.moved()
                return True
        return False

    @staticmethod
    def chain_sources(copy: mem.CopyOp, block: Block, aliases: MemoryAliases, live: BlockLiveness) -> frozenset[SSAValue]:
        """The memories whose arrays end up in the copy's destination: its source's, and
        (transitively) those of copies into them."""
        copies = [op for op in block.ops if isinstance(op, mem.CopyOp)]
        chain = set(candidate_copy(copy, aliases, live) or ())
        grew = True
        while grew:
            grew = False
            for other in copies:
                if not aliases.memories(other.dest) & chain:
                    continue
                sources = candidate_copy(other, aliases, live)
                if sources and not sources <= chain:
                    chain |= sources
                    grew = True
        return frozenset(chain)

    @staticmethod
    def destinations(target: SSAValue, block: Block, aliases: MemoryAliases, live: BlockLiveness) -> frozenset[SSAValue]:
        """The memories the target's array is (transitively) copied into at its last use."""
        out: set[SSAValue] = set()
        frontier = {target}
        while frontier:
            current = frontier.pop()
            for op in block.ops:
                if isinstance(op, mem.CopyOp) and current in aliases.memories(op.source):
                    new = set(aliases.memories(op.dest)) - out - {target}
                    out |= new
                    frontier |= new
        return frozenset(out)

    @staticmethod
    def may_cross(
        moving: list[Operation],
        crossed: list[Operation],
        chain: frozenset[SSAValue],
        downstream: frozenset[SSAValue],
        aliases: MemoryAliases,
    ) -> bool:
        """Whether the ops may move above the crossed ones: legal (no memory one
        writes and another touches) and wise (the study's heuristic)."""
        moved = set(moving)
        effects = [(memories_in_run(op, aliases, "write"), memories_in_run(op, aliases, "read")) for op in moving]
        for op in crossed:
            if op in moved:
                continue
            touched = memories_in_run(op, aliases, "touch")
            written = memories_in_run(op, aliases, "write")
            for writes, reads in effects:
                if writes & touched or reads & written:
                    return False  # the order of the two matters
            if touched & downstream:
                return False  # it would block merging the target further (Fig 7.11)
            if (is_loop(op) or is_kernel(op)) and not written <= chain:
                return False  # the study's heuristic: never past an unrelated loop or kernel
        return True


def _needed(op: Operation, anchor: Operation, aliases: MemoryAliases) -> list[Operation] | None:
    """The ops from `anchor` to `op` that `op` needs before it: those defining values
    it uses and those writing memory it reads, transitively, in block order (None when
    one of them is a loop, a kernel or a call, which never move)."""
    block = op.parent_block()
    assert block is not None
    span = []
    current = anchor
    while current is not None and current is not op:
        span.append(current)
        current = current.next_op
    needed: set[Operation] = set()
    pending = [op]
    while pending:
        current = pending.pop()
        deps = dependencies_after(current, anchor, _simple)
        if deps is None:
            return None
        for dep in deps:
            if dep not in needed:
                needed.add(dep)
                pending.append(dep)
        reads = memories_in_run(current, aliases, "read")
        for other in span:
            if other in needed or not other.is_before_in_block(current):
                continue
            if memories_in_run(other, aliases, "write") & reads:
                if not _simple(other):
                    return None
                needed.add(other)
                pending.append(other)
    return sorted(needed, key=lambda o: block.get_operation_index(o))


def _simple(op: Operation) -> bool:
    """Ops that may move with an in-place target's creation: anything without a body
    (no loop or kernel, which the study never hoists) and no call."""
    return not op.regions and not isinstance(op, func.CallOp)


@dataclass(frozen=True)
class HoistAllocationsPass(ModulePass):
    """Allocation hoisting and allocation-size hoisting (level 2)."""

    name = "hoist-allocations"

    sizes: bool = True
    allocations: bool = True
    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
            hoisting = Hoisting(f)
            hoisting.run(self.sizes, self.allocations)
            if self.report:
                print(
                    f"hoist-allocations: @{f.sym_name.data}: {hoisting.sizes_folded} sizes read from views, "
                    f"{hoisting.sizes_moved} size computations hoisted, {hoisting.allocations_moved} allocations "
                    f"hoisted, {hoisting.creations_moved} in-place targets made earlier",
                    file=sys.stderr,
                )
