"""saltmarsh: a small salt-marsh simulation (the study's second program is a salt marsh
creek formation model, mainly stencils): water depth, sediment and vegetation on a
square grid; each time step a chain of water sub-steps beside the sediment and
vegetation updates, all stencils; the fields and the total sediment. Size: the grid's
side; 20 steps of 4 water sub-steps."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 128
SMALL_SIZE = 6
STEPS = 20
SUBSTEPS = 4


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    # a tidal flat sloping down along the rows, a little rough; shallow water; patchy plants
    slope = np.linspace(0.8, 0.4, n)[:, None]
    sediment = (slope + rng.uniform(-0.05, 0.05, size=(n, n))).astype(np.float32)
    water = rng.uniform(0.0, 0.5, size=(n, n)).astype(np.float32)
    vegetation = (rng.uniform(0.0, 1.0, size=(n, n)) < 0.3).astype(np.float32) * np.float32(0.6)
    return water, sediment, vegetation, STEPS, SUBSTEPS


def _neighbours(x):
    """North, south, west and east neighbours, the edges clamped."""
    rows, cols = x.shape
    i, j = np.arange(rows), np.arange(cols)
    n = x[np.maximum(i - 1, 0), :]
    s = x[np.minimum(i + 1, rows - 1), :]
    w = x[:, np.maximum(j - 1, 0)]
    e = x[:, np.minimum(j + 1, cols - 1)]
    return n, s, w, e


def _mean4(x):
    n, s, w, e = _neighbours(x)
    return (n + s + w + e) / 4


def reference(h, s, v, steps, substeps):
    h, s, v = (x.astype(np.float64) for x in (h, s, v))
    for _ in range(steps):
        h_next = h
        for _ in range(substeps):
            eta = h_next + s
            h_next = np.clip(h_next + 0.2 * (_mean4(eta) - eta) + 0.005 * (1 - h_next) - 0.0125 * h_next * v, 0, 1)
        eta = h + s
        en, es, ew, ee = _neighbours(eta)
        grad = np.sqrt((ee - ew) ** 2 + (es - en) ** 2) / 2
        s_next = np.clip(s + 0.1 * (_mean4(s) - s) - 0.05 * h * (1 - v) * grad + 0.01 * h * v, 0, 1)
        v_next = np.clip(v + 0.1 * (_mean4(v) - v) + 0.1 * v * (1 - v) - 0.2 * v * h * h, 0, 1)
        h, s, v = h_next, s_next, v_next
    return h.astype(np.float32), s.astype(np.float32), v.astype(np.float32), np.float32(s.sum())
