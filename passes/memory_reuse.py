"""memory-reuse: memory block reuse (the study's chapter 5, register allocation lifted
to arrays).

In each body (the function's, a loop's, a branch's, a lambda's), the blocks allocated
there are grouped into classes of blocks that never interfere (one is dead before the
next is made, or an index-access exception lets a map build its output in its input's
memory); each class becomes one allocation, and every array of the class lives in it.

- Sizes: blocks of equal size (as polynomials, with the size equalities the program's
  kernels check taken as facts) share as they are; otherwise the class's allocation
  gets the `max` of its members' sizes (the max trick), which needs every member's
  size computed where the class is allocated (hoist-allocations moves sizes up for
  that; a size that depends on data read later cannot be maxed, the study's Fig 7.8).
- Consumed parameters: an entry point's array arguments are copied into device blocks
  the program owns, so those blocks are reused like any other once the argument is dead.
- Kernels: a map's lanes may build an output in an input's block only when each lane
  reads its row before writing the same bytes (same index function and element size;
  the study's kernel data-race rule); blocks allocated inside a lambda are per lane and
  are reused among themselves, with the max trick inside the kernel.
- Blocks allocated in a body are only reused within it: a loop iteration's block is a
  new block every iteration, and a block from outside a loop would be shared by all.
  The exception is the block a loop carries, when the loop consumes the block it starts
  from and the body makes a new one for the next iteration: the carried block is then
  the iteration's own, and an array the body makes once the carried array is dead
  lives in it (the study's reuse of consumed parameters, §5.5, for a loop's).
- Loops iterate in place (the study's L3, which it could not do): the block a loop
  body makes for the next iteration's array becomes the block of the array it
  carries, when that array is dead once the new block is first written (or the
  statement writing it reads it row by row first, reading other rows only where no lane
  writes) and the loop consumes the block it starts from. The copy an in-place update
  of a carried array needs in every iteration is then removed, or, when the loop may not
  overwrite the array it starts from, made once before the loop. The array is then the
  same view in every iteration, and the loop stops carrying it. Past the study's L2,
  a loop whose result is copied whole into part of a larger array starts from a copy
  in that part and iterates there in place (`carry_in_destination`). As Futhark's
  pipeline does, an update of a carried array the body no longer needs is in place
  (`update_carried_in_place`, first: the whole copy goes), and a `for` loop that still
  cannot iterate in place carries a second block to write its next array into
  (`double_buffer`, last). `loops=false` turns these off.

`strategy=linear-scan` is the study's algorithm: in order of creation, each block takes
the first earlier class it fits (first fit). It is not optimal (the study's §9.2), and
with blocks freed at their last use it can even raise the peak: a class's block lives
from its first member's creation to its last member's last use, through the gaps
between them, at the size of its largest member, so a large block that joins a class
made early is allocated early. `strategy=colouring` (the default) colours the
interference graph weighted by block size: among the colourings that raise the body's
peak bytes in no size scenario (every unknown size large; every one small; each one
large and the rest small, and the other way round), a branch-and-bound search over
the same order finds one with the fewest allocations, then the fewest bytes; it starts
from a best-fit colouring and stops after 3 000 search steps with the best found.
`report=true` prints each reuse and the allocations and bytes saved to stderr.

This module is the pass: it finds each body's candidates and applies the classes. The
solver is `passes/utils/colouring.py` (no IR), the loop steps
`passes/utils/loop_reuse.py`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects import mem
from soacc.passes.analysis.interference import Interference
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.symbolic import Poly, Symbolic
from soacc.passes.utils.colouring import Candidate, Problem, colouring, first_fit, scenarios, weights
from soacc.passes.utils.function_analyses import FunctionAnalyses, new_symbolic
from soacc.passes.utils.loop_reuse import LoopReuse, ReuseLog, block_name
from soacc.passes.utils.memory_motion import dominates, sink_allocation

STRATEGIES = ("colouring", "linear-scan")


@dataclass
class Reuse:
    """Reuses blocks in one function."""

    function: func.FuncOp
    strategy: str
    loops: bool = True
    carried_updates: bool = True
    double_buffers: bool = True

    def __post_init__(self) -> None:
        self.log = ReuseLog(Symbolic(self.function))
        self.analyses = FunctionAnalyses(self.function)
        self.rewriter = PatternRewriter(self.function)  # every change to the function goes through it

    def run(self) -> None:
        if self.loops:
            steps = LoopReuse(self.function, self.log, self.analyses, self.rewriter)
            if self.carried_updates:
                for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                    steps.update_carried_in_place(loop)
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                steps.carry_in_destination(loop)
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                steps.reuse_carried(loop)
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                steps.reuse_carried_block(loop)
            if self.double_buffers:
                for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                    steps.double_buffer(loop)
        blocks = [b for op in self.function.walk() for r in op.regions for b in r.blocks]
        for block in blocks:
            if sum(1 for op in block.ops if isinstance(op, mem.AllocOp)) >= 2:
                self.reuse_in(block)

    def reuse_in(self, block: Block) -> None:
        for alloc in [op for op in block.ops if isinstance(op, mem.AllocOp)]:
            sink_allocation(alloc)
        self.analyses.moved()
        aliases = self.analyses.aliases
        # sizes of our own, not the loop steps': the scenarios weigh the first atoms
        # by number, and atoms are numbered in the order they are asked for
        symbolic = new_symbolic(self.function, block)
        live = self.analyses.liveness(block)
        positions = {op: i for i, op in enumerate(block.ops)}
        allocs = [op for op in block.ops if isinstance(op, mem.AllocOp) and op.block in live.first_use]
        sizes = {op.block: symbolic.canonical(symbolic.expr(op.bytes)) for op in allocs}
        others = {m: size for m in live.first_use if m not in sizes and (size := _size_of(m, block, aliases, symbolic))}
        atoms = sorted({a for p in [*sizes.values(), *others.values()] for a in p.atoms()})
        cases = scenarios(atoms)
        candidates = [
            Candidate(
                op,
                weights(sizes[op.block].terms, cases),
                positions[op],
                live.first_use[op.block],
                live.last_use[op.block],
                live.previous_run.get(op.block, -1),
            )
            for op in allocs
        ]
        candidates.sort(key=lambda c: (c.first, c.position))
        if len(candidates) < 2:
            return
        interference = Interference(live, aliases, symbolic, {c.item.block for c in candidates})
        # what else is live in the body: blocks from outside it, and those of its
        # statements' own bodies
        background = np.zeros((len(cases), live.results + 1), dtype=np.int64)
        for m, size in others.items():
            background[:, live.first_use[m] : live.last_use[m] + 1] += weights(size.terms, cases)[:, None]
        opaque = [i for i, op in enumerate(live.statements) if _allocates_unseen(op)]
        # which pairs may share, and whose size may be maxed where another is allocated
        apart = [
            [
                a is not b
                and a.item.block.type == b.item.block.type
                and not interference.interferes(a.item.block, b.item.block)
                for b in candidates
            ]
            for a in candidates
        ]
        size_fits = [
            [
                symbolic.equal(symbolic.expr(c.item.bytes), symbolic.expr(rep.item.bytes))
                or dominates(c.item.bytes, rep.item)
                for rep in candidates
            ]
            for c in candidates
        ]
        problem = Problem(candidates, apart, size_fits, background, opaque)
        classes = first_fit(problem) if self.strategy == "linear-scan" else colouring(problem)
        for members in classes:
            if len(members) > 1:
                self.merge([c.item for c in sorted(members, key=lambda c: c.position)], symbolic)

    def merge(self, members: list[mem.AllocOp], symbolic: Symbolic) -> None:
        """One allocation for the class (`members` in block order): the earliest
        member's, of the largest member's size."""
        rep = members[0]
        sizes: list[mem.AllocOp] = [rep]
        for c in members[1:]:
            if not any(symbolic.equal(symbolic.expr(c.bytes), symbolic.expr(s.bytes)) for s in sizes):
                sizes.append(c)
        if len(sizes) > 1:
            rep.operands = [_max_tree([s.bytes for s in sizes], rep)]
        for c in members[1:]:
            self.log.record(block_name(c.block), block_name(rep.block), self.log.sizes.expr(c.bytes))
            self.rewriter.replace_all_uses_with(c.block, rep.block)
            self.rewriter.erase(c)
            self.analyses.replaced_memory(c.block, rep.block)


def _allocates_unseen(op: Operation) -> bool:
    """A call, or an op whose bodies allocate (per lane, or in a loop): memory this
    body's profile does not count."""
    return any(isinstance(inner, func.CallOp) or (isinstance(inner, mem.AllocOp) and inner is not op) for inner in op.walk()) and not isinstance(op, mem.AllocOp)


def _size_of(memory: SSAValue, block: Block, aliases: MemoryAliases, symbolic: Symbolic) -> Poly | None:
    """A memory's size: its allocation's, or (for one this function did not allocate:
    a call's result, a parameter) the largest view of it the body uses."""
    if isinstance(memory.owner, mem.AllocOp):
        return symbolic.canonical(symbolic.expr(memory.owner.bytes))
    best: Poly | None = None
    for op in block.ops:
        for _, access in nested_accesses(op):
            for view in access.touched:
                if aliases.memories(view) != frozenset((memory,)) or not isinstance(view.type, MemRefType):
                    continue
                size = Poly.const(view.type.element_type.compile_time_size)
                for axis in range(view.type.get_num_dims()):
                    size = size * symbolic.size_of(view, axis)
                size = symbolic.canonical(size)
                if best is None or len(size.terms) > len(best.terms):
                    best = size
    return best


def _max_tree(values: list[SSAValue], before: Operation) -> SSAValue:
    """A balanced tree of unsigned maxima, inserted before `before`."""
    layer = list(values)
    while len(layer) > 1:
        nxt = []
        for a, b in zip(layer[0::2], layer[1::2]):
            op = arith.MaxUIOp(a, b)
            Rewriter.insert_op(op, InsertPoint.before(before))
            nxt.append(op.result)
        if len(layer) % 2:
            nxt.append(layer[-1])
        layer = nxt
    layer[0].name_hint = layer[0].name_hint or "maxed"
    return layer[0]


@dataclass(frozen=True)
class MemoryReusePass(ModulePass):
    """Memory block reuse of non-interfering blocks."""

    name = "memory-reuse"

    strategy: str = "colouring"
    loops: bool = True
    """Iterate loops in place where they can (the study's L3); false: never (nor the
    two steps below)."""
    carried_updates: bool = True
    """Update a carried array in place where it is dead after the update's copy."""
    double_buffers: bool = True
    """Double-buffer `for` loops that cannot iterate in place."""
    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strategy not in STRATEGIES:
            raise PassFailedException(
                f"memory-reuse: unknown strategy '{self.strategy}'; use one of {', '.join(STRATEGIES)}"
            )
        for f in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
            reuse = Reuse(f, self.strategy, self.loops, self.carried_updates, self.double_buffers)
            reuse.run()
            if self.report:
                print(
                    f"memory-reuse: @{f.sym_name.data}: {len(reuse.log.reused)} blocks reused ({self.strategy}), "
                    f"{reuse.log.sizes.describe(reuse.log.bytes_saved)} bytes no longer allocated",
                    file=sys.stderr,
                )
                if reuse.log.copies_removed:
                    print(
                        f"memory-reuse: @{f.sym_name.data}: {reuse.log.copies_removed} copies removed from loops",
                        file=sys.stderr,
                    )
                for new, old, size in reuse.log.reused:
                    print(
                        f"memory-reuse: @{f.sym_name.data}: {new} reuses {old} ({reuse.log.sizes.describe(size)} bytes)",
                        file=sys.stderr,
                    )

