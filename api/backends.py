"""The cuda backend's compile step: a level-3 module's host code (the python target)
and its kernels' CUDA C (the cuda target) are emitted here and handed to the runtime's
executors, which never import the emitters."""

from __future__ import annotations

import io

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from soacc.lowering.emit_cuda import emit_cuda
from soacc.lowering.emit_host import HostModule, emit_host
from soacc.runtime.errors import ProgramError


def _cannot_run(error: DiagnosticException) -> ProgramError:
    """The emitter's refusal, keeping its op (`.op`) for soacc.compile to locate."""
    refusal = ProgramError(f"the cuda backend cannot run this program: {error}")
    refusal.op = getattr(error, "op", None)  # type: ignore[attr-defined]
    return refusal


def emit_host_code(module: ModuleOp, free_at_last_use: bool = True) -> HostModule:
    """The module's host code; free_at_last_use=False frees each block when the block of
    code that made it ends (the study's baseline, to measure peak memory against)."""
    try:
        return emit_host(module, free_at_last_use)
    except DiagnosticException as error:
        raise _cannot_run(error) from None


def emit_kernels(module: ModuleOp) -> str:
    """The CUDA C of the module's kernels."""
    source = io.StringIO()
    try:
        emit_cuda(module, source)
    except DiagnosticException as error:
        raise _cannot_run(error) from None
    return source.getvalue()


def cuda_executor(module: ModuleOp, free_at_last_use: bool = True, devices: int = 1):
    """The cuda backend's executor of a level-3 module, on the GPU (husks on `devices`)."""
    from soacc.runtime.cuda_backend import CudaExecutor

    host = emit_host_code(module, free_at_last_use)
    return CudaExecutor(module, host, emit_kernels(module) if host.kernel_formats else "", devices)


def reference_executor(module: ModuleOp, free_at_last_use: bool = True, devices: int = 1):
    """The CPU reference executor of a module of any level; a level-3 module's launches
    run on the real GPU, with its kernels' CUDA C emitted here when first needed. Husks
    run on `devices` simulated devices."""
    from soacc.runtime.reference import ReferenceExecutor

    return ReferenceExecutor(module, free_at_last_use, kernels_source=lambda: emit_kernels(module), devices=devices)


def host_code_executor(module: ModuleOp, memory, kernels, free_at_last_use: bool = True):
    """An executor of a level-3 module's emitted host code against any device memory
    (the tests give it one simulated in host memory)."""
    from soacc.runtime.cuda_backend import HostCodeExecutor

    return HostCodeExecutor(module, emit_host_code(module, free_at_last_use), memory, kernels)
