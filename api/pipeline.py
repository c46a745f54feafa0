"""`soacc-pipeline`: soacc's default pipeline as one pass,
so that `soacc-opt f.mlir -p soacc-pipeline -t cuda` prints a whole program's CUDA C and
the library, `soacc-run` and `soacc-opt` compile alike.

Today it simplifies the program, fuses combinators, moves host code to the device where
that saves synchronous reads, makes memory explicit, merges memory blocks and outlines
kernels: canonicalize, cse, soac-fusion, reduce-device-syncs, merge-gpu-bodies,
convert-soac-to-mem, fuse-iota, hoist-allocations, short-circuit, memory-reuse,
convert-mem-to-gpu, and then canonicalize, cse and licm on the level-3 program (the
lowerings leave index arithmetic of constants, and views that do not change, inside
loops, which the host code would otherwise redo in every iteration).
It is built from pass objects, not from their names. The optimisations of the design join it as they are written, each with a switch here
(`fusion=false` leaves soac-fusion and fuse-iota out, `syncs=false` reduce-device-syncs and
merge-gpu-bodies, `device-loops=false` reduce-device-syncs's device loops, `memory=false`
memory block merging, `host-kernels=a,b` and `host-max-elements=N` put kernels on the
host by place-kernels, `transfers=true` adds fuse-transfers, `forks=true` forks every
function), `devices=N` splits the rows of the data-parallel combinators of host code
over N devices through husks (soac-to-husk; `husks=true` makes husks for one device).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import PassFailedException
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass

from soacc.lowering.convert_fork_to_gpu import ConvertForkToGpuPass
from soacc.lowering.convert_mem_to_gpu import ConvertMemToGpuPass
from soacc.lowering.convert_soac_to_mem import ConvertSoacToMemPass
from soacc.passes.fuse_iota import FuseIotaPass
from soacc.passes.fuse_scalar_reads import FuseScalarReadsPass
from soacc.passes.fuse_transfers import FuseTransfersPass
from soacc.passes.hoist_allocations import HoistAllocationsPass
from soacc.passes.interchange_reductions import InterchangeReductionsPass
from soacc.passes.introduce_forks import IntroduceForksPass
from soacc.passes.memory_reuse import MemoryReusePass
from soacc.passes.place_kernels import PlaceKernelsPass
from soacc.passes.merge_gpu_bodies import MergeGpuBodiesPass
from soacc.passes.reduce_device_syncs import ReduceDeviceSyncsPass
from soacc.passes.borrow_arguments import BorrowArgumentsPass
from soacc.passes.device_results import DeviceResultsPass
from soacc.passes.short_circuit import ShortCircuitPass
from soacc.passes.soac_fusion import SoacFusionPass
from soacc.passes.soac_to_husk import SoacToHuskPass


@dataclass(frozen=True)
class SoaccPipelinePass(ModulePass):
    """Level 1 to level 3 (kernels and host code), ready for the cuda and python targets."""

    name = "soacc-pipeline"

    fusion: bool = True
    """soac-fusion after canonicalize,cse, and fuse-iota after convert-soac-to-mem."""

    syncs: bool = True
    """reduce-device-syncs and merge-gpu-bodies after fusion's place."""

    device_loops: bool = True
    """reduce-device-syncs's device loops (while loops whose condition the device
    computes, which task graphs run as conditional nodes)."""

    memory: bool = True
    """Memory block merging: hoist-allocations, short-circuit, memory-reuse."""

    devices: int = 1
    """The devices husks split their rows over (0: every usable GPU of one kind): on
    more than one, soac-to-husk makes husks of the data-parallel combinators of host
    code (docs/soac-to-husk.md)."""

    husks: bool = False
    """soac-to-husk even for one device (to measure what husks cost there)."""

    host_kernels: tuple[str, ...] = ()
    """place-kernels{host=...} after convert-soac-to-mem (and fuse-iota): the kernels
    that write these arrays (or `all`) run on the host. None by default."""

    host_max_elements: int = -1
    """place-kernels{max-elements=...}: kernels whose arrays all have static shapes of
    at most this many elements run on the host (-1: none)."""

    transfers: bool = False
    """fuse-transfers (greedy) before memory planning: uploads and downloads in the
    fewest messages. Off by default until measured to never slow a program down."""

    results: str = "host"
    """Where entry points return their arrays: `host`, or `device` (device-results
    after memory planning and transfers: `soacc.compile(..., results="device")`)."""

    reads: bool = True
    """fuse-scalar-reads: reads of device scalars side by side as one copy."""

    borrow: bool = True
    """borrow-arguments: uploads whose device copy nothing writes may read an argument
    already in device memory where it is (no copy); with host arguments nothing
    changes."""

    forks: bool = False
    """Task parallelism: introduce-forks (with its three optimisations) after memory
    planning, and convert-fork-to-gpu after convert-mem-to-gpu."""

    forked_copies: bool = True
    """Where `forks` is off: introduce-forks{beside} gives each function a forked copy
    beside it, which task graphs measure against the function and keep where it is
    faster (runtime/gpu/task_graphs.py); eager calls run the function itself, so forks
    never slow a call down. Not in level2_passes: the reference executor has no graphs."""

    report: bool = False
    """Print each kernel's parallelism: how it shares out its combinator's work and the
    nested combinators it runs in each thread (convert-mem-to-gpu{report=true})."""

    def level2_passes(self) -> list[ModulePass]:
        """The passes before convert-mem-to-gpu: the same program at level 2, which the
        reference executor runs."""
        passes: list[ModulePass] = [CanonicalizePass(), CommonSubexpressionElimination(), InterchangeReductionsPass()]
        if self.fusion:
            passes.append(SoacFusionPass())
        if self.syncs:
            passes += [ReduceDeviceSyncsPass(device_loops=self.device_loops), MergeGpuBodiesPass()]
        if self.devices < 0:
            raise PassFailedException(f"soacc-pipeline: devices={self.devices}: a number of devices, or 0 for every usable GPU")
        if self.husks or self.devices != 1:
            passes.append(SoacToHuskPass(histograms=self.devices != 1, scans=self.devices != 1, scatters=self.devices != 1))
        passes.append(ConvertSoacToMemPass())
        if self.fusion:
            passes.append(FuseIotaPass())
        if self.host_kernels or self.host_max_elements >= 0:
            passes.append(PlaceKernelsPass(host=self.host_kernels, max_elements=self.host_max_elements))
        if self.transfers:
            # before memory planning, as the study lays out single-assignment vectors:
            # memory-reuse would give several vectors one block, which no message can
            # then hold apart; it reuses the arenas whole instead
            passes.append(FuseTransfersPass())
        if self.memory:
            passes += [HoistAllocationsPass(), ShortCircuitPass(), MemoryReusePass()]
        if self.results not in ("host", "device"):
            raise PassFailedException(f"soacc-pipeline: results={self.results!r}: it is `host` or `device`")
        if self.results == "device":
            passes.append(DeviceResultsPass())
        if self.reads:
            passes.append(FuseScalarReadsPass())
        if self.borrow:
            passes.append(BorrowArgumentsPass())
        if self.forks:
            passes.append(IntroduceForksPass(trivial=True, combine=True, fork_returns=True))
        return passes

    def passes(self) -> list[ModulePass]:
        """Every pass this configuration runs, in order: level 2, then the kernels, then
        canonicalize, cse and licm on level 3 (the lowerings leave index arithmetic of
        constants, and views that do not change, inside loops, which the host code would
        otherwise redo in every iteration)."""
        copies = self.forked_copies and not self.forks
        return [
            *self.level2_passes(),
            *([IntroduceForksPass(trivial=True, combine=True, fork_returns=True, beside=True)] if copies else []),
            ConvertMemToGpuPass(report=self.report),
            *([ConvertForkToGpuPass()] if self.forks or copies else []),
            CanonicalizePass(),
            CommonSubexpressionElimination(),
            LoopInvariantCodeMotionPass(),
        ]

    def stages(self) -> str:
        """The passes this configuration runs, as a pipeline's text."""
        return ",".join(str(p.pipeline_pass_spec()) for p in self.passes())

    def level2_stages(self) -> str:
        """The passes before convert-mem-to-gpu, as a pipeline's text."""
        return ",".join(str(p.pipeline_pass_spec()) for p in self.level2_passes())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PassPipeline(tuple(self.passes())).apply(ctx, op)
