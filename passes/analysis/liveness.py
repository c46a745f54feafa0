"""Last uses of SSA values in structured IR (regions nested in ops, no branches).

A value defined in a block dies at the op of that block that uses it last, where an
op uses everything its nested regions use (so a value used inside a loop body lives
until the loop ends). A value nobody uses dies where it is defined. The executor
drops values there (so blocks are freed when their last view dies), and the host-code
emitter will release them there. This analysis never changes IR.

`scope_end_uses` is the model of the study's baseline instead (Futhark in 2017): every
value lives until the block that defines it ends (a loop body's at the end of each
iteration), as the reference executor keeps them with `free_at_last_use=False`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue

from soacc.dialects.shared.utils import used_values


@dataclass
class LastUses:
    dies_after: dict[Operation, list[SSAValue]] = field(default_factory=dict)
    """Values whose last use is this op: dead once it has run."""
    dead_before: dict[Operation, list[SSAValue]] = field(default_factory=dict)
    """Values nobody uses (results of the previous op, arguments of the block): dead
    before this op runs."""



def last_uses(root: Operation) -> LastUses:
    """Last uses for every block nested in `root`."""
    result = LastUses()
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                _block_last_uses(block, result)
    return result


def scope_end_uses(root: Operation) -> LastUses:
    """Every value of every block nested in `root` dies after the block's last op."""
    result = LastUses()
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                ops = list(block.ops)
                if ops:
                    result.dies_after[ops[-1]] = [*block.args, *(r for o in ops for r in o.results)]
    return result


def _block_last_uses(block: Block, result: LastUses) -> None:
    ops = list(block.ops)
    if not ops:
        return
    defined: set[SSAValue] = set(block.args)
    last: dict[SSAValue, Operation] = {}
    for op in ops:
        for v in used_values(op):  # ordered: what dies together is emitted in this order
            if v in defined:
                last[v] = op
        defined.update(op.results)
    for v, op in last.items():
        result.dies_after.setdefault(op, []).append(v)
    unused_args = [a for a in block.args if a not in last]
    if unused_args:
        result.dead_before.setdefault(ops[0], []).extend(unused_args)
    for before, after in zip(ops, ops[1:]):
        unused = [r for r in before.results if r not in last]
        if unused:
            result.dead_before.setdefault(after, []).extend(unused)
