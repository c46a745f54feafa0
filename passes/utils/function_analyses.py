"""The analyses the memory passes ask of one function, built once and kept while the IR
they describe stays as it was.

Memory aliases and the symbolic sizes are whole-function analyses: rebuilding them for
every block or every candidate was most of hoist-allocations', short-circuit's and
memory-reuse's compile time. The passes say what they changed, and only what that
changed is dropped:

- `moved`: ops moved within their blocks. Aliases follow def-use edges only, and sizes
  are values, so both stay; a block's liveness is in statement order, and goes.
- `replaced_memory`: an allocation's block replaced by another's everywhere, and the
  first erased. Aliases are updated in place (what may have been in the one may now
  be in the other, as rebuilding would find); everything else goes.
- `changed`: anything else. Everything goes.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Block, Operation, SSAValue

from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.memory_liveness import BlockLiveness, block_liveness
from soacc.passes.analysis.symbolic import Symbolic


class FunctionAnalyses:
    """Aliases, sizes (per body, with the size checks that hold there) and block
    liveness of one function, computed on demand."""

    def __init__(self, function: func.FuncOp):
        self.function = function
        self._aliases: MemoryAliases | None = None
        self._symbolic: dict[Block | None, Symbolic] = {}
        self._live: dict[Block, BlockLiveness] = {}

    @property
    def aliases(self) -> MemoryAliases:
        if self._aliases is None:
            self._aliases = MemoryAliases(self.function)
        return self._aliases

    def symbolic(self, block: Block | None = None) -> Symbolic:
        """Sizes in the function, taking as facts the size checks of `block` and the
        blocks around it (none when `block` is None): facts hold only where their
        checks ran, so each body has its own."""
        if block not in self._symbolic:
            self._symbolic[block] = new_symbolic(self.function, block)
        return self._symbolic[block]

    def liveness(self, block: Block) -> BlockLiveness:
        if block not in self._live:
            self._live[block] = block_liveness(block, self.aliases)
        return self._live[block]

    def moved(self) -> None:
        """Ops moved within their blocks, and nothing else changed."""
        self._live.clear()

    def replaced_memory(self, old: SSAValue, new: SSAValue) -> None:
        """`old`, an allocation's block, was replaced by the block `new` everywhere (and
        its allocation erased); nothing else changed but new pure ops (sizes)."""
        if self._aliases is not None:
            self._aliases.replace_memory(old, new)
        self._symbolic.clear()
        self._live.clear()

    def changed(self) -> None:
        self._aliases = None
        self._symbolic.clear()
        self._live.clear()

    def kept(self) -> tuple[MemoryAliases | None, dict[Block | None, Symbolic], dict[Block, BlockLiveness]]:
        """What is known now, to `restore` once the IR is back as it is now."""
        return self._aliases, dict(self._symbolic), dict(self._live)

    def restore(self, kept: tuple[MemoryAliases | None, dict[Block | None, Symbolic], dict[Block, BlockLiveness]]) -> None:
        self._aliases, symbolic, live = kept
        self._symbolic = dict(symbolic)
        self._live = dict(live)


def new_symbolic(function: func.FuncOp, block: Block | None) -> Symbolic:
    """Fresh sizes of the function, with the facts of `block` (see `fact_ops`)."""
    symbolic = Symbolic(function)
    if block is not None:
        symbolic.assume_facts_of(fact_ops(block))
    return symbolic


def fact_ops(block: Block) -> list[Operation]:
    """The ops whose size checks hold wherever `block` runs to its end: those of the
    block and of the blocks around it."""
    ops: list[Operation] = []
    current: Block | None = block
    while current is not None:
        ops += list(current.ops)
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return ops
