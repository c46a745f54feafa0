"""permute: a fused scatter with much work per element: element i of a hash chain
(`rounds` steps of a 64-bit LCG from i, then x ^ (x >>> 33)) written to position
(7919 i) mod n, a permutation of the n positions where 7919 does not divide n.

``size`` is n (bumped by one where 7919 divides it); ``rounds`` is ROUNDS. Integers:
every device count gives the same bits."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 16_000_000
SMALL_SIZE = 100
ROUNDS = 64


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = size + 1 if size and size % 7919 == 0 else size
    return np.int64(n), np.int64(ROUNDS)


def reference(n, rounds):
    n, rounds = int(n), int(rounds)
    i = np.arange(n, dtype=np.uint64)
    x = i.copy()
    for _ in range(rounds):
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    values = (x ^ (x >> np.uint64(33))).view(np.int64)
    out = np.zeros(n, np.int64)
    out[(i * np.uint64(7919)) % np.uint64(max(n, 1))] = values
    return out
