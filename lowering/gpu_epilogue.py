"""A gpu_body that follows a reduction runs at the end of the reduction's final kernel.

reduce-device-syncs replaces a synchronous read by a one-thread `gpu_body` launch, and
the gpu_body most often uses the value a reduction just made (gauss_jordan's pivot
value at the argmax's row, convergence's shift by the new mean). The reduction's final
pass already ends on one thread that holds that value: the gpu_body's statements can run
there, after the reduced values are stored, and its launch is gone. The study counts a
read and a launch as the cost it trades; with the launch folded in, the read it removed
is saved outright.

`find_epilogue` is the analysis (it reads the level-2 function, changes nothing): the
first host-level gpu_body after a host-level reduce or redomap in the same block, when
- nothing between them launches a kernel or has a region;
- what the gpu_body uses is known when the reduction is launched: values made before it,
  host reads (`mem.load`) of the reduction's 0-d outputs (then the thread's own reduced
  value), or pure scalar arithmetic of those, which the kernel redoes;
- its outputs' views and blocks are made before it, or by pure ops and allocations that
  can move before the reduction;
- nothing between them writes memory the gpu_body reads or writes, or reads memory it
  writes (by the memory-alias analysis), since the gpu_body now runs first;
- it allocates nothing (a one-thread kernel's scratch would have to come along).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from soacc.dialects import mem
from soacc.dialects.shared.traits import is_kernel
from soacc.dialects.shared.utils import captured_values
from soacc.passes.analysis.memory_access import access_of
from soacc.passes.analysis.memory_aliases import MemoryAliases, may_share_memory
from soacc.passes.utils.memory_motion import is_pure

REDUCTIONS = (mem.ReduceOp, mem.RedomapOp)


@dataclass
class Epilogue:
    """How the gpu_body `body` runs in the final kernel of `reduction`."""

    reduction: Operation
    body: mem.GpuBodyOp
    params: list[SSAValue] = field(default_factory=list)
    """Host values made before the reduction that the kernel takes for the body."""
    reduced: dict[SSAValue, int] = field(default_factory=dict)
    """Host reads of the reduction's 0-d outputs: which reduced value each is."""
    replayed: list[Operation] = field(default_factory=list)
    """Pure scalar ops between the two that the kernel redoes (in order)."""
    hoisted: list[Operation] = field(default_factory=list)
    """Ops that make the body's outputs, to move before the reduction (in order)."""


def _reduce_outputs(op: Operation) -> list[SSAValue]:
    return list(op.reduce_outputs) if isinstance(op, mem.RedomapOp) else list(op.outputs)


def find_epilogue(reduction: Operation, aliases: MemoryAliases) -> Epilogue | None:
    """The gpu_body that can run at the end of `reduction`'s final kernel, if any."""
    if not isinstance(reduction, REDUCTIONS) or getattr(reduction, "results_", None):
        return None
    between: list[Operation] = []
    op = reduction.next_op
    while op is not None and not isinstance(op, mem.GpuBodyOp):
        if op.regions or is_kernel(op) or op.has_trait(IsTerminator):
            return None
        between.append(op)
        op = op.next_op
    if op is None or any(isinstance(inner, mem.AllocOp) for inner in op.walk()):
        return None
    epilogue = Epilogue(reduction, op)
    outputs = _reduce_outputs(reduction)
    inside = set(between)
    moved: set[Operation] = set()

    def before(value: SSAValue) -> bool:
        owner = value.owner
        return not (isinstance(owner, Operation) and (owner in inside or owner is reduction))

    def hoistable(value: SSAValue) -> bool:
        """Made by pure ops and allocations between the two, from values made before."""
        if before(value):
            return True
        owner = value.owner
        assert isinstance(owner, Operation)
        if owner in moved:
            return True
        if not (is_pure(owner) or isinstance(owner, mem.AllocOp)) or not all(hoistable(v) for v in owner.operands):
            return False
        moved.add(owner)
        return True

    def known(value: SSAValue) -> bool:
        """Known on the final kernel's thread: a parameter, a reduced value, or pure
        scalar arithmetic of those, redone there."""
        if before(value):
            if value not in epilogue.params:
                epilogue.params.append(value)
            return True
        if value in epilogue.reduced:
            return True
        owner = value.owner
        assert isinstance(owner, Operation)
        if isinstance(owner, mem.LoadOp) and not owner.indices and owner.view in outputs:
            epilogue.reduced[value] = outputs.index(owner.view)
            return True
        if owner in epilogue.replayed:
            return True
        scalar_code = owner.dialect_name() in ("arith", "math") or isinstance(owner, mem.SizeOp)
        if not scalar_code or not is_pure(owner) or not all(known(v) for v in owner.operands):
            return False
        epilogue.replayed.append(owner)
        return True

    body = op
    out_views = set(body.outputs)
    for value in captured_values(body):
        if value in out_views:
            continue
        if isinstance(value.type, MemRefType | mem.BlockType):
            if not before(value) and not hoistable(value):
                return None
            if value not in epilogue.params:
                epilogue.params.append(value)
        elif not known(value):
            return None
    for view in body.outputs:
        if not hoistable(view):
            return None
    epilogue.replayed.sort(key=between.index)
    epilogue.hoisted = [o for o in between if o in moved]
    # the ops left between the two must commute with the body, which now runs first
    reads = [v for v in captured_values(body) if isinstance(v.type, MemRefType)]
    writes = list(body.outputs)
    for other in between:
        if other in moved:
            continue
        access = access_of(other)
        if access.opaque:
            return None
        if any(may_share_memory(aliases, w, v) for w in access.writes for v in reads + writes) or any(
            may_share_memory(aliases, r, w) for r in access.reads for w in writes
        ):
            return None
    return epilogue


def find_epilogues(function: Operation, host_reductions: list[Operation]) -> dict[Operation, Epilogue]:
    """The epilogues of a function's host-level reductions, by reduction."""
    if not host_reductions:
        return {}  # (the alias analysis is a fixpoint over the whole function)
    aliases = MemoryAliases(function)
    found: dict[Operation, Epilogue] = {}
    for op in host_reductions:
        epilogue = find_epilogue(op, aliases)
        if epilogue is not None:
            found[op] = epilogue
    return found
