"""Global operand transfer fusion: which vectors to place next to each other in memory,
and when to move them, so that host↔device transfers go in as few messages as possible.

This is the analysis of Christoph Kessler, *Global optimization of operand transfer
fusion in heterogeneous computing* (Linköping University), called "the study" below,
as the project's digest of it reconstructs it (digest §3.3). It never changes IR: it
works on an abstract kernel–vector graph, which a pass builds from a straight-line
region of level-2 IR (kernels as ops with read and write effects) and which the tests
build by hand from the study's own graphs.

The input (`KernelGraph`): kernels in program order (the fixed schedule; kernel i runs
in time slot i), each with the vectors it reads and writes and where it runs (`HOST` or
`DEVICE`); the vectors live on exit; optionally the vectors' sizes. Vectors are any
hashable values (names in tests, SSA values in a pass) and are written at most once
(the study's single assignment); a vector no kernel writes is live on entry, on the
host.

The steps (digest §3.1, with the reconstruction's choices of §3.3):

1. Intervals (`transfer_intervals`). A host-resident vector (live on entry or written on
   the host) read by a device kernel is uploaded once, in `[up_earliest, up_latest]`:
   0 or its producer + 1, to the first device kernel that reads it ("before kernel t").
   A vector written on the device and read on the host or live on exit is downloaded
   once, in `[dn_earliest, dn_latest]`: its producer, to the slot before its first host
   reader, or N − 1 ("after kernel t"). Others are device-only or host-only.
2. The affinity graph (`affinity_graph`): for every pair of uploads, and every pair of
   downloads, whose intervals overlap, an edge of weight 1; plus ε where both vectors are
   operands of one kernel. ε goes only on edges that already overlap, so it never joins
   an upload to a download (digest §3.3, T7). Weights are exact: ε is a `Fraction`
   (by default 1/M for M vectors, below 1/(M − 1), so it only breaks ties), and the
   searches run on integer weights in units of ε's denominator.
3. Components of the affinity graph (union–find).
4. A maximum-weight Hamiltonian path per component, where consecutive vectors without an
   edge score 0: the best of the study's randomized affinity-biased depth-first search
   (`dfs_path`: start at a random vertex, go to an unvisited neighbour chosen with
   probability proportional to the edge's weight, backtrack at a dead end, score the
   preorder; best of `attempts`, seeded), an exact Held–Karp search (`exact_path`, for
   components of at most `exact_limit` vectors) and a greedy path cover in the manner of
   Liao et al. (`greedy_cover_path`: edges by decreasing weight, kept while both ends
   have degree below 2 and no cycle closes, fragments joined). The heaviest wins; on a
   tie the exact path, then the greedy cover, then the DFS.
5. The memory layout (`memory_layout`): upload components, then download components
   (each in order of its first vector in program order, each path turned to start at
   its earlier end), then the vectors that are never transferred. Offsets are prefix
   sums of the sizes.
6. Transfer times (`schedule`). `greedy`: a left-to-right scan in memory order that
   extends a message while the common intersection of its members' intervals stays
   non-empty, sent at the intersection's earliest slot; for a fixed layout it gives the
   fewest messages (digest §3.2). `tight`: each upload takes the latest slot it shares
   with an overlapping memory neighbour (else its latest slot), and a message is a
   maximal memory-contiguous run of equal slots; downloads as in greedy (the study does
   not implement joint early downloads; `early_downloads` adds them, in ε and in
   tight). Tight uploads later, so device copies live shorter, at the price of
   possibly more messages.

Past the study (its §8): a device-memory limit and fusing across small gaps refine a
schedule in passes/analysis/transfer_refinement.py.

`analyse` runs all of it and reports the transfers before (one message each) and the
messages after. The affinity weight is only a proxy for the saving: a path of pairwise
overlaps need not share a common slot (digest T6).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Literal

import numpy as np

__all__ = [
    # the input
    "HOST",
    "DEVICE",
    "Kernel",
    "KernelGraph",
    # the steps
    "Intervals",
    "transfer_intervals",
    "AffinityGraph",
    "affinity_graph",
    "PathChoice",
    "best_path",
    "Layout",
    "memory_layout",
    "Message",
    "schedule",
    # the whole analysis
    "TransferLayout",
    "analyse",
    # path searches on integer weight matrices
    "path_weight",
    "exact_path",
    "dfs_path",
    "greedy_cover_path",
]

HOST = "host"
DEVICE = "device"
UPLOAD = "upload"
DOWNLOAD = "download"

Vector = Hashable
Weights = Sequence[Sequence[int]]
"""A symmetric matrix of non-negative integer weights; 0 means no edge."""


# --------------------------------------------------------------------------- the input


@dataclass(frozen=True)
class Kernel:
    """One kernel call: the vectors it reads and writes, and where it runs."""

    reads: tuple[Vector, ...]
    writes: tuple[Vector, ...]
    on: str = DEVICE
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "reads", tuple(self.reads))
        object.__setattr__(self, "writes", tuple(self.writes))
        if self.on not in (HOST, DEVICE):
            raise ValueError(f"kernel {self.name or '?'}: runs on {self.on!r}, expected {HOST!r} or {DEVICE!r}")


@dataclass(frozen=True)
class KernelGraph:
    """The study's kernel–vector graph G = (K, V, E) with a fixed schedule and mapping.

    `vectors` is every vector in order of first appearance (reads before writes within a
    kernel), then those only named in `live_on_exit` or `sizes`; it fixes every tie in
    the analysis. A vector's size defaults to 1."""

    kernels: tuple[Kernel, ...]
    live_on_exit: frozenset[Vector] = frozenset()
    sizes: Mapping[Vector, int] = field(default_factory=dict)
    vectors: tuple[Vector, ...] = ()
    producer: Mapping[Vector, int] = field(default_factory=dict)

    @staticmethod
    def build(
        kernels: Iterable[Kernel],
        live_on_exit: Iterable[Vector] = (),
        sizes: Mapping[Vector, int] | None = None,
    ) -> KernelGraph:
        """Checks single assignment and program order, and numbers the vectors."""
        kernels = tuple(kernels)
        live_on_exit = frozenset(live_on_exit)
        sizes = dict(sizes or {})
        vectors: dict[Vector, None] = {}
        producer: dict[Vector, int] = {}
        for i, k in enumerate(kernels):
            for v in k.reads:
                vectors.setdefault(v)
            for w in k.writes:
                if w in producer:
                    raise ValueError(f"vector {w!r} written by kernels {producer[w]} and {i}: not single assignment")
                if w in k.reads:
                    raise ValueError(f"kernel {i} reads and writes {w!r}: not single assignment")
                if w in vectors:
                    raise ValueError(f"vector {w!r} read before kernel {i} writes it")
                producer[w] = i
                vectors.setdefault(w)
        for v in (*sorted(live_on_exit - vectors.keys(), key=repr), *sizes):
            vectors.setdefault(v)
        return KernelGraph(kernels, live_on_exit, sizes, tuple(vectors), producer)

    def size(self, v: Vector) -> int:
        return self.sizes.get(v, 1)

    def operand_sets(self) -> list[frozenset[Vector]]:
        return [frozenset(k.reads + k.writes) for k in self.kernels]


# --------------------------------------------------------------------------- intervals

Interval = tuple[int, int]


@dataclass(frozen=True)
class Intervals:
    """Step 1: the transfer intervals (inclusive slots) and the vectors not transferred."""

    uploads: dict[Vector, Interval]
    downloads: dict[Vector, Interval]
    device_only: tuple[Vector, ...]
    host_only: tuple[Vector, ...]

    @property
    def transfers(self) -> int:
        """What the baseline sends: one message per transfer."""
        return len(self.uploads) + len(self.downloads)

    def direction(self, v: Vector) -> str | None:
        return UPLOAD if v in self.uploads else DOWNLOAD if v in self.downloads else None

    def interval(self, v: Vector) -> Interval:
        return self.uploads[v] if v in self.uploads else self.downloads[v]


def transfer_intervals(graph: KernelGraph) -> Intervals:
    """Each vector's class and interval (digest §2 and the table after it)."""
    n = len(graph.kernels)
    device_readers: dict[Vector, list[int]] = {}
    host_readers: dict[Vector, list[int]] = {}
    for i, k in enumerate(graph.kernels):
        readers = device_readers if k.on == DEVICE else host_readers
        for v in k.reads:
            readers.setdefault(v, []).append(i)
    uploads, downloads, device_only, host_only = {}, {}, [], []
    for v in graph.vectors:
        p = graph.producer.get(v)
        on_host = p is None or graph.kernels[p].on == HOST
        on_device = device_readers.get(v)
        on_cpu = host_readers.get(v)
        if on_host:
            if on_device:
                uploads[v] = (0 if p is None else p + 1, min(on_device))
            else:
                host_only.append(v)
        elif on_cpu or v in graph.live_on_exit:
            downloads[v] = (p, min(on_cpu) - 1 if on_cpu else n - 1)
        else:
            device_only.append(v)
    return Intervals(uploads, downloads, tuple(device_only), tuple(host_only))


def _overlap(a: Interval, b: Interval) -> bool:
    return max(a[0], b[0]) <= min(a[1], b[1])


# --------------------------------------------------------------------------- affinity


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> bool:
        """Joins the sets of a and b; False if they were one already."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[max(ra, rb)] = min(ra, rb)
        return True


@dataclass(frozen=True)
class AffinityGraph:
    """Step 2: the affinity graph over all vectors of the kernel graph. `overlaps[e]` is
    the base weight of edge e (1: the intervals overlap), `bonus` the edges that also get
    ε. Edges of weight 0 are absent."""

    vectors: tuple[Vector, ...]
    overlaps: dict[frozenset[Vector], int]
    bonus: frozenset[frozenset[Vector]]
    epsilon: Fraction

    def weight(self, v: Vector, w: Vector) -> Fraction:
        e = frozenset((v, w))
        return self.overlaps.get(e, 0) + (self.epsilon if e in self.bonus else 0)

    def units(self, v: Vector, w: Vector) -> int:
        """The weight as an integer, in units of 1/ε's denominator."""
        e = frozenset((v, w))
        base = self.overlaps.get(e, 0) * self.epsilon.denominator
        return base + (self.epsilon.numerator if e in self.bonus else 0)

    def edges(self) -> dict[frozenset[Vector], Fraction]:
        return {e: self.weight(*e) for e in self.overlaps}

    def components(self) -> list[tuple[Vector, ...]]:
        """Step 3: the connected components, each in the order of `vectors`, ordered by
        their first vector (singletons included)."""
        index = {v: i for i, v in enumerate(self.vectors)}
        uf = _UnionFind(len(self.vectors))
        for e in self.overlaps:
            a, b = e
            uf.union(index[a], index[b])
        groups: dict[int, list[Vector]] = {}
        for i, v in enumerate(self.vectors):
            groups.setdefault(uf.find(i), []).append(v)
        return [tuple(g) for g in groups.values()]

    def matrix(self, component: Sequence[Vector]) -> list[list[int]]:
        return [[0 if v == w else self.units(v, w) for w in component] for v in component]


def affinity_graph(
    graph: KernelGraph,
    intervals: Intervals,
    epsilon: Fraction | int | None = None,
    *,
    early_downloads: bool = False,
) -> AffinityGraph:
    """Step 2. ε defaults to 1/M (M vectors), so that it only breaks ties.

    The study gives ε to overlapping pairs that are operands of one kernel: for uploads
    that favours joint late uploads (two inputs of a kernel share their latest slot).
    For downloads it names the other half, joint early downloads, and leaves it out
    (its §7). `early_downloads` builds it: a pair of downloads gets ε where one kernel
    wrote both (they share their earliest slot), and not for being read together by a
    host kernel (which favours a late download instead)."""
    eps = Fraction(1, max(2, len(graph.vectors))) if epsilon is None else Fraction(epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must not be negative, got {eps}")
    overlaps: dict[frozenset[Vector], int] = {}
    for direction in (intervals.uploads, intervals.downloads):  # never mixed
        for v, w in combinations(direction, 2):
            if _overlap(direction[v], direction[w]):
                overlaps[frozenset((v, w))] = 1
    operand_sets = graph.operand_sets()

    def bonus(edge: frozenset[Vector]) -> bool:
        v, w = edge
        if early_downloads and v in intervals.downloads:
            return graph.producer[v] == graph.producer[w]
        return any(edge <= ops for ops in operand_sets)

    bonuses = frozenset(e for e in overlaps if bonus(e)) if eps else frozenset()
    return AffinityGraph(graph.vectors, overlaps, bonuses, eps)


# --------------------------------------------------------------------------- path searches


EXACT_MAX = 22
"""The most vertices `exact_path` takes (its table then needs about 0.7 GB)."""


def path_weight(order: Sequence[int], weights: Weights) -> int:
    """The weight of visiting vertices in `order`: the sum over consecutive pairs."""
    return sum(weights[a][b] for a, b in zip(order, order[1:]))


def exact_path(weights: Weights) -> list[int]:
    """A maximum-weight Hamiltonian path by Held–Karp dynamic programming over subsets
    (O(2^n·n²) time, O(2^n·n) memory), vectorised over each subset size. Among optimal
    paths the one whose reconstruction picks the lowest predecessor each step."""
    n = len(weights)
    if n > EXACT_MAX:
        raise ValueError(f"Held–Karp on {n} vertices needs 2^{n}·{n} table entries; at most {EXACT_MAX}")
    if n <= 2:
        return list(range(n))
    w = np.asarray(weights, dtype=np.int64)
    low = np.iinfo(np.int64).min // 4
    full = 1 << n
    best = np.full((full, n), low, dtype=np.int64)  # best[S, j]: heaviest path over S ending at j
    for j in range(n):
        best[1 << j, j] = 0
    masks = np.arange(full, dtype=np.int64)
    size = np.zeros(full, dtype=np.int64)
    for b in range(n):
        size += (masks >> b) & 1
    for s in range(1, n):
        layer = masks[size == s]
        rows = best[layer]
        for k in range(n):
            free = ((layer >> k) & 1) == 0
            into = layer[free] | (1 << k)
            best[into, k] = (rows[free] + w[:, k]).max(axis=1)
    mask, last = full - 1, int(np.argmax(best[full - 1]))
    order = [last]
    while mask != 1 << last:
        rest = mask ^ (1 << last)
        target = best[mask, last]
        last = next(j for j in range(n) if rest >> j & 1 and best[rest, j] + w[j, order[-1]] == target)
        order.append(last)
        mask = rest
    order.reverse()
    return order


def dfs_path(weights: Weights, attempts: int, rng: random.Random) -> list[int]:
    """The study's heuristic: the best of `attempts` randomized depth-first preorders, each
    from a random vertex, each step to an unvisited neighbour drawn with probability
    proportional to the edge's weight, backtracking at a dead end (digest §3.3). The
    first of equally heavy preorders is kept."""
    n = len(weights)
    if n <= 1:
        return list(range(n))
    neighbours = [[b for b in range(n) if b != a and weights[a][b] > 0] for a in range(n)]
    best: list[int] | None = None
    best_weight = -1
    for _ in range(max(1, attempts)):
        unvisited = set(range(n))
        order: list[int] = []
        while unvisited:  # a disconnected graph is walked component after component
            start = rng.choice(sorted(unvisited))
            unvisited.discard(start)
            order.append(start)
            stack = [start]
            while stack:
                v = stack[-1]
                choices = [b for b in neighbours[v] if b in unvisited]
                if not choices:
                    stack.pop()
                    continue
                nxt = rng.choices(choices, weights=[weights[v][b] for b in choices])[0]
                unvisited.discard(nxt)
                order.append(nxt)
                stack.append(nxt)
        weight = path_weight(order, weights)
        if weight > best_weight:
            best, best_weight = order, weight
    assert best is not None
    return best


def greedy_cover_path(weights: Weights) -> list[int]:
    """A greedy path cover (Liao et al.'s offset assignment): edges by decreasing weight
    (ties by their ends), each kept if both ends have degree below 2 and it closes no
    cycle (union–find); the resulting paths are joined in order of their lowest vertex."""
    n = len(weights)
    edges = sorted(
        ((a, b) for a in range(n) for b in range(a + 1, n) if weights[a][b] > 0),
        key=lambda e: (-weights[e[0]][e[1]], e),
    )
    degree = [0] * n
    adjacent: list[list[int]] = [[] for _ in range(n)]
    uf = _UnionFind(n)
    for a, b in edges:
        if degree[a] < 2 and degree[b] < 2 and uf.union(a, b):
            degree[a] += 1
            degree[b] += 1
            adjacent[a].append(b)
            adjacent[b].append(a)
    order: list[int] = []
    seen = [False] * n
    for v in range(n):  # walk each fragment from its lowest end
        if seen[v] or degree[v] == 2:
            continue
        prev, cur = -1, v
        while cur != -1:
            seen[cur] = True
            order.append(cur)
            nxt = next((x for x in adjacent[cur] if x != prev), -1)
            prev, cur = cur, nxt
    return order


# --------------------------------------------------------------------------- per component


@dataclass(frozen=True)
class PathChoice:
    """Step 4 for one component: every search's path and weight, and the winner."""

    component: tuple[Vector, ...]
    candidates: dict[str, tuple[tuple[Vector, ...], Fraction]]
    method: str
    order: tuple[Vector, ...]
    weight: Fraction


METHODS = ("exact", "greedy", "dfs")
"""The searches, in the order that breaks ties between equally heavy paths."""


def best_path(
    affinity: AffinityGraph,
    component: Sequence[Vector],
    *,
    attempts: int = 4,
    rng: random.Random | None = None,
    exact_limit: int = 16,
    methods: Iterable[str] = METHODS,
) -> PathChoice:
    """The heaviest Hamiltonian path of one component by the searches in `methods`
    (exact only where the component has at most `exact_limit` vectors)."""
    component = tuple(component)
    rng = rng if rng is not None else random.Random(0)
    w = affinity.matrix(component)
    unit = affinity.epsilon.denominator
    candidates: dict[str, tuple[tuple[Vector, ...], Fraction]] = {}
    for method in METHODS:
        if method not in methods:
            continue
        if method == "exact" and len(component) > exact_limit:
            continue
        if method == "exact":
            order = exact_path(w)
        elif method == "greedy":
            order = greedy_cover_path(w)
        else:
            order = dfs_path(w, attempts, rng)
        candidates[method] = (tuple(component[i] for i in order), Fraction(path_weight(order, w), unit))
    if not candidates:
        raise ValueError(f"no path search applies to a component of {len(component)} vectors")
    method = max(candidates, key=lambda m: (candidates[m][1], -METHODS.index(m)))
    order, weight = candidates[method]
    return PathChoice(component, candidates, method, order, weight)


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Step 5: the memory mapping p. `location[v]` is v's index in `order`, `offset[v]`
    the sum of the sizes before it."""

    order: tuple[Vector, ...]
    location: dict[Vector, int]
    offset: dict[Vector, int]

    @staticmethod
    def of(order: Sequence[Vector], graph: KernelGraph | None = None) -> Layout:
        size = graph.size if graph is not None else (lambda v: 1)
        offsets, at = {}, 0
        for v in order:
            offsets[v] = at
            at += size(v)
        return Layout(tuple(order), {v: i for i, v in enumerate(order)}, offsets)


def memory_layout(graph: KernelGraph, intervals: Intervals, paths: Sequence[PathChoice]) -> Layout:
    """Upload components, then download components, then the vectors never transferred;
    each path turned so that its end earlier in program order comes first."""
    first = {v: i for i, v in enumerate(graph.vectors)}
    rank = {UPLOAD: 0, DOWNLOAD: 1, None: 2}

    def oriented(order: tuple[Vector, ...]) -> tuple[Vector, ...]:
        return order if first[order[0]] <= first[order[-1]] else order[::-1]

    chosen = sorted(
        (oriented(p.order) for p in paths),
        key=lambda o: (rank[intervals.direction(o[0])], min(first[v] for v in o)),
    )
    return Layout.of([v for order in chosen for v in order], graph)


# --------------------------------------------------------------------------- schedule


@dataclass(frozen=True)
class Message:
    """One fused transfer: an upload before kernel `time`, or a download after it, of
    vectors at consecutive locations."""

    direction: str
    time: int
    vectors: tuple[Vector, ...]
    gaps: tuple[Vector, ...] = ()
    """Vectors lying between members that the message's one copy also moves (see
    transfer_refinement.fuse_across_gaps); they are sent again in their own message."""


def _greedy_runs(direction: str, iv: Mapping[Vector, Interval], loc: Mapping[Vector, int]) -> list[Message]:
    runs: list[Message] = []
    cur: list[Vector] = []
    common: Interval = (0, 0)
    for v in sorted(iv, key=loc.__getitem__):
        if cur and loc[v] == loc[cur[-1]] + 1 and _overlap(common, iv[v]):
            cur.append(v)
            common = (max(common[0], iv[v][0]), min(common[1], iv[v][1]))
        else:
            if cur:
                runs.append(Message(direction, common[0], tuple(cur)))
            cur, common = [v], iv[v]
    if cur:
        runs.append(Message(direction, common[0], tuple(cur)))
    return runs


def _local_runs(direction: str, iv: Mapping[Vector, Interval], loc: Mapping[Vector, int], late: bool) -> list[Message]:
    """Each vector at the slot it shares with an overlapping memory neighbour that is
    latest (`late`: tight uploads) or earliest (tight's mirror, for joint early
    downloads), else its own latest or earliest; a message is a maximal
    memory-contiguous run of equal slots."""
    at = {loc[v]: v for v in iv}
    time: dict[Vector, int] = {}
    for v in iv:
        shared = [
            min(iv[v][1], iv[w][1]) if late else max(iv[v][0], iv[w][0])
            for w in (at.get(loc[v] - 1), at.get(loc[v] + 1))
            if w is not None and _overlap(iv[v], iv[w])
        ]
        if shared:
            time[v] = max(shared) if late else min(shared)
        else:
            time[v] = iv[v][1] if late else iv[v][0]
    runs: list[Message] = []
    for v in sorted(iv, key=loc.__getitem__):
        last = runs[-1] if runs else None
        if last and loc[v] == loc[last.vectors[-1]] + 1 and time[v] == last.time:
            runs[-1] = Message(direction, last.time, last.vectors + (v,))
        else:
            runs.append(Message(direction, time[v], (v,)))
    return runs


def schedule(
    intervals: Intervals,
    layout: Layout,
    mode: Literal["greedy", "tight"] = "greedy",
    *,
    early_downloads: bool = False,
) -> list[Message]:
    """Step 6: the messages for a fixed layout, uploads first, each direction in memory
    order. In `tight` mode with `early_downloads`, downloads mirror the late uploads:
    each as early as a memory neighbour allows (the study's downloads are greedy in
    both modes)."""
    if mode not in ("greedy", "tight"):
        raise ValueError(f"mode must be 'greedy' or 'tight', got {mode!r}")
    loc = layout.location
    if mode == "tight":
        uploads = _local_runs(UPLOAD, intervals.uploads, loc, late=True)
    else:
        uploads = _greedy_runs(UPLOAD, intervals.uploads, loc)
    if mode == "tight" and early_downloads:
        downloads = _local_runs(DOWNLOAD, intervals.downloads, loc, late=False)
    else:
        downloads = _greedy_runs(DOWNLOAD, intervals.downloads, loc)
    return uploads + downloads


# --------------------------------------------------------------------------- the analysis


@dataclass(frozen=True)
class TransferLayout:
    """Everything the analysis found, for a pass to carry out."""

    graph: KernelGraph
    intervals: Intervals
    affinity: AffinityGraph
    paths: tuple[PathChoice, ...]
    layout: Layout
    mode: str
    messages: tuple[Message, ...]

    @property
    def transfers(self) -> int:
        """Messages before: one per transfer."""
        return self.intervals.transfers

    @property
    def saving(self) -> int:
        """Transfer startups saved."""
        return self.transfers - len(self.messages)


def analyse(
    graph: KernelGraph,
    *,
    mode: Literal["greedy", "tight"] = "greedy",
    attempts: int = 4,
    seed: int = 0,
    epsilon: Fraction | int | None = None,
    exact_limit: int = 16,
    methods: Iterable[str] = METHODS,
    early_downloads: bool = False,
) -> TransferLayout:
    """Runs steps 1–6 on a kernel graph. Deterministic for a given seed.
    `early_downloads`: the study's unbuilt half of ε and of tight (see
    `affinity_graph` and `schedule`)."""
    methods = tuple(methods)
    intervals = transfer_intervals(graph)
    affinity = affinity_graph(graph, intervals, epsilon, early_downloads=early_downloads)
    rng = random.Random(seed)
    paths = tuple(
        best_path(affinity, c, attempts=attempts, rng=rng, exact_limit=exact_limit, methods=methods)
        for c in affinity.components()
    )
    layout = memory_layout(graph, intervals, paths)
    messages = tuple(schedule(intervals, layout, mode, early_downloads=early_downloads))
    return TransferLayout(graph, intervals, affinity, paths, layout, mode, messages)
