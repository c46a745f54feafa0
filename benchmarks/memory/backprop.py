"""backprop: one training step of Rodinia's two-layer perceptron (futhark-benchmarks
rodinia/backprop): both layers forward, the errors, the weight adjustments of both
layers, and the input weights returned with a column put back (consColumn).

Inputs: size input units, 16 hidden units, 1 output; random weights. The reference
follows the same float32 arithmetic; sums may be ordered differently, so results are
compared with a tolerance."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 1 << 20
SMALL_SIZE = 1000
HIDDEN, OUT = 16, 1


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    f = np.float32
    n = max(size, 1)
    inp = rng.random(n, dtype=f)
    target = np.full(OUT, 0.1, dtype=f)
    in_w = (rng.random((n + 1, HIDDEN), dtype=f) - f(0.5)) * f(0.1)
    hid_w = (rng.random((HIDDEN + 1, OUT), dtype=f) - f(0.5)) * f(0.1)
    in_prev = np.zeros((n + 1, HIDDEN), dtype=f)
    hid_prev = np.zeros((HIDDEN + 1, OUT), dtype=f)
    return inp, target, in_w, hid_w, in_prev, hid_prev


def reference(inp, target, in_w, hid_w, in_prev, hid_prev):
    f = np.float32
    d = np.float64

    def squash(x):
        return (f(1.0) / (f(1.0) + np.exp(-x))).astype(f)

    hidden = squash((in_w[1:].astype(d).T @ inp.astype(d)).astype(f) + in_w[0])
    output = squash((hid_w[1:].astype(d).T @ hidden.astype(d)).astype(f) + hid_w[0])
    odelta = output * (f(1.0) - output) * (target - output)
    out_err = f(np.abs(odelta).astype(d).sum())
    sums = (hid_w[1:].astype(d) @ odelta.astype(d)).astype(f)
    hdelta = hidden * (f(1.0) - hidden) * sums
    hid_err = f(np.abs(hdelta).astype(d).sum())

    def adjust(delta, ly, w, old):
        lyext = np.concatenate([[f(1.0)], ly]).astype(f)
        dw = f(0.3) * delta[None, :] * lyext[:, None] + f(0.3) * old
        return w + dw

    hid_new = adjust(odelta, hidden, hid_w, hid_prev)
    in_new = adjust(hdelta, inp, in_w, in_prev)
    in_cons = np.concatenate([in_new[:, :1], in_new], axis=1)
    return out_err, hid_err, in_cons, hid_new
