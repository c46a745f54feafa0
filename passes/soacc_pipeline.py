"""`soacc-pipeline`: soacc's default pipeline as one pass (DESIGN.md "Default pipeline"),
so that `soacc-opt f.mlir -p soacc-pipeline -t cuda` prints a whole program's CUDA C and
the library, `soacc-run` and `soacc-opt` compile alike.

Today it simplifies the program, moves host code to the device where that saves
synchronous reads, makes memory explicit and outlines kernels: canonicalize, cse,
reduce-device-syncs, merge-gpu-bodies, convert-soac-to-mem, convert-mem-to-gpu. The
other optimisations of the design (fusion, memory block merging, transfer fusion, forks,
several devices) join it as they are written, each with a switch here:

- `syncs=false`: without reduce-device-syncs and merge-gpu-bodies.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

STAGES = "canonicalize,cse,reduce-device-syncs,merge-gpu-bodies,convert-soac-to-mem,convert-mem-to-gpu"
"""The passes it runs, in order (all switches on)."""

SYNCS = ("reduce-device-syncs", "merge-gpu-bodies")


@dataclass(frozen=True)
class SoaccPipelinePass(ModulePass):
    """Level 1 to level 3 (kernels and host code), ready for the cuda and python targets."""

    name = "soacc-pipeline"

    syncs: bool = True
    """reduce-device-syncs and merge-gpu-bodies."""

    def stages(self) -> str:
        """The passes this configuration runs, in order."""
        skip = set() if self.syncs else set(SYNCS)
        return ",".join(p for p in STAGES.split(",") if p not in skip)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.universe import Universe

        PassPipeline.parse_spec(Universe.get_multiverse().all_passes, self.stages()).apply(ctx, op)
