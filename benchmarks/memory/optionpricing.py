"""optionpricing: Monte Carlo pricing of an Asian call (Finpar's OptionPricing,
futhark-benchmarks finpar/OptionPricing) in skeleton: per path, quasi-random numbers,
normal variates, a Brownian path (a scan) and the prices along it, all in arrays of the
path's own (the study's reuse inside kernels).

Inputs: size paths of 64 dates."""

import numpy as np

RTOL = 2e-3
ATOL = 1e-4
DEFAULT_SIZE = 1 << 18
SMALL_SIZE = 512
DATES = 64


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    return max(size, 1), DATES, np.float32(1.0), np.float32(1.0), np.float32(0.2)


def reference(paths, dates, strike, s0, vol):
    f = np.float32
    k = (np.arange(paths, dtype=np.int64)[:, None] * dates + np.arange(dates, dtype=np.int64)[None, :])
    h2 = k * 1103515245 + 12345
    h5 = (h2 ^ (h2 >> 13)) & 0xFFFFFFFF
    u = np.clip(h5.astype(f) * f(2.3283064e-10), f(0.0001), f(0.9999))
    z = np.log(u / (f(1.0) - u)) * f(0.5513289)
    w = np.cumsum(z, axis=1, dtype=f)
    dt = f(1.0) / f(dates)
    drift = (f(0.5) * (vol * vol)) * dt
    t = np.arange(dates, dtype=f) + f(1.0)
    prices = s0 * np.exp((vol * np.sqrt(dt)) * w - drift * t)
    avg = prices.sum(axis=1, dtype=np.float64).astype(f) / f(dates)
    pay = np.maximum(avg - strike, f(0.0))
    return f(pay.sum(dtype=np.float64) / paths)
