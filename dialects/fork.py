"""
The `fork` dialect: task parallelism at level 2 (Matser, *Automatic task parallelism in
Accelerate*; digest 004 §3), made by [introduce-forks](../docs/introduce-forks.md).

- `fork.fork { ... fork.end }` starts a thread that runs its region once, while the
  thread that reached it goes on with the ops after it. There is no join: threads
  meet through signals. A region's values stay in it; what a thread gives others goes
  through references.
- `%s = fork.signal` is a one-shot signal: resolved exactly once (`fork.resolve`),
  awaited any number of times (`fork.wait` blocks until every signal it names is
  resolved).
- `%r = fork.ref : !fork.ref<T>` is a cell written once (`fork.write %r, %v`) and read
  by any thread that has waited for the signal resolved after the write
  (`%v = fork.read %r : !fork.ref<T>`).

```mlir
%s = fork.signal
%r = fork.ref : !fork.ref<index>
fork.fork {
  %n = arith.constant 4 : index
  fork.write %r, %n : !fork.ref<index>
  fork.resolve %s
  fork.end
}
fork.wait %s
%m = fork.read %r : !fork.ref<index>
```

A loop may carry signals and references from one iteration to the next (its
`iter_args`, an `scf.while`'s state): an iteration makes the signals of the next one's
state and resolves them once, and the next waits for them (introduce-forks' While rule).
A carried signal is only awaited; it is resolved where it is made (`fork.resolve`
rejects an `scf.for` or `scf.while` block argument or result).

```mlir
%done = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %ready) -> (!fork.signal) {
  %next = fork.signal
  fork.fork {
    fork.wait %prev
    fork.resolve %next
    fork.end
  }
  scf.yield %next : !fork.signal
}
fork.wait %done
```

On the GPU (next: convert-fork-to-gpu) a thread's device work goes on a stream of its
own, a signal is an event recorded where it is resolved, and a wait is a stream wait on
those events (the host waits only where it reads a reference a device value went to).
The verifier checks what makes that mapping sound: every signal is resolved exactly
once on every path (an event is recorded once), and one that is awaited has a resolver
(a carried one: the signals it carries are made and resolved in the loop or before it).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Attribute, BlockArgument, Dialect, OpResult, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    param_def,
    region_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.shared.traits import runs_on_device


@irdl_attr_definition
class SignalType(ParametrizedAttribute, TypeAttribute):
    """A one-shot signal: `!fork.signal`."""

    name = "fork.signal"


@irdl_attr_definition
class RefType(ParametrizedAttribute, TypeAttribute):
    """A cell holding one value of `element`: `!fork.ref<index>`."""

    name = "fork.ref"
    element: Attribute = param_def(Attribute)

    def __init__(self, element: Attribute):
        super().__init__(element)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        element = parser.parse_type()
        parser.parse_punctuation(">")
        return (element,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element)
        printer.print_string(">")


SIGNAL = SignalType()


@irdl_op_definition
class SignalOp(IRDLOperation):
    """A new signal, not yet resolved."""

    name = "fork.signal"
    signal = result_def(SignalType)
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[SIGNAL])

    def verify_(self) -> None:
        resolves = [u.operation for u in self.signal.uses if isinstance(u.operation, ResolveOp)]
        waits = [u.operation for u in self.signal.uses if isinstance(u.operation, WaitOp)]
        if not resolves:
            if waits:
                raise VerifyException("fork.signal is awaited but never resolved: every awaited signal needs a resolver")
            raise VerifyException("fork.signal is never resolved; expected exactly one fork.resolve of it")
        times = _resolutions(self, set(resolves))
        if times != 1:
            raise VerifyException(f"fork.signal is resolved {times} times; expected exactly once on every path")


@irdl_op_definition
class RefOp(IRDLOperation):
    """A new reference, not yet written."""

    name = "fork.ref"
    ref = result_def(RefType)
    assembly_format = "attr-dict `:` type($ref)"

    def __init__(self, element: Attribute):
        super().__init__(result_types=[RefType(element)])


def _print_attributes_and_ref_type(printer: Printer, op: WriteOp | ReadOp) -> None:
    """` {attrs} : !fork.ref<T>`, the tail fork.write and fork.read share."""
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.ref.type)


def _parse_attributes_and_ref_type(parser: Parser, op_name: str) -> tuple[dict, RefType]:
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    ref_type = parser.parse_type()
    if not isinstance(ref_type, RefType):
        parser.raise_error(f"{op_name} needs a !fork.ref<...> type, not {ref_type}", pos)
    return attrs, ref_type


@irdl_op_definition
class WriteOp(IRDLOperation):
    """Writes the reference's value (once, before the signal its readers wait for)."""

    name = "fork.write"
    ref = operand_def(RefType)
    value = operand_def()

    def __init__(self, ref: SSAValue, value: SSAValue):
        super().__init__(operands=[ref, value])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ref)
        printer.print_string(", ")
        printer.print_operand(self.value)
        _print_attributes_and_ref_type(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> WriteOp:
        ref = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attrs, ref_type = _parse_attributes_and_ref_type(parser, "fork.write")
        op = cls(parser.resolve_operand(ref, ref_type), parser.resolve_operand(value, ref_type.element))
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        ref_type = self.ref.type
        assert isinstance(ref_type, RefType)
        if self.value.type != ref_type.element:
            raise VerifyException(f"fork.write of a {self.value.type} into a {ref_type}; expected a {ref_type.element}")


@irdl_op_definition
class ReadOp(IRDLOperation):
    """Reads the reference's value (after waiting for the signal resolved after its write)."""

    name = "fork.read"
    ref = operand_def(RefType)
    value = result_def()

    def __init__(self, ref: SSAValue):
        ref_type = ref.type
        assert isinstance(ref_type, RefType)
        super().__init__(operands=[ref], result_types=[ref_type.element])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ref)
        _print_attributes_and_ref_type(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ReadOp:
        ref = parser.parse_unresolved_operand()
        attrs, ref_type = _parse_attributes_and_ref_type(parser, "fork.read")
        op = cls(parser.resolve_operand(ref, ref_type))
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        ref_type = self.ref.type
        assert isinstance(ref_type, RefType)
        if self.value.type != ref_type.element:
            raise VerifyException(f"fork.read of a {ref_type} gives {self.value.type}; expected {ref_type.element}")


class _SignalList(IRDLOperation):
    """An op on a non-empty list of signals."""

    signals = var_operand_def(SignalType)
    assembly_format = "$signals attr-dict"

    def __init__(self, signals: Sequence[SSAValue]):
        super().__init__(operands=[signals])

    def verify_(self) -> None:
        if not self.signals:
            raise VerifyException(f"{self.name} names no signal; expected at least one")


@irdl_op_definition
class WaitOp(_SignalList):
    """Blocks the thread until every signal named is resolved."""

    name = "fork.wait"


@irdl_op_definition
class ResolveOp(_SignalList):
    """Resolves every signal named (each exactly once in the whole run). A signal a
    loop carries (an `scf.for` or `scf.while` block argument or result of signal type:
    the one an earlier iteration made, or the one made before the loop) is only
    awaited: it is resolved where it is made."""

    name = "fork.resolve"

    def verify_(self) -> None:
        super().verify_()
        for signal in self.signals:
            if carried_by_loop(signal):
                raise VerifyException(
                    "fork.resolve of a signal a loop carries (an scf.for or scf.while block argument or result); "
                    "expected a fork.signal: a carried signal is resolved where it is made, and only awaited where it is carried"
                )


@irdl_op_definition
class ForkOp(IRDLOperation):
    """Starts a thread running the region once; the current thread goes on."""

    name = "fork.fork"
    body = region_def("single_block")
    assembly_format = "$body attr-dict"

    def __init__(self, body: Region):
        super().__init__(regions=[body])

    def verify_(self) -> None:
        # a region not ended by fork.end is caught by the structural checks (a missing
        # terminator) and by fork.end's parent rule (another op's terminator)
        block = self.body.block
        if block.args:
            raise VerifyException(f"fork.fork region takes no arguments, not {len(block.args)}")
        if runs_on_device(self):
            raise VerifyException("fork.fork inside a kernel: threads are started by host code")


@irdl_op_definition
class EndOp(IRDLOperation):
    """Ends a thread."""

    name = "fork.end"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(ForkOp)))
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


def _resolutions(signal: SignalOp, resolves: set[Operation]) -> int:
    """How many times one run of the signal's block resolves it, the same on every path
    (a VerifyException says where paths disagree, or where a loop or kernel would resolve
    it once per iteration)."""
    home = signal.parent_op()
    on_the_way: set[Operation] = set()
    for resolve in resolves:
        op: Operation | None = resolve
        while op is not None and op is not home:
            on_the_way.add(op)
            op = op.parent_op()

    def in_op(op: Operation) -> int:
        if op in resolves:
            assert isinstance(op, ResolveOp)
            return sum(1 for s in op.signals if s is signal.signal)
        if op not in on_the_way:
            return 0
        if isinstance(op, ForkOp):
            return in_region(op.body)
        if isinstance(op, scf.IfOp):
            then, other = in_region(op.true_region), in_region(op.false_region)
            if then != other:
                raise VerifyException(
                    f"fork.signal is resolved {then} times when the scf.if's condition holds and {other} times when not; "
                    "expected exactly once on every path"
                )
            return then
        raise VerifyException(f"fork.signal is resolved inside {op.name}, whose region may run any number of times; expected exactly once on every path")

    # only the resolves and the ops around them count: walking every op of the signal's
    # block, for every signal, made verifying a forked function quadratic in its size
    relevant = on_the_way | resolves

    def in_region(region: Region) -> int:
        return sum(in_op(op) for op in relevant if op.parent_region() is region)

    parent_block = signal.parent_block()
    assert parent_block is not None
    return sum(in_op(op) for op in relevant if op.parent_block() is parent_block)


def carried_by_loop(value: SSAValue) -> bool:
    """`value` is a block argument or a result of an `scf.for` or `scf.while`: the
    value an earlier iteration (or the code before the loop) gave, not one made here."""
    if isinstance(value, BlockArgument):
        return isinstance(value.block.parent_op(), scf.ForOp | scf.WhileOp)
    return isinstance(value, OpResult) and isinstance(value.op, scf.ForOp | scf.WhileOp)


def has_forks(root: Operation) -> bool:
    """Whether `root` holds any op of this dialect (a program the fork executor and the
    passes that leave forked functions alone must know of)."""
    return any(op.dialect_name() == "fork" for op in root.walk())


FORKED_SUFFIX = "__forked"
"""The name of a function's forked copy (introduce-forks{beside}) is its own and this."""

FORKED_VARIANT_OF = "soacc.forked_variant_of"
"""On a function's forked copy: the name of the function it is a copy of (the runtime
measures both under task graphs and keeps the faster; convert-mem-to-gpu gives the
copy the original's kernels)."""


def forked_variant_of(function: Operation) -> str | None:
    """The name of the function `function` is the forked copy of, else None."""
    attribute = function.attributes.get(FORKED_VARIANT_OF)
    return attribute.data if attribute is not None else None  # type: ignore[union-attr]


FORK = Dialect(
    "fork",
    [SignalOp, RefOp, WriteOp, ReadOp, WaitOp, ResolveOp, ForkOp, EndOp],
    [SignalType, RefType],
)
