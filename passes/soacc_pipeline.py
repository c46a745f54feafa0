"""`soacc-pipeline`: soacc's default pipeline as one pass (DESIGN.md "Default pipeline"),
so that `soacc-opt f.mlir -p soacc-pipeline -t cuda` prints a whole program's CUDA C and
the library, `soacc-run` and `soacc-opt` compile alike.

Today it simplifies the program, makes memory explicit, merges memory blocks and
outlines kernels: canonicalize, cse, convert-soac-to-mem, hoist-allocations,
short-circuit, memory-reuse, convert-mem-to-gpu. The optimisations of the design
(fusion, fewer device syncs, transfer fusion, forks, several devices) join it as they
are written, each with a switch here: `soacc-pipeline{memory=false}` leaves out memory
block merging.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

MEMORY = "hoist-allocations,short-circuit,memory-reuse"
"""Memory block merging (issue 7), right after convert-soac-to-mem."""


def stages(memory: bool = True) -> str:
    """The passes it runs, in order."""
    return ",".join(
        ["canonicalize,cse,convert-soac-to-mem", *([MEMORY] if memory else []), "convert-mem-to-gpu"]
    )


STAGES = stages()


@dataclass(frozen=True)
class SoaccPipelinePass(ModulePass):
    """Level 1 to level 3 (kernels and host code), ready for the cuda and python targets."""

    name = "soacc-pipeline"

    memory: bool = True
    """Memory block merging: hoist-allocations, short-circuit, memory-reuse."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.universe import Universe

        PassPipeline.parse_spec(Universe.get_multiverse().all_passes, stages(self.memory)).apply(ctx, op)
