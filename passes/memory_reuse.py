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
  in that part and iterates there in place (`carry_in_destination`). `loops=false`
  turns these off.

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
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects import mem
from soacc.passes.analysis.interference import Interference, map_exception
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases, lambda_row_sources
from soacc.passes.analysis.memory_liveness import BlockLiveness, block_liveness, touched_memories, written_memories
from soacc.passes.analysis.sizes import Poly
from soacc.passes.analysis.symbolic import IndexFunction, Symbolic
from soacc.passes.utils.memory_motion import Materialiser, dominates, erase, sink_allocation, stop_carrying
from soacc.dialects.dtypes import numpy_dtype

STRATEGIES = ("colouring", "linear-scan")
UNKNOWN_SIZE = 1024
"""What an unknown size counts as when the colouring compares block sizes."""
SEARCH_STEPS = 3_000
MAX_SCENARIO_ATOMS = 5


@dataclass
class Candidate:
    alloc: mem.AllocOp
    size: Poly
    weights: np.ndarray
    """Its size in each size scenario."""
    position: int
    first: int
    last: int
    previous_run: int
    """-1, or the last statement using the previous loop iteration's block."""

    @property
    def weight(self) -> int:
        return int(self.weights[0])


class Problem:
    """The blocks of one body, what interferes, which sizes fit together, and the
    bytes live at each statement in each size scenario."""

    def __init__(
        self,
        candidates: list[Candidate],
        interference: Interference,
        symbolic: Symbolic,
        background: np.ndarray,
        opaque: list[int],
    ):
        self.candidates = candidates
        self.interference = interference
        self.symbolic = symbolic
        self.background = background
        self.opaque = opaque
        """Statements that allocate memory this analysis cannot size (calls, lambdas
        that allocate per lane): no class may hold more there than before."""
        self.baseline_profile = self.profile([[c] for c in candidates])
        self.baseline = self.baseline_profile.max(axis=1)
        # what `fits` asks, computed once: which pairs may share, and whose size may
        # be maxed where another is allocated
        index = {id(c): i for i, c in enumerate(candidates)}
        self._index = index
        self._apart = [
            [
                a is not b
                and a.alloc.block.type == b.alloc.block.type
                and not interference.interferes(a.alloc.block, b.alloc.block)
                for b in candidates
            ]
            for a in candidates
        ]
        self._size_fits = [
            [
                symbolic.equal(c.size, rep.size) or dominates(c.alloc.bytes, rep.alloc)
                for rep in candidates
            ]
            for c in candidates
        ]

    def fits(self, new: Candidate, members: list[Candidate]) -> bool:
        """Whether `new` may join the class: it interferes with no member, and every
        member's size is equal to the class allocation's or can be maxed there (the
        class is allocated where its earliest member was)."""
        n = self._index[id(new)]
        apart = self._apart[n]
        if not all(apart[self._index[id(m)]] for m in members):
            return False
        everyone = [*members, new]
        rep = self._index[id(min(everyone, key=lambda c: c.position))]
        return all(self._size_fits[self._index[id(c)]][rep] for c in everyone)

    def peaks(self, classes: list[list[Candidate]]) -> np.ndarray:
        """The peak bytes of each scenario."""
        return self.profile(classes).max(axis=1)

    def profile(self, classes: list[list[Candidate]]) -> np.ndarray:
        """The bytes live at each statement in each scenario: a class's block lives
        from its first member's first use to its last member's last use, at its
        largest member's size."""
        profile = self.background.copy()
        for members in classes:
            lo = min(c.first for c in members)
            hi = max(c.last for c in members)
            weight = np.max([c.weights for c in members], axis=0)[:, None]
            profile[:, lo : hi + 1] += weight
            carried = max(c.previous_run for c in members)
            if carried >= 0:  # the previous iteration's block, a block of its own, until its last use
                profile[:, : carried + 1] += weight
        return profile

    def admissible(self, classes: list[list[Candidate]]) -> bool:
        """No scenario's peak is above what it is without reuse, nor what is live
        where unknown memory is allocated."""
        profile = self.profile(classes)
        if not np.all(profile.max(axis=1) <= self.baseline):
            return False
        return bool(np.all(profile[:, self.opaque] <= self.baseline_profile[:, self.opaque]))

    def cost(self, classes: list[list[Candidate]]) -> tuple[int, int, int]:
        """(peak, allocations, bytes allocated), in the nominal scenario."""
        return int(self.peaks(classes)[0]), len(classes), sum(max(c.weight for c in members) for members in classes)


def first_fit(problem: Problem) -> list[list[Candidate]]:
    """The study's linear scan: each block takes the first class it fits."""
    classes: list[list[Candidate]] = []
    for c in problem.candidates:
        for members in classes:
            if problem.fits(c, members):
                members.append(c)
                break
        else:
            classes.append([c])
    return classes


def best_fit(problem: Problem) -> list[list[Candidate]]:
    """Each block joins the class that leaves the lowest peak, then grows least, when
    no scenario's peak rises; else it stays on its own."""
    classes: list[list[Candidate]] = []
    for n, c in enumerate(problem.candidates):
        rest = [[x] for x in problem.candidates[n + 1 :]]
        options = []
        for i, members in enumerate(classes):
            if problem.fits(c, members):
                trial = [m if j != i else [*m, c] for j, m in enumerate(classes)]
                largest = max(m.weight for m in members)
                options.append((problem.cost(trial + rest)[0], max(0, c.weight - largest), i, trial))
        for _, _, i, trial in sorted(options, key=lambda o: o[:3]):
            if problem.admissible(trial + rest):
                classes = trial
                break
        else:
            classes.append([c])
    return classes


def colouring(problem: Problem) -> list[list[Candidate]]:
    """The lowest peak, then the fewest allocations, then the fewest bytes, among the
    colourings that raise no scenario's peak: branch and bound from best fit."""
    candidates = problem.candidates
    start = [best_fit(problem), [[c] for c in candidates]]
    linear = first_fit(problem)
    if problem.admissible(linear):
        start.append(linear)
    best = min(start, key=problem.cost)
    best_cost = [problem.cost(best)]
    best_classes = [[list(m) for m in best]]
    steps = [0]

    def search(i: int, classes: list[list[Candidate]]) -> None:
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return
        if i == len(candidates):
            cost = problem.cost(classes)
            if cost < best_cost[0] and problem.admissible(classes):
                best_cost[0] = cost
                best_classes[0] = [list(m) for m in classes]
            return
        c = candidates[i]
        for members in classes:
            if problem.fits(c, members):
                members.append(c)
                search(i + 1, classes)
                members.pop()
        classes.append([c])
        search(i + 1, classes)
        classes.pop()

    search(0, [])
    return best_classes[0]


def scenarios(atoms: list[int]) -> list[dict[int, int]]:
    """Sizes to weigh blocks by: every unknown size large (the nominal scenario
    first), every one small, and each one large while the others are small and the
    other way round."""
    large, small = UNKNOWN_SIZE, 8
    out = [{a: large for a in atoms}, {a: small for a in atoms}]
    for a in atoms[:MAX_SCENARIO_ATOMS]:
        out.append({b: (large if b == a else small) for b in atoms})
        out.append({b: (small if b == a else large) for b in atoms})
    return out


def _weights(p: Poly, cases: list[dict[int, int]]) -> np.ndarray:
    out = np.zeros(len(cases), dtype=np.int64)
    for k, values in enumerate(cases):
        total = 0
        for monomial, c in p.terms:
            term = c
            for a in monomial:
                term *= values.get(a, UNKNOWN_SIZE)
            total += term
        out[k] = max(total, 0)
    return out


@dataclass
class Reuse:
    """Reuses blocks in one function."""

    function: func.FuncOp
    strategy: str
    loops: bool = True
    reused: list[tuple[str, str, Poly]] = field(default_factory=list)
    copies_removed: int = 0
    bytes_saved: Poly = field(default_factory=lambda: Poly.const(0))

    def __post_init__(self) -> None:
        self.sizes = Symbolic(self.function)  # for the report

    def run(self) -> None:
        if self.loops:
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                self.carry_in_destination(loop)
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                self.reuse_carried(loop)
            for loop in reversed([op for op in self.function.walk() if isinstance(op, scf.ForOp)]):
                self.reuse_carried_block(loop)
        blocks = [b for op in self.function.walk() for r in op.regions for b in r.blocks]
        for block in blocks:
            if sum(1 for op in block.ops if isinstance(op, mem.AllocOp)) >= 2:
                self.reuse_in(block)

    def reuse_in(self, block: Block) -> None:
        for alloc in [op for op in block.ops if isinstance(op, mem.AllocOp)]:
            sink_allocation(alloc)
        aliases = MemoryAliases(self.function)
        symbolic = Symbolic(self.function)
        symbolic.assume_facts_of(_fact_ops(block))
        live = block_liveness(block, aliases)
        positions = {op: i for i, op in enumerate(block.ops)}
        allocs = [op for op in block.ops if isinstance(op, mem.AllocOp) and op.block in live.first_use]
        sizes = {op.block: symbolic.canonical(symbolic.expr(op.bytes)) for op in allocs}
        others = {m: size for m in live.first_use if m not in sizes and (size := _size_of(m, block, aliases, symbolic))}
        atoms = sorted({a for p in [*sizes.values(), *others.values()] for a in p.atoms()})
        cases = scenarios(atoms)
        candidates = [
            Candidate(
                op,
                symbolic.expr(op.bytes),
                _weights(sizes[op.block], cases),
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
        interference = Interference(live, aliases, symbolic, {c.alloc.block for c in candidates})
        # what else is live in the body: blocks from outside it, and those of its
        # statements' own bodies
        background = np.zeros((len(cases), live.results + 1), dtype=np.int64)
        for m, size in others.items():
            background[:, live.first_use[m] : live.last_use[m] + 1] += _weights(size, cases)[:, None]
        opaque = [i for i, op in enumerate(live.statements) if _allocates_unseen(op)]
        problem = Problem(candidates, interference, symbolic, background, opaque)
        classes = first_fit(problem) if self.strategy == "linear-scan" else colouring(problem)
        for members in classes:
            if len(members) > 1:
                self.merge(members, symbolic)

    def reuse_carried(self, loop: scf.ForOp) -> None:
        """Iterates in place (the study's L3): the block a loop body makes for the
        next iteration's carried array becomes the block of the carried array itself.

        The new block must have the size and the array the layout of the one the loop
        starts from, and in the body the carried array must be dead once the new
        block is first written (or the statement that writes it reads the carried
        array row by row first). The loop must consume the block it starts from; when
        it does not, and the body's first touch of its new block is a copy of the
        whole carried array (the copy an in-place update of a carried array needs),
        that copy is made once, before the loop, into a block of its own. The copy in
        the body then copies nothing and is removed."""
        changed = True
        while changed:
            changed = False
            body = loop.body.block
            terminator = body.last_op
            assert terminator is not None
            for r in range(len(loop.iter_args)):
                if not isinstance(body.args[r + 1].type, MemRefType):
                    continue
                yielded = list(terminator.operands)
                view_op = _root_view(yielded[r])
                if not (isinstance(view_op, mem.ViewOp) and view_op.parent_block() is body):
                    continue
                alloc = view_op.block.owner
                if not (isinstance(alloc, mem.AllocOp) and alloc.parent_block() is body):
                    continue
                positions = [k for k, v in enumerate(yielded) if v is alloc.block]
                if len(positions) > 1 or yielded.count(yielded[r]) != 1:
                    continue
                q = positions[0] if positions else None
                if q is not None and not (q < len(loop.iter_args) and loop.iter_args[q].type == alloc.block.type):
                    continue
                if self._carry_in_place(loop, r, q, view_op, alloc):
                    # the array is now the same view in every iteration: not carried
                    loop = stop_carrying(loop, [r] if q is None else [r, q])
                    changed = True
                    break

    def _carry_in_place(
        self, loop: scf.ForOp, r: int, q: int | None, view_op: mem.ViewOp, alloc: mem.AllocOp
    ) -> bool:
        """reuse_carried for the array carried at position r, made in the body by
        `view_op` of `alloc` (whose block is carried at position q, or not at all)."""
        body = loop.body.block
        array = body.args[r + 1]
        carried = body.args[q + 1] if q is not None else None
        start_view = loop.iter_args[r]
        aliases = MemoryAliases(self.function)
        symbolic = Symbolic(self.function)
        symbolic.assume_facts_of(_fact_ops(body))
        live = block_liveness(body, aliases)
        if alloc.block not in live.first_use or live.first_use[alloc.block] >= live.results:
            return False
        first = live.first_use[alloc.block]
        statement = live.statements[first]
        yielded_view = body.last_op.operands[r]
        whole = yielded_view is view_op.results[0]  # not a slice of what the body made
        identity = statement if whole and _copies_whole(statement, array, view_op) else None
        start_ixfun = symbolic.index_function(start_view)
        made = symbolic.index_function(yielded_view)
        start = start_ixfun.block if start_ixfun is not None else None
        consumed = (
            start is not None
            and made is not None
            and isinstance(start.owner, mem.AllocOp)
            and start.owner.parent_block() is loop.parent_block()
            and (q is None or loop.iter_args[q] is start)
            and start.type == alloc.block.type
            and _consumed_by(start, loop)
            and symbolic.equal(symbolic.expr(alloc.bytes), symbolic.expr(start.owner.bytes))
            and _same_layout(start_ixfun, made, symbolic)
        )
        before = Materialiser(loop)
        if not consumed and not (
            whole
            and identity is not None
            and before.possible(alloc.bytes)
            and all(before.possible(v) for v in view_op.operands[1:])
            and start_view.type == array.type
        ):
            return False
        first_write = first
        if identity is not None:
            later = [i for i in range(first + 1, live.results) if alloc.block in written_memories(live.statements[i], aliases)]
            first_write = min(later, default=live.results)
        if not _dead_once_written(
            live,
            body,
            r,
            first_write,
            lambda op: consumed
            and carried is not None
            and map_exception(op, start, alloc.block, aliases, symbolic, carried=carried),
            aliases,
            start=start if consumed else None,
            skip=identity,
        ):
            return False
        if not consumed:
            start = self._copy_before(loop, r, q, alloc, view_op)
        size = self.sizes.expr(alloc.bytes)
        how = "the loop's carried block" if consumed else "the loop's carried block, copied into once before the loop"
        self.reused.append((_name(alloc.block), f"{_name(start)} ({how})", size))
        self.bytes_saved = self.bytes_saved + size
        alloc.block.replace_all_uses_with(carried if carried is not None else start)
        erase(alloc)
        if identity is not None:
            erase(identity)
            self.copies_removed += 1
        return True

    def carry_in_destination(self, loop: scf.ForOp) -> None:
        """A loop whose result is copied whole into part of a larger array iterates in
        that part (the study's L2, which it left disabled): the loop starts from a copy
        of its initial array made there, each iteration writes its array in place, and
        the copy after the loop goes. One copy moves before the loop, the block the
        body made every iteration goes, and so does the result's own block.

        The destination's block must be one this body allocates; when it is allocated
        after the loop it moves above it (its size must be computable there, and it
        must be at most twice the body's block, whose double buffer it replaces, so
        that the peak does not rise); nothing between the loop and the copy
        may touch the destination's bytes; and the body must be able to iterate in
        place: the carried array keeps its layout, and it is dead once the body first
        writes the array it yields (or that statement reads it row by row first)."""
        changed = True
        while changed:
            changed = False
            for r in range(len(loop.iter_args)):
                moved = self._into_destination(loop, r)
                if moved is not None:
                    loop = moved
                    changed = True
                    break

    def _into_destination(self, loop: scf.ForOp, r: int) -> scf.ForOp | None:
        body = loop.body.block
        array = body.args[r + 1]
        if not isinstance(array.type, MemRefType):
            return None
        yielded = list(body.last_op.operands)
        view_op = yielded[r].owner
        if not (isinstance(view_op, mem.ViewOp) and view_op.parent_block() is body):
            return None
        alloc = view_op.block.owner
        if not (isinstance(alloc, mem.AllocOp) and alloc.parent_block() is body):
            return None
        positions = [k for k, v in enumerate(yielded) if v is alloc.block]
        if len(positions) != 1 or yielded.count(yielded[r]) != 1:
            return None
        q = positions[0]
        if loop.results[q].uses or len(list(loop.results[r].uses)) != 1:
            return None
        copy = next(iter(loop.results[r].uses)).operation
        parent = loop.parent_block()
        if not (isinstance(copy, mem.CopyOp) and copy.source is loop.results[r] and copy.parent_block() is parent):
            return None
        aliases = MemoryAliases(self.function)
        symbolic = Symbolic(self.function)
        symbolic.assume_facts_of(_fact_ops(body))
        carried_ixfun = symbolic.index_function(array)
        target = symbolic.index_function(copy.dest)
        made = symbolic.index_function(yielded[r])
        if carried_ixfun is None or target is None or made is None:
            return None
        destination = target.block.owner
        if not (
            isinstance(destination, mem.AllocOp)
            and destination.parent_block() is parent
            and destination.block.type == alloc.block.type  # (a copy to the host is a transfer)
        ):
            return None
        if carried_ixfun.sizes != target.sizes or not _same_layout(carried_ixfun, made.rebased(carried_ixfun.block), symbolic):
            return None
        # moving the destination's block above the loop must not raise the peak: it
        # replaces the body's double buffer, so it may be at most twice its size
        moved = not dominates(destination.block, loop)
        headroom = symbolic.canonical(symbolic.expr(alloc.bytes).scale(2) - symbolic.expr(destination.bytes))
        if moved and not symbolic.nonnegative(headroom):
            return None
        before = Materialiser(loop)
        if not before.possible(destination.bytes) or not all(
            before.possible(v) for v in _view_chain_operands(copy.dest, destination.block)
        ):
            return None
        # the body does not touch the destination's block (where it is made before the
        # loop, the body could read what the loop's array will overwrite), and nothing
        # between the loop and the copy touches the destination's bytes
        if destination.block in touched_memories(loop, aliases):
            return None
        position = {op: i for i, op in enumerate(parent.ops)}
        for op in list(parent.ops)[position[loop] + 1 : position[copy]]:
            for _, access in nested_accesses(op):
                for view in access.touched:
                    if destination.block in aliases.memories(view):
                        seen = symbolic.index_function(view)
                        if seen is None or not symbolic.disjoint(seen, target):
                            return None
        # the body iterates in place: the carried array is dead once the new block is
        # first written, or that statement reads it row by row first
        live = block_liveness(body, aliases)
        if alloc.block not in live.first_use:
            return None
        start = symbolic.index_function(loop.iter_args[r])
        if start is None or loop.iter_args[q] is not start.block:
            return None
        carried = body.args[q + 1]
        if not _dead_once_written(
            live,
            body,
            r,
            live.first_use[alloc.block],
            lambda op: map_exception(op, start.block, alloc.block, aliases, symbolic, carried=carried),
            aliases,
        ):
            return None
        # rewrite: the destination's block above the loop, the loop starting from a
        # copy of its initial array in the destination, the body writing there
        report = (_name(alloc.block), f"part of {_name(destination.block)} (the loop iterates in its destination)")
        saved = self.sizes.expr(alloc.bytes)
        if moved:
            destination.operands = [before.value(destination.bytes)]
            destination.detach()
            parent.insert_op_before(destination, loop)
        place = before.value(copy.dest)
        parent.insert_op_before(mem.CopyOp(loop.iter_args[r], place), loop)
        offset = len(loop.operands) - len(loop.iter_args)
        operands = list(loop.operands)
        operands[offset + r] = place
        operands[offset + q] = destination.block
        loop.operands = operands
        result_name = loop.results[r].name_hint
        view_op.results[0].replace_all_uses_with(place)
        if result_name:
            place.name_hint = result_name  # (it holds the loop's result)
        erase(view_op)
        alloc.block.replace_all_uses_with(destination.block)
        erase(alloc)
        loop = stop_carrying(loop, [r, q])
        dest = copy.dest
        erase(copy)
        while not dest.uses and isinstance(dest.owner, mem.SliceOp | mem.TransposeOp):
            source = dest.owner.operands[0]
            erase(dest.owner)
            dest = source
        self.reused.append((*report, saved))
        self.bytes_saved = self.bytes_saved + saved
        return loop

    def reuse_carried_block(self, loop: scf.ForOp) -> None:
        """A body's array takes the block the loop carries once the carried array is
        dead (the study's reuse of consumed parameters, §5.5, for a loop's).

        In every iteration the carried block is the block the loop starts from, which
        the loop must consume, or the block the previous iteration made for this one;
        so the body must make a new one for the next iteration (an allocation of its
        own, yielded in the carried block's place) and yield nothing else of the carried
        block. An array allocated in the body, of the size of both those blocks, that
        the body does not yield, and that is first written after the body's last use
        of the carried block (or by the statement that last reads the carried array, row
        by row first: the kernel data-race rule) then lives in the carried block."""
        changed = True
        while changed:
            changed = any(
                isinstance(loop.body.block.args[q + 1].type, mem.BlockType) and self._array_in_carried_block(loop, q)
                for q in range(len(loop.iter_args))
            )

    def _array_in_carried_block(self, loop: scf.ForOp, q: int) -> bool:
        body = loop.body.block
        carried = body.args[q + 1]
        start = loop.iter_args[q]
        yielded = list(body.last_op.operands)
        following = yielded[q].owner
        if not (
            isinstance(start.owner, mem.AllocOp)
            and start.owner.parent_block() is loop.parent_block()
            and isinstance(following, mem.AllocOp)
            and following.parent_block() is body
            and _consumed_by(start, loop)
        ):
            return False
        aliases = MemoryAliases(self.function)
        if any(k != q and start in aliases.memories(v) for k, v in enumerate(yielded)):
            return False  # the body passes on the carried block: it outlives the iteration
        carried_memories = aliases.memories(carried)
        if carried_memories != frozenset((start, following.block)):
            return False
        symbolic = Symbolic(self.function)
        symbolic.assume_facts_of(_fact_ops(body))
        size = symbolic.expr(start.owner.bytes)
        if not symbolic.equal(size, symbolic.expr(following.bytes)):
            return False
        live = block_liveness(body, aliases)
        statements = live.statements
        last_use = max((i for i, op in enumerate(statements) if start in touched_memories(op, aliases)), default=-1)
        for alloc in [op for op in body.ops if isinstance(op, mem.AllocOp)]:
            if alloc is following or alloc.block not in live.first_use:
                continue
            if any(alloc.block in aliases.memories(v) for v in yielded):
                continue  # it outlives the iteration
            if not symbolic.equal(symbolic.expr(alloc.bytes), size):
                continue
            first = live.first_use[alloc.block]
            if first >= live.results or first < last_use:
                continue
            if first == last_use and not map_exception(
                statements[first],
                start,
                alloc.block,
                aliases,
                symbolic,
                carried=carried,
                input_memories=carried_memories,
            ):
                continue
            saved = self.sizes.expr(alloc.bytes)
            self.reused.append((_name(alloc.block), f"{_name(carried)} (the loop's carried block, once its array is dead)", saved))
            self.bytes_saved = self.bytes_saved + saved
            alloc.block.replace_all_uses_with(carried)
            erase(alloc)
            return True
        return False

    def _copy_before(
        self, loop: scf.ForOp, r: int, q: int | None, alloc: mem.AllocOp, view_op: mem.ViewOp
    ) -> SSAValue:
        """Makes the loop start from a copy of its initial array in a block of its own
        made before the loop (of the body's allocation size, in the layout the body
        yields); returns the new block."""
        before = Materialiser(loop)
        new_alloc = mem.AllocOp(before.value(alloc.bytes), alloc.block.type.space)
        layout = [before.value(v) for v in view_op.operands[1:]]
        new_view = view_op.clone()
        offset = len(loop.operands) - len(loop.iter_args)
        new_copy = mem.CopyOp(loop.iter_args[r], new_view.results[0])
        parent = loop.parent_block()
        assert parent is not None
        parent.insert_ops_before([new_alloc, new_view, new_copy], loop)
        new_view.operands = [new_alloc.block, *layout]
        array = loop.body.block.args[r + 1]
        if array.name_hint:
            new_alloc.block.name_hint = f"{array.name_hint}_mem"
            new_view.results[0].name_hint = array.name_hint
        operands = list(loop.operands)
        operands[offset + r] = new_view.results[0]
        if q is not None:
            operands[offset + q] = new_alloc.block
        loop.operands = operands
        return new_alloc.block

    def merge(self, members: list[Candidate], symbolic: Symbolic) -> None:
        members = sorted(members, key=lambda c: c.position)
        rep = members[0]
        sizes: list[Candidate] = [rep]
        for c in members[1:]:
            if not any(symbolic.equal(c.size, s.size) for s in sizes):
                sizes.append(c)
        if len(sizes) > 1:
            rep.alloc.operands = [_max_tree([s.alloc.bytes for s in sizes], rep.alloc)]
        for c in members[1:]:
            size = self.sizes.expr(c.alloc.bytes)
            self.reused.append((_name(c.alloc.block), _name(rep.alloc.block), size))
            self.bytes_saved = self.bytes_saved + size
            c.alloc.block.replace_all_uses_with(rep.alloc.block)
            erase(c.alloc)


def _root_view(view: SSAValue) -> Operation | None:
    """The mem.view a view is a slice of (through any number of slices), or its own
    defining op. A gpu_body's result is yielded as a row of the block it wrote."""
    op = view.owner
    while isinstance(op, mem.SliceOp):
        op = op.source.owner
    return op if isinstance(op, Operation) else None


def _dead_once_written(
    live: BlockLiveness,
    body: Block,
    r: int,
    first_write: int,
    exception: Callable[[Operation], bool],
    aliases: MemoryAliases,
    *,
    start: SSAValue | None = None,
    skip: Operation | None = None,
) -> bool:
    """A loop body may write the array it yields at position r where it reads the
    carried one: nothing reads the carried array (or, through `start`, the block the
    loop starts from; `skip` aside) after statement `first_write`, which first writes
    the new array, and at it only where `exception` allows (the kernel data-race
    rule); nor does the body yield the carried array elsewhere, where it would outlive
    the iteration."""
    array = body.args[r + 1]
    yielded = list(body.last_op.operands)
    if any(k != r and _derived_from(v, array, aliases) for k, v in enumerate(yielded)):
        return False
    reads = [i for i, op in enumerate(live.statements) if op is not skip and _reads_carried(op, array, start, aliases)]
    last_read = max(reads, default=-1)
    return last_read < first_write or (last_read == first_write and exception(live.statements[first_write]))


def _view_chain_operands(view: SSAValue, block: SSAValue) -> list[SSAValue]:
    """The operands, other than the views themselves, of the chain of views, slices and
    transposes that makes `view` of `block`."""
    operands: list[SSAValue] = []
    while view is not block:
        op = view.owner
        if not isinstance(op, mem.ViewOp | mem.SliceOp | mem.TransposeOp):
            return [view]  # (not a chain of views: cannot be moved)
        operands += op.operands[1:]
        view = op.operands[0]
    return operands


def _copies_whole(op: Operation, array: SSAValue, view_op: mem.ViewOp) -> bool:
    """`op` copies the whole carried array into the view the body yields in its
    place: nothing, once the two are one block in one layout."""
    return isinstance(op, mem.CopyOp) and op.source is array and op.dest is view_op.results[0]


def _same_layout(a: IndexFunction, b: IndexFunction, symbolic: Symbolic) -> bool:
    return symbolic.same_addresses(a, b)


def _derived_from(view: SSAValue, array: SSAValue, aliases: MemoryAliases) -> bool:
    """`view` is the carried array, a slice, transpose or lambda row of it, or a
    carried array of the same loop body that may share its memory."""
    body = array.owner
    pending, seen = [view], set()
    while pending:
        v = pending.pop()
        if v in seen:
            continue
        seen.add(v)
        if v is array:
            return True
        owner = v.owner
        if isinstance(owner, Block) and owner is body:
            if isinstance(v.type, MemRefType | mem.BlockType) and aliases.memories(v) & aliases.memories(array):
                return True
        elif isinstance(owner, mem.SliceOp | mem.TransposeOp):
            pending.append(owner.operands[0])
        elif isinstance(owner, Block) and owner.parent_op() is not None:
            pending += lambda_row_sources(owner.parent_op(), v)
    return False


def _reads_carried(op: Operation, array: SSAValue, start: SSAValue | None, aliases: MemoryAliases) -> bool:
    """`op` (a statement of the loop body) touches the carried array: through a view
    that may be in the block the loop starts from (`start`, when the loop consumes
    it), or through the carried array itself."""
    for _, access in nested_accesses(op):
        for view in access.touched:
            if start is not None and start in aliases.memories(view):
                return True
            if _derived_from(view, array, aliases):
                return True
    return False


def _consumed_by(block: SSAValue, loop: scf.ForOp) -> bool:
    """Nothing uses the block or a view of it after the loop starts but the loop, as
    the block and array it starts from: the loop may overwrite it."""
    parent = loop.parent_block()
    assert parent is not None
    position = {op: i for i, op in enumerate(parent.ops)}
    pending, seen = [block], set()
    while pending:
        value = pending.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if user is loop:
                if use.index < len(loop.operands) - len(loop.iter_args):
                    return False
                continue
            if isinstance(user, mem.ViewOp | mem.SliceOp | mem.TransposeOp) and use.index == 0:
                pending.append(user.results[0])
                continue
            statement = parent.find_ancestor_op_in_block(user)
            if (
                statement is None
                or position[statement] >= position[loop]
                or isinstance(user, scf.IfOp | scf.ForOp | scf.WhileOp | func.CallOp)
                or user.has_trait(IsTerminator)
            ):
                return False
    return True


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
                size = Poly.const(numpy_dtype(view.type.element_type).itemsize)
                for axis in range(view.type.get_num_dims()):
                    size = size * symbolic.size_of(view, axis)
                size = symbolic.canonical(size)
                if best is None or len(size.terms) > len(best.terms):
                    best = size
    return best


def _max_tree(values: list[SSAValue], before: Operation) -> SSAValue:
    """A balanced tree of unsigned maxima, inserted before `before`."""
    block = before.parent_block()
    assert block is not None
    layer = list(values)
    while len(layer) > 1:
        nxt = []
        for a, b in zip(layer[0::2], layer[1::2]):
            op = arith.MaxUIOp(a, b)
            block.insert_op_before(op, before)
            nxt.append(op.result)
        if len(layer) % 2:
            nxt.append(layer[-1])
        layer = nxt
    layer[0].name_hint = layer[0].name_hint or "maxed"
    return layer[0]


def _fact_ops(block: Block) -> list[Operation]:
    """The ops whose size checks hold wherever `block` runs to its end: those of the
    block and of the blocks around it."""
    ops: list[Operation] = []
    current: Block | None = block
    while current is not None:
        ops += list(current.ops)
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return ops


def _name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "a block"


@dataclass(frozen=True)
class MemoryReusePass(ModulePass):
    """Memory block reuse of non-interfering blocks."""

    name = "memory-reuse"

    strategy: str = "colouring"
    loops: bool = True
    """Iterate loops in place where they can (the study's L3); false: never."""
    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strategy not in STRATEGIES:
            raise PassFailedException(
                f"memory-reuse: unknown strategy '{self.strategy}'; use one of {', '.join(STRATEGIES)}"
            )
        for f in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
            reuse = Reuse(f, self.strategy, self.loops)
            reuse.run()
            if self.report:
                print(
                    f"memory-reuse: @{f.sym_name.data}: {len(reuse.reused)} blocks reused ({self.strategy}), "
                    f"{reuse.sizes.describe(reuse.bytes_saved)} bytes no longer allocated",
                    file=sys.stderr,
                )
                if reuse.copies_removed:
                    print(
                        f"memory-reuse: @{f.sym_name.data}: {reuse.copies_removed} copies removed from loops",
                        file=sys.stderr,
                    )
                for new, old, size in reuse.reused:
                    print(
                        f"memory-reuse: @{f.sym_name.data}: {new} reuses {old} ({reuse.sizes.describe(size)} bytes)",
                        file=sys.stderr,
                    )
