"""LocVolCalib: local volatility calibration (FinPar), `outer` strikes one after the
other, each rolled back over a numY x numX grid in numT time steps (explicit steps in x
and y, then tridiagonal implicit steps in x and y).

Inputs: 4 strikes, a size x size grid and size // 4 time steps (at least 4). The
reference does the same float32 operations; exp and log may differ in the last bit on
the GPU, hence the tolerance."""

import numpy as np

RTOL = 1e-3
ATOL = 1e-4
DEFAULT_SIZE = 256
SMALL_SIZE = 16
OUTER = 4

f = np.float32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 4)
    return OUTER, n, n, max(n // 4, 4)


def _operator(x):
    """The columns d0, d1, d2, dd0, dd1, dd2 of initOperator(x)."""
    n = len(x)
    dxl, dxu = x[1:-1] - x[:-2], x[2:] - x[1:-1]
    s = dxl + dxu
    q0, q1 = dxu / dxl, dxl / dxu
    mids = [
        -(q0 / s),
        (q0 - q1) / s,
        q1 / s,
        (f(2) / dxl) / s,
        (f(-2) * (f(1) / dxl + f(1) / dxu)) / s,
        (f(2) / dxu) / s,
    ]
    d = x[1] - x[0]
    e = x[n - 1] - x[n - 2]
    lows = [f(0), f(-1) / d, f(1) / d, f(0), f(0), f(0)]
    highs = [f(-1) / e, f(1) / e, f(0), f(0), f(0), f(0)]
    return [np.concatenate([[lo], m, [hi]]).astype(f) for lo, m, hi in zip(lows, mids, highs)]


def _explicit(ops, mu, var, res):
    d0, d1, d2, dd0, dd1, dd2 = ops
    h = f(0.5) * var
    left = np.zeros_like(res)
    left[:, 1:] = ((mu * d0 + h * dd0) * np.pad(res, ((0, 0), (1, 0)))[:, :-1])[:, 1:]
    right = np.zeros_like(res)
    right[:, :-1] = ((mu * d2 + h * dd2)[:, :-1] * res[:, 1:])
    mid = (mu * d1 + h * dd1) * res
    return (left + mid) + right


def _implicit(ops, mu, var, u, dt_inv):
    d0, d1, d2, dd0, dd1, dd2 = ops
    h = f(0.5) * var
    a = f(0) - f(0.5) * (mu * d0 + h * dd0)
    b = dt_inv - f(0.5) * (mu * d1 + h * dd1)
    c = f(0) - f(0.5) * (mu * d2 + h * dd2)
    y = u.copy()
    m = u.shape[1]
    for i in range(1, m):
        beta = a[:, i] / b[:, i - 1]
        b[:, i] = b[:, i] - beta * c[:, i - 1]
        y[:, i] = y[:, i] - beta * y[:, i - 1]
    y[:, m - 1] = y[:, m - 1] / b[:, m - 1]
    for i in range(m - 2, -1, -1):
        y[:, i] = (y[:, i] - c[:, i] * y[:, i + 1]) / b[:, i]
    return y


def reference(outer, num_x, num_y, num_t):
    s0, t, alpha, nu, beta = f(0.03), f(5.0), f(0.2), f(0.6), f(0.5)
    timeline = (t * np.arange(num_t, dtype=f)) / (f(num_t) - f(1))
    sqt = np.sqrt(t)
    dx = ((f(20) * alpha) * s0 * sqt) / f(num_x)
    dy = ((f(10) * nu) * sqt) / f(num_y)
    x_index, y_index = int(s0 / dx), num_y // 2
    my_x = (np.arange(num_x, dtype=f) * dx - f(x_index) * dx) + s0
    my_y = (np.arange(num_y, dtype=f) * dy - f(y_index) * dy) + np.log(alpha)
    ops_x, ops_y = _operator(my_x), _operator(my_y)
    hnu2 = f(0.5) * (nu * nu)
    prices = np.zeros(outer, dtype=f)
    for o in range(outer):
        strike = f(0.001) * f(o)
        res = np.repeat(np.maximum(my_x - strike, f(0))[None, :], num_y, axis=0)
        for g in range(num_t - 2, -1, -1):
            mu_x = np.zeros((num_y, num_x), dtype=f)
            mu_y = np.zeros((num_x, num_y), dtype=f)
            var_y = np.full((num_x, num_y), nu * nu, dtype=f)
            tnu = hnu2 * timeline[g]
            var_x = np.exp(f(2) * ((beta * np.log(my_x))[None, :] + my_y[:, None] - tnu))
            dt_inv = f(1) / (timeline[g + 1] - timeline[g])
            u = _explicit(ops_x, mu_x, var_x, res)
            u = dt_inv * res + f(0.5) * u
            v = _explicit(ops_y, mu_y, var_y, res.T)
            u = u + v.T
            u = _implicit(ops_x, mu_x, var_x, u, dt_inv)
            y = dt_inv * u.T - f(0.5) * v
            res = _implicit(ops_y, mu_y, var_y, y, dt_inv).T
        prices[o] = res[y_index, x_index]
    return prices
