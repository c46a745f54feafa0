"""nn: the k nearest neighbours of a target among n records (Rodinia NN), k argmin
reductions in a host loop, each followed by an in-place update at the index found:
the thesis's NN pattern (a reduction's result used on the device).

Returns the k distances (ascending, f32) and the records' indices (ties to the smaller
index, as np.argmin). Inputs: ``size`` records with latitude uniform in [-90, 90) and
longitude in [-180, 180) (f32), a random target, k = min(10, size) (size 0: no records,
no neighbours). The reference does the same float32 operations; the tolerance allows
for a contracted multiply-add on the GPU."""

import numpy as np

RTOL = 1e-4
ATOL = 1e-5
DEFAULT_SIZE = 1_000_000
SMALL_SIZE = 100
K = 10

f32 = np.float32


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    lat = rng.uniform(-90.0, 90.0, size).astype(f32)
    lng = rng.uniform(-180.0, 180.0, size).astype(f32)
    target_lat = f32(rng.uniform(-90.0, 90.0))
    target_lng = f32(rng.uniform(-180.0, 180.0))
    return lat, lng, target_lat, target_lng, np.int64(min(K, size))


def reference(lat, lng, target_lat, target_lng, k):
    dy = lat - f32(target_lat)
    dx = lng - f32(target_lng)
    dist = np.sqrt(dy * dy + dx * dx)
    ds = np.full(int(k), np.inf, dtype=f32)
    is_ = np.zeros(int(k), dtype=np.int64)
    for j in range(int(k)):
        i = int(np.argmin(dist))  # the first minimum: ties to the smaller index
        ds[j], is_[j] = dist[i], i
        dist[i] = np.inf
    return ds, is_
