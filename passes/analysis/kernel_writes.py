"""Which of the arrays a kernel is given it may write (so that the arrays it only
reads are known to stay as they were: runtime/husk_residency.py keeps what other
devices hold of them). Never changes IR.

An array is written where an op in the kernel that has a write effect (or effects
nobody declared) is given the array or a view of it. Views are followed through every
op that makes an array from one (a slice, a row, a transpose...). Anything that passes
a view where the walk cannot follow it (into a loop's or a branch's values, a call)
counts as a write: the answer errs towards "written".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, Region, SSAValue
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects

_CHANGES = (MemoryEffectKind.WRITE, MemoryEffectKind.FREE)


def written_arrays(arrays: Sequence[SSAValue], regions: Iterable[Region]) -> set[SSAValue]:
    """The values among `arrays` (views) that the ops of `regions` may write."""
    root: dict[SSAValue, SSAValue] = {}
    inside = list(regions)
    work = [v for v in arrays if isinstance(v.type, MemRefType)]
    for v in work:
        root[v] = v
    written: set[SSAValue] = set()
    while work:
        value = work.pop()
        for use in value.uses:
            user = use.operation
            if not any(_contains(region, user) for region in inside):
                continue
            if user.regions or user.has_trait(IsTerminator):
                # (a loop's or a branch's value, or one yielded: not followed)
                if not _only_reads(user):
                    written.add(root[value])
                    continue
            for result in user.results:
                if isinstance(result.type, MemRefType) and result not in root:
                    root[result] = root[value]
                    work.append(result)
            if _writes(user, value):
                written.add(root[value])
    return written


def written_parameters(kernel: Operation) -> frozenset[int]:
    """The positions of a kernel function's (a gpu.func's) array parameters that its
    body may write."""
    params = list(kernel.regions[0].block.args) if kernel.regions and kernel.regions[0].blocks else []
    written = written_arrays(params, kernel.regions)
    return frozenset(i for i, p in enumerate(params) if p in written)


def _writes(op: Operation, value: SSAValue) -> bool:
    """`op` may change the memory of `value` (one of its operands)."""
    effects = get_effects(op)
    if effects is None:
        return True
    for effect in effects:
        if effect.kind in _CHANGES and (effect.value is None or effect.value is value):
            return True
    return False


def _only_reads(op: Operation) -> bool:
    """A structured op whose own and nested effects are reads only (a loop over loads)."""
    effects = get_effects(op)
    return effects is not None and all(e.kind not in _CHANGES for e in effects) and not op.has_trait(IsTerminator)


def _contains(region: Region, op: Operation) -> bool:
    parent = op.parent_region()
    while parent is not None:
        if parent is region:
            return True
        owner = parent.parent_op()
        parent = owner.parent_region() if owner is not None else None
    return False
