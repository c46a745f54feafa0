"""tunnel: the Accelerate "tunnel" pattern (the thesis's Tunnel): a width x height
image, flattened row-major, one f32 brightness per pixel from a few float operations
(polar coordinates, sin, cos, atan2) of its position and the time: a large output
for little work per element.

``size`` is the approximate number of pixels, in a 16:9 image: width =
isqrt(16 * size // 9), height = size // width (5333 x 3000 for the default; 0 x 0 for
size 0, 1 x 1 for size 1). The time is TIME. The reference does the same float32
operations in the same order; the tolerance allows for the GPU's sinf, cosf and atan2f
(a few ulp from NumPy's) and a contracted multiply-add, on values in [0, 1]."""

import math

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 16_000_000
SMALL_SIZE = 100
TIME = 3.7

f32 = np.float32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    width = math.isqrt(16 * size // 9)
    height = size // width if width else 0
    return f32(TIME), np.int64(width), np.int64(height)


def reference(time, width, height):
    width, height = int(width), int(height)
    y, x = np.divmod(np.arange(width * height), max(width, 1))
    wf, hf = f32(width), f32(height)
    px = (f32(2) * x.astype(f32) - wf) / hf
    py = (f32(2) * y.astype(f32) - hf) / hf
    r = np.sqrt(px * px + py * py)
    angle = np.arctan2(py, px)
    u = f32(0.5) * f32(time) + f32(0.25) / np.maximum(r, f32(0.1))
    v = angle * f32(0.318309886)
    tex = f32(0.5) + f32(0.5) * (np.sin(f32(6.28318531) * u) * np.cos(f32(12.5663706) * v))
    return tex * np.minimum(r, f32(1))
