"""mandelbrot with its iteration limit an argument (benchmarks/husks/mandelbrot.mlir):
the thesis's Mandelbrot pattern. `size` is the number of pixels (as the example's);
the limit is LIMIT unless the harness gives another (benchmarks/husks.py sweeps it)."""

import math

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 4_000_000
SMALL_SIZE = 100
LIMIT = 64


def make_inputs(rng: np.random.Generator, size: int, limit: int = LIMIT) -> tuple:
    width = math.isqrt(2 * size)
    height = size // width if width else 0
    return np.int64(width), np.int64(height), np.int32(limit)


def reference(width, height, limit):
    width, height, limit = int(width), int(height), int(limit)
    f32 = np.float32
    dx = f32(3.0) / f32(width) if width else f32(0)
    dy = f32(2.5) / f32(height) if height else f32(0)
    row, col = np.divmod(np.arange(width * height), max(width, 1))
    cx = f32(-2.25) + col.astype(f32) * dx
    cy = f32(-1.25) + row.astype(f32) * dy
    zr = np.zeros_like(cx)
    zi = np.zeros_like(cy)
    count = np.zeros(cx.shape, dtype=np.int32)
    active = np.ones(cx.shape, dtype=bool)
    for _ in range(limit):
        active &= zr * zr + zi * zi <= f32(4)
        if not active.any():
            break
        zr, zi = (
            np.where(active, zr * zr - zi * zi + cx, zr),
            np.where(active, f32(2) * zr * zi + cy, zi),
        )
        count += active
    return count
