"""Data flow between the ops of one block, for passes that move or merge ops (soac-fusion).

At level 1 every op is a value-semantics function of what it reads, so an op may move
within its block as long as what it reads is still there, what reads its results still
comes after it, and no array it reads has been *consumed* in between (`update`,
`scatter` and `hist` consume their destination: it must not be used afterwards). This
module answers those questions; it never changes IR.

An op *reads* its operands and every value its regions use that is defined outside it
(a lambda's captured values). A use nested in an op of the block counts as a use by that
op (its *top-level* op in the block).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from soacc.dialects.shared.traits import consumed_operand
from soacc.dialects.shared.utils import captured_values
from soacc.dialects.shared.utils import used_values as read_values  # what this module calls an op's reads

__all__ = ["BlockOrder", "captured_values", "consumed_operand", "consumed_values", "read_values"]


def consumed_values(op: Operation) -> set[SSAValue]:
    """Values consumed by `op` or by any op nested in it."""
    out = set()
    for inner in op.walk():
        v = consumed_operand(inner)
        if v is not None:
            out.add(v)
    return out


class BlockOrder:
    """The ops of one block in order, and where in it any use happens."""

    def __init__(self, block: Block):
        self.block = block
        self.ops = list(block.ops)
        self.index = {op: i for i, op in enumerate(self.ops)}

    def top_level(self, op: Operation) -> Operation | None:
        """The op of this block that is `op` or contains it (None if none does)."""
        while op is not None and op not in self.index:
            op = op.parent_op()
        return op

    def users(self, value: SSAValue) -> list[Operation]:
        """The top-level ops that use `value` (once each, in block order)."""
        found = {self.top_level(use.operation) for use in value.uses}
        found.discard(None)
        return sorted(found, key=self.index.__getitem__)

    def between(self, first: Operation, last: Operation) -> list[Operation]:
        """The ops strictly between two ops of the block."""
        return self.ops[self.index[first] + 1 : self.index[last]]

    def defined_before(self, value: SSAValue, op: Operation) -> bool:
        """`value` is available before `op` runs: defined by an earlier op of the block,
        or outside the block (an argument, or a value of an enclosing region)."""
        if isinstance(value, BlockArgument):
            return True  # of this block or of an enclosing one
        top = self.top_level(value.op)
        return top is None or self.index[top] < self.index[op]

    def dependence(self, later: Operation, earlier: Operation) -> Operation | None:
        """Whether `later` reads, directly or through the ops between them, a result of
        `earlier`: None if not, else the first op on the way (`later` itself when it
        reads a result directly)."""
        # the first op on the way from each value derived from `earlier` (`later` marks
        # `earlier`'s own results); the earliest such op when there are several
        first: dict[SSAValue, Operation] = {r: later for r in earlier.results}
        for op in self.between(earlier, later):
            vias = {first[v] for v in read_values(op) if v in first}
            if vias:
                via = op if later in vias else min(vias, key=self.index.__getitem__)
                for r in op.results:
                    first[r] = via
        vias = {first[v] for v in read_values(later) if v in first}
        if not vias:
            return None
        return later if later in vias else min(vias, key=self.index.__getitem__)

    def consumed_between(self, first: Operation, last: Operation, values: Iterable[SSAValue]) -> SSAValue | None:
        """A value of `values` that an op strictly between `first` and `last` consumes."""
        wanted = set(values)
        for op in self.between(first, last):
            hit = consumed_values(op) & wanted
            if hit:
                return next(iter(hit))
        return None
