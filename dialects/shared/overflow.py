"""The integer ops that carry overflow flags (`overflow<nsw>`, `overflow<nuw>`), with
their exact (unbounded) meaning: what the executors and the compile-time check of
constant sizes compare a result against. Flagged ops promise their result fits (MLIR
makes it poison otherwise); soacc's lowerings mark their size arithmetic so, and every
level checks the promise (docs/ir-level2-mem.md)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.ir import Operation

MAX_SIZE = 2**63 - 1
"""The largest size, in elements or bytes, at every level: sizes are int64 at run time."""

EXACT: dict[type[Operation], tuple[str, Callable[[int, int], int]]] = {
    arith.AddiOp: ("+", lambda a, b: a + b),
    arith.SubiOp: ("-", lambda a, b: a - b),
    arith.MuliOp: ("×", lambda a, b: a * b),
}
"""Op type -> (its symbol in messages, its exact result)."""
