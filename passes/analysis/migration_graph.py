"""The migration graph of `reduce-device-syncs` and its minimum vertex cut (digest §3–4).

Vertices stand for host scalars. An edge a -> b says: "if a lives on the device, either a
is read to the host or b is computed on the device too". A *source* is a synthetic vertex
with an edge to a value that a synchronous device-to-host read produces; a vertex is
*sink-connected* when its value must be on the host. The cut separates every source from
every sink with the fewest vertices, and among all such cuts keeps the device side D as
small as possible (that solution is unique, Lemma 2).

The search runs on the vertex-split graph of Definition 2, built explicitly: vertex v is
a node v_in and a node v_out joined by an internal edge, an edge a -> b is a_out -> b_in,
and every sink-connected vertex has an edge v_out -> T to one sink node T. ROUTE is the
study's depth-first Ford–Fulkerson variant (Algorithm 1): it looks for a path from a
source to T, reverses the path when it finds one, and otherwise marks the edges it
backtracked over *exhausted*, so that no later search walks them again. Edges on a cycle
are exhausted only once the search leaves the cycle's first vertex (the `pending` depths
find cycles). One ROUTE therefore visits every edge at most once; since only |C| routes
can be found, SOLVE costs O(E·|C|). RESOLVE then follows every current edge from every
source: D is the set of vertices whose in-node is reached, and the cut C those of D
whose out-node is not.

The graph is built incrementally while a function is analysed (a loop's subgraph is
routed in isolation before the rest of the function is graphed), so besides routing it
offers exhausting edges, connecting vertices to the sink and memoised reachability.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

IN, OUT = 0, 1
SINK = ("sink", 0)
"""The one sink node: reaching it ends a search."""

Node = tuple
"""(vertex, IN) or (vertex, OUT), or SINK."""


@dataclass(eq=False)
class Edge:
    """An edge of the split graph in its current direction."""

    tail: Node
    head: Node
    key: int
    reversed: bool = False
    exhausted: bool = False


@dataclass
class _Cycle:
    """A search that ran into a node still pending (entered as number `depth`): the
    edges walked since are exhausted once the search backtracks out of that node,
    unless a sink turns up. `edges` is a tree of lists (appended, never copied)
    flattened when exhausting."""

    depth: int
    edges: list = field(default_factory=list)


_FOUND = "found"
_FAILED = "failed"


class MigrationGraph:
    """A directed graph of integer vertices with sources, sink connections and routes.
    Vertex ids are given out by `add_vertex`; every vertex may carry `meta`."""

    def __init__(self) -> None:
        self._out: dict[Node, dict[int, Edge]] = {SINK: {}}
        self._next_edge = 0
        self.meta: dict[int, object] = {}
        self.sources: list[int] = []
        """Source vertices, in the order they were added."""
        self.source_target: dict[int, int] = {}
        self._sink_connected: set[int] = set()
        self._internal: dict[int, Edge] = {}
        self.edge_visits = 0
        """Edges ROUTE has walked so far (each at most once per ROUTE)."""

    # --- construction ---------------------------------------------------------------------

    def add_vertex(self, meta: object = None) -> int:
        v = len(self.meta)
        self.meta[v] = meta
        self._out[(v, IN)] = {}
        self._out[(v, OUT)] = {}
        self._internal[v] = self._add((v, IN), (v, OUT))
        return v

    def add_source(self, target: int, meta: object = None) -> int:
        """A source vertex with an edge to `target`: the read that produces `target`."""
        s = self.add_vertex(meta)
        self.sources.append(s)
        self.source_target[s] = target
        self._add((s, OUT), (target, IN))
        return s

    def add_edge(self, a: int, b: int) -> None:
        """a -> b; ignored when a is sink-connected (its other edges do not matter)."""
        if a not in self._sink_connected:
            self._add((a, OUT), (b, IN))

    def connect_to_sink(self, v: int) -> None:
        """v's value must be on the host: its out-edges are replaced by one to the sink
        (Theorem 2: the edges of a sink-connected vertex can be dropped)."""
        if v in self._sink_connected:
            return
        if self.has_route(v):
            raise AssertionError(f"vertex {v} has a route through it and cannot be connected to a sink")
        self._out[(v, OUT)] = {}
        self._sink_connected.add(v)
        self._add((v, OUT), SINK)

    def exhaust(self, edge: Edge) -> None:
        edge.exhausted = True

    def _add(self, tail: Node, head: Node) -> Edge:
        e = Edge(tail, head, self._next_edge)
        self._out[tail][self._next_edge] = e
        self._next_edge += 1
        return e

    # --- queries ---------------------------------------------------------------------------

    @property
    def vertices(self) -> range:
        return range(len(self.meta))

    @property
    def edge_count(self) -> int:
        return self._next_edge

    def is_sink_connected(self, v: int) -> bool:
        return v in self._sink_connected

    def has_route(self, v: int) -> bool:
        """A route passes through v (its internal edge is reversed)."""
        return self._internal[v].reversed

    def out_edges(self, node: Node) -> list[Edge]:
        return list(self._out[node].values())

    def normal_out_edges(self, v: int) -> list[Edge]:
        """v's edges to other vertices that are neither reversed nor exhausted."""
        return [
            e for e in self._out[(v, OUT)].values() if not e.reversed and not e.exhausted and e.head is not SINK
        ]

    def edges(self) -> Iterable[tuple[int, int, Edge]]:
        """Every edge between two vertices, as (tail vertex, head vertex, edge) in the
        direction it was added (reversed edges turned back)."""
        for node, out in self._out.items():
            for e in out.values():
                tail, head = (e.head, e.tail) if e.reversed else (e.tail, e.head)
                if tail is SINK or head is SINK or tail[0] == head[0]:
                    continue
                yield tail[0], head[0], e

    # --- ROUTE (Algorithm 1) ---------------------------------------------------------------

    def route(self, source: int) -> bool:
        """Looks for a path from `source` to the sink; reverses it when found."""
        with _deep_recursion(4 * len(self.meta) + 100):
            self._pending: dict[Node, int] = {}
            self._entered: list[Node] = []
            self._counter = 0
            return self._route((source, IN)) is _FOUND

    def route_many(self, sources: Iterable[int]) -> int:
        """ROUTE from each source in turn; returns how many routes were found."""
        return sum(1 for s in sources if self.route(s))

    def _route(self, node: Node):
        if node is SINK:
            return _FOUND
        pending = self._pending
        if node in pending:
            return _Cycle(pending[node])
        # the thesis numbers pending nodes by their depth; two siblings can have the same
        # depth, and a cycle into one would then be closed at the other too early
        # (exhausting edges a sink can still be reached through). Numbering them in the
        # order they are entered (as Tarjan's algorithm does) closes each cycle at its
        # first node.
        number = self._counter
        self._counter += 1
        pending[node] = number
        self._entered.append(node)
        result: object = _FAILED
        for edge in [e for e in self._out[node].values() if not e.exhausted]:
            if edge.exhausted:  # by a cycle that closed deeper in this search
                continue
            mark = len(self._entered)
            self.edge_visits += 1
            found = self._route(edge.head)
            if found is _FOUND:
                self._reverse(edge)
                return _FOUND
            if found is _FAILED:
                # nothing reachable through this edge: forget the marks its search left
                for n in self._entered[mark:]:
                    del pending[n]
                del self._entered[mark:]
                edge.exhausted = True
                continue
            # a cycle: keep the marks, delay exhausting until its first node is left
            found.edges.append(edge)
            if result is _FAILED:
                result = found
            else:
                result.depth = min(result.depth, found.depth)
                result.edges.append(found.edges)
        if isinstance(result, _Cycle) and result.depth == number:
            for e in _flatten(result.edges):
                e.exhausted = True
            return _FAILED
        return result

    def _reverse(self, edge: Edge) -> None:
        del self._out[edge.tail][edge.key]
        edge.tail, edge.head = edge.head, edge.tail
        edge.reversed = not edge.reversed
        self._out[edge.tail][edge.key] = edge

    # --- RESOLVE ---------------------------------------------------------------------------

    def resolve(self) -> tuple[set[int], set[int]]:
        """(D, C): the vertices whose in-node the sources reach along every current edge
        (exhausted ones too), and those of them whose out-node is not reached. Sources
        are included: a source in C is a read that stays."""
        seen = self.reach((s, IN) for s in self.sources)
        device = {n[0] for n in seen if n is not SINK and n[1] == IN}
        cut = {v for v in device if (v, OUT) not in seen}
        return device, cut

    def solve(self) -> tuple[set[int], set[int]]:
        """SOLVE (Algorithm 3): ROUTE from every source, then RESOLVE."""
        self.route_many(self.sources)
        return self.resolve()

    def reach(self, starts: Iterable[Node]) -> set[Node]:
        """Every node reachable from `starts` along current edges."""
        seen: set[Node] = set()
        todo = [n for n in starts]
        seen.update(todo)
        while todo:
            node = todo.pop()
            for e in self._out[node].values():
                if e.head not in seen:
                    seen.add(e.head)
                    todo.append(e.head)
        return seen

    def routes(self) -> list[list[int]]:
        """Every route, as the vertices it passes from its source to its sink-connected
        end: why each read of the cut stays. Routes share no vertex, so each is followed
        back from the sink along its reversed edges (out-node to in-node inside a vertex,
        in-node to the previous vertex's out-node between vertices)."""
        found = []
        for end in self._out[SINK].values():
            path: list[int] = []
            node = end.head
            while True:
                path.append(node[0])
                inner = next(e for e in self._out[node].values() if e.reversed and e.head == (node[0], IN))
                back = [e for e in self._out[inner.head].values() if e.reversed]
                if not back:
                    break  # the in-node of a source
                node = back[0].head
            found.append(path[::-1])
        return sorted(found)


class Reachability:
    """Memoised reachability over the current split graph (the study's `reduce`): for a
    node, whether the sink can be reached from it and which of `interesting` vertices'
    in-nodes. Exact on cyclic graphs: strongly connected components share one answer
    (Tarjan's algorithm), so a whole query set costs O(edges reached)."""

    def __init__(self, graph: MigrationGraph, interesting: set[int]):
        self.graph = graph
        self.interesting = interesting
        self._answer: dict[Node, tuple[bool, frozenset[int]]] = {}

    def query(self, start: Node) -> tuple[bool, frozenset[int]]:
        if start not in self._answer:
            self._tarjan(start)
        return self._answer[start]

    def _tarjan(self, root: Node) -> None:
        index: dict[Node, int] = {}
        low: dict[Node, int] = {}
        on_stack: set[Node] = set()
        stack: list[Node] = []
        counter = 0
        work = [(root, None)]
        children: dict[Node, list[Node]] = {}
        while work:
            node, iterator = work.pop()
            if iterator is None:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
                children[node] = [e.head for e in self.graph._out[node].values()]
                iterator = iter(children[node])
            advanced = False
            for child in iterator:
                if child in self._answer:
                    continue
                if child not in index:
                    work.append((node, iterator))
                    work.append((child, None))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    component.append(n)
                    if n == node:
                        break
                sink = any(n is SINK for n in component)
                found = {n[0] for n in component if n is not SINK and n[1] == IN and n[0] in self.interesting}
                members = set(component)
                for n in component:
                    for child in children[n]:
                        if child in members:
                            continue
                        child_sink, child_found = self._answer[child]
                        sink = sink or child_sink
                        found |= child_found
                answer = (sink, frozenset(found))
                for n in component:
                    self._answer[n] = answer
            if work:
                parent = work[-1][0]
                if parent in low and node in low:
                    low[parent] = min(low[parent], low[node])


def _flatten(tree: list) -> Iterable[Edge]:
    todo = [tree]
    while todo:
        for item in todo.pop():
            if isinstance(item, list):
                todo.append(item)
            else:
                yield item


@contextmanager
def _deep_recursion(limit: int):
    """ROUTE recurses once per node on a path: long dependency chains need more than
    Python's default limit."""
    old = sys.getrecursionlimit()
    if limit > old:
        sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
