"""soacc's passes (optimisations and lowerings) and targets by their command-line
name, imported lazily (the xdsl.universe entry point, tools/universe.py, reads them at
every xdsl-opt start)."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def get_convert_soac_to_mem() -> type[ModulePass]:
        from soacc.lowering.convert_soac_to_mem import ConvertSoacToMemPass

        return ConvertSoacToMemPass

    def get_convert_mem_to_gpu() -> type[ModulePass]:
        from soacc.lowering.convert_mem_to_gpu import ConvertMemToGpuPass

        return ConvertMemToGpuPass

    def get_hoist_allocations() -> type[ModulePass]:
        from soacc.passes.hoist_allocations import HoistAllocationsPass

        return HoistAllocationsPass

    def get_place_kernels() -> type[ModulePass]:
        from soacc.passes.place_kernels import PlaceKernelsPass

        return PlaceKernelsPass

    def get_fuse_transfers() -> type[ModulePass]:
        from soacc.passes.fuse_transfers import FuseTransfersPass

        return FuseTransfersPass

    def get_device_results() -> type[ModulePass]:
        from soacc.passes.device_results import DeviceResultsPass

        return DeviceResultsPass

    def get_fuse_scalar_reads() -> type[ModulePass]:
        from soacc.passes.fuse_scalar_reads import FuseScalarReadsPass

        return FuseScalarReadsPass

    def get_borrow_arguments() -> type[ModulePass]:
        from soacc.passes.borrow_arguments import BorrowArgumentsPass

        return BorrowArgumentsPass

    def get_short_circuit() -> type[ModulePass]:
        from soacc.passes.short_circuit import ShortCircuitPass

        return ShortCircuitPass

    def get_memory_reuse() -> type[ModulePass]:
        from soacc.passes.memory_reuse import MemoryReusePass

        return MemoryReusePass

    def get_soac_fusion() -> type[ModulePass]:
        from soacc.passes.soac_fusion import SoacFusionPass

        return SoacFusionPass

    def get_reduce_device_syncs() -> type[ModulePass]:
        from soacc.passes.reduce_device_syncs import ReduceDeviceSyncsPass

        return ReduceDeviceSyncsPass

    def get_merge_gpu_bodies() -> type[ModulePass]:
        from soacc.passes.merge_gpu_bodies import MergeGpuBodiesPass

        return MergeGpuBodiesPass

    def get_interchange_reductions() -> type[ModulePass]:
        from soacc.passes.interchange_reductions import InterchangeReductionsPass

        return InterchangeReductionsPass

    def get_fuse_iota() -> type[ModulePass]:
        from soacc.passes.fuse_iota import FuseIotaPass

        return FuseIotaPass

    def get_introduce_forks() -> type[ModulePass]:
        from soacc.passes.introduce_forks import IntroduceForksPass

        return IntroduceForksPass

    def get_convert_fork_to_gpu() -> type[ModulePass]:
        from soacc.lowering.convert_fork_to_gpu import ConvertForkToGpuPass

        return ConvertForkToGpuPass

    def get_soac_to_husk() -> type[ModulePass]:
        from soacc.passes.soac_to_husk import SoacToHuskPass

        return SoacToHuskPass

    def get_soacc_pipeline() -> type[ModulePass]:
        from soacc.pipeline import SoaccPipelinePass

        return SoaccPipelinePass

    return {
        "convert-soac-to-mem": get_convert_soac_to_mem,
        "convert-mem-to-gpu": get_convert_mem_to_gpu,
        "soac-fusion": get_soac_fusion,
        "fuse-iota": get_fuse_iota,
        "interchange-reductions": get_interchange_reductions,
        "soacc-pipeline": get_soacc_pipeline,
        "reduce-device-syncs": get_reduce_device_syncs,
        "merge-gpu-bodies": get_merge_gpu_bodies,
        "soac-to-husk": get_soac_to_husk,
        "hoist-allocations": get_hoist_allocations,
        "place-kernels": get_place_kernels,
        "fuse-transfers": get_fuse_transfers,
        "device-results": get_device_results,
        "borrow-arguments": get_borrow_arguments,
        "fuse-scalar-reads": get_fuse_scalar_reads,
        "short-circuit": get_short_circuit,
        "memory-reuse": get_memory_reuse,
        "introduce-forks": get_introduce_forks,
        "convert-fork-to-gpu": get_convert_fork_to_gpu,
    }


INPUT_DIALECT = {
    "soac-fusion": "soac",
    "reduce-device-syncs": "soac",
    "merge-gpu-bodies": "soac",
    "soac-to-husk": "soac",
    "convert-soac-to-mem": "soac",
    "fuse-iota": "mem",
    "interchange-reductions": "soac",
    "hoist-allocations": "mem",
    "short-circuit": "mem",
    "memory-reuse": "mem",
    "place-kernels": "mem",
    "device-results": "mem",
    "borrow-arguments": "mem",
    "fuse-scalar-reads": "mem",
    "introduce-forks": "mem",
    "convert-mem-to-gpu": "mem",
    "convert-fork-to-gpu": "fork",
}
"""The dialect each soacc pass works on: a program without its ops is at another level,
where the pass has nothing to do (soacc-opt warns)."""


def get_all_targets() -> dict[str, Callable[[], type]]:
    def get_cuda_target():
        from soacc.lowering.emit_cuda import CudaTarget

        return CudaTarget

    def get_python_target():
        from soacc.lowering.emit_host import PythonTarget

        return PythonTarget

    return {"cuda": get_cuda_target, "python": get_python_target}


def pass_registry() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes and soacc's, by name: what a pipeline's text may name."""
    from xdsl.transforms import get_all_passes as get_xdsl_passes

    return {**get_xdsl_passes(), **get_all_passes()}
