"""memory-reuse's loop steps: a loop that iterates in place, in its destination, or
whose body reuses the block it carries. Used only by memory-reuse (the pass decides
when they run; each step checks its own safety conditions and rewrites one loop).

- `reuse_carried` (the study's L3): the block a loop body makes for the next
  iteration's array becomes the block of the array it carries.
- `carry_in_destination` (past the study's L2): a loop whose result is copied whole
  into part of a larger array iterates in that part.
- `reuse_carried_block` (the study's §5.5 for a loop's consumed block): an array the
  body makes once the carried array is dead lives in the carried block.
- `update_carried_in_place` (Futhark's consumption of a loop parameter): the whole
  copy an update of a carried array needs goes when the carried array is dead after it.
- `double_buffer` (Futhark's DoubleBuffer): a `for` loop that cannot iterate in place
  carries a second block and writes each iteration's array into the other one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from soacc.dialects import mem
from soacc.passes.analysis.interference import map_exception
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases, lambda_row_sources, visit_once
from soacc.passes.analysis.memory_liveness import BlockLiveness, touched_memories, written_memories
from soacc.passes.analysis.symbolic import IndexFunction, Poly, Symbolic
from soacc.passes.utils.function_analyses import FunctionAnalyses
from soacc.passes.utils.memory_motion import Materialiser, dominates, move, stop_carrying
from soacc.passes.utils.size_checks import insert_size_check


@dataclass
class ReuseLog:
    """What memory-reuse did in one function, for its report."""

    sizes: Symbolic
    """Sizes for the report: one set of atoms for the whole function."""
    reused: list[tuple[str, str, Poly]] = field(default_factory=list)
    copies_removed: int = 0
    bytes_saved: Poly = field(default_factory=lambda: Poly.const(0))

    def record(self, new: str, old: str, size: Poly) -> None:
        self.reused.append((new, old, size))
        self.bytes_saved = self.bytes_saved + size


@dataclass
class LoopReuse:
    """The loop steps of memory-reuse in one function."""

    function: func.FuncOp
    log: ReuseLog
    analyses: FunctionAnalyses
    """Kept across loops and attempts: an attempt that fails changes nothing."""
    rewriter: PatternRewriter

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
        aliases = self.analyses.aliases
        symbolic = self.analyses.symbolic(body)
        live = self.analyses.liveness(body)
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
        size = self.log.sizes.expr(alloc.bytes)
        how = "the loop's carried block" if consumed else "the loop's carried block, copied into once before the loop"
        self.log.record(block_name(alloc.block), f"{block_name(start)} ({how})", size)
        self.rewriter.replace_all_uses_with(alloc.block, carried if carried is not None else start)
        self.rewriter.erase(alloc)
        if identity is not None:
            self.rewriter.erase(identity)
            self.log.copies_removed += 1
        self.analyses.changed()
        return True

    def update_carried_in_place(self, loop: scf.ForOp) -> None:
        """An in-place update of a carried array that the body no longer needs (Futhark
        consumes a loop parameter so): the copy of the whole carried array that the
        update's lowering makes goes, and the body updates the carried array itself.

        The copy's destination must be a whole view of a block the body allocates for
        it, of the carried array's type, first touched by the copy; after the copy,
        nothing in the body touches the carried array, a view of it or its block, and
        nothing yielded is made from it (it is dead until the iteration ends). The
        carried block is then each iteration's own: the block the loop starts from,
        which the loop must consume, or one the previous iteration made. The copy's
        size check stays where it is not provable (a `cf.assert`).

        Where the body reads the carried array after the copy (short-circuit may put
        the copy before the copies of rows out of the carried array that a swap
        needs), the copy moves after the last such read, when the statements it passes
        leave its destination alone and write nothing it reads; where one writes the
        copy's destination (a swap's row built directly in the new array, reading the
        carried array's other row), the update is not in place. Not done either: where
        the loop does not consume the block it starts from, one copy before the loop
        would do, but the copy's sizes are the carried array's, known only in the
        body."""
        changed = True
        while changed:
            changed = False
            for copy in [op for op in loop.body.block.ops if isinstance(op, mem.CopyOp)]:
                if self._update_in_place(loop, copy):
                    changed = True
                    break

    def _update_in_place(self, loop: scf.ForOp, copy: mem.CopyOp) -> bool:
        body = loop.body.block
        array = copy.source
        if not (isinstance(array, BlockArgument) and array.owner is body and array.index >= 1):
            return False
        if not isinstance(array.type, MemRefType):
            return False
        r = array.index - 1
        view_op = copy.dest.owner
        if not (isinstance(view_op, mem.ViewOp) and view_op.parent_block() is body and copy.dest.type == array.type):
            return False
        alloc = view_op.block.owner
        if not (isinstance(alloc, mem.AllocOp) and alloc.parent_block() is body):
            return False
        if any(use.operation is not view_op for use in alloc.block.uses):
            return False  # another view of the block: it is more than this array
        aliases = self.analyses.aliases
        live = self.analyses.liveness(body)
        at = live.index(copy)
        if live.first_use.get(alloc.block) != at:
            return False
        # each iteration's carried array is in the block the loop starts from or in one
        # an earlier iteration allocated: nothing else may be overwritten
        symbolic = self.analyses.symbolic(body)
        start_ixfun = symbolic.index_function(loop.iter_args[r])
        if start_ixfun is None:
            return False
        start = start_ixfun.block
        made_here = {op.block for op in body.ops if isinstance(op, mem.AllocOp)}
        if not aliases.memories(array) <= made_here | {start}:
            return False
        q = next(
            (k for k, init in enumerate(loop.iter_args) if init is start and isinstance(body.args[k + 1].type, mem.BlockType)),
            None,
        )
        if q is not None and body.args[q + 1].uses:
            return False  # (a view of the carried block is more than the carried array)
        if any(_derived_from(v, array, aliases) for v in body.last_op.operands):
            return False
        # statements after the copy that read the carried array (a row copied out of
        # it, say) must come before it: the copy moves past them where they leave the
        # copy's destination alone and write nothing the copy reads
        later = live.statements[at + 1 :]
        readers = [k for k, op in enumerate(later) if _reads_carried(op, array, None, aliases)]
        passed = later[: readers[-1] + 1] if readers else []
        carried_memories = aliases.memories(array)
        if any(
            alloc.block in touched_memories(op, aliases) or written_memories(op, aliases) & carried_memories
            for op in passed
        ):
            return False
        if not (
            isinstance(start.owner, mem.AllocOp)
            and start.owner.parent_block() is loop.parent_block()
            and _consumed_by(start, loop)
        ):
            return False
        if passed:
            move(copy, InsertPoint.after(passed[-1]))
        for axis in range(len(array.type.get_shape())):
            if symbolic.equal(symbolic.size_of(copy.dest, axis), symbolic.size_of(array, axis)):
                continue
            needed = mem.SizeOp(copy.dest, axis)
            made = mem.SizeOp(array, axis)
            self.rewriter.insert([needed, made], InsertPoint.before(copy))
            insert_size_check(
                InsertPoint.before(copy), made.result, needed.result,
                f"{block_name(array)} does not fit {block_name(copy.dest)}, where it is copied "
                f"(their sizes differ in dimension {axis})",
            )
        size = self.log.sizes.expr(alloc.bytes)
        self.log.record(block_name(alloc.block), f"{block_name(array)}'s block (the loop's carried array, dead after its copy: updated in place)", size)
        self.log.copies_removed += 1
        self.rewriter.erase(copy)
        self.rewriter.replace_all_uses_with(view_op.results[0], array)
        self.rewriter.erase(view_op)
        self.rewriter.erase(alloc)
        self.analyses.changed()
        return True

    def double_buffer(self, loop: scf.ForOp) -> None:
        """Double buffering (Futhark's DoubleBuffer): a loop whose body allocates the
        block of the next iteration's array, and cannot make it in the carried block
        (the body reads the carried array while it writes the new one), carries a
        second block instead: each iteration writes its array into the block the one
        before it read from, so the body allocates nothing and the loop two blocks.

        The body's allocation must be of the size of the block the loop starts from,
        which the loop must consume (the second block is allocated beside it); the carried
        block must be dead when the body ends (nothing yielded is made from it). Only
        `scf.for`: a `while` whose condition is on the device runs as a device loop
        that carries its arrays in blocks of its own."""
        _until_settled(loop, self._double_buffer)

    def _double_buffer(self, loop: scf.ForOp, r: int) -> scf.ForOp | None:
        made = _made_in_body(loop, r, through_slices=True)
        if made is None:
            return None
        _, following, q = made
        body = loop.body.block
        array = body.args[r + 1]
        yielded = list(body.last_op.operands)
        carried = body.args[q + 1]
        start = loop.iter_args[q]
        if not (
            start.type == following.block.type
            and isinstance(start.owner, mem.AllocOp)
            and start.owner.parent_block() is loop.parent_block()
            and _consumed_by(start, loop)
        ):
            return None
        aliases = self.analyses.aliases
        if aliases.memories(carried) != frozenset((start, following.block)):
            return None
        if any(k != q and (_base(v) is carried or _derived_from(v, array, aliases)) for k, v in enumerate(yielded)):
            return None  # the carried block outlives the iteration
        symbolic = self.analyses.symbolic(body)
        if not symbolic.equal(symbolic.expr(following.bytes), symbolic.expr(start.owner.bytes)):
            return None
        # (of the start block's size, which the body's allocation equals, so that it
        # is computed before the loop even where the body sizes by the carried array)
        spare = mem.AllocOp(start.owner.bytes, following.block.type.space)
        self.rewriter.insert(spare, InsertPoint.before(loop))
        if following.block.name_hint:
            spare.block.name_hint = following.block.name_hint
        spare_arg = self.rewriter.insert_block_argument(body, len(body.args), spare.block.type)
        spare_arg.name_hint = spare.block.name_hint
        self.rewriter.replace_all_uses_with(following.block, spare_arg)
        self.rewriter.erase(following)
        body.last_op.operands = [*body.last_op.operands, carried]  # (the body moves into the new loop)
        new = scf.ForOp(
            loop.lb, loop.ub, loop.step, [*loop.iter_args, spare.block], self.rewriter.move_region_contents_to_new_regions(loop.body)
        )
        self.rewriter.replace(loop, new, list(new.results[: len(loop.results)]))
        # (listed, but its bytes are not counted as saved: the second block is
        # allocated once, where the body allocated one every iteration)
        self.log.reused.append((
            block_name(spare_arg) if spare_arg.name_hint else "a block",
            f"{block_name(carried)} of the iteration before (double buffering: the loop carries two blocks)",
            self.log.sizes.expr(following.bytes),
        ))
        self.analyses.changed()
        return new

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
        _until_settled(loop, self._into_destination)

    def _into_destination(self, loop: scf.ForOp, r: int) -> scf.ForOp | None:
        made = _made_in_body(loop, r, through_slices=False)
        if made is None:
            return None
        view_op, alloc, q = made
        body = loop.body.block
        array = body.args[r + 1]
        yielded = list(body.last_op.operands)
        if yielded.count(yielded[r]) != 1:
            return None
        if loop.results[q].uses or len(list(loop.results[r].uses)) != 1:
            return None
        copy = next(iter(loop.results[r].uses)).operation
        parent = loop.parent_block()
        if not (isinstance(copy, mem.CopyOp) and copy.source is loop.results[r] and copy.parent_block() is parent):
            return None
        aliases = self.analyses.aliases
        symbolic = self.analyses.symbolic(body)
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
        live = self.analyses.liveness(body)
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
        report = (block_name(alloc.block), f"part of {block_name(destination.block)} (the loop iterates in its destination)")
        saved = self.log.sizes.expr(alloc.bytes)
        if moved:
            destination.operands = [before.value(destination.bytes)]
            move(destination, InsertPoint.before(loop))
        place = before.value(copy.dest)
        self.rewriter.insert(mem.CopyOp(loop.iter_args[r], place), InsertPoint.before(loop))
        offset = len(loop.operands) - len(loop.iter_args)
        operands = list(loop.operands)
        operands[offset + r] = place
        operands[offset + q] = destination.block
        loop.operands = operands
        result_name = loop.results[r].name_hint
        self.rewriter.replace_all_uses_with(view_op.results[0], place)
        if result_name:
            place.name_hint = result_name  # (it holds the loop's result)
        self.rewriter.erase(view_op)
        self.rewriter.replace_all_uses_with(alloc.block, destination.block)
        self.rewriter.erase(alloc)
        loop = stop_carrying(loop, [r, q])
        dest = copy.dest
        self.rewriter.erase(copy)
        while not dest.uses and isinstance(dest.owner, mem.SliceOp | mem.TransposeOp):
            source = dest.owner.operands[0]
            self.rewriter.erase(dest.owner)
            dest = source
        self.log.record(*report, saved)
        self.analyses.changed()
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
        aliases = self.analyses.aliases
        if any(k != q and start in aliases.memories(v) for k, v in enumerate(yielded)):
            return False  # the body passes on the carried block: it outlives the iteration
        carried_memories = aliases.memories(carried)
        if carried_memories != frozenset((start, following.block)):
            return False
        symbolic = self.analyses.symbolic(body)
        size = symbolic.expr(start.owner.bytes)
        if not symbolic.equal(size, symbolic.expr(following.bytes)):
            return False
        live = self.analyses.liveness(body)
        statements = live.statements
        last_use = max((i for i, op in enumerate(statements) if start in touched_memories(op, aliases)), default=-1)
        for alloc in [op for op in body.ops if isinstance(op, mem.AllocOp)]:
            if alloc is following or alloc.block not in live.first_use or alloc.block.type != carried.type:
                continue  # (a block in the other memory space cannot be the carried one)
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
            saved = self.log.sizes.expr(alloc.bytes)
            self.log.record(block_name(alloc.block), f"{block_name(carried)} (the loop's carried block, once its array is dead)", saved)
            self.rewriter.replace_all_uses_with(alloc.block, carried)
            self.rewriter.erase(alloc)
            self.analyses.changed()
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
        self.rewriter.insert([new_alloc, new_view, new_copy], InsertPoint.before(loop))
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



def _until_settled(loop: scf.ForOp, step: Callable[[scf.ForOp, int], scf.ForOp | None]) -> None:
    """Applies `step` to each position the loop carries, again from the first whenever
    it rewrites the loop (into the loop it returns), until none does."""
    changed = True
    while changed:
        changed = False
        for r in range(len(loop.iter_args)):
            moved = step(loop, r)
            if moved is not None:
                loop = moved
                changed = True
                break


def _made_in_body(loop: scf.ForOp, r: int, through_slices: bool) -> tuple[mem.ViewOp, mem.AllocOp, int] | None:
    """For the array a loop carries at position r, where the body makes the next one
    in a block it allocates and yields beside it once: the view (of which the yielded
    array is a slice, `through_slices`, or which it is), the allocation and the block's
    position."""
    body = loop.body.block
    if not isinstance(body.args[r + 1].type, MemRefType):
        return None
    yielded = list(body.last_op.operands)
    view_op = _root_view(yielded[r]) if through_slices else yielded[r].owner
    if not (isinstance(view_op, mem.ViewOp) and view_op.parent_block() is body):
        return None
    alloc = view_op.block.owner
    if not (isinstance(alloc, mem.AllocOp) and alloc.parent_block() is body):
        return None
    positions = [k for k, v in enumerate(yielded) if v is alloc.block]
    return (view_op, alloc, positions[0]) if len(positions) == 1 else None


def _root_view(view: SSAValue) -> Operation | None:
    """The mem.view a view is a slice of (through any number of slices), or its own
    defining op. A gpu_body's result is yielded as a row of the block it wrote."""
    op = view.owner
    while isinstance(op, mem.SliceOp):
        op = op.source.owner
    return op if isinstance(op, Operation) else None


def _base(view: SSAValue) -> SSAValue:
    """The block (or block argument) a chain of views, slices and transposes is of."""
    while isinstance(view.owner, mem.ViewOp | mem.SliceOp | mem.TransposeOp):
        view = view.owner.operands[0]
    return view


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
    pending = [view]
    for v in visit_once(pending):
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
    pending = [block]
    for value in visit_once(pending):
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



def block_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "a block"

