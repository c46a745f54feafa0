"""bfs: breadth-first search levels from node 0, all edges at once per level
(futhark-benchmarks rodinia/bfs, the simple parallel variant).

Inputs: a random graph of size nodes with 6 edges each on average, as edge lists
(source, destination), and the node count."""

import numpy as np

RTOL = 0.0
ATOL = 0.0
DEFAULT_SIZE = 1 << 20
SMALL_SIZE = 2000


def make_inputs(rng: np.random.Generator, size: int) -> tuple:
    n = max(size, 1)
    edges = 6 * n
    src = rng.integers(0, n, edges).astype(np.int64)
    dst = rng.integers(0, n, edges).astype(np.int64)
    return src, dst, n


def reference(src, dst, nodes):
    cost = np.full(nodes, -1, dtype=np.int32)
    cost[0] = 0
    frontier = np.zeros(nodes, dtype=bool)
    frontier[0] = True
    seen = frontier.copy()
    level = 0
    while frontier.any():
        take = frontier[src] & ~seen[dst]
        nxt = np.zeros(nodes, dtype=bool)
        nxt[dst[take]] = True
        cost[dst[take]] = level + 1
        seen |= nxt
        frontier = nxt
        level += 1
    return cost
