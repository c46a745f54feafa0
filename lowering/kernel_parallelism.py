"""What a kernel runs in parallel and what it leaves to each thread (issue 21's "no
silent cliff"): convert-mem-to-gpu's report, and the note each kernel carries to the
runtime, which says in its statistics where a launch had few threads and ran nested
parallelism sequentially in each.

A host-level combinator becomes kernels whose threads share out its rows (a map's,
a reduction's, a histogram's elements); with a group of threads per row (a segmented
map: gpu_segmented.py) also the combinators its lambda runs over each row; a perfect
nest of maps (gpu_flatten.py) shares out the product of all its levels' rows. Any
combinator nested deeper runs in one thread, element after element.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from soacc.dialects.shared.provenance import made_from
from soacc.dialects.shared.traits import is_kernel

SEQUENTIAL = "soacc.sequential_inside"
"""The attribute of a gpu.func that runs nested combinators in each thread: what they
are (the emitted host code hands it to the runtime's statistics)."""


def nested_combinators(op: Operation) -> list[Operation]:
    """The outermost combinators in `op`'s regions (through loops and branches)."""
    found: list[Operation] = []

    def visit(parent: Operation) -> None:
        for region in parent.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if is_kernel(inner):
                        found.append(inner)
                    else:
                        visit(inner)

    visit(op)
    return found


def sequential_inside(op: Operation, grouped: bool) -> list[Operation]:
    """The combinators a kernel of the host-level combinator `op` runs in each thread:
    every one in its lambdas for a thread per row or element; for a group per row,
    those nested in the combinators the group shares out."""
    outer = nested_combinators(op)
    if not grouped:
        return outer
    return [deeper for o in outer for deeper in nested_combinators(o)]


def describe(op: Operation) -> str:
    """`soac.hist %h`: the op, named by its result or by what it was lowered from."""
    origin = op
    while made_from(origin) is not None:
        origin = made_from(origin)
    for candidate in (op, origin):
        hint = next((r.name_hint for r in candidate.results if r.name_hint), None)
        if hint:
            return f"{candidate.name} %{hint}" + (f" (as {op.name})" if candidate is not op else "")
    return op.name if origin is op else f"{origin.name} (as {op.name})"


def strategy(op: Operation, kernels: list[str]) -> str:
    """How the kernels made of `op` (their names) share out its work."""
    if any(name.endswith("_tiled") for name in kernels):
        other = strategy(op, [name for name in kernels if not name.endswith("_tiled")])
        return f"a block per tile of its results, a tile of it per thread, the operands through shared memory (where both sides are wide; else {other})"
    if any(name.endswith("_scatter_rows") for name in kernels):
        return "a thread per element of every row's scatter (all rows at once)"
    if any(name.endswith("_block_per_row") for name in kernels):
        return "a thread, a warp or a block per row (by the rows' length)"
    if any(name.endswith("_flat") for name in kernels):
        return "a thread per element of its perfectly nested maps (flattened)"
    kind = op.name.split(".", 1)[1]
    if kind in ("reduce", "redomap"):
        return "every element (partial results per block, then one block)"
    if kind in ("scan", "scanomap"):
        return "every element (a single pass with look-back)"
    if kind in ("hist", "histomap"):
        return "every element (atomic updates of the bins)"
    if kind == "gpu_body":
        return "one thread"
    return "a thread per row"


def mark(kernel: Operation, inside: list[Operation]) -> None:
    """Notes on a gpu.func what it runs in each thread (for the runtime)."""
    if inside:
        kernel.attributes[SEQUENTIAL] = StringAttr(", ".join(describe(o) for o in inside))
