"""Usage at level 2: what each op reads and writes, as variables and memory contents
(Matser's usage analysis, the pre-pass of the forks transformation, digest 004 §4.10).

Two kinds of things are used:

- a `Variable`: an SSA value (a scalar, a block handle, a view). Only its defining op
  writes it, so every other op only reads it: an op reads its operands and the values
  its regions capture.
- a `Content`: the content of one *actual* memory (an allocation, a block parameter,
  the result of an op of unknown effects; passes/analysis/memory_aliases.py). An op
  reads or writes it through any view that may be in that memory: what views an op
  reads, writes and creates comes from its `OperandEffects` (passes/analysis/
  memory_access.py), and an opaque op writes every memory it is given.

The study's usage maps each variable to R (read only) or W (also written), and takes
the maximum where usages join. Its rules, with the digest's fixes: an op uses its
operands and what its regions do (rules b, g with free variables, h, j); a region's
own values and memories are removed (rules a, d); an `if` uses its condition and both
branches (e); a loop its initial state and body (f, with the initial state). A
terminator that gives arrays out of a scope uses their content (`gives_content`): the
caller of `func.return` reads it; the `scf.yield` of an `if` or loop hands it over to
code that may write it, so everything before must be done with it (W). Never changes IR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from xdsl.dialects import func, scf
from xdsl.ir import Operation, SSAValue

from soacc.dialects.shared.utils import defined_inside, used_values
from soacc.passes.analysis.memory_access import access_of, is_memory_value
from soacc.passes.analysis.memory_aliases import MemoryAliases


class Mode(IntEnum):
    """How a thing is used; the join of two usages is the maximum."""

    R = 1
    W = 2


@dataclass(frozen=True)
class Variable:
    value: SSAValue

    def __str__(self) -> str:
        return f"%{self.value.name_hint or '?'}"


@dataclass(frozen=True)
class Content:
    memory: SSAValue
    """An actual memory (memory_aliases.MemoryAliases.memories gives them)."""

    def __str__(self) -> str:
        return f"content(%{self.memory.name_hint or '?'})"


Used = Variable | Content
Usage = Mapping[Used, Mode]


def join(*usages: Usage) -> dict[Used, Mode]:
    """The union of usages, each thing at its strongest mode."""
    out: dict[Used, Mode] = {}
    for usage in usages:
        for thing, mode in usage.items():
            out[thing] = max(out.get(thing, mode), mode)
    return out


def gives_content(op: Operation) -> Mode | None:
    """How a terminator that gives arrays out of its scope uses their content: the
    `scf.yield` of an `if` or loop hands them over to the code after it, which may
    write them, so it must come after everything before it (W); `func.return`'s caller
    reads them (R): a function's threads end before it returns."""
    if isinstance(op, func.ReturnOp):
        return Mode.R
    if isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.IfOp | scf.ForOp | scf.WhileOp):
        return Mode.W
    return None


class UsageAnalysis:
    """The usage of every op of `function` (cached: the study annotates each term once)."""

    def __init__(self, function: Operation, aliases: MemoryAliases | None = None):
        self.aliases = aliases if aliases is not None else MemoryAliases(function)
        self._cache: dict[Operation, dict[Used, Mode]] = {}
        # memories in the order of the text, so generated code does not depend on
        # object addresses
        self._position: dict[SSAValue, int] = {}
        for inner in function.walk():
            for region in inner.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self._position.setdefault(arg, len(self._position))
            for result in inner.results:
                self._position.setdefault(result, len(self._position))

    def contents(self, view_or_block: SSAValue) -> tuple[Content, ...]:
        """The contents a block or view may be in."""
        return tuple(Content(m) for m in sorted(self.aliases.memories(view_or_block), key=lambda m: self._position.get(m, -1)))

    def binds(self, op: Operation) -> tuple[Used, ...]:
        """What `op` binds for the code after it: its results, and the contents of the
        memories it makes that leave it through its results (an allocation's block; an
        allocation inside an `if` or loop that a result may be in)."""
        bound: list[Used] = [Variable(r) for r in op.results]
        for r in op.results:
            for content in self.contents(r):
                if content not in bound and (content.memory is r or defined_inside(content.memory, op)):
                    bound.append(content)
        return tuple(bound)

    def of(self, op: Operation) -> dict[Used, Mode]:
        """What `op`, with everything nested in it, reads and writes of what is defined
        outside it."""
        cached = self._cache.get(op)
        if cached is None:
            cached = self._cache[op] = self._compute(op)
        return cached

    def of_ops(self, ops: Iterable[Operation]) -> dict[Used, Mode]:
        """The usage of a sequence of ops (a block's tail), what they bind removed."""
        ops = list(ops)
        bound = {thing for op in ops for thing in self.binds(op)}
        return {t: m for t, m in join(*(self.of(op) for op in ops)).items() if t not in bound}

    def _compute(self, op: Operation) -> dict[Used, Mode]:
        usage: dict[Used, Mode] = {Variable(v): Mode.R for v in used_values(op)}
        for inner in op.walk():
            access = access_of(inner)
            for mode, views in ((Mode.R, access.reads), (Mode.W, access.writes + access.opaque)):
                for view in views:
                    for content in self.contents(view):
                        usage[content] = max(usage.get(content, mode), mode)
            given = gives_content(inner)
            if given is not None:
                for value in inner.operands:
                    if is_memory_value(value):
                        for content in self.contents(value):
                            usage[content] = max(usage.get(content, given), given)
        # the contents of memories made inside the op are its own (rule d)
        return {t: m for t, m in usage.items() if not (isinstance(t, Content) and (t.memory.owner is op or defined_inside(t.memory, op)))}

