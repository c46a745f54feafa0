"""locvolcalib: LocVolCalib (FinPar), the program of issue 7's memory benchmark. Each
time step reads two points of the time line (`timeline[g]`, `timeline[g + 1]`) on the
host for the step's 1/dt, which its implicit steps' kernels use: two synchronous reads
per step with the passes off. reduce-device-syncs computes 1/dt in a gpu_body, and the
kernels read it from device memory. The study lists LocVolCalib among its largest
absolute gains (3.8 ms on the A100). Size: a size x size grid, size // 4 time steps and
4 strikes (the memory benchmark's inputs)."""

import importlib.util
from pathlib import Path

PROGRAM = "../memory/locvolcalib.mlir"
"""Issue 7's port, unchanged; its inputs and NumPy definition come from beside it."""

_spec = importlib.util.spec_from_file_location(
    "soacc_memory_benchmark_locvolcalib", Path(__file__).resolve().parent / PROGRAM.replace(".mlir", ".py")
)
_definition = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_definition)
RTOL, ATOL = _definition.RTOL, _definition.ATOL
DEFAULT_SIZE, SMALL_SIZE = _definition.DEFAULT_SIZE, _definition.SMALL_SIZE
make_inputs, reference = _definition.make_inputs, _definition.reference
