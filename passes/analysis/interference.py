"""Interference of memory blocks in one block of statements, with the index-access
exceptions (the study's §6.4–6.5 and its kernel data-race rule).

Two memories interfere when one is created while the other is live: walking the
statements in order, every memory first used at a statement interferes with every
memory live there, including those whose last use is that very statement (its kernel
may read the old one after writing the new one).

The exception: a `mem.map` that reads the old memory only as rows of one input, writes
the new one only as the same rows of one output, at the same bytes (same index function,
same element size) and never reads a row after it wrote it, lets each lane read its row
before it writes it, so the two need not interfere (`ys = map f xs` may be built in
`xs`'s memory). Other lanes never touch that row, so threads that run in any order
cannot race; an input and output of different element sizes or layouts would make
lanes overlap, which is the study's kernel data-race rule, and they interfere. The
lambda may also read the old memory elsewhere, through views whose bytes no lane
writes (LUD's pivot row, read by every lane while the rows below it are replaced).
A lane that yields its input row or element to another output reads it when it ends,
after its writes: no exception then.
Never changes IR.
"""

from __future__ import annotations

from xdsl.ir import BlockArgument, Operation, SSAValue

from soacc.dialects import husk, mem
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases, made_only_of
from soacc.passes.analysis.memory_liveness import BlockLiveness
from soacc.passes.analysis.symbolic import Symbolic


def lambda_params(op: mem.MapOp) -> tuple[list[BlockArgument], list[BlockArgument | None]]:
    """The lambda's parameter for each input, and for each output (None for an output
    whose rows are scalars: the lambda yields them)."""
    args = list(op.body.block.args)
    k = len(op.inputs)
    ins = args[:k]
    rest = iter(args[k:])
    outs = [next(rest) if o.type.get_num_dims() > 1 else None for o in op.outputs]
    return ins, outs


def _only_used_by(value: SSAValue, users: set[Operation]) -> bool:
    return all(use.operation in users for use in value.uses)


def rows_read_before_written(
    op: mem.MapOp, input_index: int, output_index: int, aliases: MemoryAliases, memories: frozenset[SSAValue]
) -> bool:
    """Each lane of the map reads row i of the input only before it writes row i of the
    output, and touches no other row of either (through its parameters). `memories`
    are the memories of the input and output."""
    ins, outs = lambda_params(op)
    p_in, p_out = ins[input_index], outs[output_index]
    body = op.body.block
    terminator = body.last_op
    assert terminator is not None
    yielded = terminator.operands[output_index]
    passed_through = _views_of(p_in, body)
    if any(k != output_index and v in passed_through for k, v in enumerate(terminator.operands)):
        # the input row (or element) yielded to another output is read when the lane
        # ends, after the lane has written row i of the output
        return False
    if p_out is None:
        # rows are elements: the lane reads its element; the map writes what it yields
        return True
    if not p_out.uses or (_only_used_by(p_out, {terminator}) and yielded is not p_out):
        # the output row is written once the lambda is done, so every read came
        # before; the row copied in must not be memory of the input or output
        return not (aliases.memories(yielded) & memories)
    # the row is built in place: every statement that reads the input row comes
    # before the first that writes the output row, or is a nested map that reads and
    # writes them row by row itself
    if yielded is not p_out:
        return False
    statements = [op for op in body.ops if op is not terminator]
    readers = _statements_using(p_in, body)
    writers = _statements_using(p_out, body)
    if not writers:
        return True
    first_write = min(statements.index(w) for w in writers)
    for reader in readers:
        if statements.index(reader) < first_write:
            continue
        if reader not in writers or not isinstance(reader, mem.MapOp):
            return False
        if list(reader.outputs).count(p_out) != 1 or list(reader.inputs).count(p_in) != 1:
            return False
        j = list(reader.outputs).index(p_out)
        i = list(reader.inputs).index(p_in)
        if not rows_read_before_written(reader, i, j, aliases, memories):
            return False
    return True


def _views_of(view: SSAValue, block) -> set[SSAValue]:
    """The view and the views made of it by slices and transposes in `block`."""
    out = {view}
    pending = [view]
    while pending:
        for use in pending.pop().uses:
            if isinstance(use.operation, mem.SliceOp | mem.TransposeOp) and use.operation.parent_block() is block:
                result = use.operation.results[0]
                if result not in out:
                    out.add(result)
                    pending.append(result)
    return out


def _statements_using(view: SSAValue, block) -> set[Operation]:
    """The statements of `block` that use the view or a view made of it."""
    out: set[Operation] = set()
    pending = [view]
    while pending:
        v = pending.pop()
        for use in v.uses:
            statement = block.find_ancestor_op_in_block(use.operation)
            if statement is None or statement is block.last_op:
                continue
            if isinstance(use.operation, mem.SliceOp | mem.TransposeOp) and use.operation.parent_block() is block:
                pending.append(use.operation.results[0])
                continue
            out.add(statement)
    return out


def map_exception(
    op: Operation,
    old: SSAValue,
    new: SSAValue,
    aliases: MemoryAliases,
    symbolic: Symbolic,
    *,
    new_view: SSAValue | None = None,
    carried: SSAValue | None = None,
    input_memories: frozenset[SSAValue] | None = None,
) -> bool:
    """Whether the kernel `op` may write memory `new` while reading memory `old`
    because each lane reads a row of `old` before writing the same bytes of `new`.
    `new_view` is where the output will be instead of its own block (when the output is
    about to be placed in `old`), else the output's own view is used. `carried` is a
    loop body's carried block, when the input is the loop's carried array: `old` the
    block the loop starts from and `new` the block the body makes for the next
    iteration, which the carried block also is from the second iteration on.
    `input_memories` overrides what the input's block may be (by default `old`, and
    `new` with `carried`): a carried block that is to hold a body's array `new` is the
    block the loop starts from or the one the body makes for the next iteration."""
    if isinstance(op, husk.RunOp):
        return _husk_exception(op, old, new, aliases, symbolic, new_view, carried, input_memories)
    if not isinstance(op, mem.MapOp):
        return False
    in_positions = [i for i, v in enumerate(op.inputs) if old in aliases.memories(v)]
    out_positions = [j for j, v in enumerate(op.outputs) if new in aliases.memories(v)]
    if not in_positions or len(out_positions) != 1:
        return False
    j = out_positions[0]
    target = symbolic.index_function(new_view if new_view is not None else op.outputs[j])
    # inputs whose bytes are all apart from the output's (row i - 1 beside row i) are
    # read by any lane at any time; one input may be read row by row where it is written
    apart = {k for k in in_positions if _apart(op.inputs[k], target, symbolic)}
    rows = [k for k in in_positions if k not in apart]
    if len(rows) != 1:
        return False
    i = rows[0]
    if any(new in aliases.memories(v) for k, v in enumerate(op.inputs) if k not in apart and (carried is None or k != i)) or any(
        old in aliases.memories(v) for v in op.outputs
    ):
        return False
    source = symbolic.index_function(op.inputs[i])
    expected = _input_memories(old, new, carried, input_memories)
    return _same_rows(source, target, carried, expected, aliases, symbolic) and _lanes_row_by_row(
        op, i, j, old, new, aliases, symbolic, source, target, expected
    )


def _apart(view: SSAValue, target, symbolic: Symbolic) -> bool:
    """No byte of the view is one of the target's (index function, or None)."""
    where = symbolic.index_function(view)
    return target is not None and where is not None and symbolic.disjoint(where, target)


def _input_memories(old, new, carried, input_memories) -> frozenset[SSAValue]:
    """What the input's block may be (map_exception's `input_memories`, by default)."""
    if input_memories is not None:
        return input_memories
    return frozenset((old,)) if carried is None else frozenset((old, new))


def _same_rows(source, target, carried, expected, aliases: MemoryAliases, symbolic: Symbolic) -> bool:
    """The input (index function `source`) is in the expected memory (the carried
    block, if any) and the output (`target`) is at the same addresses: lane i reads
    and writes the same bytes."""
    if source is None or target is None:
        return False
    if (carried is not None and source.block is not carried) or aliases.memories(source.block) != expected:
        return False
    return symbolic.same_addresses(source, target)


def _lanes_row_by_row(
    op: mem.MapOp, i: int, j: int, old, new, aliases: MemoryAliases, symbolic: Symbolic, source, target, expected
) -> bool:
    """Nothing in the map's lambda reaches either memory but through its row
    parameters (input i, output j), or reads bytes of the input's memory that no lane
    writes; and each lane reads its row before it writes the same row."""
    ins, outs = lambda_params(op)
    allowed = {ins[i], outs[j]}
    for inner, access in nested_accesses(op):
        if inner is op:
            continue
        for v in access.touched:
            if not aliases.memories(v) & {old, new} or _reaches_only_through(v, allowed):
                continue
            if v in access.writes or v in access.opaque:
                return False
            read = symbolic.index_function(v)  # another part of the input's memory (LUD's pivot row)
            if read is None or read.block is not source.block or not symbolic.disjoint(read, target.rebased(read.block)):
                return False
    return rows_read_before_written(op, i, j, aliases, frozenset((old, new)) | expected)


def _husk_exception(
    run: husk.RunOp,
    old: SSAValue,
    new: SSAValue,
    aliases: MemoryAliases,
    symbolic: Symbolic,
    new_view: SSAValue | None,
    carried: SSAValue | None,
    input_memories: frozenset[SSAValue] | None,
) -> bool:
    """The map exception through a husk: the run reads rows of one source in `old` and
    writes the same rows of one out, which is to be in `new`; every device gets the
    same rows of both (on device 0 the arrays themselves, elsewhere copies sent and
    sent back), so the run is row by row where its body is: one map of the body reads
    the device's rows of the source and writes its rows of the out, each lane its own
    row before writing it."""
    sources = [i for i, v in enumerate(run.sources) if old in aliases.memories(v)]
    outs = [j for j, v in enumerate(run.outs) if new in aliases.memories(v)]
    if len(sources) != 1 or len(outs) != 1:
        return False
    i, j = sources[0], outs[0]
    others = [v for k, v in enumerate(run.sources) if k != i] + [v for k, v in enumerate(run.outs) if k != j] + list(run.slots)
    if any(aliases.memories(v) & {old, new} for v in others):
        return False
    if carried is None and new in aliases.memories(run.sources[i]):
        return False
    source = symbolic.index_function(run.sources[i])
    target = symbolic.index_function(new_view if new_view is not None else run.outs[j])
    expected = _input_memories(old, new, carried, input_memories)
    if not _same_rows(source, target, carried, expected, aliases, symbolic):
        return False
    part, rows = run.parts("sources")[i], run.parts("outs")[j]
    touching = [
        inner
        for inner in run.body.block.ops
        if any(aliases.memories(v) & {old, new} for _, access in nested_accesses(inner) for v in access.touched)
    ]
    if len(touching) != 1 or not isinstance(touching[0], mem.MapOp):
        return False
    kernel = touching[0]
    if list(kernel.inputs).count(part) != 1 or list(kernel.outputs).count(rows) != 1:
        return False
    a, b = list(kernel.inputs).index(part), list(kernel.outputs).index(rows)
    if any(aliases.memories(v) & {old, new} for k, v in enumerate(kernel.inputs) if k != a) or any(
        aliases.memories(v) & {old, new} for k, v in enumerate(kernel.outputs) if k != b
    ):
        return False
    return _lanes_row_by_row(kernel, a, b, old, new, aliases, symbolic, source, target, expected)


def _reaches_only_through(value: SSAValue, params: set) -> bool:
    """The value is one of the parameters, or a view or a nested lambda's row made of
    one."""
    return made_only_of(value, params)


class Interference:
    """Which memories of a block's liveness interfere (symmetric), among `candidates`
    (all memories the block touches when None)."""

    def __init__(
        self,
        liveness: BlockLiveness,
        aliases: MemoryAliases,
        symbolic: Symbolic,
        candidates: set[SSAValue] | None = None,
    ):
        self.liveness = liveness
        self.edges: dict[SSAValue, set[SSAValue]] = {}
        self.exceptions: set[frozenset[SSAValue]] = set()
        """Pairs that would interfere but for an index-access exception."""
        live = liveness
        memories = set(live.first_use) if candidates is None else set(candidates) & set(live.first_use)
        for m in memories:
            self.edges.setdefault(m, set())
        for i in range(live.results + 1):
            created = {m for m in memories if live.first_use[m] == i}
            if not created:
                continue
            alive = {m for m in memories if live.first_use[m] <= i <= live.last_use[m]}
            for new in created:
                for other in alive:
                    if other is new:
                        continue
                    if (
                        i < live.results
                        and live.first_use[other] < i
                        and live.last_use[other] == i
                        and map_exception(live.statements[i], other, new, aliases, symbolic)
                    ):
                        self.exceptions.add(frozenset((new, other)))
                        continue
                    self.edges[new].add(other)
                    self.edges.setdefault(other, set()).add(new)

    def interferes(self, a: SSAValue, b: SSAValue) -> bool:
        return b in self.edges.get(a, ())

    def neighbours(self, m: SSAValue) -> set[SSAValue]:
        return self.edges.get(m, set())


__all__ = ["Interference", "map_exception", "rows_read_before_written"]
