"""Facts about ops that analyses, passes, lowerings and emitters ask, declared once on
the ops themselves (as MLIR declares them through op interfaces such as
`MemoryEffectOpInterface`): which ops are kernels, which operand an op consumes, and
which operands an op reads and writes.

- `KernelOp`: the op is a kernel that host code launches. A data-parallel
  combinator's regions run once per row or element; a `gpu_body`'s region runs once, on
  one thread. It runs where its arrays are (its *placement*): on a device, or, where
  place-kernels moved it, on the host; the trait's verifier checks that every array it
  is given or captures is in one memory space. Nested ops of a kernel run in the
  kernel, not as host code (`runs_on_device`).
- `ConsumesOperand`: the op takes over one array operand (Futhark's *consumption*): the
  array may be written in place, so it must not be used after the op.
- `AllocatesItsResult`: the op allocates the block it returns and nothing else, so an
  allocation nobody uses is dead code to xDSL's DCE.
- `OperandEffects`: a memory-effect trait that names, by operand group, the views an op
  reads, writes, and creates (writes whole before anything reads them). Its effects are
  xDSL's `EffectInstance`s tied to the operand values, so xDSL's own passes see them as
  ordinary read and write effects, and soacc's analyses see which operand each is on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, OpTrait
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.shared.utils import used_values


@dataclass(frozen=True)
class KernelOp(OpTrait):
    """Code launched from host code as one step (a kernel, in the studies' sense): on a
    device, or on the host where place-kernels placed it there."""

    parallel: bool = True
    """Its regions run once per row or element (a combinator); False: once, on one
    thread (a gpu_body)."""

    def verify(self, op: Operation) -> None:
        """A kernel launched from host code has all its arrays, given or captured, in
        one memory space: that is where it runs. (A kernel inside another's lambda runs
        in that one, on its rows and private arrays.)"""
        if enclosing_kernel(op) is not None:
            return
        spaces: dict[Attribute, SSAValue] = {}
        for value in used_values(op):
            if isinstance(value.type, MemRefType):
                spaces.setdefault(value.type.memory_space, value)
        if len(spaces) > 1:
            names = ", ".join(sorted(_describe_space(s) for s in spaces))
            raise VerifyException(
                f"{op.name} uses arrays in {names} memory; a kernel runs in one place (the host, "
                "or one device) and all its arrays, given or captured, must be there"
            )


def _describe_space(space: Attribute) -> str:
    describe = getattr(space, "describe", None)
    return describe() if describe is not None else str(space)


def kernel_space(op: Operation) -> Attribute | None:
    """The memory space a kernel's arrays are in (where it runs), or None where it has
    no array operand (it then runs where its enclosing code puts it: the device)."""
    for value in op.operands:  # (most kernels take their arrays as operands: no walk)
        if isinstance(value.type, MemRefType):
            return value.type.memory_space
    for value in used_values(op):
        if isinstance(value.type, MemRefType):
            return value.type.memory_space
    return None


def is_host_kernel(op: Operation) -> bool:
    """`op` is a kernel launched from host code whose arrays are in host memory: it
    runs on the CPU (place-kernels put it there)."""
    if not is_kernel(op) or enclosing_kernel(op) is not None:
        return False
    space = kernel_space(op)
    return space is not None and not getattr(space, "is_device", True)


def is_kernel(op: Operation) -> bool:
    """`op` is a kernel: a combinator, an array constructor that runs on the device at
    level 2, or a gpu_body."""
    return op.has_trait(KernelOp)


def is_parallel_kernel(op: Operation) -> bool:
    """`op` is a data-parallel kernel (not a single-threaded gpu_body)."""
    trait = op.get_trait(KernelOp)
    return trait is not None and trait.parallel


def enclosing_kernel(op: Operation) -> Operation | None:
    """The innermost kernel `op` is nested in (within its function), or None."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if is_kernel(parent):
            return parent
        parent = parent.parent_op()
    return None


def runs_on_device(op: Operation) -> bool:
    """`op` is nested in a kernel (a lambda, an operator or a gpu_body), so it is not
    host code: it runs in the kernel, on the device (or, in a host kernel, on the
    kernel's rows on the CPU, never as a step of the host code)."""
    return enclosing_kernel(op) is not None


def used_only_on_device(value: SSAValue) -> bool:
    """Every use of `value` is on the device (inside a kernel)."""
    return all(runs_on_device(use.operation) for use in value.uses)


@dataclass(frozen=True)
class ConsumesOperand(OpTrait):
    """The op consumes its operand named `operand` (an array it may write in place)."""

    operand: str


def consumed_operand(op: Operation) -> SSAValue | None:
    """The array operand `op` consumes, or None."""
    trait = op.get_trait(ConsumesOperand)
    return getattr(op, trait.operand) if trait is not None else None


@dataclass(frozen=True)
class OperandEffects(MemoryEffect):
    """The views an op reads and writes, by the names of its operand groups. `writes`
    are written in part (the rest keeps its content); `creates` are written whole
    without being read first (an array's creation); a group in both `reads` and
    `writes` is updated in place. Operands that are not views (sizes, scalars) have no
    memory effect."""

    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    creates: tuple[str, ...] = ()

    def views(self, op: Operation, groups: tuple[str, ...]) -> tuple[SSAValue, ...]:
        """The view operands of `op` in the named groups, in order."""
        return tuple(v for group in groups for v in _group(op, group) if isinstance(v.type, MemRefType))

    def get_effects(self, op: Operation) -> set[EffectInstance]:  # type: ignore[override]
        effects = {EffectInstance(MemoryEffectKind.READ, v) for v in self.views(op, self.reads)}
        effects |= {EffectInstance(MemoryEffectKind.WRITE, v) for v in self.views(op, self.writes + self.creates)}
        return effects


class AllocatesItsResult(MemoryEffect):
    """Allocates the block it returns and touches nothing else (MLIR's MemAlloc on the
    result): an allocation nobody uses has no effect, so xDSL's dead-code elimination
    erases it (a bare MemoryAllocEffect names no value, and would keep it)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:  # type: ignore[override]
        return {EffectInstance(MemoryEffectKind.ALLOC, op.results[0])}


def _group(op: Operation, name: str) -> Iterator[SSAValue]:
    values = getattr(op, name)
    if values is None:  # an optional operand left out
        return iter(())
    if isinstance(values, SSAValue):
        return iter((values,))
    return iter(values)
