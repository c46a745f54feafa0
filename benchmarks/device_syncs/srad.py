"""srad (futhark-benchmarks rodinia/srad): speckle-reducing anisotropic diffusion of an
image. Each iteration's two reductions (the image's sum and sum of squares) give q0sqr,
which the stencil map uses: two synchronous reads per iteration, none after
reduce-device-syncs. Size: the image's side (the benchmark's image is 502 x 458);
100 iterations as in the benchmark."""

import numpy as np

RTOL = 2e-3
ATOL = 2e-2
DEFAULT_SIZE = 512
SMALL_SIZE = 12
ITERATIONS = 100


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 2)
    pixels = rng.integers(0, 256, size=(n, n)).astype(np.float32)
    iterations = ITERATIONS if size > 32 else 5
    return pixels, iterations, np.float32(0.5)


def reference(pixels, niter, lam):
    image = np.exp(pixels.astype(np.float64) / 255.0)
    rows, cols = image.shape
    iN = np.maximum(np.arange(rows) - 1, 0)
    iS = np.minimum(np.arange(rows) + 1, rows - 1)
    jW = np.maximum(np.arange(cols) - 1, 0)
    jE = np.minimum(np.arange(cols) + 1, cols - 1)
    for _ in range(niter):
        mean = image.sum() / image.size
        var = (image * image).sum() / image.size - mean * mean
        q0sqr = var / (mean * mean)
        dN = image[iN, :] - image
        dS = image[iS, :] - image
        dW = image[:, jW] - image
        dE = image[:, jE] - image
        g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (image * image)
        lap = (dN + dS + dW + dE) / image
        num = 0.5 * g2 - (1.0 / 16.0) * (lap * lap)
        den = 1.0 + 0.25 * lap
        qsqr = num / (den * den)
        c = np.clip(1.0 / (1.0 + (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr))), 0.0, 1.0)
        d = c * dN + c[iS, :] * dS + c * dW + c[:, jE] * dE
        image = image + 0.25 * lam * d
    return (np.log(image) * 255.0).astype(np.float32)
