"""mandelbrot with its iteration limit an argument (benchmarks/husks/mandelbrot.mlir):
the thesis's Mandelbrot pattern. `size` is the number of pixels (as the example's);
the limit is LIMIT unless the harness gives another (benchmarks/husks.py sweeps it)."""

import importlib.util
from pathlib import Path

import numpy as np

# the example's own definition (examples/mandelbrot.py), with the limit its argument
_spec = importlib.util.spec_from_file_location(
    "soacc_husks_benchmark_mandelbrot_example", Path(__file__).resolve().parents[2] / "examples" / "mandelbrot.py"
)
_example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_example)

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 4_000_000
SMALL_SIZE = 100
LIMIT = 64


def make_inputs(rng: np.random.Generator, size: int, limit: int = LIMIT) -> tuple:
    return (*_example.make_inputs(rng, size), np.int32(limit))


def reference(width, height, limit):
    return _example.escape_counts(width, height, int(limit))
