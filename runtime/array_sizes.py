"""The size rule every executor checks: an array's bytes (its dimensions times its
element size) and every size computed on the way to it fit a 64-bit signed integer, as
they must in the code the compiler emits. Past that, a size is an error naming the
values, never a wrapped number (a wrapped byte count allocates too little, or a
negative amount, and says nothing of why).

Only sizes are checked: a program's own `arith` arithmetic wraps, as MLIR defines it
(docs/ir-level1-soac.md, docs/ir-level2-mem.md say where the line is)."""

from __future__ import annotations

from collections.abc import Sequence

from soacc.dialects.shared.overflow import MAX_SIZE
from soacc.runtime.errors import ExecutionError

__all__ = ["MAX_SIZE", "array_bytes"]


def array_bytes(shape: Sequence[int], itemsize: int) -> int:
    """The bytes of an array of `shape` with elements of `itemsize` bytes; an
    ExecutionError when they do not fit 64 bits."""
    total = itemsize
    for d in shape:
        total *= int(d)
    if total > MAX_SIZE:
        dims = " × ".join(str(int(d)) for d in shape)
        raise ExecutionError(
            f"an array of {dims} elements of {itemsize} bytes needs {total} bytes, past 64 bits "
            f"(sizes are at most 2^63 - 1)"
        )
    return total

