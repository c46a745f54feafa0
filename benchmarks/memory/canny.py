"""canny: the data-parallel stages of Canny edge detection (futhark-benchmarks
accelerate/canny, from Accelerate), the study's best case (69.6% less peak memory on
the GPU): a chain of image-sized maps, each reading its input at neighbouring pixels.

Inputs: an image of size x size random RGBA pixels (i32), and the low and high
thresholds. The result: the flat indices of the strong edge pixels. The reference
does the same float32 arithmetic in the same order."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1024
SMALL_SIZE = 64


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    img = rng.integers(-(2**31), 2**31, size=(size, size), dtype=np.int64).astype(np.int32)
    return np.float32(50.0), np.float32(100.0), img


def _clamp(v, n):
    return np.minimum(np.maximum(v, 0), n - 1)


def reference(low, high, img):
    f = np.float32
    h, w = img.shape
    p = img.astype(np.int32)

    def byte(shift):
        b = (p >> shift) & 255
        return np.where(b >= 128, b - 256, b).astype(np.float32)

    s = f(0.3) * byte(24) + f(0.59) * byte(16)
    s = s + f(0.11) * byte(8)
    grey = f(255.0) * (s / f(255.0))
    ys, xs = np.arange(h)[:, None], np.arange(w)[None, :]
    weights = [(-2, f(0.0625)), (-1, f(0.25)), (0, f(0.375)), (1, f(0.25)), (2, f(0.0625))]

    def blur(a, along_x):
        acc = None
        for k, wt in weights:
            v = a[ys, _clamp(xs + k, w)] if along_x else a[_clamp(ys + k, h), xs]
            v = v * wt
            acc = v if acc is None else acc + v
        return acc

    by = blur(blur(grey, True), False)

    def at(dx, dy):
        return by[_clamp(ys + dy, h), _clamp(xs + dx, w)]

    v0, v1, v2, v3, v4, v5, v6, v7 = at(-1, -1), at(0, -1), at(1, -1), at(-1, 0), at(1, 0), at(-1, 1), at(0, 1), at(1, 1)
    dx = ((((v2 + f(2.0) * v4) + v7) - v0) - f(2.0) * v3) - v5
    dy = ((((v0 + f(2.0) * v1) + v2) - v5) - f(2.0) * v6) - v7
    mag = np.sqrt(dx * dx + dy * dy)
    ax, ay = np.abs(dx), np.abs(dy)
    flat = (ax <= low) & (ay <= low)
    diag = np.where(dx * dy > f(0.0), 64, 192)
    d0 = np.where(ay <= ax * f(0.41421356), 255, np.where(ay >= ax * f(2.41421356), 128, diag))
    direction = np.where(flat, 0, d0)
    ox = np.where(direction > 128, -1, np.where(direction < 128, 1, 0))
    oy = np.where(direction < 255, -1, 0)
    fwd = mag[_clamp(ys + ox, h), _clamp(xs + oy, w)]
    rev = mag[_clamp(ys - ox, h), _clamp(xs - oy, w)]
    zero = (direction == 0) | (mag < low) | (mag < fwd) | (mag < rev)
    nms = np.where(zero, f(0.0), np.where(mag >= high, f(1.0), f(0.5)))
    return np.flatnonzero(nms.reshape(-1) == f(1.0)).astype(np.int32)
