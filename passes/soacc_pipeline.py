"""`soacc-pipeline`: soacc's default pipeline as one pass (DESIGN.md "Default pipeline"),
so that `soacc-opt f.mlir -p soacc-pipeline -t cuda` prints a whole program's CUDA C and
the library, `soacc-run` and `soacc-opt` compile alike.

Today it simplifies the program, makes memory explicit and outlines kernels:
canonicalize, cse, convert-soac-to-mem, convert-mem-to-gpu. The optimisations of the
design (fusion, fewer device syncs, memory block merging, transfer fusion, forks,
several devices) join it as they are written, each with a switch here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

STAGES = "canonicalize,cse,convert-soac-to-mem,convert-mem-to-gpu"
"""The passes it runs, in order."""


@dataclass(frozen=True)
class SoaccPipelinePass(ModulePass):
    """Level 1 to level 3 (kernels and host code), ready for the cuda and python targets."""

    name = "soacc-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.universe import Universe

        PassPipeline.parse_spec(Universe.get_multiverse().all_passes, STAGES).apply(ctx, op)
