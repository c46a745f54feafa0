"""Segmented reductions, scans and maps: a host-level map whose lambda reduces rows (a
map of reduce, such as row sums), scans a row into its output row (a map of scan, such
as row-wise prefix sums) or maps rows into its output rows (a map of map, such as a
stencil over an image) gets, besides the map's kernel with one thread per row, kernels
with a block per row and with a warp per row; the host picks one by the rows' length:

| row length        | strategy        | why |
|-------------------|-----------------|-----|
| < 32              | thread per row  | a warp would leave most lanes idle |
| 32 .. 127         | warp per row    | a block would leave most warps idle |
| >= 128            | block per row   | a thread per row reads 32 addresses a row apart, and there may be too few rows to fill the GPU |

With a group (block or warp) per row, the group's threads read consecutive elements of
their row (coalesced; by 16-byte vector loads where a reduction's operator commutes and
the row is contiguous and aligned). A reduction folds them and combines the threads'
values in the group (shuffles, and shared memory across warps); every thread gets the
result and runs the rest of the lambda (scalar code, cheap and the same in every
thread), and the group's first thread writes the row's results. A scan goes through its
row in chunks of one element per thread: the group scans the chunk, each thread writes
its element combined with the carry of the chunks before, and the carry grows by the
chunk's total. Every combination keeps the row's order, so non-commutative operators
work. A nested map gives its elements to the group's threads in turn (thread r takes
elements r, r + size, ...), so neighbouring threads touch neighbouring elements, where a
thread per row touches addresses a row apart. Groups take rows in a group-stride loop,
so any row count works with a capped grid.

Eligible lambdas (the map may be indexed: every thread of a group knows its row):
- scalar code (arith, math, mem.size) and reductions of rank-1 rows with scalar results
  (also soac-fusion's redomaps: each element is then what their map lambda yields),
  yielding scalars;
- one scan of rank-1 rows into the lambda's output rows, yielding them;
- scalar code (arith, math, mem.size, mem.load), `scf.if`s without results of the same,
  and maps and copies that write the lambda's output rows in place, yielding them
  (short-circuit makes a lambda that yields an `if`'s rows build them so). A nested
  map's inputs may be arrays of rows (a captured matrix's rows, or the rows of the outer
  row, as a matrix product's or a plane's): each thread then runs its element's lambda,
  with whatever it nests, alone. The scalar
  code and the conditions run in every thread of the group (cheap, and the same in
  each); the rows' elements go to the threads the same way in every map and copy, and
  the output rows are used by nothing else, so no thread reads what another writes and
  no barrier is needed. Where an output shares memory with what the map reads (memory-
  reuse builds some maps in place), the reads must be element by element, of bytes
  apart, or in the scalar code before the first write, which then ends with a barrier
  of the group (row_sharing); else the map keeps a thread per row.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, SymbolRefAttr
from xdsl.ir import Block, Operation, SSAValue

from soacc.dialects.shared.utils import captured_values
from soacc.dialects import mem, soacc_gpu
from soacc.passes.analysis.memory_aliases import MemoryAliases, may_share_memory, root_view
from soacc.passes.analysis.symbolic import Symbolic
from soacc.passes.utils.memory_motion import dominates
from soacc.lowering.gpu_cooperation import (
    WARP,
    WARPS,
    block_id,
    block_reduce,
    block_scan,
    shuffle,
    thread_ids,
    warp_reduce,
    warp_scan,
)
from soacc.lowering.gpu_reduce import all_vectorizable, fold_vectors
from soacc.lowering.kernel_elements import Elements, combiner, is_commutative
from soacc.lowering.kernel_scratch import (
    ScratchPlan,
    _HostEvaluator,
    _NotOnHost,
    bind_scratch_per_thread,
    scratch_blocks,
    scratch_operands,
    scratch_parameters,
)
from soacc.lowering.kernel_body import (
    MAX_BLOCKS,
    THREADS_PER_BLOCK,
    KernelBody,
    Row,
    index_constant,
    choose_from,
    kernel_function,
)

WARP_PER_ROW_FROM = 32
"""Rows at least this long get a warp each."""

BLOCK_PER_ROW_FROM = 128
"""Rows at least this long get a block each (below it, most of a block's threads idle)."""


# --- which maps --------------------------------------------------------------------------


def nested_reductions(op: mem.MapOp) -> list[mem.ReduceOp | mem.RedomapOp] | None:
    """The lambda's reductions when the map is a segmented reduction this strategy
    handles, else None."""
    lam = op.body.block
    reductions: list[mem.ReduceOp | mem.RedomapOp] = []
    if any(isinstance(o.type, MemRefType) and o.type.get_num_dims() > 1 for o in op.outputs):
        return None
    for o in lam.ops:
        if (reduction := _cooperative_reduction(o)) is not None:
            reductions.append(reduction)  # (a redomap: a fused map-reduce of the row)
        elif isinstance(o, mem.YieldOp):
            if any(isinstance(v.type, MemRefType) for v in o.operands):
                return None
        elif isinstance(o, mem.SizeOp) or (o.dialect_name() in ("arith", "math") and not o.regions):
            continue
        else:
            return None
    return reductions or None


def nested_scan(op: mem.MapOp) -> mem.ScanOp | None:
    """The lambda's scan when the map is a segmented scan this strategy handles: the
    lambda scans rank-1 rows straight into its output rows and yields them."""
    lam = op.body.block
    k = len(op.inputs)
    out_rows = list(lam.args[k:])
    ops = list(lam.ops)
    if len(ops) != 2 or not isinstance(ops[0], mem.ScanOp) or not isinstance(ops[1], mem.YieldOp):
        return None
    scan, done = ops
    if list(scan.outputs) != out_rows or list(done.operands) != out_rows or not out_rows:
        return None
    if any(v.type.get_num_dims() != 1 for v in [*scan.inputs, *scan.outputs]):
        return None
    if any(v not in lam.args[:k] for v in scan.inputs) or len(op.outputs) != len(out_rows):
        return None
    return scan


LOCAL_ARRAY_BYTES = 256
"""A lambda that shares its rows with a group may build arrays of its own this small (an
array literal, say): every thread of the group builds its own copy, so the group repeats
that work in each thread and it must stay small."""


def row_writers(op: mem.MapOp) -> list[mem.MapOp | mem.CopyOp] | None:
    """The nested maps and copies that write the lambda's output rows, when the map is a
    map of maps this strategy handles, else None: the lambda is scalar code (arith,
    math, mem.size, mem.load), `scf.if`s without results of the same, reductions of
    rank-1 arrays to scalars (at its top level: the group folds them together, nbody's
    sum over every body), small arrays of its own (LOCAL_ARRAY_BYTES: allocations, their
    views, array literals and maps and copies into them, which every thread of the group
    builds alike), and maps (of arrays of any rank) and copies of rank-1 rows into its
    output rows, which it yields; the output rows are used by nothing else (so no thread reads
    what another writes)."""
    lam = op.body.block
    k = len(op.inputs)
    if not op.outputs or any(v.type.get_num_dims() != 2 for v in op.outputs):
        return None
    out_rows = list(lam.args[k : k + len(op.outputs)])
    terminator = lam.last_op
    if not isinstance(terminator, mem.YieldOp) or list(terminator.operands) != out_rows:
        return None
    writers: list[mem.MapOp | mem.CopyOp] = []
    own: set[SSAValue] = set()  # the lambda's own small arrays: their blocks and views
    symbolic: Symbolic | None = None  # (made at the first allocation: most lambdas have none)

    def eligible(block: Block, top: bool) -> bool:
        nonlocal symbolic
        for o in block.ops:
            if isinstance(o, mem.AllocOp):
                symbolic = symbolic or Symbolic(op)
                size = symbolic.expr(o.bytes).constant
                if not top or size is None or size > LOCAL_ARRAY_BYTES:
                    return False
                own.add(o.block)
            elif isinstance(o, mem.ViewOp):
                if o.block not in own:
                    return False
                own.add(o.result)
            elif isinstance(o, mem.ArrayOp):
                if o.output not in own:
                    return False
            elif isinstance(o, mem.ReduceOp | mem.RedomapOp):
                if not top or _cooperative_reduction(o) is None:
                    return False
            elif isinstance(o, mem.MapOp | mem.CopyOp):
                targets = [o.dest] if isinstance(o, mem.CopyOp) else o.outputs
                if any(v.type.get_num_dims() != 1 for v in targets):
                    return False
                if isinstance(o, mem.CopyOp) and o.source.type.get_num_dims() != 1:
                    return False  # (a map's inputs may be arrays of rows: each thread takes a row)
                if all(v in own for v in targets):
                    continue  # into an array of its own: every thread builds it whole
                if not all(v in out_rows for v in targets):
                    return False
                writers.append(o)
            elif isinstance(o, scf.IfOp):
                if o.results or not all(eligible(r.block, False) for r in o.regions if r.blocks):
                    return False
            elif isinstance(o, mem.SizeOp | mem.LoadOp | mem.YieldOp | scf.YieldOp):
                continue
            elif not (o.dialect_name() in ("arith", "math") and not o.regions):
                return False
        return True

    if not eligible(lam, True) or not writers:
        return None
    for row in out_rows:
        for use in row.uses:
            if use.operation is terminator or (use.operation in writers and not _reads(use)):
                continue
            return None  # read (or captured by a lambda): another thread may be writing it
    return writers


def _cooperative_reduction(o: Operation) -> mem.ReduceOp | mem.RedomapOp | None:
    """The reduction, when a group of threads can fold it together: of rank-1 arrays
    to scalars (a redomap: each element is what its map lambda yields)."""
    if isinstance(o, mem.ReduceOp) and not o.outputs and all(v.type.get_num_dims() == 1 for v in o.inputs):
        return o
    if isinstance(o, mem.RedomapOp) and o.results_ and not o.outputs and o.row_count is None:
        return o
    return None


def _reads(use) -> bool:
    """The use is an input of its map or copy (the source), not an output."""
    user = use.operation
    return use.index < (1 if isinstance(user, mem.CopyOp) else len(user.inputs))


@dataclass(frozen=True)
class RowSharing:
    """How a group of threads may share each row of a map of maps."""

    writers: tuple[mem.MapOp | mem.CopyOp, ...]
    """The nested maps and copies that write the output rows (row_writers): each gives
    the group's threads its elements in turn."""
    barrier: bool
    """The lambda's scalar code reads memory its maps and copies then write: the group
    waits (a barrier) after that code, so every thread has read before any writes; the
    loads of that code are volatile, since the kernel's views are __restrict__ in CUDA C
    and a plain load of memory the kernel writes may be performed after the barrier."""


def row_sharing(op: mem.MapOp, aliases: MemoryAliases, symbolic: Symbolic) -> RowSharing | None:
    """Whether a group of threads may share each row of this map of maps, else None.

    Memory-reuse may put an output in memory the map reads where each lane reads its
    row before writing it (interference.py). With a thread per row that is so; with a
    group per row, element j is written by one thread while others may still read the
    row. Reads of memory the outputs share are safe when they are element by element
    (an input row read by the writers of the output rows only: element j by the thread
    that writes element j, where memory-reuse made sure they are the same bytes), or of
    bytes apart from the outputs' (LUD's pivot row: by index functions), or in the
    lambda's scalar code before any write (then with a barrier after that code);
    otherwise the map keeps a thread per row."""
    writers = row_writers(op)
    if writers is None:
        return None
    lam = op.body.block
    statements = list(lam.ops)
    writing = [i for i, o in enumerate(statements) if any(inner in writers for inner in o.walk())]
    first_write = writing[0] if writing else len(statements)

    def before_writes(use) -> bool:
        # a load of the lambda's scalar code, before its first map or copy
        user = use.operation
        return isinstance(user, mem.LoadOp) and user.parent_block() is lam and statements.index(user) < first_write

    def written_alike(use) -> bool:
        # read by a writer of output rows as an input: element j by the thread writing j
        return use.operation in writers and _reads(use)

    def conflicts(v: SSAValue) -> bool:
        return may_overlap_outputs(op, v, aliases, symbolic)

    barrier = False
    for param, v in zip(lam.args, op.inputs):
        if all(written_alike(use) for use in param.uses) or not conflicts(v):
            continue
        if not all(written_alike(use) or before_writes(use) for use in param.uses):
            return None
        barrier = True
    for v in captured_values(op):
        if not isinstance(v.type, MemRefType) or not conflicts(v):
            continue
        if not all(before_writes(use) for use in v.uses if op.is_ancestor(use.operation)):
            return None
        barrier = True
    return RowSharing(tuple(writers), barrier)


def may_overlap_outputs(op: Operation, v: SSAValue, aliases: MemoryAliases, symbolic: Symbolic) -> bool:
    """Whether the view `v`, read by the kernel op `op`, may share bytes with one of its
    outputs."""
    for out in op.outputs:
        shared = aliases.memories(out) & aliases.memories(v)
        if not shared or not may_share_memory(aliases, out, v):
            continue
        fresh = _allocated_block(out)
        # a block allocated after v was made is not v's memory, though the analysis
        # (which merges a loop's iterations) may say so of a loop-carried v
        if fresh is not None and shared == {fresh.block} and dominates(v, fresh):
            continue
        a, b = symbolic.index_function(v), symbolic.index_function(out)
        if a is not None and b is not None and symbolic.disjoint(a, b):
            continue
        return True
    return False


def same_elements(symbolic: Symbolic, a: SSAValue, b: SSAValue) -> bool:
    """The two views are the same elements of one block (by their index functions), of
    one element type (memory-reuse may give an array of another type the bytes of one
    it reads row by row)."""
    if a.type.element_type != b.type.element_type:
        return False
    x, y = symbolic.index_function(a), symbolic.index_function(b)
    return x is not None and y is not None and x.block is y.block and symbolic.same_addresses(x, y)


def _allocated_block(view: SSAValue) -> mem.AllocOp | None:
    """The allocation whose block the view is of, if it is one."""
    root = root_view(view)
    owner = root.block.owner if root is not None else None
    return owner if isinstance(owner, mem.AllocOp) else None


# --- groups of threads that share a row ---------------------------------------------------


@dataclass(frozen=True)
class _Group:
    """The threads that handle one row together: a block or a warp."""

    kind: str  # "block" or "warp"

    @property
    def size(self) -> int:
        return THREADS_PER_BLOCK if self.kind == "block" else WARP

    def rank(self, kb: KernelBody) -> SSAValue:
        """This thread's index in its group."""
        tid, lane, _ = thread_ids(kb)
        return tid if self.kind == "block" else lane

    def first_and_stride(self, kb: KernelBody) -> tuple[SSAValue, SSAValue]:
        """This group's first row and the stride between its rows (all groups of the grid)."""
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        blocks = kb.op(gpu.GridDimOp(x))
        if self.kind == "block":
            return block_id(kb), blocks
        _, _, warp = thread_ids(kb)
        per_block = kb.constant(WARPS)
        first = kb.op(arith.AddiOp(kb.op(arith.MuliOp(block_id(kb), per_block)), warp))
        return first, kb.op(arith.MuliOp(blocks, per_block))

    def reduce(self, kb: KernelBody, values, combine, neutral) -> list[SSAValue]:
        """The combination of the group's values in rank order, in every thread."""
        if self.kind == "block":
            return block_reduce(kb, values, combine, neutral, broadcast=True)
        return shuffle(kb, "idx", warp_reduce(kb, values, combine), 0)

    def barrier(self, kb: KernelBody) -> None:
        """The group's threads wait for each other (and see each other's writes)."""
        kb.b.insert(gpu.BarrierOp() if self.kind == "block" else soacc_gpu.SyncWarpOp())

    def scan(self, kb: KernelBody, values, combine, neutral) -> tuple[list[SSAValue], list[SSAValue]]:
        """(exclusive prefix in rank order, the group's total), in every thread."""
        if self.kind == "block":
            return block_scan(kb, values, combine, neutral)
        _, lane, _ = thread_ids(kb)
        inclusive = warp_scan(kb, values, combine, lane)
        before = shuffle(kb, "up", inclusive, 1)
        first = kb.op(arith.CmpiOp(lane, kb.constant(0), "eq"))
        exclusive = [kb.op(arith.SelectOp(first, n, b)) for n, b in zip(neutral, before)]
        return exclusive, shuffle(kb, "idx", inclusive, WARP - 1)


# --- kernels ----------------------------------------------------------------------------------


def build_group_per_row_kernel(
    op: mem.MapOp, name: str, group: _Group, sharing: RowSharing | None = None, plan: ScratchPlan | None = None
) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """The kernel in which each group takes rows of the map; its parameters are the
    returned operands, the row count and then `plan`'s scratch memory (every thread of
    the grid has its own region: each builds the lambda's small arrays itself)."""
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, *op.outputs]
    k = len(op.inputs)
    lam = op.body.block

    def build(kb: KernelBody, params, extra) -> None:
        rows, *scratch = extra
        bind_scratch_per_thread(kb, plan, scratch)
        writers = sharing.writers if sharing is not None else ()
        for writer in writers:
            kb.shared[writer] = lambda: (group.rank(kb), kb.constant(group.size))
        inputs = params[len(captured) : len(captured) + k]
        outputs = params[len(captured) + k :]

        def row_body(row: SSAValue) -> None:
            if op.row_index is not None:
                kb.values[op.row_index] = row
            for param, view in zip(lam.args[:k], inputs):
                kb.values[param] = kb.element_or_row(Row(view, ()), row)
            # output rows (of outputs of rank > 1) are lambda parameters, addressed in place
            for param, view in zip(lam.args[k:], [v for v in outputs if v.type.get_num_dims() > 1]):
                kb.values[param] = Row(view, (row,))
            waiting = sharing is not None and sharing.barrier
            for o in lam.ops:
                if waiting and any(inner in writers for inner in o.walk()):
                    group.barrier(kb)  # every thread has read what the writes overwrite
                    waiting = False
                if waiting and isinstance(o, mem.LoadOp):
                    # a volatile load: the kernel's views are __restrict__, so a plain load
                    # of memory the kernel writes may be served from the non-coherent cache
                    # after the barrier, seeing another thread's write (measured: one warp
                    # of a row in ~1 of 70,000 rows)
                    row = kb.row(o.view)
                    indices = [*row.prefix, *[kb.value(i) for i in o.indices]]
                    kb.values[o.result] = kb.op(soacc_gpu.LoadVolatileOp(row.view, indices))
                elif isinstance(o, mem.ReduceOp | mem.RedomapOp):
                    _cooperative_reduce(kb, o, group)
                elif isinstance(o, mem.ScanOp):
                    _cooperative_scan(kb, o, group)
                elif isinstance(o, mem.MapOp | mem.CopyOp | scf.IfOp):
                    kb.translate(o)  # (the writers of rows take their share: kb.shared)
                elif isinstance(o, mem.YieldOp):
                    if any(isinstance(v.type, MemRefType) for v in o.operands):
                        continue  # the scan wrote the rows in place
                    results = [kb.value(v) for v in o.operands]
                    first = kb.op(arith.CmpiOp(group.rank(kb), kb.constant(0), "eq"))

                    def store() -> None:
                        for value, out in zip(results, outputs):
                            kb.b.insert(memref.StoreOp.get(value, out, [row]))

                    kb.when(first, store)
                else:
                    kb.translate(o)

        first, stride = group.first_and_stride(kb)
        kb.range_loop(first, rows, stride, row_body)

    kernel = kernel_function(name, operands, [("rows", IndexType()), *scratch_parameters(op, plan)], build)
    return kernel, operands


def _cooperative_reduce(kb: KernelBody, op: mem.ReduceOp | mem.RedomapOp, group: _Group) -> None:
    """The group's threads fold the row together; every thread gets the result."""
    elements = Elements.of(op)
    ins = [kb.materialise(v) for v in elements.inputs]
    mapped = [kb.materialise(v) for v in elements.mapped]
    n = kb.op(memref.DimOp(ins[0], kb.constant(0)))
    neutral = [kb.value(v) for v in op.neutral]
    rank = group.rank(kb)
    size = kb.constant(group.size)
    combine = combiner(kb, op)

    def operands(j: SSAValue) -> list[SSAValue]:
        return elements.at(kb, ins, mapped, j)

    def step(j, *acc):
        return combine(list(acc), operands(j))

    width = elements.vector_width()
    if is_commutative(op) and width is not None:
        acc = kb.when(
            all_vectorizable(kb, elements.vector_views(ins, mapped)),
            lambda: fold_vectors(kb, combine, lambda at: elements.group_at(kb, ins, mapped, at, width), operands, n, neutral, width, rank, size),
            lambda: kb.range_loop(rank, n, size, step, neutral),
            [v.type for v in neutral],
        )
    elif is_commutative(op):
        acc = kb.range_loop(rank, n, size, step, neutral)
    else:  # each thread folds a contiguous part, so the order is kept
        per_thread = kb.op(arith.CeilDivUIOp(n, size))
        first = kb.op(arith.MinUIOp(kb.op(arith.MuliOp(rank, per_thread)), n))
        last = kb.op(arith.MinUIOp(kb.op(arith.AddiOp(first, per_thread)), n))
        acc = kb.range_loop(first, last, kb.constant(1), step, neutral)
    results = group.reduce(kb, acc, combine, neutral)
    for old, new in zip(op.results_, results):
        kb.values[old] = new


def _cooperative_scan(kb: KernelBody, op: mem.ScanOp, group: _Group) -> None:
    """The group scans the row in chunks of one element per thread, carrying the
    combination of the chunks before."""
    ins = [kb.row(v) for v in op.inputs]
    outs = [kb.row(v) for v in op.outputs]
    n = kb.dim(ins[0], 0)
    neutral = [kb.value(v) for v in op.neutral]
    types = [v.type for v in neutral]
    rank = group.rank(kb)

    def combine(left, right):
        return kb.apply_operator(op.body, left, right)

    def chunk(start: SSAValue, *carry: SSAValue) -> list[SSAValue]:
        j = kb.op(arith.AddiOp(start, rank))
        inside = kb.op(arith.CmpiOp(j, n, "ult"))
        mine = kb.when(inside, lambda: [kb.element_or_row(r, j) for r in ins], lambda: list(neutral), types)
        exclusive, total = group.scan(kb, mine, combine, neutral)
        inclusive = combine(list(carry), combine(exclusive, mine))

        def store() -> None:
            for value, out in zip(inclusive, outs):
                kb.store(value, out, j, op)

        kb.when(inside, store)
        return combine(list(carry), total)

    kb.range_loop(kb.constant(0), n, kb.constant(group.size), chunk, neutral)


# --- the host's choice -------------------------------------------------------------------------


def lower_segmented_map(
    op: mem.MapOp,
    name: str,
    b: Builder,
    add_kernel,
    thread_per_row,
    sharing: RowSharing | None = None,
    plan: ScratchPlan | None = None,
) -> bool:
    """Lowers a segmented reduction, scan or map with every strategy and a host-side
    choice by row length; False (nothing done) when the map is not one. A map of maps
    takes the group strategies only where `sharing` says how (row_sharing); there the
    length that chooses is the longest of its rows and of the arrays its reductions fold
    (nbody writes rows of 3 after folding n bodies). `plan` is the scratch memory of the
    lambda's own arrays, which only a map of maps has."""
    reductions = nested_reductions(op)
    scan = nested_scan(op) if reductions is None else None
    if reductions is not None:
        spans = [reductions[0].inputs[0]]
    elif scan is not None:
        spans = [scan.inputs[0]]
    elif sharing is not None:
        first = sharing.writers[0]
        folded = [o.inputs[0] for o in op.body.block.ops if _cooperative_reduction(o) is not None]
        spans = [first.dest if isinstance(first, mem.CopyOp) else first.outputs[0], *folded]
    else:
        return False
    if plan is not None and (reductions is not None or scan is not None):
        return False  # (their lambdas allocate nothing: nested_reductions, nested_scan)
    evaluator = _HostEvaluator(b, set(op.walk()))
    try:
        lengths = [evaluator.size(v, 0) for v in spans]
    except _NotOnHost:
        return False
    length = lengths[0]
    for other in lengths[1:]:
        length = b.insert(arith.MaxUIOp(length, other)).results[0]
    rows = b.insert(mem.SizeOp(op.rows_of, 0)).result

    def launcher(group: _Group):
        kernel, operands = build_group_per_row_kernel(op, f"{name}_{group.kind}_per_row", group, sharing, plan)
        add_kernel(kernel)

        def launch(inner: Builder) -> None:
            one = index_constant(inner, 1)
            per_block = 1 if group.kind == "block" else WARPS
            wanted = inner.insert(arith.CeilDivUIOp(rows, index_constant(inner, per_block))).results[0]
            if plan is not None:
                blocks = scratch_blocks(inner, plan, wanted, THREADS_PER_BLOCK)
            else:
                capped = inner.insert(arith.MinUIOp(wanted, index_constant(inner, MAX_BLOCKS))).results[0]
                blocks = inner.insert(arith.MaxUIOp(capped, one)).results[0]
            inner.insert(
                gpu.LaunchFuncOp(
                    SymbolRefAttr("kernels", [kernel.sym_name.data]),
                    [blocks, one, one],
                    [index_constant(inner, THREADS_PER_BLOCK), one, one],
                    kernelOperands=[*operands, rows, *scratch_operands(inner, plan, blocks, op)],
                )
            )

        return launch

    block_per_row, warp_per_row = launcher(_Group("block")), launcher(_Group("warp"))

    choose_from(
        b, length, f"{name}.block_per_row_from", BLOCK_PER_ROW_FROM, block_per_row,
        lambda inner: choose_from(inner, length, f"{name}.warp_per_row_from", WARP_PER_ROW_FROM, warp_per_row, thread_per_row),
    )
    return True


__all__ = ["BLOCK_PER_ROW_FROM", "WARP_PER_ROW_FROM", "lower_segmented_map", "nested_reductions", "nested_scan", "row_sharing", "row_writers", "RowSharing", "same_elements"]
