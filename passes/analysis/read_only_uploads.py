"""Which argument uploads of a level-2 entry point fill a device block that nothing
writes afterwards (issue 19, item 5): where the caller's array is already in device
memory, the program may read it there instead of its copy. Never changes IR.

An upload `mem.copy %a_host, %a` qualifies where
- `%a_host` is one of the function's array arguments (in host memory at level 2),
  given whole;
- `%a` is the one `mem.view` of a block the function allocates, row-major, of the
  same shape: the copy fills all the array's bytes, and every other view of the block
  is a slice or transpose of `%a`;
- nothing in the function but the upload writes into the block (memory_aliases.py
  follows it through branches, loops and (block, view) pairs; memory_access.py says what
  each op reads and writes). A call writes what its callee may write through the
  parameter it is given, asked of the callee's body the same way (recursively; a
  callee without a body, or a recursive one, may write anything); what a call returns
  may alias what it was given, and writes through it count.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import BlockArgument, SSAValue
from xdsl.traits import SymbolTable

from soacc.dialects import mem
from soacc.passes.analysis.memory_access import nested_accesses
from soacc.passes.analysis.memory_aliases import MemoryAliases


@dataclass(frozen=True)
class UploadVerdict:
    copy: mem.CopyOp
    read_only: bool
    why_not: str = ""


def _whole_argument(value: SSAValue, function: func.FuncOp) -> bool:
    return isinstance(value, BlockArgument) and value.block is function.body.block


def upload_verdicts(function: func.FuncOp) -> list[UploadVerdict]:
    """Every upload of a whole argument in `function`'s body, and whether its device
    block is only read after it (and why not)."""
    if not function.body.blocks:
        return []
    body = function.body.block
    uploads = [
        op for op in body.ops
        if isinstance(op, mem.CopyOp)
        and not mem.space_of(op.source.type).is_device
        and mem.space_of(op.dest.type).is_device
        and _whole_argument(op.source, function)
    ]
    if not uploads:
        return []
    aliases = MemoryAliases(function)
    written_by: dict[SSAValue, list] = {}
    written_parameters: dict[func.FuncOp, frozenset[int]] = {}
    for op, access in nested_accesses(function):
        for value, unknown in _written(op, access, written_parameters):
            for memory in aliases.memories(value):
                written_by.setdefault(memory, []).append((op, unknown))
    return [UploadVerdict(copy, *_verdict(copy, written_by)) for copy in uploads]


def _written(op, access, written_parameters: dict) -> list[tuple[SSAValue, bool]]:
    """What `op` writes, or may (True: its effects are unknown). A call writes what
    its callee may write through the parameters it is given; what it returns may alias
    what it was given (MemoryAliases follows that)."""
    opaque = access.opaque
    if isinstance(op, func.CallOp):
        callee = _callee(op)
        written = _written_by(callee, written_parameters) if callee is not None else None
        opaque = tuple(v for i, v in enumerate(op.arguments) if v in opaque and (written is None or i in written))
    return [*((v, False) for v in access.writes), *((v, True) for v in opaque)]


def _callee(call: func.CallOp) -> func.FuncOp | None:
    found = SymbolTable.lookup_symbol(call, call.callee)
    return found if isinstance(found, func.FuncOp) and found.body.blocks else None


def _written_by(callee: func.FuncOp, written_parameters: dict) -> frozenset[int]:
    """The positions of `callee`'s parameters it may write through, asked once per
    callee (a callee being asked, reached again by recursion, may write every one)."""
    known = written_parameters.get(callee)
    if known is not None:
        return known
    parameters = callee.body.block.args
    written_parameters[callee] = frozenset(range(len(parameters)))
    aliases = MemoryAliases(callee)
    written = set()
    for op, access in nested_accesses(callee):
        for value, _ in _written(op, access, written_parameters):
            written |= aliases.memories(value)
    found = frozenset(i for i, parameter in enumerate(parameters) if aliases.memories(parameter) & written)
    written_parameters[callee] = found
    return found


def _verdict(copy: mem.CopyOp, written_by: dict[SSAValue, list]) -> tuple[bool, str]:
    view = copy.dest.owner
    if not isinstance(view, mem.ViewOp) or view.strides:
        return False, "its device array is not a row-major view of a block"
    alloc = view.block.owner
    if not isinstance(alloc, mem.AllocOp):
        return False, "its device block is not one the function allocates"
    others = sorted({use.operation.name for use in alloc.block.uses if use.operation is not view and not isinstance(use.operation, func.CallOp)})
    if others:
        return False, f"its device block is also used by {', '.join(others)}"
    others = [(op, unknown) for op, unknown in written_by.get(alloc.block, []) if op is not copy]
    if others:
        names = sorted({op.name + (" (effects unknown)" if unknown else "") for op, unknown in others})
        return False, f"its device block is written after the upload, or may be ({', '.join(names)})"
    return True, ""
