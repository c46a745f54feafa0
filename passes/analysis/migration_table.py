"""Where each host scalar of a function should be computed so that the fewest
synchronous device-to-host reads remain: the migration table of `reduce-device-syncs`
(digest §3 and §5; Futhark's ReduceDeviceSyncs/MigrationTable). Never changes IR.

A function is graphed in one forward walk over its host-level ops (regions of `scf.if`,
`scf.for` and `scf.while` included; kernel lambdas and `soac.gpu_body` bodies run on
the device and are not graphed). Each op kind follows its rule of the study:

- scalar `arith`/`math` ops and calls of functions that can run on the device: an edge
  from every graphed operand to every result (Statement 1);
- a host-level `soac.index` of one element, and every scalar result of a kernel (a
  reduction's result lives on the device until the host reads it): a *source*, plus
  edges from the indices;
- slices, partial indexing, transposes and scalar updates: their indices (and a slice's
  counts, which are array sizes) must be on the host: sinks; the value written by a
  scalar update is not (it can become an asynchronous one-element copy);
- except at positions the device can read (issue 18, item 6): partial indexing and
  slices whose result only device work uses (kernels, copies, the value of an update),
  and every update, need no index, offset or stride on the host: a device position
  becomes a copy kernel's (`soac.device_index`, `soac.device_update`; one thread for a
  scalar update), so only a range's count (the size of what it addresses) is a sink;
- an array literal with a scalar variable in it: a source on its result, so it always
  moves (its m synchronous writes become one asynchronous kernel); other literals of
  more than one element, `iota`, `replicate`, `copy`, `concat`, kernels and calls of
  host-only functions are host-only: their scalar operands are sinks and they block a
  parent `if`/loop from moving whole; any op whose result has exactly one element is
  an ordinary scalar op instead;
- `scf.if`: both branches are graphed as if both ran; each result gets edges from both
  branch values and, when the `if` may move whole, from its condition;
- loops: the body is graphed as a cyclic subgraph (loop-carried values get back edges)
  whose sources are routed in isolation before anything outside the loop is connected
  to it, so that no read is ever moved into a loop where it would happen every
  iteration; values from outside that could only be reduced into the loop are
  connected past it (bypass edges), values that would reach a sink inside it are
  connected to a sink; a loop result whose loop value stays on the device gets a
  source of its own;
- scalars a function returns are sinks.

Then every source is routed (migration_graph.py) and the cut is resolved. The table says
for every graphed value whether it stays on the host, moves to the device, or moves and
is read back (the cut), and which ops the pass should move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from soacc.dialects import soac
from soacc.dialects.shared.traits import is_kernel, is_parallel_kernel, runs_on_device
from soacc.passes.analysis.migration_graph import IN, MigrationGraph, Reachability


class Placement(Enum):
    """Where a value is computed."""

    HOST = "host"
    """Stays on the host (not in D)."""
    DEVICE = "device"
    """Computed on the device and no longer available on the host (D \\ C)."""
    READ = "read"
    """Computed on the device and read by the host once (the cut C)."""


@dataclass(frozen=True)
class VertexInfo:
    value: SSAValue | None
    """The value the vertex stands for; for a source, the value it reads."""
    is_source: bool
    subgraph: int | None
    """The loop whose isolated subgraph the vertex belongs to (None: no loop)."""
    depth: int
    """How many bodies (branches, loop bodies) the value is nested in."""


@dataclass
class BodyStats:
    """What the ops of a body (and the bodies nested in it) did."""

    host_only: bool = False
    has_gpu_body: bool = False
    reads: bool = False
    operands: set[int] = field(default_factory=set)
    """Graphed scalars used as operands."""
    host_only_parents: set[int] = field(default_factory=set)
    """Depths of bodies that bind a value needed on the host as a size: the op that
    owns such a body cannot move whole."""

    def merge(self, other: BodyStats) -> BodyStats:
        return BodyStats(
            self.host_only or other.host_only,
            self.has_gpu_body or other.has_gpu_body,
            self.reads or other.reads,
            self.operands | other.operands,
            self.host_only_parents | other.host_only_parents,
        )


# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------


def is_array(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType)


def is_scalar(v: SSAValue) -> bool:
    return not isinstance(v.type, TensorType)


def single_element(t: Attribute) -> bool:
    """An array type of exactly one element (every dimension statically 1)."""
    return isinstance(t, TensorType) and t.get_num_dims() > 0 and all(d == 1 for d in t.get_shape())


def _copyable_shape(t: Attribute) -> bool:
    """A scalar, or an array of one element: as cheap to copy as a scalar."""
    return not isinstance(t, TensorType) or all(d == 1 for d in t.get_shape())


def is_constant(v: SSAValue) -> bool:
    return isinstance(v, OpResult) and isinstance(v.op, arith.ConstantOp)


_STRUCTURED = (scf.IfOp, scf.ForOp, scf.WhileOp)


# --------------------------------------------------------------------------------------
# Positions the device can read
# --------------------------------------------------------------------------------------


def _device_work_use(use) -> bool:
    """A use of an array that device work makes: in a kernel's lambda or gpu_body,
    an operand of a kernel, a copy, the size of a dimension (known on the host), or the
    value an update writes (copied in on the device)."""
    user = use.operation
    if runs_on_device(user) or is_kernel(user) or isinstance(user, soac.CopyOp | soac.SizeOp):
        return True
    return isinstance(user, soac.UpdateOp | soac.DeviceUpdateOp) and use.index == len(user.operands) - 1  # the value


def used_only_by_device_work(value: SSAValue) -> bool:
    """Every use of the array `value` is device work: as a `soac.device_index`, made
    by a copy kernel that reads its position on the device, it serves them all."""
    return bool(value.uses) and all(_device_work_use(use) for use in value.uses)


def slice_counts(kinds: Sequence[int], spec: Sequence[SSAValue]) -> list[SSAValue]:
    """The counts of a slice spec's ranges: the sizes of what it addresses, which the
    host always needs (it sizes arrays)."""
    return [values[1] for kind, values in soac.SliceSpec.entries(kinds, spec) if kind != soac.SliceSpec.FIXED]


def device_position(op: Operation, operand_index: int) -> bool:
    """Whether operand `operand_index` of `op` is a position the device can read in
    place of the host (`soac.device_index`, `soac.device_update`): an index, offset or
    stride (never a count) of an update, or of partial indexing or a slice whose
    result only device work uses."""
    match op:
        case soac.UpdateOp():
            spec, kinds = op.spec, op.kinds.get_values()
        case soac.SliceOp() if used_only_by_device_work(op.result):
            spec, kinds = op.spec, op.kinds.get_values()
        case soac.IndexOp() if is_array(op.result) and used_only_by_device_work(op.result):
            return operand_index > 0
        case _:
            return False
    operand = op.operands[operand_index]
    return operand in spec and not any(operand is c for c in slice_counts(kinds, spec))


# --------------------------------------------------------------------------------------
# Host-only functions
# --------------------------------------------------------------------------------------


def host_only_functions(module: ModuleOp) -> set[str]:
    """Functions whose calls cannot run in a gpu_body: those that take, return or make
    arrays, use any soac op (reads, kernels), call a host-only or bodiless function, or
    are recursive (a call is migrated by inlining it). A transitive closure, as in
    Futhark's hostOnlyFunDefs."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    calls: dict[str, set[str]] = {}
    host_only: set[str] = set()
    for name, f in functions.items():
        if not f.body.blocks or _uses_arrays_or_soac(f):
            host_only.add(name)
            continue
        calls[name] = {c.callee.root_reference.data for c in f.walk() if isinstance(c, func.CallOp)}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in host_only and any(c in host_only or c not in functions for c in callees):
                host_only.add(name)
                changed = True
    # what remains calls only device functions; any of them on a call cycle cannot be
    # inlined, and neither can its callers
    remaining = {n for n in calls if n not in host_only}

    def on_cycle(start: str) -> bool:
        todo, seen = list(calls[start]), set()
        while todo:
            n = todo.pop()
            if n == start:
                return True
            if n in seen or n not in remaining:
                continue
            seen.add(n)
            todo.extend(calls[n])
        return False

    host_only |= {n for n in remaining if on_cycle(n)}
    changed = True
    while changed:
        changed = False
        for name in remaining - host_only:
            if any(c in host_only for c in calls[name]):
                host_only.add(name)
                changed = True
    return host_only


def _uses_arrays_or_soac(f: func.FuncOp) -> bool:
    types = [*f.function_type.inputs.data, *f.function_type.outputs.data]
    if any(isinstance(t, TensorType) for t in types):
        return True
    for op in f.body.walk():
        if op.dialect_name() == "soac":
            return True
        if any(isinstance(r.type, TensorType) for r in op.results):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(isinstance(a.type, TensorType) for a in block.args):
                    return True
        if not (op.dialect_name() in ("arith", "math", "scf") or isinstance(op, (func.CallOp, func.ReturnOp))):
            return True
    return False


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


@dataclass
class MigrationTable:
    """The solution for one function: for every graphed value, its Placement."""

    function: func.FuncOp
    graph: MigrationGraph
    vertex_of: dict[SSAValue, int]
    device: set[int]
    cut: set[int]
    overrides: dict[SSAValue, Placement] = field(default_factory=dict)
    """Placements that replace the cut's: the device loops' (device_loops.py)."""
    device_loops: list[scf.WhileOp] = field(default_factory=list)

    def overridden(self, overrides: dict[SSAValue, Placement], loops: list[scf.WhileOp]) -> MigrationTable:
        """This table with `overrides` in place of the cut's placements of those values."""
        return MigrationTable(
            self.function,
            self.graph,
            self.vertex_of,
            self.device,
            self.cut,
            {**self.overrides, **overrides},
            [*self.device_loops, *loops],
        )

    def status(self, value: SSAValue) -> Placement:
        if value in self.overrides:
            return self.overrides[value]
        v = self.vertex_of.get(value)
        if v is None or v not in self.device:
            return Placement.HOST
        return Placement.READ if v in self.cut else Placement.DEVICE

    def moves(self, value: SSAValue) -> bool:
        """`value` is computed on the device (whether or not it is read back)."""
        return self.status(value) is not Placement.HOST

    def should_move(self, op: Operation) -> bool:
        """Whether the pass moves this host-level op into a gpu_body (whole, for `if`
        and loops). Valid for ops whose parents do not move whole."""
        if isinstance(op, soac.IndexOp) and is_scalar(op.result):
            return self.status(op.result) is Placement.DEVICE or any(
                self.status(i) is Placement.DEVICE for i in op.indices
            )
        if isinstance(op, scf.IfOp):
            return self.status(op.cond) is Placement.DEVICE
        if isinstance(op, scf.ForOp):
            return any(self.status(v) is Placement.DEVICE for v in (op.lb, op.ub, op.step))
        if isinstance(op, scf.WhileOp):
            return self.status(op.before_region.block.last_op.condition) is Placement.DEVICE
        if is_kernel(op) or op.has_trait(IsTerminator):
            return False
        return bool(op.results) and self.moves(op.results[0])

    # --- what the solution means ---------------------------------------------------------

    @property
    def reads(self) -> int:
        """Synchronous reads left per execution of each op (|C|): a cut vertex is read
        once after it is computed, a source in the cut is a read that stays."""
        return len(self._cut())

    def _cut(self) -> list[tuple[SSAValue, bool]]:
        """The reads as (value, stays): the cut's, less those an override moved, and
        the values an override reads."""
        items = [
            (self._info(v).value, self._info(v).is_source)
            for v in self.cut
            if self.overrides.get(self._info(v).value, Placement.READ) is Placement.READ
        ]
        cut = {value for value, _ in items}
        items += [(value, False) for value, p in self.overrides.items() if p is Placement.READ and value not in cut]
        return items

    def read_points(self) -> list[Operation | Block]:
        """Where the reads of the cut happen, one per cut vertex: the op whose every
        execution is followed by one read (a read that stays, a kernel whose result is
        read, an op that moves and is read back), or the block whose every entry reads a
        loop parameter. The reads a run makes are the executions of these summed: the
        bound the pass's result meets."""
        points: list[Operation | Block] = []
        order = self._order()
        for value, _ in sorted(self._cut(), key=lambda item: order.get(item[0], 1 << 30)):
            if isinstance(value, OpResult):
                points.append(value.op)
            else:
                assert isinstance(value, BlockArgument)
                points.append(value.block)
        return points

    def device_values(self) -> list[SSAValue]:
        """The values computed on the device (D without the sources), in program order."""
        values = [self._info(v).value for v in self.device if not self._info(v).is_source]
        values += [value for value, p in self.overrides.items() if p is not Placement.HOST]
        order = self._order()
        unique = {v for v in values if self.status(v) is not Placement.HOST}
        return sorted(unique, key=lambda x: order.get(x, 1 << 30))

    def cut_values(self) -> list[tuple[SSAValue, bool]]:
        """The cut as (value, stays): stays when it is a source, i.e. the original read
        of `value` stays on the host; otherwise `value` moves and is read back."""
        order = self._order()
        return sorted(self._cut(), key=lambda item: order.get(item[0], 1 << 30))

    def summary(self) -> str:
        """`device {a, b} cut {b, read(x)} reads 2`: the solution in one line."""
        names = _Names()
        device = ", ".join(names(v) for v in self.device_values())
        cut = ", ".join(f"read({names(v)})" if stays else names(v) for v, stays in self.cut_values())
        return f"device {{{device}}} cut {{{cut}}} reads {self.reads}"

    def dot(self) -> str:
        """The graph and its cut in Graphviz DOT: device values blue, cut values red,
        host values white; sources are `read` circles, the sink is `host`; the routes
        (each the reason one read stays) are bold red edges."""
        names = _Names()
        name = self.function.sym_name.data
        lines = [f'digraph "@{name}" {{', f"  // @{name}: {self.summary()}", "  node [shape=box fontname=monospace];"]
        lines.append('  sink [label="host" shape=doublecircle];')
        on_route: set[tuple[int, int]] = set()
        route_ends: set[int] = set()
        for path in self.graph.routes():
            on_route.update(zip(path, path[1:]))
            route_ends.add(path[-1])
        for v in self.graph.vertices:
            info = self._info(v)
            status = "host" if v not in self.device else ("read" if v in self.cut else "device")
            if info.value in self.overrides:  # a device loop's
                status = self.overrides[info.value].value
            color = {"host": "white", "device": "lightblue", "read": "salmon"}[status]
            if info.is_source:
                label = f"read {names(info.value)}"
                lines.append(f'  v{v} [label="{label}" shape=circle style=filled fillcolor={color}];')
                continue
            owner = _defining_op_name(info.value)
            loop = f" (loop {info.subgraph})" if info.subgraph is not None else ""
            label = f"{names(info.value)} = {owner}{loop}\\n{status}"
            lines.append(f'  v{v} [label="{label}" style=filled fillcolor={color}];')
        for a, b, e in self.graph.edges():
            style = []
            if (a, b) in on_route and e.reversed:
                style.append("color=red penwidth=2")
            if e.exhausted:
                style.append("style=dashed")
            attrs = f" [{' '.join(style)}]" if style else ""
            lines.append(f"  v{a} -> v{b}{attrs};")
        for v in self.graph.vertices:
            if self.graph.is_sink_connected(v):
                attrs = " [color=red penwidth=2]" if v in route_ends else ""
                lines.append(f"  v{v} -> sink{attrs};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _info(self, v: int) -> VertexInfo:
        info = self.graph.meta[v]
        assert isinstance(info, VertexInfo)
        return info

    def _order(self) -> dict[SSAValue, int]:
        order: dict[SSAValue, int] = {}
        for op in self.function.walk():
            for region in op.regions:
                for block in region.blocks:
                    for a in block.args:
                        order.setdefault(a, len(order))
            for r in op.results:
                order.setdefault(r, len(order))
        return order


def _defining_op_name(value: SSAValue) -> str:
    if isinstance(value, OpResult):
        return value.op.name
    assert isinstance(value, BlockArgument)
    parent = value.block.parent_op()
    return f"{parent.name} argument" if parent else "argument"


class _Names:
    """A value's name for people: its name in the source (`%x` prints as `x`), else
    its defining op and position."""

    def __init__(self) -> None:
        self.anonymous: dict[SSAValue, str] = {}

    def __call__(self, value: SSAValue) -> str:
        if value.name_hint:
            return value.name_hint
        if value not in self.anonymous:
            self.anonymous[value] = f"_{len(self.anonymous)}"
        return self.anonymous[value]


# --------------------------------------------------------------------------------------
# Building the graph
# --------------------------------------------------------------------------------------


class _Grapher:
    def __init__(self, function: func.FuncOp, host_only: set[str]):
        self.function = function
        self.host_only_functions = host_only
        self.graph = MigrationGraph()
        self.vertex: dict[SSAValue, int] = {}
        self.live: set[int] = set()
        """Graphed scalars that are not sink-connected (Statement 1's F_e candidates)."""
        self.unrouted: list[int] = []
        self.copyable: dict[SSAValue, int] = {}
        """Arrays whose memory a migratable op makes, with the outermost body depth of
        an array sharing it (Futhark's copyable memory)."""
        self.stats = BodyStats()
        self.depth = 0
        self.subgraph: int | None = None
        self.loops = 0
        self.returned: list[SSAValue] = []

    # --- primitives ----------------------------------------------------------------------

    def add_vertex(self, value: SSAValue, depth: int | None = None) -> int:
        if value in self.vertex:
            return self.vertex[value]
        v = self.graph.add_vertex(VertexInfo(value, False, self.subgraph, self.depth if depth is None else depth))
        self.vertex[value] = v
        if is_scalar(value):
            self.live.add(v)
        else:
            self.copyable[value] = self.depth if depth is None else depth
        return v

    def add_source(self, value: SSAValue) -> None:
        v = self.add_vertex(value)
        info = self.graph.meta[v]
        s = self.graph.add_source(v, VertexInfo(value, True, info.subgraph, info.depth))
        self.unrouted.append(s)

    def live_ops(self, values: Iterable[SSAValue]) -> set[int]:
        found = set()
        for value in values:
            v = self.vertex.get(value)
            if v is not None and v in self.live:
                found.add(v)
        return found

    def add_edges(self, sources: set[int], targets: Iterable[int]) -> None:
        targets = list(targets)
        for s in sorted(sources):
            for t in targets:
                self.graph.add_edge(s, t)
        self.stats.operands |= sources

    def connect_to_sink(self, value: SSAValue) -> None:
        v = self.vertex.get(value)
        if v is not None:
            self.graph.connect_to_sink(v)
            self.live.discard(v)

    def sinks(self, values: Iterable[SSAValue]) -> None:
        for value in values:
            if is_scalar(value):
                self.connect_to_sink(value)

    def required_on_host(self, value: SSAValue) -> None:
        """A size: on the host before the op that uses it, so the body binding it
        cannot move whole."""
        v = self.vertex.get(value)
        if v is not None:
            self.connect_to_sink(value)
            self.stats.host_only_parents.add(self.graph.meta[v].depth)

    def create_node(self, value: SSAValue, operands: set[int]) -> None:
        if operands:
            self.add_edges(operands, [self.add_vertex(value)])

    def graph_simple(self, results: Sequence[SSAValue], operands: Iterable[SSAValue]) -> None:
        live = self.live_ops(operands)
        if live:
            self.add_edges(live, [self.add_vertex(r) for r in results])

    def graph_read(self, value: SSAValue, indices: Iterable[SSAValue] = ()) -> None:
        self.add_source(value)
        self.add_edges(self.live_ops(indices), [self.vertex[value]])
        self.stats.reads = True

    def host_only(self, operands: Iterable[SSAValue]) -> None:
        self.sinks(operands)
        self.stats.host_only = True

    def inefficient_return(self, sizes: Iterable[SSAValue], operands: Iterable[SSAValue]) -> None:
        """Ops that cost less than their result's size (views, in-place updates): moved
        alone, a gpu_body would copy the result, so their operands stay on the host."""
        for s in sizes:
            self.required_on_host(s)
        self.sinks(operands)

    def reuses(self, result: SSAValue, source: SSAValue) -> None:
        if is_array(result) and source in self.copyable:
            self.copyable[result] = self.copyable[source]

    def reuses_branches(self, results: Sequence[SSAValue], branches: Sequence[Sequence[SSAValue]]) -> bool:
        """Whether every array result may be copied out of a moved if/loop at no worse
        cost: one element, or made by a migratable op inside it."""
        ok = True
        for i, result in enumerate(results):
            if _copyable_shape(result.type):
                continue
            depths = [self.copyable.get(branch[i]) for branch in branches]
            if any(d is None for d in depths):
                ok = False
                continue
            inner = min(depths)  # type: ignore[type-var]
            self.copyable[result] = min(self.depth, inner)
            if inner <= self.depth:
                ok = False  # a value from outside: copying it would cost its size
        return ok

    def capture(self, action) -> BodyStats:
        saved = self.stats
        self.stats = BodyStats()
        action()
        captured = self.stats
        self.stats = saved.merge(captured)
        return captured

    # --- bodies --------------------------------------------------------------------------

    def graph_body(self, block: Block) -> None:
        def body():
            self.depth += 1
            try:
                self.graph_ops(block)
            finally:
                self.depth -= 1

        captured = self.capture(body)
        inner = self.depth + 1
        if inner in captured.host_only_parents:
            self.stats.host_only = True
            self.stats.host_only_parents.discard(inner)
            captured.host_only = True
            captured.host_only_parents.discard(inner)

    def graph_ops(self, block: Block) -> None:
        for op in block.ops:
            self.graph_op(op)

    def graph_op(self, op: Operation) -> None:
        match op:
            case scf.IfOp():
                self.graph_if(op)
            case scf.ForOp():
                self.graph_for(op)
            case scf.WhileOp():
                self.graph_while(op)
            case soac.GpuBodyOp():
                self.stats.has_gpu_body = True
            case func.ReturnOp():
                self.stats.operands |= self.live_ops(op.operands)
                if self.depth == 0:
                    self.returned.extend(v for v in op.operands if is_scalar(v))
            case scf.YieldOp() | scf.ConditionOp():
                self.stats.operands |= self.live_ops(op.operands)
            case arith.ConstantOp():
                if is_array(op.result) and not single_element(op.result.type):
                    self.stats.host_only = True  # a literal of constants: a host-side copy
            case soac.IndexOp():
                self.graph_index(op)
            case soac.SliceOp():
                self.graph_slice(op)
            case soac.UpdateOp():
                self.graph_update(op)
            case soac.ArrayOp():
                self.graph_array(op)
            case soac.IotaOp() | soac.ReplicateOp() | soac.CopyOp() | soac.ConcatOp():
                self.graph_constructor(op)
            case soac.TransposeOp():
                self.inefficient_return([], [])
                self.reuses(op.result, op.input)
            case soac.SizeOp():
                pass  # sizes are known to the host
            case arith.SelectOp() if is_array(op.result):
                self.inefficient_return([], [op.cond])
            case func.CallOp():
                if op.callee.root_reference.data in self.host_only_functions:
                    self.host_only(op.arguments)
                else:
                    self.graph_simple(op.results, op.arguments)
            case _ if is_parallel_kernel(op):
                # a kernel: its scalar operands (neutral elements) are needed on the host,
                # what its lambdas capture is not; its scalar results live on the device
                self.host_only(op.operands)
                for r in op.results:
                    if is_scalar(r):
                        self.graph_read(r)
            case _ if op.dialect_name() in ("arith", "math") and not op.regions and all(map(is_scalar, op.results)):
                self.graph_simple(op.results, op.operands)
            case _:
                self.host_only(op.operands)

    # --- soac ops ------------------------------------------------------------------------

    def graph_index(self, op: soac.IndexOp) -> None:
        if is_scalar(op.result):
            self.graph_read(op.result, op.indices)
        elif single_element(op.result.type):
            self.graph_simple([op.result], op.indices)
        else:
            # a view only device work uses may be a copy kernel that reads its position
            # on the device: then its indices need not be on the host
            self.inefficient_return([], [] if used_only_by_device_work(op.result) else op.indices)
            self.reuses(op.result, op.array)

    def graph_slice(self, op: soac.SliceOp) -> None:
        if single_element(op.result.type):
            self.graph_simple([op.result], op.spec)
            return
        counts = slice_counts(op.kinds.get_values(), op.spec)
        # only device work uses it: a copy kernel can read its offsets on the device
        self.inefficient_return(counts, counts if used_only_by_device_work(op.result) else op.spec)
        self.reuses(op.result, op.source)

    def graph_update(self, op: soac.UpdateOp) -> None:
        if single_element(op.result.type):
            # the written value is no operand: a moved one is copied in on the device
            self.graph_simple([op.result], op.spec)
            return
        # a copy kernel (one thread for an element) can read the indices, offsets and
        # strides on the device, not the counts (sizes); a scalar written value need not
        # be on the host either (it becomes a one-element copy when it moves)
        counts = slice_counts(op.kinds.get_values(), op.spec)
        self.inefficient_return(counts, counts)
        if is_array(op.value) and not single_element(op.value.type):
            self.stats.host_only = True  # a parallel copy from the host beats one thread
        self.reuses(op.result, op.source)

    def graph_array(self, op: soac.ArrayOp) -> None:
        if single_element(op.result.type):
            self.graph_simple([op.result], op.elements)
        elif all(map(is_scalar, op.elements)) and not all(map(is_constant, op.elements)):
            self.add_source(op.result)  # always moves: m synchronous writes saved
        else:
            self.host_only(op.elements)

    def graph_constructor(self, op: Operation) -> None:
        counts = [op.count] if isinstance(op, soac.IotaOp | soac.ReplicateOp) else []
        if single_element(op.results[0].type):
            self.graph_simple(op.results, counts)
        else:
            self.host_only(counts)

    # --- if ------------------------------------------------------------------------------

    def graph_if(self, op: scf.IfOp) -> None:
        branches = [r.block for r in op.regions if r.blocks]
        stats = [self.capture(lambda b=b: self.graph_body(b)) for b in branches]
        host_only = any(s.host_only for s in stats)
        values = [list(b.last_op.operands) for b in branches]
        may_copy = self.reuses_branches(op.results, values) if op.results else True
        may_move = not host_only and may_copy
        if may_move:
            condition = self.live_ops([op.cond])
        else:
            self.connect_to_sink(op.cond)
            condition = set()
        self.stats.operands |= condition
        for i, result in enumerate(op.results):
            self.create_node(result, condition | self.live_ops(v[i] for v in values))

    # --- loops ---------------------------------------------------------------------------

    def graph_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        params = list(body.args[1:])
        yields = list(body.last_op.operands)
        bounds = [op.lb, op.ub, op.step]

        def graph_params_and_body():
            for param, init in zip(params, op.iter_args):
                if is_scalar(param):
                    self.add_vertex(param)
                    self.add_edges(self.live_ops([init]), [self.vertex[param]])
            self.stats.operands |= self.live_ops(bounds)
            self.graph_body(body)

        self.graph_loop(op, params, yields, params, bounds, [], bounds, graph_params_and_body)

    def graph_while(self, op: scf.WhileOp) -> None:
        before = op.before_region.block
        after = op.after_region.block
        condition_op = before.last_op
        assert isinstance(condition_op, scf.ConditionOp)
        forwarded = list(condition_op.args)
        params = list(before.args)
        yields = list(after.last_op.operands)

        def graph_params_and_body():
            for param, init in zip(params, op.arguments):
                if is_scalar(param):
                    self.add_vertex(param)
                    self.add_edges(self.live_ops([init]), [self.vertex[param]])
            self.graph_body(before)
            for arg, value in zip(after.args, forwarded):
                self.create_node(arg, self.live_ops([value]))
            self.graph_body(after)

        condition = condition_op.condition
        if condition in params:
            # the study's form (a rotated loop, see reduce_device_syncs.rotate_while): the
            # condition is a loop parameter y_c, first computed before the loop and then
            # at the end of each iteration (z_c)
            blocking = [condition, yields[params.index(condition)]]
        else:
            # the condition is computed inside the loop, first iteration included
            blocking = [condition]
        # the thesis connects y_c to every result (Futhark the initial value o_c, whose
        # bypass edges reach the same results): when y_c stays on the device the loop
        # moves whole and every result is on the device, whatever its own value needs
        self.graph_loop(op, params, yields, forwarded, blocking, [condition], [], graph_params_and_body)

    def graph_loop(
        self,
        op: Operation,
        params: list[SSAValue],
        yields: list[SSAValue],
        final: list[SSAValue],
        blocking: list[SSAValue],
        inner_conditions: list[SSAValue],
        outer_conditions: list[SSAValue],
        graph_params_and_body,
    ) -> None:
        """`final[i]` is the loop value result i is bound to (the carried value of a for
        loop, the value a while loop's condition forwards). What decides whether the loop
        runs (a for loop's bounds, a while loop's condition) is connected to a sink when
        the loop cannot move whole (`blocking`), and otherwise to every result: from
        inside the loop (`inner_conditions`, before its subgraph is frozen) or from
        outside (`outer_conditions`, its initial value)."""
        first_new = len(self.graph.meta)
        self.loops += 1
        loop_id = self.loops
        outer = self.subgraph
        self.subgraph = loop_id
        try:
            stats = self.capture(graph_params_and_body)
        finally:
            self.subgraph = outer

        may_move = not stats.host_only and all(_copyable_shape(r.type) for r in op.results)
        if not may_move:
            for c in blocking:
                self.connect_to_sink(c)
        # back edges make the loop body a cyclic subgraph
        for param, value in zip(params, yields):
            if is_scalar(param) and value is not param:
                self.add_edges(self.live_ops([value]), [self.vertex[param]])

        # route the loop's own sources in isolation; the subgraph is frozen from here
        sources = [s for s in self.unrouted if self.graph.meta[self.graph.source_target[s]].subgraph == loop_id]
        self.unrouted = [s for s in self.unrouted if s not in sources]
        self.graph.route_many(sources)

        results = [r for r in op.results if is_scalar(r)]
        for result, value in zip(op.results, final):
            if is_scalar(result):
                self.create_node(result, self.live_ops([value]))
        if may_move:
            # a loop that moves whole puts all its results on the device (a condition
            # computed inside the loop: its edges leave the frozen subgraph like the
            # results' own)
            live_conditions = self.live_ops(inner_conditions)
            if live_conditions:
                self.add_edges(live_conditions, [self.add_vertex(r) for r in results])

        bindings = {self.vertex[r] for r in results if r in self.vertex}
        reach = Reachability(self.graph, bindings)
        # a read delayed from one iteration to the next leaves the result on the device
        on_device = set()
        for s in sources:
            on_device |= reach.query((s, IN))[1]
        for v in sorted(on_device):
            self.add_source(self.graph.meta[v].value)

        # values from outside may be reduced through the loop but never into it
        for operand in sorted(o for o in stats.operands if o < first_new):
            self.isolate(operand, loop_id, reach)

        if may_move:
            live_conditions = self.live_ops(outer_conditions)
            if live_conditions:
                self.add_edges(live_conditions, [self.add_vertex(r) for r in results])

    def isolate(self, operand: int, loop_id: int, reach: Reachability) -> None:
        if self.graph.is_sink_connected(operand):
            return
        entries = [
            e for e in self.graph.normal_out_edges(operand) if self.graph.meta[e.head[0]].subgraph == loop_id
        ]
        if not entries:
            return
        bypass: set[int] = set()
        for e in entries:
            sink, found = reach.query(e.head)
            if sink:
                value = self.graph.meta[operand].value
                self.connect_to_sink(value)
                return
            bypass |= found
        for e in entries:
            self.graph.exhaust(e)
        for b in sorted(bypass):
            self.graph.add_edge(operand, b)

    # --- the function ----------------------------------------------------------------------

    def solve(self) -> MigrationTable:
        self.graph_ops(self.function.body.block)
        for value in self.returned:
            self.connect_to_sink(value)
        self.graph.route_many(self.unrouted)
        device, cut = self.graph.resolve()
        return MigrationTable(self.function, self.graph, dict(self.vertex), device, cut)


def analyse_function(function: func.FuncOp, host_only: set[str] | None = None) -> MigrationTable:
    """The migration table of one function (its signature never changes)."""
    if host_only is None:
        module = function.parent_op()
        host_only = host_only_functions(module) if isinstance(module, ModuleOp) else set()
    return _Grapher(function, host_only).solve()


def analyse_module(module: ModuleOp) -> dict[func.FuncOp, MigrationTable]:
    host_only = host_only_functions(module)
    return {
        f: analyse_function(f, host_only) for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks
    }
