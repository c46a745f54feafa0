"""Where an op came from: the op a lowering made it from, so that an error found in
lowered code (a kernel the GPU cannot run, a rule the cuda target lacks) can name the
op of the program text, `file:line:col`, rather than print the lowered module.

xDSL 0.74 keeps no source locations on ops; the parser records where each op it read
starts (api/source.py), and the lowerings record here, for each op they make, the op it
was made from. The record is a side table of weak references: it changes no IR (two
ops that differ only in where they came from stay equal for CSE) and dies with the ops.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from xdsl.dialects import func
from xdsl.ir import Operation

_MADE_FROM: WeakKeyDictionary[Operation, Operation] = WeakKeyDictionary()


def record_origin(new: Operation, made_from: Operation) -> None:
    """`new` and the ops nested in it were made from `made_from` (ops already recorded
    keep their finer origin)."""
    for op in new.walk():
        if op is not made_from and op not in _MADE_FROM:
            _MADE_FROM[op] = made_from


def made_from(op: Operation) -> Operation | None:
    """The op `op` was made from, one step back, or None."""
    return _MADE_FROM.get(op)


def origins(op: Operation) -> list[Operation]:
    """`op`, what it was made from, what that was made from, and so on."""
    chain = [op]
    while (previous := _MADE_FROM.get(chain[-1])) is not None and previous not in chain:
        chain.append(previous)
    return chain


def source_op(op: Operation, is_source: Callable[[Operation], bool]) -> Operation | None:
    """The op of the program text that `op` comes from (`is_source` says which ops the
    text has): `op` itself, else what it was made from, followed back; else, for an op
    a pass made without a record, the nearest enclosing op that comes from the text
    (never a whole function: that would point at its first line, not at the op)."""
    seen: set[int] = set()
    where: Operation | None = op
    while where is not None and id(where) not in seen:
        seen.add(id(where))
        if is_source(where):
            return where
        where = _MADE_FROM.get(where) or _enclosing(where)
    return None


def _enclosing(op: Operation) -> Operation | None:
    parent = op.parent_op()
    return None if parent is None or isinstance(parent, func.FuncOp) else parent
