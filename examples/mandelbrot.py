"""mandelbrot: escape counts over a width x height grid, flattened row-major.

Pixel (row, col) maps to c = (-2.25 + col * 3/width, -1.25 + row * 2.5/height); the
result is the number of steps z <- z*z + c (from z = 0) done while |z|^2 <= 4, at
most 64, as an i32 per pixel; the result has width*height entries.

Exercises: ``soac.iota`` of index, a ``soac.map`` over pixels whose lambda recovers
(row, col) with ``arith.divui``/``arith.remui`` and runs a data-dependent
``scf.while`` loop (divergent trip counts), index->i64->f32 conversions, host
scalars captured by the lambda, and index scalar parameters.

``size`` is the approximate number of pixels: width = isqrt(2*size), height =
size // width (0 x 0 for size 0, 1 x 1 for size 1). The reference repeats the
program's f32 operations in the same order, so results match bit for bit on an
implementation that rounds every f32 operation (no fused multiply-add contraction).
"""

import math

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1000

MAX_ITER = 64


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    width = math.isqrt(2 * size)
    height = size // width if width else 0
    return np.int64(width), np.int64(height)


def reference(width, height):
    return escape_counts(width, height, MAX_ITER)


def escape_counts(width, height, limit: int):
    """The escape count of every pixel, at most `limit` steps (benchmarks/husks/
    mandelbrot.py's program takes the limit as an argument)."""
    width, height = int(width), int(height)
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
