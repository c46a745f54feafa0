"""The peer benchmark's programs as eager array code, as a CuPy user writes them: one
array operation after another, a Python loop where the program loops, a host read where
the loop's condition or an index needs a value (`int(...)`, `bool(...)`). Every function
takes the array module first (`xp`: cupy on the GPU, numpy as the CPU peer of
`--backend numpy`) and then the program's arguments as benchmarks/peers.py gives them:
arrays already in `xp`'s memory, scalars on the host. It returns the program's results
in `xp`'s memory, with the dtypes of the program's NumPy definition (the .py beside its
.mlir), against which peers.py checks them.

The pure array functions (`srad_step`, `cipher`, ...) are also what peers_jax.py runs
inside its device loops: they are written without in-place updates, so that the same
arithmetic serves both frameworks."""

from __future__ import annotations

import math

import numpy as np

f32 = np.float32


# --- one-pass programs --------------------------------------------------------


def dot_product(xp, a, b):
    return xp.dot(a, b)


def vector_norm(xp, a):
    return a / xp.sqrt(xp.sum(a * a))


def prefix_sum(xp, a):
    inclusive = xp.cumsum(a, dtype=xp.int32)  # an i32 accumulator wraps as the program's i32 addition
    exclusive = xp.concatenate([xp.zeros(1, xp.int32), inclusive[:-1]])
    return inclusive, exclusive


HISTOGRAM_BINS = 256


def histogram(xp, x):
    bins = (x * f32(HISTOGRAM_BINS)).astype(xp.int32)  # truncation toward zero, as arith.fptosi
    valid = (bins >= 0) & (bins < HISTOGRAM_BINS)
    kept = bins[valid]
    counts = xp.bincount(kept, minlength=HISTOGRAM_BINS).astype(xp.int32)
    last = xp.full(HISTOGRAM_BINS, -1, dtype=xp.int32)
    scatter_max(xp, last, kept, xp.arange(x.size, dtype=xp.int32)[valid])
    return counts, last


def scatter_max(xp, target, indices, values):
    """target[indices] = max(target[indices], values), repeated indices included:
    NumPy's ufunc.at, CuPy's scatter_max (its ufunc.at covers add alone)."""
    if xp is np:
        np.maximum.at(target, indices, values)
    else:
        import cupyx

        cupyx.scatter_max(target, indices, values)


def row_sums(xp, a):
    if a.shape[1] == 0:  # max of no element: the program's neutral element, -inf
        return a.sum(axis=1), xp.full(a.shape[0], -np.inf, dtype=a.dtype)
    return a.sum(axis=1), a.max(axis=1)


def cipher(xp, key, blocks):
    """IDEA's eight rounds and final transform over every 8-byte block (the arithmetic
    of crypt's NumPy definition, as crypt.mlir's @cipher_idea does it)."""

    def mulmod(x, k):
        return (x * k) % 0x10001 & 0xFFFF

    b = blocks & 0xFF
    x1 = (b[:, 1] << 8) | b[:, 0]
    x2 = (b[:, 3] << 8) | b[:, 2]
    x3 = (b[:, 5] << 8) | b[:, 4]
    x4 = (b[:, 7] << 8) | b[:, 6]
    for i in range(8):
        k = [key[6 * i + j] for j in range(6)]
        x1 = mulmod(x1, k[0])
        x2 = (x2 + k[1]) & 0xFFFF
        x3 = (x3 + k[2]) & 0xFFFF
        x4 = mulmod(x4, k[3])
        t2 = mulmod(x1 ^ x3, k[4])
        t1 = mulmod((t2 + (x2 ^ x4)) & 0xFFFF, k[5])
        t2 = (t1 + t2) & 0xFFFF
        x1, x4, t2 = x1 ^ t1, x4 ^ t2, t2 ^ x2
        x2, x3 = x3 ^ t1, t2
    y1 = mulmod(x1, key[48])
    y3 = (x3 + key[49]) & 0xFFFF
    y2 = (x2 + key[50]) & 0xFFFF
    y4 = mulmod(x4, key[51])
    return xp.stack([y1 & 0xFF, y1 >> 8, y3 & 0xFF, y3 >> 8, y2 & 0xFF, y2 >> 8, y4 & 0xFF, y4 >> 8], axis=1)


def crypt(xp, z, dk, text):
    encrypted = cipher(xp, z, text)
    return encrypted, cipher(xp, dk, encrypted)


MANDELBROT_STEPS = 64


def mandelbrot_grid(xp, width: int, height: int):
    """Each pixel's c, row-major, in the program's f32 operations."""
    dx = f32(3.0) / f32(width) if width else f32(0)
    dy = f32(2.5) / f32(height) if height else f32(0)
    pixel = xp.arange(width * height)
    row, col = pixel // max(width, 1), pixel % max(width, 1)
    return f32(-2.25) + col.astype(f32) * dx, f32(-1.25) + row.astype(f32) * dy


def mandelbrot_step(xp, zr, zi, count, cx, cy):
    """One step of z <- z*z + c where |z|^2 <= 4, counting the pixels that took it."""
    active = zr * zr + zi * zi <= f32(4)
    return (
        xp.where(active, zr * zr - zi * zi + cx, zr),
        xp.where(active, f32(2) * zr * zi + cy, zi),
        count + active.astype(xp.int32),
    )


def mandelbrot(xp, width, height):
    cx, cy = mandelbrot_grid(xp, int(width), int(height))
    zr, zi = xp.zeros_like(cx), xp.zeros_like(cy)
    count = xp.zeros(cx.shape, dtype=xp.int32)
    for _ in range(MANDELBROT_STEPS):  # no early exit: a pixel that escaped stays escaped
        zr, zi, count = mandelbrot_step(xp, zr, zi, count, cx, cy)
    return count


def backprop(xp, inp, target, in_w, hid_w, in_prev, hid_prev):
    def squash(x):
        return f32(1.0) / (f32(1.0) + xp.exp(-x))

    def adjust(delta, layer, w, old):
        extended = xp.concatenate([xp.ones(1, dtype=layer.dtype), layer])
        return w + (f32(0.3) * delta[None, :] * extended[:, None] + f32(0.3) * old)

    hidden = squash(in_w[1:].T @ inp + in_w[0])
    output = squash(hid_w[1:].T @ hidden + hid_w[0])
    out_delta = output * (f32(1.0) - output) * (target - output)
    out_err = xp.abs(out_delta).sum()
    hid_delta = hidden * (f32(1.0) - hidden) * (hid_w[1:] @ out_delta)
    hid_err = xp.abs(hid_delta).sum()
    hid_new = adjust(out_delta, hidden, hid_w, hid_prev)
    in_new = adjust(hid_delta, inp, in_w, in_prev)
    return out_err, hid_err, xp.concatenate([in_new[:, :1], in_new], axis=1), hid_new


def option_prices(xp, paths: int, dates: int, strike, s0, vol):
    """The mean payoff over `paths` quasi-random Brownian paths of `dates` steps."""
    k = xp.arange(paths, dtype=xp.int64)[:, None] * dates + xp.arange(dates, dtype=xp.int64)[None, :]
    h2 = k * 1103515245 + 12345
    h5 = (h2 ^ (h2 >> 13)) & 0xFFFFFFFF
    u = xp.clip(h5.astype(f32) * f32(2.3283064e-10), f32(0.0001), f32(0.9999))
    z = xp.log(u / (f32(1.0) - u)) * f32(0.5513289)
    w = xp.cumsum(z, axis=1, dtype=f32)
    dt = f32(1.0) / f32(dates)
    drift = (f32(0.5) * (vol * vol)) * dt
    t = xp.arange(dates, dtype=f32) + f32(1.0)
    prices = s0 * xp.exp((vol * np.sqrt(dt)) * w - drift * t)
    average = prices.sum(axis=1) / f32(dates)
    return xp.maximum(average - strike, f32(0.0)).sum() / f32(paths)


def optionpricing(xp, paths, dates, strike, s0, vol):
    return option_prices(xp, int(paths), int(dates), strike, s0, vol)


# --- iterative programs -------------------------------------------------------


def gauss_jordan(xp, a, b):
    n = a.shape[0]
    m = xp.concatenate([a, b[:, None]], axis=1)
    for k in range(n):
        p = k + int(xp.argmax(xp.abs(m[k:, k])))  # the host reads the pivot's row: the swap is indexed by it
        if p != k:
            m[[k, p]] = m[[p, k]]
        pivot_row = m[k] / m[k, k]
        m = m - m[:, k, None] * pivot_row[None, :]
        m[k] = pivot_row
    return m[:, n].copy()


def srad_step(xp, image, lam):
    """One iteration of srad: the image's statistics, the diffusion coefficient and the
    update, neighbours clamped at the edges."""
    size = f32(image.size)
    mean = image.sum() / size
    variance = (image * image).sum() / size - mean * mean
    q0sqr = variance / (mean * mean)
    padded = xp.pad(image, 1, mode="edge")
    d_n = padded[:-2, 1:-1] - image
    d_s = padded[2:, 1:-1] - image
    d_w = padded[1:-1, :-2] - image
    d_e = padded[1:-1, 2:] - image
    g2 = (d_n * d_n + d_s * d_s + d_w * d_w + d_e * d_e) / (image * image)
    lap = (d_n + d_s + d_w + d_e) / image
    num = f32(0.5) * g2 - f32(1.0 / 16.0) * (lap * lap)
    den = f32(1.0) + f32(0.25) * lap
    qsqr = num / (den * den)
    c = xp.clip(f32(1.0) / (f32(1.0) + (qsqr - q0sqr) / (q0sqr * (f32(1.0) + q0sqr))), f32(0.0), f32(1.0))
    c_s = xp.concatenate([c[1:], c[-1:]], axis=0)
    c_e = xp.concatenate([c[:, 1:], c[:, -1:]], axis=1)
    d = c * d_n + c_s * d_s + c * d_w + c_e * d_e
    return image + (f32(0.25) * lam) * d


def srad(xp, pixels, niter, lam):
    image = xp.exp(pixels / f32(255.0))
    for _ in range(int(niter)):
        image = srad_step(xp, image, lam)
    return xp.log(image) * f32(255.0)


def lud(xp, a):
    m = a.copy()
    n = m.shape[0]
    for k in range(n - 1):
        column = m[k + 1 :, k] / m[k, k]
        m[k + 1 :, k + 1 :] -= column[:, None] * m[k, k + 1 :][None, :]
        m[k + 1 :, k] = column
    return m


def kmeans_assign(xp, points, centroids):
    """Each point's nearest centroid (squared distance; the first on ties)."""
    d2 = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return xp.argmin(d2, axis=1).astype(xp.int32)


def kmeans(xp, points, init, iters):
    k, dims = init.shape
    centroids = init
    for _ in range(int(iters)):
        assigned = kmeans_assign(xp, points, centroids)
        counts = xp.bincount(assigned, minlength=k)
        sums = xp.stack([xp.bincount(assigned, weights=points[:, j], minlength=k) for j in range(dims)], axis=1)
        means = sums / xp.maximum(counts, 1)[:, None]
        centroids = xp.where(counts[:, None] > 0, means, centroids).astype(f32)
    return centroids, kmeans_assign(xp, points, centroids)


def smooth(xp, v, quarter, half):
    """One Jacobi sweep: 0.25*v[i-1] + 0.5*v[i] + 0.25*v[i+1] inside, the ends kept."""
    if v.shape[0] < 3:  # all ends
        return v
    inner = quarter * v[:-2] + half * v[1:-1] + quarter * v[2:]
    return xp.concatenate([v[:1], inner, v[-1:]])


def convergence(xp, v0, eps, maxit):
    n = f32(v0.size)
    mean0 = v0.sum() / n
    v, it, change = v0, 0, math.inf
    while it < int(maxit) and change > eps:
        w = smooth(xp, v, f32(0.25), f32(0.5))
        w = w + (mean0 - w.sum() / n)
        change = float(xp.abs(w - v).max())  # the host reads the loop's condition
        v, it = w, it + 1
    return v, np.int64(it)


def convergence_loop(xp, v0, cfg, eps):
    max_iterations, sweeps = int(cfg[0]), int(cfg[1])
    v, it, change = v0, 0, f32(np.inf)
    history = xp.zeros((max_iterations, 2), dtype=f32)
    while it < max_iterations and change >= eps:
        old = v
        for _ in range(sweeps):
            v = smooth(xp, v, f32(0.25), f32(0.5))
        change = f32(float(xp.abs(v - old).max())) if v.size else f32(0)  # the host reads the condition
        history[it] = xp.asarray([it, change], dtype=f32)
        it += 1
    return v, np.int64(it), change, history


def clean(xp, dirty, beam, gain, threshold, maxit):
    n, w = dirty.shape[0], beam.shape[0]
    h = w // 2
    r = xp.zeros(n + w - 1, dtype=f32)
    r[h : h + n] = dirty
    model = xp.zeros(n, dtype=f32)
    it = 0
    while n:
        part = r[h : h + n]
        pos = int(xp.argmax(xp.abs(part)))  # the host reads the peak's position
        peak = part[pos]
        if not (it < int(maxit) and abs(float(peak)) > threshold):  # and its value
            break
        amount = f32(gain) * peak
        r[pos : pos + w] = r[pos : pos + w] - amount * beam
        model[pos] += amount
        it += 1
    return r[h : h + n].copy(), model, np.int64(it)


def bfs(xp, src, dst, nodes):
    nodes = int(nodes)
    cost = xp.full(nodes, -1, dtype=xp.int32)
    cost[0] = 0
    frontier = xp.zeros(nodes, dtype=bool)
    frontier[0] = True
    seen = frontier.copy()
    level = 0
    while bool(frontier.any()):  # the host reads the loop's condition
        reached = dst[frontier[src] & ~seen[dst]]
        frontier = xp.zeros(nodes, dtype=bool)
        frontier[reached] = True
        cost[reached] = level + 1
        seen |= frontier
        level += 1
    return cost


def nbody_step(xp, pos, vel, mass, dt, softening):
    d = pos[None, :, :] - pos[:, None, :]  # d[i, j] = p_j - p_i
    r2 = (d * d).sum(axis=2) + softening
    acceleration = (d * (mass[None, :] / (r2 * xp.sqrt(r2)))[:, :, None]).sum(axis=1)
    vel = vel + dt * acceleration
    return pos + dt * vel, vel


NBODY_SOFTENING = 0.01


def nbody(xp, pos, vel, mass, dt, steps):
    for _ in range(int(steps)):
        pos, vel = nbody_step(xp, pos, vel, mass, dt, NBODY_SOFTENING)
    return pos, vel


def locvol_grids(xp, num_x: int, num_y: int, num_t: int):
    """LocVolCalib's grids in x and y, its time line and the point whose price is
    wanted, in the f32 operations of its definition."""
    s0, t, alpha, nu = f32(0.03), f32(5.0), f32(0.2), f32(0.6)
    sqt = np.sqrt(t)
    dx = ((f32(20) * alpha) * s0 * sqt) / f32(num_x)
    dy = ((f32(10) * nu) * sqt) / f32(num_y)
    x_index, y_index = int(s0 / dx), num_y // 2
    my_x = (xp.arange(num_x, dtype=f32) * dx - f32(x_index) * dx) + s0
    my_y = (xp.arange(num_y, dtype=f32) * dy - f32(y_index) * dy) + np.log(alpha)
    timeline = (t * xp.arange(num_t, dtype=f32)) / (f32(num_t) - f32(1))
    return my_x, my_y, timeline, x_index, y_index


def locvol_operator(xp, x):
    """The first and second derivative operators' three diagonals on grid x."""
    n = x.shape[0]
    dxl, dxu = x[1:-1] - x[:-2], x[2:] - x[1:-1]
    s = dxl + dxu
    q0, q1 = dxu / dxl, dxl / dxu
    mids = [
        -(q0 / s), (q0 - q1) / s, q1 / s,
        (f32(2) / dxl) / s, (f32(-2) * (f32(1) / dxl + f32(1) / dxu)) / s, (f32(2) / dxu) / s,
    ]
    d, e = x[1] - x[0], x[n - 1] - x[n - 2]
    lows = [f32(0), f32(-1) / d, f32(1) / d, f32(0), f32(0), f32(0)]
    highs = [f32(-1) / e, f32(1) / e, f32(0), f32(0), f32(0), f32(0)]

    def one(v):
        return xp.reshape(xp.asarray(v, dtype=f32), (1,))

    return [xp.concatenate([one(lo), m, one(hi)]) for lo, m, hi in zip(lows, mids, highs)]


def locvol_explicit(xp, ops, mu, var, res):
    """The explicit half step along res's last axis (its neighbours beyond the ends 0)."""
    d0, d1, d2, dd0, dd1, dd2 = ops
    h = f32(0.5) * var
    zero = xp.zeros_like(res[..., :1])
    left = xp.concatenate([zero, (mu * d0 + h * dd0)[..., 1:] * res[..., :-1]], axis=-1)
    right = xp.concatenate([(mu * d2 + h * dd2)[..., :-1] * res[..., 1:], zero], axis=-1)
    mid = (mu * d1 + h * dd1) * res
    return (left + mid) + right


def locvol_tridiagonal(ops, mu, var, dt_inv):
    """The implicit half step's sub-, main and super-diagonals along the last axis."""
    d0, d1, d2, dd0, dd1, dd2 = ops
    h = f32(0.5) * var
    a = f32(0) - f32(0.5) * (mu * d0 + h * dd0)
    b = dt_inv - f32(0.5) * (mu * d1 + h * dd1)
    c = f32(0) - f32(0.5) * (mu * d2 + h * dd2)
    return a, b, c


def thomas(xp, a, b, c, y):
    """Solves the tridiagonal systems along y's last axis (a, b, c broadcast to y's
    leading axes), a column at a time, as the program does."""
    b, y = b.copy(), y.copy()
    m = y.shape[-1]
    for i in range(1, m):
        beta = a[..., i] / b[..., i - 1]
        b[..., i] -= beta * c[..., i - 1]
        y[..., i] -= beta * y[..., i - 1]
    y[..., m - 1] /= b[..., m - 1]
    for i in range(m - 2, -1, -1):
        y[..., i] = (y[..., i] - c[..., i] * y[..., i + 1]) / b[..., i]
    return y


LOCVOL_NU, LOCVOL_BETA = f32(0.6), f32(0.5)


def locvol_start(xp, outer: int, num_y: int, my_x):
    """Every strike's payoff on the grid: the strikes side by side on a leading axis
    (they are independent; the program prices them one after the other)."""
    strikes = f32(0.001) * xp.arange(outer, dtype=f32)
    payoff = xp.maximum(my_x[None, None, :] - strikes[:, None, None], f32(0))
    return xp.zeros((outer, num_y, my_x.shape[0]), dtype=f32) + payoff


def locvol_step(xp, solve, res, ops_x, ops_y, log_x, my_y, t_now, t_next):
    """One step back in time of every strike's grid: explicit then implicit in x and y."""
    num_y, num_x = res.shape[-2:]
    mu_x = xp.zeros((num_y, num_x), dtype=f32)
    mu_y = xp.zeros((num_x, num_y), dtype=f32)
    var_y = xp.full((num_x, num_y), LOCVOL_NU * LOCVOL_NU, dtype=f32)
    tnu = (f32(0.5) * (LOCVOL_NU * LOCVOL_NU)) * t_now
    var_x = xp.exp(f32(2) * (log_x[None, :] + my_y[:, None] - tnu))
    dt_inv = f32(1) / (t_next - t_now)
    u = locvol_explicit(xp, ops_x, mu_x, var_x, res)
    u = dt_inv * res + f32(0.5) * u
    v = locvol_explicit(xp, ops_y, mu_y, var_y, xp.swapaxes(res, -1, -2))
    u = u + xp.swapaxes(v, -1, -2)
    u = solve(*locvol_tridiagonal(ops_x, mu_x, var_x, dt_inv), u)
    y = dt_inv * xp.swapaxes(u, -1, -2) - f32(0.5) * v
    return xp.swapaxes(solve(*locvol_tridiagonal(ops_y, mu_y, var_y, dt_inv), y), -1, -2)


def locvolcalib(xp, outer, num_x, num_y, num_t):
    outer, num_x, num_y, num_t = int(outer), int(num_x), int(num_y), int(num_t)
    my_x, my_y, timeline, x_index, y_index = locvol_grids(xp, num_x, num_y, num_t)
    ops_x, ops_y = locvol_operator(xp, my_x), locvol_operator(xp, my_y)
    log_x = LOCVOL_BETA * xp.log(my_x)
    res = locvol_start(xp, outer, num_y, my_x)
    for g in range(num_t - 2, -1, -1):
        res = locvol_step(xp, lambda a, b, c, y: thomas(xp, a, b, c, y), res, ops_x, ops_y, log_x, my_y,
                          timeline[g], timeline[g + 1])
    return res[:, y_index, x_index].copy()


PROGRAMS = {
    f.__name__: f
    for f in (
        dot_product, vector_norm, prefix_sum, histogram, row_sums, crypt, mandelbrot, backprop, optionpricing,
        gauss_jordan, srad, lud, kmeans, convergence, convergence_loop, bfs, nbody, locvolcalib, clean,
    )
}
"""Each program's eager version, by the program's name in benchmarks/peers.py."""
