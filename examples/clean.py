"""clean: Högbom's CLEAN deconvolution of a one-dimensional signal.

The dirty signal is a few point sources convolved with a beam (a Gaussian of odd width
w, peak 1) plus noise. Each iteration finds the residual value of largest magnitude
(the first of equals), subtracts ``gain * peak`` times the beam centred there, and adds
the same amount to the model at that position; the loop runs while ``it < maxit`` and
the peak's magnitude exceeds the threshold. Returns the residual, the model and the
iteration count (index).

Exercises positions that only the device knows (issue 18, item 6): the peak's position
comes from a reduction and is the offset of a slice (the window) that only a kernel
reads, the offset of a slice update, and the index of an element read and written
(the model). reduce-device-syncs keeps them all on the device, so the loop reads only
its condition and, under a task graph, runs whole on the device (a conditional node).

Inputs: n samples, 5 sources of amplitude in [1, 3) of either sign, beam width 9,
noise 0.01, gain 0.2, threshold 0.05, maxit 200. Every f32 operation is rounded in the
program's order (no contraction), so the reference matches bit for bit.
"""

import numpy as np

RTOL = 1e-6
ATOL = 1e-6
DEFAULT_SIZE = 1000

WIDTH = 9
GAIN = 0.2
THRESHOLD = 0.05
MAX_ITERS = 200


def beam(width: int = WIDTH) -> np.ndarray:
    x = np.arange(width, dtype=np.float64) - width // 2
    return np.exp(-0.5 * (x / (width / 4)) ** 2).astype(np.float32)


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    b = beam()
    dirty = rng.normal(0, 0.01, size)
    for _ in range(5 if size else 0):
        at = int(rng.integers(0, size))
        amplitude = rng.uniform(1, 3) * rng.choice([-1, 1])
        lo, hi = max(0, at - WIDTH // 2), min(size, at + WIDTH // 2 + 1)
        dirty[lo:hi] += amplitude * b[lo - (at - WIDTH // 2) : hi - (at - WIDTH // 2)]
    # at most two iterations a sample: a signal narrower than the beam never falls below
    # the threshold, and would run all MAX_ITERS (the tests' small sizes)
    iterations = min(MAX_ITERS, 2 * size)
    return dirty.astype(np.float32), b, np.float32(GAIN), np.float32(THRESHOLD), np.int64(iterations)


def reference(dirty, b, gain, threshold, maxit):
    n, w = len(dirty), len(b)
    h = w // 2
    r = np.zeros(n + w - 1, np.float32)
    r[h : h + n] = dirty
    model = np.zeros(n, np.float32)
    it = 0
    while True:
        part = r[h : h + n]
        pos = int(np.argmax(np.abs(part))) if n else 0
        peak = part[pos] if n else np.float32(0)
        if not (it < maxit and np.abs(peak) > threshold):
            break
        amount = np.float32(gain * peak)
        r[pos : pos + w] = r[pos : pos + w] - amount * b
        model[pos] = model[pos] + amount
        it += 1
    return r[h : h + n].copy(), model, np.int64(it)
