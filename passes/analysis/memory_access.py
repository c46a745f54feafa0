"""What an op does to memory content at level 2: which views it reads, which it
writes, and which it writes whole without reading them first (an array *creation*).

It knows it from what each op declares (the `OperandEffects` trait of
dialects/shared/traits.py: the operand groups it reads, writes and creates), not from a list of
ops; a kernel's yield reads the rows its kernel copies out. An op with other or unknown
effects (a call, an op of another dialect) is *opaque*: it may read, write and keep
every block and view it is given.
Pure ops (views, slices, sizes, arithmetic) and structured control flow touch no memory
themselves; what their regions do is counted where the regions' ops are. Never
changes IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator, RecursiveMemoryEffect, get_effects

from soacc.dialects import mem
from soacc.dialects.shared.traits import OperandEffects, is_kernel


@dataclass(frozen=True)
class Access:
    """What one op (not its regions) does to the content of its operands."""

    reads: tuple[SSAValue, ...] = ()
    writes: tuple[SSAValue, ...] = ()
    creates: tuple[SSAValue, ...] = ()
    """Views written whole, without being read first (a subset of `writes`)."""
    opaque: tuple[SSAValue, ...] = ()
    """Blocks and views given to an op whose effects are unknown: read, written and
    possibly kept (aliased by its results)."""

    @property
    def touched(self) -> tuple[SSAValue, ...]:
        return self.reads + self.writes + self.opaque


NO_ACCESS = Access()


def is_memory_value(value: SSAValue) -> bool:
    """A block or a view."""
    return isinstance(value.type, MemRefType | mem.BlockType)


def _structural(op: Operation) -> bool:
    return isinstance(op, scf.IfOp | scf.ForOp | scf.WhileOp) or op.has_trait(IsTerminator)


def access_of(op: Operation) -> Access:
    """The content accesses of `op` itself (its regions' ops are separate)."""
    memory_operands = [v for v in op.operands if is_memory_value(v)]
    if not memory_operands:
        return NO_ACCESS
    if isinstance(op, mem.YieldOp) and is_kernel(op.parent_op()):
        return Access(reads=_rows_copied_out(op))
    if _structural(op):
        return NO_ACCESS
    declared = op.get_trait(OperandEffects)
    if declared is not None:
        creates = declared.views(op, declared.creates)
        return Access(declared.views(op, declared.reads), declared.views(op, declared.writes) + creates, creates)
    effects = get_effects(op)
    if effects is None or effects or op.has_trait(RecursiveMemoryEffect):
        return Access(opaque=tuple(memory_operands))
    return NO_ACCESS  # pure: views, slices, sizes


def _rows_copied_out(op: mem.YieldOp) -> tuple[SSAValue, ...]:
    """The arrays a lambda yields that its kernel copies out when the lambda ends (to an
    output row): all but the output rows it was given, which it built in place."""
    block = op.parent_block()
    kernel = op.parent_op()
    in_place = set()
    if isinstance(kernel, mem.MapOp) and block is kernel.body.block:
        in_place = set(block.args[len(kernel.inputs) :])
    return tuple(v for v in op.operands if isinstance(v.type, MemRefType) and v not in in_place)


def nested_accesses(op: Operation):
    """(op, Access) for `op` and every op nested in it that touches memory."""
    for inner in op.walk():
        access = access_of(inner)
        if access is not NO_ACCESS and access.touched:
            yield inner, access


def is_loop(op: Operation) -> bool:
    return isinstance(op, scf.ForOp | scf.WhileOp)


def repeats(op: Operation) -> bool:
    """Ops whose regions may run many times: loops and kernels (whose lambdas run once
    per row; a gpu_body's once, but on the device, where nothing of it can move out)."""
    return is_loop(op) or is_kernel(op)
