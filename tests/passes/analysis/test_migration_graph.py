"""The minimum vertex cut of reduce-device-syncs (passes/analysis/migration_graph.py)
against an independent solver: on 10,000 random graphs (cyclic, several sources and
sinks) ROUTE finds as many routes as networkx's maximum flow on the split graph, the cut
has that many vertices, the device side is the smallest (the residual graph's source
side), and none of it depends on the order the sources are routed in (digest §9.4,
T28–T32). Also the study's invariants: nothing reachable through an exhausted edge
leads to a sink (Theorem 3), a failed route stays failed (Corollary 2), and each edge
is walked at most |C| + 1 times in all (the O(E·|C|) bound)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from soacc.passes.analysis.migration_graph import IN, OUT, SINK, MigrationGraph, Reachability

GRAPHS_PER_SEED = 1000
SEEDS = range(10)  # 10 x 1000 = 10,000 random graphs


def random_program(rng: random.Random) -> tuple[int, list[tuple]]:
    """Vertices and an interleaving of edge additions, sink connections and sources, in
    the order a graph builder might make them (edges from sink-connected vertices are
    dropped, as Theorem 2 allows)."""
    n = rng.randint(1, 12)
    ops: list[tuple] = [("edge", rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 40))]
    ops += [("sink", rng.randrange(n)) for _ in range(rng.randint(0, 4))]
    ops += [("source", rng.randrange(n)) for _ in range(rng.randint(0, 6))]
    rng.shuffle(ops)
    return n, ops


def build(n: int, ops: list[tuple]) -> MigrationGraph:
    g = MigrationGraph()
    for _ in range(n):
        g.add_vertex()
    for op in ops:
        if op[0] == "edge" and op[1] != op[2]:
            g.add_edge(op[1], op[2])
        elif op[0] == "sink":
            g.connect_to_sink(op[1])
        elif op[0] == "source":
            g.add_source(op[1])
    return g


def networkx_cut(n: int, ops: list[tuple]) -> tuple[int, set[int], set[int]]:
    """Max flow and the minimum cut with the smallest source side, by networkx on the
    vertex-split graph (unit capacities, a super source before every source)."""
    graph = nx.DiGraph()

    def add(a, b):
        if graph.has_edge(a, b):
            graph[a][b]["capacity"] += 1
        else:
            graph.add_edge(a, b, capacity=1)

    out: dict[int, list[int]] = {v: [] for v in range(n)}
    sink_connected: set[int] = set()
    sources: list[tuple[int, int]] = []
    for op in ops:
        if op[0] == "edge" and op[1] != op[2] and op[1] not in sink_connected:
            out[op[1]].append(op[2])
        elif op[0] == "sink" and op[1] not in sink_connected:
            sink_connected.add(op[1])
            out[op[1]] = []
        elif op[0] == "source":
            sources.append((n + len(sources), op[1]))
    for v in range(n + len(sources)):
        add((v, IN), (v, OUT))
    for v in range(n):
        for w in out[v]:
            add((v, OUT), (w, IN))
        if v in sink_connected:
            add((v, OUT), "T")
    graph.add_node("S")
    graph.add_node("T")
    for s, target in sources:
        add((s, OUT), (target, IN))
        graph.add_edge("S", (s, IN), capacity=len(sources) + 1)
    value, flow = nx.maximum_flow(graph, "S", "T")
    seen, todo = {"S"}, ["S"]
    while todo:
        u = todo.pop()
        for v in graph.successors(u):
            if graph[u][v]["capacity"] > flow[u][v] and v not in seen:
                seen.add(v)
                todo.append(v)
        for v in graph.predecessors(u):
            if flow[v][u] > 0 and v not in seen:
                seen.add(v)
                todo.append(v)
    device = {v for v in range(n + len(sources)) if (v, IN) in seen}
    return value, device, {v for v in device if (v, OUT) not in seen}


@pytest.mark.parametrize("seed", SEEDS)
def test_cut_is_minimum_with_the_smallest_device_side(seed):
    rng = random.Random(seed)
    for _ in range(GRAPHS_PER_SEED):
        n, ops = random_program(rng)
        g = build(n, ops)
        routes = g.route_many(g.sources)
        device, cut = g.resolve()
        flow, nx_device, nx_cut = networkx_cut(n, ops)
        assert routes == flow == len(cut), (n, ops)
        assert (device, cut) == (nx_device, nx_cut), (n, ops)
        # Lemma 3: any routing order gives the same routes, device side and cut
        again = build(n, ops)
        order = list(again.sources)
        rng.shuffle(order)
        assert again.route_many(order) == routes
        assert again.resolve() == (device, cut)


def _reaches_sink_without_exhausted_edges(g: MigrationGraph, start) -> bool:
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        for e in g.out_edges(node):
            if not e.exhausted and e.head not in seen:
                seen.add(e.head)
                todo.append(e.head)
    return SINK in seen


@pytest.mark.parametrize("seed", range(3))
def test_no_sink_is_reachable_through_an_exhausted_edge(seed):
    """Theorem 3, after every ROUTE. (With the thesis's depths as cycle marks this fails
    on such graphs: siblings share a depth; entry numbers do not.)"""
    rng = random.Random(100 + seed)
    for _ in range(300):
        n, ops = random_program(rng)
        g = build(n, ops)
        for s in g.sources:
            g.route(s)
            for node in list(g._out):
                for e in g.out_edges(node):
                    if e.exhausted:
                        assert not _reaches_sink_without_exhausted_edges(g, e.head), (n, ops)


@pytest.mark.parametrize("seed", range(3))
def test_a_failed_route_stays_failed_and_edges_are_walked_at_most_cut_plus_one_times(seed):
    rng = random.Random(200 + seed)
    for _ in range(300):
        n, ops = random_program(rng)
        g = build(n, ops)
        failed = [s for s in g.sources if not g.route(s)]
        _, cut = g.resolve()
        for s in failed:  # Corollary 2: nothing left to try
            visits = g.edge_visits
            assert not g.route(s)
            assert g.edge_visits == visits
        assert g.edge_visits <= g.edge_count * (len(cut) + 1)


def test_bottleneck():
    """T32: s1 -> a -> m, s2 -> b -> m, m -> p -> t, m -> q -> t: cut {m}."""
    g = MigrationGraph()
    a, b, m, p, q = (g.add_vertex(name) for name in "abmpq")
    for x, y in [(a, m), (b, m), (m, p), (m, q)]:
        g.add_edge(x, y)
    g.connect_to_sink(p)
    g.connect_to_sink(q)
    s1, s2 = g.add_source(a), g.add_source(b)
    device, cut = g.solve()
    assert cut == {m}
    assert device == {s1, s2, a, b, m}
    (route,) = g.routes()  # the one read that stays: m's, forced by p or q
    assert route[-2:] in ([m, p], [m, q])


def test_independent_reads_stay():
    """T32: s1 -> a -> t, s2 -> b -> t: both reads stay (the sources are the cut)."""
    g = MigrationGraph()
    a, b = g.add_vertex("a"), g.add_vertex("b")
    g.connect_to_sink(a)
    g.connect_to_sink(b)
    s1, s2 = g.add_source(a), g.add_source(b)
    device, cut = g.solve()
    assert cut == {s1, s2} and device == {s1, s2}
    assert g.routes() == sorted([[s1, a], [s2, b]])


def test_future_work_example_keeps_the_smallest_device_side():
    """T35 (§8.2): a = A[0], b = A[1], c = a + b, d = c + 42, e = if x then d else 43,
    f = f_host e. Cuts {c} and {d} are both minimum; the smaller device side {a, b, c}
    is chosen."""
    g = MigrationGraph()
    a, b, c, d, e = (g.add_vertex(name) for name in "abcde")
    for x, y in [(a, c), (b, c), (c, d), (d, e)]:
        g.add_edge(x, y)
    g.connect_to_sink(e)
    s1, s2 = g.add_source(a), g.add_source(b)
    device, cut = g.solve()
    assert cut == {c}
    assert device - {s1, s2} == {a, b, c}


def test_connecting_a_routed_vertex_to_a_sink_is_an_error():
    g = MigrationGraph()
    a = g.add_vertex()
    g.connect_to_sink(a)
    s = g.add_source(a)
    g.solve()
    g.connect_to_sink(a)  # already connected: nothing changes
    with pytest.raises(AssertionError, match="has a route"):
        g.connect_to_sink(s)


@pytest.mark.parametrize("seed", range(2))
def test_memoised_reachability_equals_a_search_per_node(seed):
    rng = random.Random(300 + seed)
    for _ in range(200):
        n, ops = random_program(rng)
        g = build(n, ops)
        g.route_many(g.sources[: len(g.sources) // 2])
        interesting = set(range(0, n, 2))
        reach = Reachability(g, interesting)
        nodes = [(v, side) for v in g.vertices for side in (IN, OUT)]
        rng.shuffle(nodes)
        for node in nodes:
            seen = g.reach([node])
            expected = (SINK in seen, frozenset(v for v in interesting if (v, IN) in seen))
            assert reach.query(node) == expected, (n, ops, node)
