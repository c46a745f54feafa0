"""Memory-block aliases at level 2: for every block and view of a function, the
*actual* memories it may be in.

An actual memory is a `mem.alloc` result, a block parameter of the function, or a value
whose memory nothing here can see into (a view parameter of a lane function, the result
of a call or of an op of unknown effects). Every other block or view refers to actual
memories through others: a view to its block, a slice or transpose to its source, an
`scf.if` or `arith.select` result to what its alternatives refer to, a loop's carried
block to its initial value and to what each iteration yields (the *existential* blocks
of the study), a lambda's row to the arrays it is a row of. The relation is the
study's memory-block aliasing (existential → actual), taken transitively: a fixpoint
over the function, which loops need. It is not symmetric: a loop's existential block
aliases both its initial block and its body's block, which do not alias each other.

Also here: the *root view* of a view (the `mem.view` its slices and transposes start
from) and the root views made of each allocation. Never changes IR.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from soacc.dialects import husk, mem
from soacc.passes.analysis.memory_access import is_memory_value

Memories = frozenset[SSAValue]
_EMPTY: Memories = frozenset()


def root_view(view: SSAValue) -> mem.ViewOp | None:
    """The `mem.view` a view is a slice or transpose of (itself included), if any."""
    while isinstance(view, OpResult):
        op = view.op
        if isinstance(op, mem.ViewOp):
            return op
        if isinstance(op, mem.SliceOp):
            view = op.source
        elif isinstance(op, mem.TransposeOp):
            view = op.input
        else:
            return None
    return None


def visit_once(pending: list[SSAValue]) -> Iterator[SSAValue]:
    """Takes values off `pending`, to which the caller adds more, each value once: a
    walk over values that may be reached in several ways."""
    seen: set[SSAValue] = set()
    while pending:
        v = pending.pop()
        if v not in seen:
            seen.add(v)
            yield v


def made_only_of(view: SSAValue, roots: set[SSAValue]) -> bool:
    """The view is one of `roots`, or a slice, transpose or (nested) lambda row of
    them only."""
    pending = [view]
    for v in visit_once(pending):
        if v in roots:
            continue
        owner = v.owner
        if isinstance(owner, mem.SliceOp | mem.TransposeOp):
            pending.append(owner.operands[0])
        elif isinstance(v, BlockArgument) and isinstance(owner.parent_op(), husk.RunOp):
            found = owner.parent_op().array_of(v)
            if found is None:
                return False
            pending.append(found[1])
        elif isinstance(v, BlockArgument) and owner.parent_op() is not None and owner.parent_op().dialect_name() == "mem":
            sources = lambda_row_sources(owner.parent_op(), v)
            if not sources:
                return False
            pending += sources
        else:
            return False
    return True


def lambda_row_sources(op: Operation, arg: BlockArgument) -> list[SSAValue]:
    """The arrays a lambda parameter is a row (or element) of."""
    if isinstance(op, mem.MapOp):
        k = len(op.inputs)
        if arg.index < k:
            return [op.inputs[arg.index]]
        array_outs = [o for o in op.outputs if o.type.get_num_dims() > 1]
        if arg.index - k < len(array_outs):
            return [array_outs[arg.index - k]]
        return []
    if isinstance(op, mem.ReduceOp | mem.ScanOp):
        return [op.inputs[arg.index % len(op.inputs)]]
    if isinstance(op, mem.HistOp):
        return [op.dest]
    # a kernel added later: its rows may come from any of its arrays
    return [v for v in op.operands if isinstance(v.type, MemRefType)]


class MemoryAliases:
    """Actual memories of every block and view in `root` (a function or a module)."""

    def __init__(self, root: Operation):
        self._memories: dict[SSAValue, Memories] = {}
        self.allocs: list[mem.AllocOp] = []
        ops = [op for op in root.walk()]
        for op in ops:
            if isinstance(op, mem.AllocOp):
                self.allocs.append(op)
        # a fixpoint: loops feed their results back
        for _ in range(64):
            changed = False
            for op in ops:
                changed |= self._visit(op)
            if not changed:
                break

    # --- queries -----------------------------------------------------------------------

    def memories(self, value: SSAValue) -> Memories:
        """The actual memories a block or view may be in (empty for other values)."""
        return self._memories.get(value, _EMPTY)

    def memories_of_all(self, values: Iterable[SSAValue]) -> Memories:
        out: set[SSAValue] = set()
        for v in values:
            out |= self.memories(v)
        return frozenset(out)

    def is_actual(self, value: SSAValue) -> bool:
        return self.memories(value) == frozenset((value,))

    def is_existential(self, block: SSAValue) -> bool:
        """A block value that is not itself an actual memory (an `if` or loop's block)."""
        return isinstance(block.type, mem.BlockType) and not self.is_actual(block)

    def aliases_of_existential(self, block: SSAValue) -> Memories:
        """The study's memory-block aliases: the actual blocks an existential block
        may be (transitively)."""
        return self.memories(block)

    def replace_memory(self, old: SSAValue, new: SSAValue) -> None:
        """Follows `old.replace_all_uses_with(new)` of an allocation's block by another
        actual memory (and the erasure of `old`'s allocation): whatever may have been
        in `old` may now be in `new`, as the fixpoint would find again, without it.
        Updates this analysis only; the IR is the caller's."""
        self._memories.pop(old, None)
        for value, memories in self._memories.items():
            if old in memories:
                self._memories[value] = (memories - {old}) | {new}
        self.allocs = [a for a in self.allocs if a.block is not old]

    # --- the fixpoint ------------------------------------------------------------------

    def _set(self, value: SSAValue, memories: Memories) -> bool:
        old = self._memories.get(value, _EMPTY)
        new = old | memories
        if new != old:
            self._memories[value] = new
            return True
        return False

    def _union(self, values: Iterable[SSAValue]) -> Memories:
        out: set[SSAValue] = set()
        for v in values:
            out |= self._memories.get(v, _EMPTY)
        return frozenset(out)

    def _visit(self, op: Operation) -> bool:
        changed = False
        if isinstance(op, func.FuncOp):
            changed |= self._function_args(op.body.block) if op.body.blocks else False
        elif isinstance(op, mem.AllocOp):
            changed |= self._set(op.block, frozenset((op.block,)))
        elif isinstance(op, mem.ViewOp):
            changed |= self._set(op.result, self._union([op.block]))
        elif isinstance(op, mem.SliceOp):
            changed |= self._set(op.result, self._union([op.source]))
        elif isinstance(op, mem.TransposeOp):
            changed |= self._set(op.result, self._union([op.input]))
        elif isinstance(op, arith.SelectOp):
            if is_memory_value(op.result):
                changed |= self._set(op.result, self._union([op.lhs, op.rhs]))
        elif isinstance(op, scf.IfOp):
            for i, r in enumerate(op.results):
                if is_memory_value(r):
                    yields = [reg.block.last_op.operands[i] for reg in op.regions if reg.blocks]
                    changed |= self._set(r, self._union(yields))
        elif isinstance(op, scf.ForOp):
            body = op.body.block
            yields = body.last_op.operands
            for i, (init, carried, result) in enumerate(zip(op.iter_args, body.args[1:], op.results)):
                if is_memory_value(carried):
                    both = self._union([init, yields[i]])
                    changed |= self._set(carried, both)
                    changed |= self._set(result, both)
        elif isinstance(op, scf.WhileOp):
            before, after = op.before_region.block, op.after_region.block
            forwarded = before.last_op.args
            after_yields = after.last_op.operands
            for i, (init, arg) in enumerate(zip(op.arguments, before.args)):
                if is_memory_value(arg):
                    changed |= self._set(arg, self._union([init, after_yields[i]]))
            for i, (arg, result) in enumerate(zip(after.args, op.results)):
                if is_memory_value(arg):
                    changed |= self._set(arg, self._union([forwarded[i]]))
                    changed |= self._set(result, self._union([forwarded[i]]))
        elif isinstance(op, husk.RunOp):
            # each device's rows of a source, an out or a slot array: on device 0 a view
            # of it (elsewhere a copy, made and sent back by the run itself)
            for arg in op.body.block.args[3:]:
                changed |= self._set(arg, self._union([op.array_of(arg)[1]]))
        elif op.dialect_name() == "mem" and op.regions:
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if is_memory_value(arg):
                            changed |= self._set(arg, self._union(lambda_row_sources(op, arg)))
        else:
            opaque_results = [r for r in op.results if is_memory_value(r)]
            if opaque_results:
                given = self._union(v for v in op.operands if is_memory_value(v))
                for r in opaque_results:
                    changed |= self._set(r, given | frozenset((r,)))
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if is_memory_value(arg):
                            given = self._union(v for v in op.operands if is_memory_value(v))
                            changed |= self._set(arg, given | frozenset((arg,)))
        return changed

    def _function_args(self, block: Block) -> bool:
        changed = False
        previous: BlockArgument | None = None
        for arg in block.args:
            if isinstance(arg.type, mem.BlockType):
                changed |= self._set(arg, frozenset((arg,)))
            elif isinstance(arg.type, MemRefType):
                if previous is not None and isinstance(previous.type, mem.BlockType):
                    changed |= self._set(arg, frozenset((previous,)))
                else:
                    changed |= self._set(arg, frozenset((arg,)))  # a lane function's view
            previous = arg
        return changed


def views_of(aliases: MemoryAliases, memory: SSAValue, within: Operation) -> list[mem.ViewOp]:
    """The `mem.view`s made directly of `memory` inside `within`."""
    return [
        op
        for op in within.walk()
        if isinstance(op, mem.ViewOp) and memory in aliases.memories(op.block)
    ]


def swapped_carried_blocks(a: SSAValue, b: SSAValue) -> bool:
    """`a` and `b` are two blocks a `for` loop carries and swaps in every iteration
    (memory-reuse's double buffering), starting from two allocations of their own:
    in each iteration they are two different blocks, though each may be either."""
    if a is b or not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument)) or a.owner is not b.owner:
        return False
    loop = a.owner.parent_op()
    if not isinstance(loop, scf.ForOp) or a.index == 0 or b.index == 0:
        return False
    if not (isinstance(a.type, mem.BlockType) and isinstance(b.type, mem.BlockType)):
        return False
    yields = a.owner.last_op.operands
    i, j = a.index - 1, b.index - 1
    if yields[i] is not b or yields[j] is not a:
        return False
    first, second = loop.iter_args[i].owner, loop.iter_args[j].owner
    return isinstance(first, mem.AllocOp) and isinstance(second, mem.AllocOp) and first is not second


def may_share_memory(aliases: MemoryAliases, x: SSAValue, y: SSAValue) -> bool:
    """Whether views (or blocks) `x` and `y` may be in the same memory when both are
    live in one iteration: the aliases say so, unless they are views of the two blocks
    of a double-buffered loop (which the aliases, merging iterations, cannot tell)."""
    if not aliases.memories(x) & aliases.memories(y):
        return False
    blocks = []
    for v in (x, y):
        root = root_view(v)
        base = root.block if root is not None else array_of_slices(v)
        blocks.append(_carried_block_of(base) or base)
    return not swapped_carried_blocks(blocks[0], blocks[1])


def array_of_slices(view: SSAValue) -> SSAValue:
    """The array `view` is a slice or transpose of (through any number), or itself."""
    while isinstance(view, OpResult) and isinstance(view.op, mem.SliceOp | mem.TransposeOp):
        view = view.op.operands[0]
    return view


def _carried_block_of(view: SSAValue) -> SSAValue | None:
    """For an array a `for` loop carries: the block the loop carries beside it, where
    the array starts in that block's initial value and every iteration yields it in the
    block it yields there (so in each iteration the array is in that block)."""
    if not (isinstance(view, BlockArgument) and isinstance(view.type, MemRefType) and view.index > 0):
        return None
    loop = view.owner.parent_op()
    if not isinstance(loop, scf.ForOp):
        return None
    r = view.index - 1
    yields = view.owner.last_op.operands
    start, made = root_view(loop.iter_args[r]), root_view(yields[r])
    if start is None or made is None:
        return None
    for q, (init, yielded) in enumerate(zip(loop.iter_args, yields)):
        if init is start.block and yielded is made.block and isinstance(view.owner.args[q + 1].type, mem.BlockType):
            return view.owner.args[q + 1]
    return None
