"""The peer benchmark's programs for JAX, as a JAX expert writes them: each one
`jax.jit`-compiled whole, its loops on the device (`lax.fori_loop`, `lax.while_loop`,
the condition evaluated there too, so no iteration waits for the host), dynamic
indexing by masks and `.at[...]` updates where shapes must stay static, and sizes that
decide a shape static arguments. Each function takes the program's arguments as
benchmarks/peers.py gives them (NumPy arrays and scalars on the host; jit moves them to
the device) and returns the results on the device, not yet waited for; peers.py waits
with `block_until_ready` and copies them to the host.

64-bit types are on (nbody is f64, crypt and bfs compute in i64), and matrix products
use full f32 precision ("highest"): on recent GPUs the default lets XLA use TF32, whose
10-bit mantissa is not the program's f32 arithmetic. Where the arithmetic is the same
as the eager version's, the pure array functions of peers_eager.py run here with
`xp = jax.numpy`."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import peers_eager as eager

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_default_matmul_precision", "highest")

f32 = np.float32


# --- one-pass programs --------------------------------------------------------


@jax.jit
def dot_product(a, b):
    return jnp.dot(a, b)


@jax.jit
def vector_norm(a):
    return eager.vector_norm(jnp, a)


@jax.jit
def prefix_sum(a):
    return eager.prefix_sum(jnp, a)


@jax.jit
def histogram(x):
    bins = (x * f32(eager.HISTOGRAM_BINS)).astype(jnp.int32)
    valid = (bins >= 0) & (bins < eager.HISTOGRAM_BINS)
    # .at[] wraps negative indices as NumPy does: an index past the end is what drops
    target = jnp.where(valid, bins, eager.HISTOGRAM_BINS)
    counts = jnp.zeros(eager.HISTOGRAM_BINS, jnp.int32).at[target].add(1, mode="drop")
    positions = jnp.arange(x.shape[0], dtype=jnp.int32)
    last = jnp.full(eager.HISTOGRAM_BINS, -1, jnp.int32).at[target].max(positions, mode="drop")
    return counts, last


@jax.jit
def row_sums(a):
    return eager.row_sums(jnp, a)


@jax.jit
def crypt(z, dk, text):
    return eager.crypt(jnp, z, dk, text)


@partial(jax.jit, static_argnums=(0, 1))
def _mandelbrot(width: int, height: int):
    cx, cy = eager.mandelbrot_grid(jnp, width, height)
    start = (jnp.zeros_like(cx), jnp.zeros_like(cy), jnp.zeros(cx.shape, jnp.int32))
    _, _, count = lax.fori_loop(
        0, eager.MANDELBROT_STEPS, lambda _, s: eager.mandelbrot_step(jnp, *s, cx, cy), start
    )
    return count


def mandelbrot(width, height):
    return _mandelbrot(int(width), int(height))


@jax.jit
def backprop(inp, target, in_w, hid_w, in_prev, hid_prev):
    return eager.backprop(jnp, inp, target, in_w, hid_w, in_prev, hid_prev)


@partial(jax.jit, static_argnums=(0, 1))
def _optionpricing(paths: int, dates: int, strike, s0, vol):
    return eager.option_prices(jnp, paths, dates, strike, s0, vol)


def optionpricing(paths, dates, strike, s0, vol):
    return _optionpricing(int(paths), int(dates), strike, s0, vol)


# --- iterative programs -------------------------------------------------------


@jax.jit
def gauss_jordan(a, b):
    n = a.shape[0]
    rows = jnp.arange(n)

    def step(k, m):
        magnitude = jnp.where(rows >= k, jnp.abs(m[:, k]), f32(-1))  # rows above k are done
        p = jnp.argmax(magnitude)  # the first largest, as the program's tie-break
        row_p, row_k = m[p], m[k]
        m = m.at[k].set(row_p).at[p].set(row_k)
        pivot_row = row_p / row_p[k]
        m = m - m[:, k][:, None] * pivot_row[None, :]
        return m.at[k].set(pivot_row)

    m = lax.fori_loop(0, n, step, jnp.concatenate([a, b[:, None]], axis=1))
    return m[:, n]


@jax.jit
def srad(pixels, niter, lam):
    image = jnp.exp(pixels / f32(255.0))
    image = lax.fori_loop(0, niter, lambda _, im: eager.srad_step(jnp, im, lam), image)
    return jnp.log(image) * f32(255.0)


@jax.jit
def lud(a):
    n = a.shape[0]
    index = jnp.arange(n)

    def step(k, m):
        below = index > k
        column = m[:, k] / m[k, k]
        trailing = below[:, None] & below[None, :]
        m = m - jnp.where(trailing, column[:, None] * m[k][None, :], f32(0))
        return m.at[:, k].set(jnp.where(below, column, m[:, k]))

    return lax.fori_loop(0, n - 1, step, a)


@jax.jit
def kmeans(points, init, iters):
    k = init.shape[0]

    def step(_, centroids):
        assigned = eager.kmeans_assign(jnp, points, centroids)
        counts = jax.ops.segment_sum(jnp.ones_like(assigned), assigned, num_segments=k)
        sums = jax.ops.segment_sum(points, assigned, num_segments=k)
        means = sums / jnp.maximum(counts, 1)[:, None].astype(points.dtype)
        return jnp.where(counts[:, None] > 0, means, centroids)

    centroids = lax.fori_loop(0, iters, step, init)
    return centroids, eager.kmeans_assign(jnp, points, centroids)


@jax.jit
def convergence(v0, eps, maxit):
    n = f32(v0.shape[0])
    mean0 = v0.sum() / n

    def moving(state):
        _, it, change = state
        return (it < maxit) & (change > eps)

    def sweep(state):
        v, it, _ = state
        w = eager.smooth(jnp, v, f32(0.25), f32(0.5))
        w = w + (mean0 - w.sum() / n)
        return w, it + 1, jnp.abs(w - v).max()

    v, it, _ = lax.while_loop(moving, sweep, (v0, jnp.int64(0), jnp.float32(jnp.inf)))
    return v, it


@partial(jax.jit, static_argnums=(1, 2))
def _convergence_loop(v0, max_iterations: int, sweeps: int, eps):
    def moving(state):
        _, it, change, _ = state
        return (it < max_iterations) & (change >= eps)

    def iteration(state):
        old, it, _, history = state
        v = lax.fori_loop(0, sweeps, lambda _, v: eager.smooth(jnp, v, f32(0.25), f32(0.5)), old)
        change = jnp.abs(v - old).max() if v.shape[0] else jnp.float32(0)
        history = history.at[it].set(jnp.stack([it.astype(jnp.float32), change]))
        return v, it + 1, change, history

    start = (v0, jnp.int64(0), jnp.float32(jnp.inf), jnp.zeros((max_iterations, 2), jnp.float32))
    return lax.while_loop(moving, iteration, start)


def convergence_loop(v0, cfg, eps):
    return _convergence_loop(v0, int(cfg[0]), int(cfg[1]), eps)  # cfg is the host's: the history's shape


@jax.jit
def clean(dirty, beam, gain, threshold, maxit):
    n, w = dirty.shape[0], beam.shape[0]
    h = w // 2
    r = jnp.zeros(n + w - 1, jnp.float32).at[h : h + n].set(dirty)

    def peak_of(r):
        part = r[h : h + n]
        pos = jnp.argmax(jnp.abs(part))
        return part[pos], pos

    def step(state):
        r, model, it, peak, pos = state
        amount = gain * peak
        window = lax.dynamic_slice(r, (pos,), (w,))
        r = lax.dynamic_update_slice(r, window - amount * beam, (pos,))
        return (r, model.at[pos].add(amount), it + 1, *peak_of(r))

    def going(state):
        _, _, it, peak, _ = state
        return (it < maxit) & (jnp.abs(peak) > threshold)

    start = (r, jnp.zeros(n, jnp.float32), jnp.int64(0), *peak_of(r))
    r, model, it, _, _ = lax.while_loop(going, step, start)
    return r[h : h + n], model, it


@partial(jax.jit, static_argnums=2)
def _bfs(src, dst, nodes: int):
    cost = jnp.full(nodes, -1, jnp.int32).at[0].set(0)
    frontier = jnp.zeros(nodes, bool).at[0].set(True)

    def level(state):
        cost, frontier, seen, depth = state
        target = jnp.where(frontier[src] & ~seen[dst], dst, nodes)  # past the end: dropped
        frontier = jnp.zeros(nodes, bool).at[target].set(True, mode="drop")
        cost = cost.at[target].set(depth + 1, mode="drop")
        return cost, frontier, seen | frontier, depth + 1

    cost, *_ = lax.while_loop(lambda s: s[1].any(), level, (cost, frontier, frontier, jnp.int32(0)))
    return cost


def bfs(src, dst, nodes):
    return _bfs(src, dst, int(nodes))


@jax.jit
def nbody(pos, vel, mass, dt, steps):
    return lax.fori_loop(
        0, steps, lambda _, s: eager.nbody_step(jnp, *s, mass, dt, eager.NBODY_SOFTENING), (pos, vel)
    )


@partial(jax.jit, static_argnums=(0, 1, 2, 3))
def _locvolcalib(outer: int, num_x: int, num_y: int, num_t: int):
    my_x, my_y, timeline, x_index, y_index = eager.locvol_grids(jnp, num_x, num_y, num_t)
    ops_x, ops_y = eager.locvol_operator(jnp, my_x), eager.locvol_operator(jnp, my_y)
    log_x = eager.LOCVOL_BETA * jnp.log(my_x)

    def solve(a, b, c, y):
        """XLA's batched tridiagonal solver (cuSPARSE's on the GPU), a's first and c's
        last element outside the matrix."""
        diagonals = (a.at[..., 0].set(0), b, c.at[..., -1].set(0))
        dl, d, du = (jnp.broadcast_to(v, y.shape) for v in diagonals)
        return lax.linalg.tridiagonal_solve(dl, d, du, y[..., None])[..., 0]

    def step(j, res):
        g = num_t - 2 - j
        return eager.locvol_step(jnp, solve, res, ops_x, ops_y, log_x, my_y, timeline[g], timeline[g + 1])

    res = lax.fori_loop(0, num_t - 1, step, eager.locvol_start(jnp, outer, num_y, my_x))
    return res[:, y_index, x_index]


def locvolcalib(outer, num_x, num_y, num_t):
    return _locvolcalib(int(outer), int(num_x), int(num_y), int(num_t))


PROGRAMS = {
    "dot_product": dot_product, "vector_norm": vector_norm, "prefix_sum": prefix_sum, "histogram": histogram,
    "row_sums": row_sums, "crypt": crypt, "mandelbrot": mandelbrot, "backprop": backprop,
    "optionpricing": optionpricing, "gauss_jordan": gauss_jordan, "srad": srad, "lud": lud, "kmeans": kmeans,
    "convergence": convergence, "convergence_loop": convergence_loop, "bfs": bfs, "nbody": nbody,
    "locvolcalib": locvolcalib, "clean": clean,
}
"""Each program's JAX version, by the program's name in benchmarks/peers.py."""
