"""ad: the value and the hand-written reverse-mode gradient of
f(x, y, z, w, p) = mean(sin x * y) mean(exp(-z^2)) + log(1 + mean(x^2 + y^2))
+ mean(z w) / mean(sqrt(1 + w^2)) + logsumexp(p): five independent maps and means and a
log-sum-exp forward, five independent maps back. Size: elements of x, y, z and w (p has
a quarter as many, at least 1). `python ad.py` checks the gradient against central
finite differences (check_gradient)."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-7
DEFAULT_SIZE = 65536
SMALL_SIZE = 16


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    vectors = tuple(rng.uniform(-1.0, 1.0, size=n).astype(np.float32) for _ in range(4))
    return (*vectors, rng.uniform(-4.0, 4.0, size=max(n // 4, 1)).astype(np.float32))


def _logsumexp(p):
    top = np.max(p)
    return top + np.log(np.sum(np.exp(p - top)))


def value(x, y, z, w, p):
    """f, in float64."""
    m1, m2 = np.mean(np.sin(x) * y), np.mean(np.exp(-z * z))
    m3, m4, m5 = np.mean(x * x + y * y), np.mean(z * w), np.mean(np.sqrt(1 + w * w))
    return m1 * m2 + np.log1p(m3) + m4 / m5 + _logsumexp(p)


def gradient(x, y, z, w, p):
    """(df/dx, df/dy, df/dz, df/dw, df/dp), in float64: the formulas the program computes."""
    n = x.size
    m1, m2 = np.mean(np.sin(x) * y), np.mean(np.exp(-z * z))
    m3, m4, m5 = np.mean(x * x + y * y), np.mean(z * w), np.mean(np.sqrt(1 + w * w))
    g1, g2, g3 = m2 / n, m1 / n, 1 / ((1 + m3) * n)
    g4, g5 = 1 / (m5 * n), -m4 / (m5 * m5 * n)
    dx = g1 * np.cos(x) * y + g3 * 2 * x
    dy = g1 * np.sin(x) + g3 * 2 * y
    dz = -2 * g2 * z * np.exp(-z * z) + g4 * w
    dw = g4 * z + g5 * w / np.sqrt(1 + w * w)
    dp = np.exp(p - _logsumexp(p))
    return dx, dy, dz, dw, dp


def reference(x, y, z, w, p):
    args = tuple(a.astype(np.float64) for a in (x, y, z, w, p))
    return (np.float32(value(*args)), *(g.astype(np.float32) for g in gradient(*args)))


def check_gradient(size: int = 6, seed: int = 0, eps: float = 1e-6) -> float:
    """The largest difference between `gradient` and central finite differences of
    `value` (float64), over every element of every input; asserts it is below 1e-7."""
    rng = np.random.default_rng(seed)
    args = [a.astype(np.float64) for a in make_inputs(rng, size)]
    analytic = gradient(*args)
    worst = 0.0
    for k, arg in enumerate(args):
        for i in range(arg.size):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[k][i] += eps
            minus[k][i] -= eps
            numeric = (value(*plus) - value(*minus)) / (2 * eps)
            worst = max(worst, abs(numeric - analytic[k][i]))
    assert worst < 1e-7, f"the gradient differs from finite differences by {worst}"
    return worst


if __name__ == "__main__":
    print(f"largest difference from central finite differences: {check_gradient():.2e}")
