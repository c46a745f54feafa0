"""`soacc-pipeline`: soacc's default pipeline as one pass (DESIGN.md "Default pipeline"),
so that `soacc-opt f.mlir -p soacc-pipeline -t cuda` prints a whole program's CUDA C and
the library, `soacc-run` and `soacc-opt` compile alike.

Today it simplifies the program, fuses combinators, moves host code to the device where
that saves synchronous reads, makes memory explicit, merges memory blocks and outlines
kernels: canonicalize, cse, soac-fusion, reduce-device-syncs, merge-gpu-bodies,
convert-soac-to-mem, fuse-iota, hoist-allocations, short-circuit, memory-reuse,
convert-mem-to-gpu, and then canonicalize, cse and licm on the level-3 program (the
lowerings leave index arithmetic of constants, and views that do not change, inside
loops, which the host code would otherwise redo in every iteration).
The optimisations of the design join it as they are written, each with a switch here
(`fusion=false` leaves soac-fusion and fuse-iota out, `syncs=false` reduce-device-syncs and
merge-gpu-bodies, `memory=false` memory block merging); transfer fusion, forks and
several devices are to come.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

STAGES = "canonicalize,cse,convert-soac-to-mem,convert-mem-to-gpu"
"""The passes it runs down to level 3, in order (with every optimisation switched off)."""

LEVEL3_CLEANUP = "canonicalize,cse,licm"
"""After convert-mem-to-gpu: folds and merges the lowerings' constants, on the host and
in the kernels."""

MEMORY = "hoist-allocations,short-circuit,memory-reuse"
"""Memory block merging (issue 7), right after convert-soac-to-mem."""


@dataclass(frozen=True)
class SoaccPipelinePass(ModulePass):
    """Level 1 to level 3 (kernels and host code), ready for the cuda and python targets."""

    name = "soacc-pipeline"

    fusion: bool = True
    """soac-fusion after canonicalize,cse, and fuse-iota after convert-soac-to-mem."""

    syncs: bool = True
    """reduce-device-syncs and merge-gpu-bodies after fusion's place."""

    memory: bool = True
    """Memory block merging: hoist-allocations, short-circuit, memory-reuse."""

    def stages(self) -> str:
        """The passes this configuration runs, in order."""
        return f"{self.level2_stages()},convert-mem-to-gpu,{LEVEL3_CLEANUP}"

    def level2_stages(self) -> str:
        """The passes before convert-mem-to-gpu: the same program at level 2, which the
        reference executor runs."""
        stages = STAGES.removesuffix(",convert-mem-to-gpu").split(",")
        at = stages.index("cse") + 1
        if self.syncs:
            stages[at:at] = ["reduce-device-syncs", "merge-gpu-bodies"]
        if self.fusion:
            stages.insert(at, "soac-fusion")
            stages.insert(stages.index("convert-soac-to-mem") + 1, "fuse-iota")
        if self.memory:
            stages.insert(stages.index("convert-soac-to-mem") + 1 + self.fusion, MEMORY)
        return ",".join(stages)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.universe import Universe

        PassPipeline.parse_spec(Universe.get_multiverse().all_passes, self.stages()).apply(ctx, op)
