"""First and last uses of memory blocks, statement by statement (level 2).

A *statement* is an op of a block; an op with regions is one statement of the block it
is in, and uses everything its regions use. In each block the analysis finds, for every
actual memory the block touches (reads or writes, through any view or alias; making a
view is not a use):

- its *first use*: the statement that first touches it, where a block allocated here is
  created (the study's first use, where an array is made);
- its *last use*: the last statement that touches it, or the block's *results* (the
  study's `FromRes`) when its terminator passes it on (a branch or an iteration that
  yields it, a function that returns it), so that a block returned by a body never dies
  inside it.

It is loop-aware: in a body that runs many times (a loop body, a kernel's lambda) a
memory from outside is used by every run, so it is live from the body's first statement
to its results; and a block allocated in such a body is a new block every run, so the
uses that come before its allocation (through the loop-carried block, which aliases
it) are uses of the previous run's block, not of this one. Memories from outside a body
that runs once (a branch, a function body) are live on entry.

Never changes IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from soacc.dialects import mem
from soacc.passes.analysis.memory_access import is_loop, nested_accesses, repeats
from soacc.passes.analysis.memory_aliases import MemoryAliases, made_only_of


def touched_memories(op: Operation, aliases: MemoryAliases) -> frozenset[SSAValue]:
    """The actual memories `op` or an op in its regions reads or writes."""
    out: set[SSAValue] = set()
    for _, access in nested_accesses(op):
        out |= aliases.memories_of_all(access.touched)
    return frozenset(out)


def written_memories(op: Operation, aliases: MemoryAliases) -> frozenset[SSAValue]:
    out: set[SSAValue] = set()
    for _, access in nested_accesses(op):
        out |= aliases.memories_of_all(access.writes + access.opaque)
    return frozenset(out)


def read_memories(op: Operation, aliases: MemoryAliases) -> frozenset[SSAValue]:
    out: set[SSAValue] = set()
    for _, access in nested_accesses(op):
        out |= aliases.memories_of_all(access.reads + access.opaque)
    return frozenset(out)


@dataclass
class BlockLiveness:
    """Where each memory a block touches is first and last used in it."""

    block: Block
    statements: list[Operation]
    """The block's ops but its terminator, in order."""
    first_use: dict[SSAValue, int] = field(default_factory=dict)
    last_use: dict[SSAValue, int] = field(default_factory=dict)
    """A statement index, or `results` when the memory outlives the block."""
    local: set[SSAValue] = field(default_factory=set)
    """Memories allocated by an op of this block."""
    touches: list[frozenset[SSAValue]] = field(default_factory=list)
    """What each statement touches."""
    previous_run: dict[SSAValue, int] = field(default_factory=dict)
    """For a block allocated here and carried to the next run of a loop body: the last
    statement before its allocation that uses the previous run's block (through the
    loop's carried block), which is live until then."""

    @property
    def results(self) -> int:
        """The index that stands for the block's results (its terminator)."""
        return len(self.statements)

    def index(self, op: Operation) -> int:
        """The statement of this block that is, or contains, `op`."""
        ancestor = self.block.find_ancestor_op_in_block(op)
        assert ancestor is not None, "op is not in this block"
        if ancestor.has_trait(IsTerminator) and ancestor is self.block.last_op:
            return self.results
        return self._positions[ancestor]

    def __post_init__(self) -> None:
        self._positions = {op: i for i, op in enumerate(self.statements)}

    def first_uses_at(self, i: int) -> set[SSAValue]:
        return {m for m, j in self.first_use.items() if j == i}

    def last_uses_at(self, i: int) -> set[SSAValue]:
        """The study's LastUses(FromStm) (or FromRes for `results`)."""
        return {m for m, j in self.last_use.items() if j == i}

    def is_last_use(self, memory: SSAValue, op: Operation) -> bool:
        return self.last_use.get(memory) == self.index(op)

    def live_at(self, i: int) -> set[SSAValue]:
        """Memories created at or before statement i and used at or after it."""
        return {m for m in self.first_use if self.first_use[m] <= i <= self.last_use[m]}

    def touched_between(self, start: int, stop: int) -> frozenset[SSAValue]:
        """Memories touched by the statements strictly between two indices."""
        out: set[SSAValue] = set()
        for i in range(start + 1, min(stop, len(self.statements))):
            out |= self.touches[i]
        return frozenset(out)


def block_liveness(block: Block, aliases: MemoryAliases) -> BlockLiveness:
    ops = list(block.ops)
    terminator = ops[-1] if ops and ops[-1].has_trait(IsTerminator) else None
    statements = ops[:-1] if terminator is not None else ops
    live = BlockLiveness(block, statements)
    allocated_at = {op.block: i for i, op in enumerate(statements) if isinstance(op, mem.AllocOp)}
    live.local = set(allocated_at)
    parent = block.parent_op()
    repeating = parent is not None and repeats(parent)
    carried = set(block.args) if parent is not None and is_loop(parent) else set()
    for i, op in enumerate(statements):
        touched, previous = _touches(op, aliases, carried, set(allocated_at))
        # before its allocation, a local block is a previous run's too
        previous |= {m for m in touched if allocated_at.get(m, -1) >= i}
        for m in previous:
            live.previous_run[m] = i
        touched = frozenset(m for m in touched if allocated_at.get(m, -1) < i)
        live.touches.append(touched)
        for m in touched:
            live.first_use.setdefault(m, i)
            live.last_use[m] = i
    if terminator is not None:
        for m in aliases.memories_of_all(terminator.operands):
            if m in live.first_use or m in allocated_at:
                live.first_use.setdefault(m, live.results)
                live.last_use[m] = live.results
    for m in list(live.first_use):
        if m not in allocated_at and not _made_inside(m, block):
            # from outside: live on entry; in a repeating body, live to the end too
            live.first_use[m] = 0
            if repeating:
                live.last_use[m] = live.results
    return live


def memories_in_run(op: Operation, aliases: MemoryAliases, which: str) -> frozenset[SSAValue]:
    """The memories a statement reads (`which="read"`), writes (`"write"`) or either
    (`"touch"`), as `read_memories` and the others, but in a loop body the blocks it
    allocates are this iteration's: what the statement reaches through the loop's
    carried arrays is the previous iteration's block, and is left out."""
    block = op.parent_block()
    parent = block.parent_op() if block is not None else None
    carried = set(block.args) if parent is not None and is_loop(parent) else set()
    local = {o.block for o in block.ops if isinstance(o, mem.AllocOp)} if carried else set()
    out: set[SSAValue] = set()
    for _, access in nested_accesses(op):
        if which == "read":
            views = access.reads + access.opaque
        elif which == "write":
            views = access.writes + access.opaque
        else:
            views = access.touched
        for view in views:
            memories = aliases.memories(view)
            out |= memories - local if carried and through(view, carried) else memories
    return frozenset(out)


def _touches(
    op: Operation, aliases: MemoryAliases, carried: set[SSAValue], local: set[SSAValue]
) -> tuple[frozenset[SSAValue], set[SSAValue]]:
    """What a statement of a loop body touches: (this run's memories, local memories
    whose previous run's block it touches through the loop's carried arrays)."""
    if not carried:
        return touched_memories(op, aliases), set()
    now: set[SSAValue] = set()
    previous: set[SSAValue] = set()
    for _, access in nested_accesses(op):
        for view in access.touched:
            memories = aliases.memories(view)
            if through(view, carried):
                previous |= memories & local
                now |= memories - local
            else:
                now |= memories
    return frozenset(now), previous


def through(view: SSAValue, carried: set[SSAValue]) -> bool:
    """The view is a loop-carried array, or a slice, transpose or lambda row of one."""
    return made_only_of(view, carried)


def _made_inside(memory: SSAValue, block: Block) -> bool:
    """The memory is made by an op of the block or of a body nested in it (an
    allocation in a lambda, the result of a call)."""
    owner = memory.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is not None and block.find_ancestor_op_in_block(op) is not None and not (
        isinstance(owner, Block) and owner is block
    )


class Liveness:
    """Block liveness for every block of `root`, computed on demand."""

    def __init__(self, aliases: MemoryAliases):
        self.aliases = aliases
        self._blocks: dict[Block, BlockLiveness] = {}

    def of(self, block: Block) -> BlockLiveness:
        if block not in self._blocks:
            self._blocks[block] = block_liveness(block, self.aliases)
        return self._blocks[block]
