"""What an op does to memory content at level 2: which views it reads, which it
writes, and which it writes whole without reading them first (an array *creation*).

This is the one place that knows how kernels address their operands, and it knows it
from the memory-effect interface and the names of the operand groups of the op's
definition, not from a list of kernels: an op of the `mem` dialect that declares a write
effect creates its `outputs`/`output` operands, updates its `dest` operand in place and
reads every other view it is given (`mem.copy`, `mem.load` and `mem.store` are the
exceptions spelled out below). An op with unknown effects (a call, an op of another
dialect) is *opaque*: it may read, write and keep every block and view it is given.
Pure ops (views, slices, sizes, arithmetic) and structured control flow touch no memory
themselves; what their regions do is counted where the regions' ops are. Never
changes IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import (
    IsTerminator,
    MemoryWriteEffect,
    RecursiveMemoryEffect,
    get_effects,
)

from soacc.dialects import mem


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

_CREATED_GROUPS = ("outputs", "output")
_UPDATED_GROUPS = ("dest",)


def is_memory_value(value: SSAValue) -> bool:
    """A block or a view."""
    return isinstance(value.type, MemRefType | mem.BlockType)


def _structural(op: Operation) -> bool:
    return isinstance(op, scf.IfOp | scf.ForOp | scf.WhileOp) or op.has_trait(IsTerminator)


def _operand_groups(op: Operation) -> list[tuple[str, tuple[SSAValue, ...]]] | None:
    """(name, operands) per operand group of an IRDL op, None for other ops."""
    try:
        definition = op.get_irdl_definition()  # type: ignore[attr-defined]
    except AttributeError:
        return None
    groups = []
    for name, _ in definition.operands:
        values = getattr(op, name)
        if values is None:  # an optional operand left out
            values = ()
        elif isinstance(values, SSAValue):
            values = (values,)
        groups.append((name, tuple(values)))
    return groups


def access_of(op: Operation) -> Access:
    """The content accesses of `op` itself (its regions' ops are separate)."""
    memory_operands = [v for v in op.operands if is_memory_value(v)]
    if not memory_operands:
        return NO_ACCESS
    if isinstance(op, mem.YieldOp) and is_kernel(op.parent_op()):
        return Access(reads=_rows_copied_out(op))
    if _structural(op):
        return NO_ACCESS
    if isinstance(op, mem.CopyOp):
        return Access(reads=(op.source,), writes=(op.dest,), creates=(op.dest,))
    if isinstance(op, mem.LoadOp):
        return Access(reads=(op.view,))
    if isinstance(op, mem.StoreOp):
        return Access(writes=(op.view,))
    effects = get_effects(op)
    if effects is None:
        return Access(opaque=tuple(memory_operands))
    if not effects and not op.has_trait(RecursiveMemoryEffect):
        return NO_ACCESS  # pure: views, slices, sizes
    groups = _operand_groups(op) if op.dialect_name() == "mem" else None
    if groups is None or not op.has_trait(MemoryWriteEffect):
        return Access(opaque=tuple(memory_operands))
    reads: list[SSAValue] = []
    writes: list[SSAValue] = []
    creates: list[SSAValue] = []
    for name, values in groups:
        views = [v for v in values if isinstance(v.type, MemRefType)]
        if name in _CREATED_GROUPS:
            writes += views
            creates += views
        elif name in _UPDATED_GROUPS:
            reads += views
            writes += views
        else:
            reads += views
    return Access(tuple(reads), tuple(writes), tuple(creates))


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


def is_kernel(op: Operation) -> bool:
    """An op of the `mem` dialect that runs a lambda (a map, reduce, scan, hist,
    gpu_body, or a kernel added later): a "kernel" in the study's sense."""
    return op.dialect_name() == "mem" and bool(op.regions)


def is_loop(op: Operation) -> bool:
    return isinstance(op, scf.ForOp | scf.WhileOp)


def repeats(op: Operation) -> bool:
    """Ops whose regions run many times: loops and kernels (whose lambdas run once per
    row)."""
    return is_loop(op) or is_kernel(op)
