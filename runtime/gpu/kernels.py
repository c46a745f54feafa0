"""Kernel launches with low host overhead: each kernel's argument packer is compiled
once, and a launch is one call into the driver. Launches are counted, and a failure
names the kernel.

PyCUDA's `prepared_async_call` re-reads its options, imports its packer and walks its
texture references on every call (10.6 us of host time per launch on an H100 machine,
against CuPy's 7.2 us; 6.2-7.3 us this way, against CuPy's 5.6-8.9 us on two machines,
measured by benchmarks/launch_overhead.py); a launch here packs the arguments with a precompiled
`struct.Struct` (native alignment, as the kernel's parameter buffer wants) and calls
the function's `_launch_kernel` directly (the primitive `prepared_async_call` ends in;
PyCUDA is pinned to a version that has it).
"""

from __future__ import annotations

import struct

from dataclasses import dataclass
from typing import Any

from soacc.runtime.errors import ExecutionError


@dataclass
class LaunchCounters:
    launches: int = 0


class Kernel:
    """A `__global__` function of a loaded module, prepared for `arg_format` (PyCUDA's
    struct format: P for a pointer, i/q for 32/64-bit integers, f/d for floats)."""

    def __init__(self, module: Any, name: str, arg_format: str, counters: LaunchCounters, program: str):
        self.name = name
        self.program = program
        self.counters = counters
        try:
            self.function = module.get_function(name)
        except Exception as error:
            raise ExecutionError(f"{program} has no kernel {name}: {error}") from None
        self.function.prepare(arg_format)
        self._pack = struct.Struct(arg_format).pack
        self._launch = self.function._launch_kernel
        import pycuda.driver as cuda

        self._errors = (cuda.Error, struct.error)  # (not imported per launch: launches are hot)

    @property
    def registers(self) -> int:
        import pycuda.driver as cuda

        return self.function.get_attribute(cuda.function_attribute.NUM_REGS)

    def __call__(self, grid: tuple[int, ...], block: tuple[int, ...], *args, shared: int = 0, stream=None) -> None:
        self.launch(grid, block, args, shared, stream)

    def launch(self, grid: tuple[int, ...], block: tuple[int, ...], args: tuple, shared: int = 0, stream=None) -> None:
        """The call with the arguments as one tuple: what the runtime's launches use (a
        Python call fewer, and no keyword arguments, on the hottest path)."""
        try:
            self._launch(grid, block, self._pack(*args), shared, stream)
        except self._errors as error:
            raise ExecutionError(
                f"launching kernel {self.name} of {self.program} failed: {error}"
            ) from None
        self.counters.launches += 1

    def pack(self, args: tuple) -> bytes:
        """The parameter bytes of a launch with `args` (segment graphs record them)."""
        try:
            return self._pack(*args)
        except struct.error as error:
            raise ExecutionError(f"launching kernel {self.name} of {self.program} failed: {error}") from None

    def launch_packed(self, grid: tuple[int, ...], block: tuple[int, ...], packed: bytes, shared: int, stream) -> None:
        """A launch with parameter bytes from `pack`."""
        try:
            self._launch(grid, block, packed, shared, stream)
        except self._errors as error:
            raise ExecutionError(f"launching kernel {self.name} of {self.program} failed: {error}") from None
        self.counters.launches += 1

