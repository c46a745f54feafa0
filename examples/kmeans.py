"""kmeans: Lloyd's k-means, a fixed number of iterations.

Each iteration assigns every point to its nearest centroid (squared Euclidean
distance; ties to the lower index) and moves every centroid to the mean of its
points; a centroid with no points stays where it was. Returns the final centroids
(k x d, f32) and the assignment of every point to them (i32).

Exercises: a helper function called with ``func.call`` (twice, once inside the
loop), an ``scf.for`` loop with a tensor iteration argument and a scalar (index)
trip count, nested parallelism (a ``soac.map`` over points of a ``soac.map`` over
centroids of a ``soac.reduce`` of a ``soac.map``), a two-array (tuple) ``soac.reduce``
for the argmin (with ``arith.select``), a ``soac.hist`` whose rows are vectors and
whose operator is itself a ``soac.map``, a scalar ``soac.hist`` of counts,
``soac.replicate`` of a row, and an ``scf.if`` yielding a row inside a map lambda.

Inputs: ``size`` points in d = 3 dimensions drawn around 4 well-separated centres;
k = 5 initial centroids in random order: one point of each blob (a random
position for a blob without points), so that every decision boundary lies far
from the data and rounding cannot flip an assignment, and one far-away centroid,
which never gets a point and must be kept unchanged; 5 iterations. Size 0 gives
no points: the centroids come back unchanged.
"""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 1000

DIM = 3
ITERS = 5


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    centres = 8.0 * np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=np.float64)
    blob = rng.integers(0, len(centres), size=size)
    points = (centres[blob] + rng.normal(0.0, 1.0, size=(size, DIM))).astype(np.float32)
    # One initial centroid per blob: a random point of it (or a random position when
    # the blob got no point), so that every decision boundary lies between blobs.
    init = rng.uniform(-10.0, 10.0, size=(len(centres), DIM))
    for b in range(len(centres)):
        members = np.flatnonzero(blob == b)
        if members.size:
            init[b] = points[rng.choice(members)]
    # Plus one far-away centroid that never gets a point; then shuffle their order.
    init = np.concatenate([init, np.full((1, DIM), 1000.0)])
    init = init[rng.permutation(len(init))].astype(np.float32)
    return points, init, np.int64(ITERS)


def _assign(points, cents):
    d2 = ((points[:, None, :] - cents[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d2, axis=1).astype(np.int32)  # first minimum: ties to the lower index


def reference(points, init, iters):
    k = init.shape[0]
    cents = init.copy()
    for _ in range(int(iters)):
        a = _assign(points, cents)
        counts = np.bincount(a, minlength=k)
        sums = np.zeros(cents.shape, dtype=np.float64)
        np.add.at(sums, a, points)
        means = sums / np.maximum(counts, 1)[:, None]
        cents = np.where(counts[:, None] > 0, means, cents).astype(np.float32)
    return cents, _assign(points, cents)
