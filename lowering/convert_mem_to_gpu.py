"""convert-mem-to-gpu: level 2 (mem) to level 3 (xDSL's gpu dialect, plus soacc_gpu).

Every host-level kernel op on the device becomes one or more kernels (`gpu.func` in
`gpu.module @kernels`) and host code that launches them (`gpu.launch_func`), with any
scratch memory they need allocated by `mem.alloc` before the launch. The strategies:

- map, iota, fill, scatter: a grid-stride loop over the rows (thread t handles rows t,
  t + T, ...; consecutive threads touch consecutive elements); a scatter ignores
  out-of-bounds indices. Rows are addressed in place (`view[i, j]`), never copied, and
  combinators nested in a lambda run sequentially in their thread.
- a map whose lambda reduces its rows (a segmented reduction), scans them, or maps
  them into its output rows (a map of maps): also a block and a warp per row, chosen
  on the host by row length (gpu_segmented.py).
- reduce: one pass of partial results per block, then one block over the partials
  (gpu_reduce.py); order kept for non-commutative operators.
- scan: a single pass with decoupled look-back (gpu_scan.py).
- hist: shared-memory sub-histograms or global updates, by atomics where CUDA has one
  for the operator and by compare-and-swap otherwise (gpu_hist.py).
- gpu_body: a single-threaded kernel.

Arrays a lambda allocates get per-thread slots of one scratch buffer (kernel_scratch.py).
What cannot run in a kernel is reported at the op. Kernels whose arrays are in host
memory (place-kernels) stay as they are: the host code runs them on the CPU.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, gpu, memref, scf
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects.shared.provenance import record_origin
from soacc.dialects.shared.utils import located_failure
from soacc.dialects.shared.utils import captured_values
from soacc.dialects import fork, husk, mem, soacc_gpu
from soacc.dialects.shared.traits import is_host_kernel, runs_on_device

from soacc.lowering.kernel_body import (
    THREADS_PER_BLOCK,
    CannotLower,
    KernelBody,
    Row,
    gpu_body_outputs,
    index_constant as _index,
    kernel_function,
)
from soacc.lowering.gpu_reduce import all_vectorizable, launch as gpu_launch, lower_reduce
from soacc.lowering.gpu_cooperation import WARP
from soacc.lowering.gpu_epilogue import REDUCTIONS, find_epilogues
from soacc.lowering.gpu_segmented import RowSharing, lower_segmented_map, row_sharing, row_writers, same_elements
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.symbolic import Symbolic
from soacc.passes.utils.memory_motion import drop_if_results
from soacc.lowering.gpu_flatten import FLAT_SUFFIX, flattenable, lower_flattened, perfect_nest
from soacc.lowering.gpu_tile import TILED_SUFFIX, Tiling, lower_tiled, tiling
from soacc.lowering.gpu_segmented_hist import HistPerRow, lower_hist_per_row, segmented_hist
from soacc.lowering.gpu_segmented_scatter import ScatterPerRow, lower_scatter_per_row, segmented_scatter
from soacc.lowering.gpu_hist import lower_hist
from soacc.lowering.kernel_parallelism import describe, mark, nested_combinators, sequential_inside, strategy
from soacc.lowering.gpu_scan import lower_scan
from soacc.lowering.kernel_elements import Elements, shared_vector_width
from soacc.lowering.kernel_scratch import ScratchPlan, bind_scratch, grid_blocks, plan_scratch, scratch_blocks, scratch_operands, scratch_parameters


def _grid_stride(b: Builder) -> tuple[SSAValue, SSAValue]:
    """This thread's first row and the step between its rows: its global id and the
    grid's thread count."""
    x = gpu.DimensionAttr(gpu.DimensionEnum.X)
    first = b.insert(gpu.GlobalIdOp(x)).result
    threads = b.insert(arith.MuliOp(b.insert(gpu.GridDimOp(x)).result, b.insert(gpu.BlockDimOp(x)).result)).results[0]
    return first, threads


def _grid_stride_kernel(name: str, operands: Sequence[SSAValue], row_body) -> gpu.FuncOp:
    """A kernel over operands + a row count: for each row i of this thread (grid-stride),
    row_body(body, params, i) emits what row i does."""
    block = Block(arg_types=[*[v.type for v in operands], IndexType()])
    *params, n = block.args
    for param, v in zip(params, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    n.name_hint = "rows"
    b = Builder(InsertPoint.at_end(block))
    first, threads = _grid_stride(b)
    row_block = Block(arg_types=[IndexType()])
    row_block.args[0].name_hint = "row"
    body = KernelBody(Builder(InsertPoint.at_end(row_block)), dict(zip(operands, params)))
    row_body(body, params, row_block.args[0])
    body.b.insert(scf.YieldOp())
    b.insert(scf.ForOp(first, n, threads, [], Region(row_block)))
    b.insert(gpu.ReturnOp([]))
    return gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True)


def build_iota_kernel(op: mem.IotaOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    def row(body: KernelBody, params, i) -> None:
        (out,) = params
        element = out.type.element_type
        value = i if isinstance(element, IndexType) else body.b.insert(arith.IndexCastOp(i, element)).result
        body.b.insert(memref.StoreOp.get(value, out, [i]))

    return _grid_stride_kernel(name, [op.output], row), [op.output]


def build_fill_kernel(op: mem.FillOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    def row(body: KernelBody, params, i) -> None:
        value, out = params
        source = Row(value, ()) if isinstance(value.type, MemRefType) else value
        body.store(source, Row(out, ()), i, op)

    return _grid_stride_kernel(name, [op.value, op.output], row), [op.value, op.output]


def build_scatter_kernel(op: mem.ScatterOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    def row(body: KernelBody, params, i) -> None:
        dest, indices, values = params
        b = body.b
        k = b.insert(memref.LoadOp.get(indices, [i])).res
        if not isinstance(k.type, IndexType):
            k = b.insert(arith.IndexCastOp(k, IndexType())).result
        size = body.dim(Row(dest, ()), 0)
        # out-of-bounds indices are ignored (an unsigned compare also rejects negatives)
        inside = b.insert(arith.CmpiOp(k, size, "ult")).result
        then = Block()
        outer = body.b
        body.b = Builder(InsertPoint.at_end(then))
        body.store(body.element_or_row(Row(values, ()), i), Row(dest, ()), k, op)
        body.b.insert(scf.YieldOp())
        body.b = outer
        b.insert(scf.IfOp(inside, [], Region(then)))

    operands = [op.dest, op.indices, op.values]
    return _grid_stride_kernel(name, operands, row), operands


def lower_scatteromap(op: mem.ScatteromapOp, name: str, b: Builder, add_kernel) -> None:
    """A scatter whose index and value are what its map lambda yields on row i (and whose
    mapped values go to row i of its outputs): the scatter's grid-stride kernel with the
    lambda, and scratch memory for what the lambda allocates."""
    elements = Elements.of(op)
    captured = [v for v in captured_values(op) if v not in (op.dest, *op.inputs, *op.outputs)]
    operands = [*captured, op.dest, *op.inputs, *op.outputs]
    c, i = len(captured), len(op.inputs)
    plan = plan_scratch(op, b)

    def build(kb: KernelBody, params, extra) -> None:
        count, *scratch = extra
        dest, ins, mapped = params[c], params[c + 1 : c + 1 + i], params[c + 1 + i :]
        x = gpu.DimensionAttr(gpu.DimensionEnum.X)
        gid = kb.op(gpu.GlobalIdOp(x))
        threads = kb.op(arith.MuliOp(kb.op(gpu.GridDimOp(x)), kb.op(gpu.BlockDimOp(x))))
        bind_scratch(kb.b, kb, plan, scratch, gid)
        bins = kb.dim(Row(dest, ()), 0)

        def row(r: SSAValue) -> None:
            k, v = elements.at(kb, ins, mapped, r)
            if not isinstance(k.type, IndexType):
                k = kb.op(arith.IndexCastOp(k, IndexType()))  # negatives become huge

            def write() -> None:
                kb.b.insert(memref.StoreOp.get(v, dest, [k]))

            kb.when(kb.op(arith.CmpiOp(k, bins, "ult")), write)

        kb.range_loop(gid, count, threads, row)

    extra = [("rows", IndexType()), *scratch_parameters(op, plan)]
    kernel = add_kernel(kernel_function(name, operands, extra, build))
    n = elements.host_rows(b)
    needed = b.insert(arith.CeilDivUIOp(n, _index(b, THREADS_PER_BLOCK))).results[0]
    blocks = grid_blocks(b, needed, plan)
    gpu_launch(b, kernel, blocks, [*operands, n, *scratch_operands(b, plan, blocks, op)])


def build_gpu_body_kernel(op: mem.GpuBodyOp, name: str, plan: ScratchPlan | None = None) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """A single-threaded kernel: the body runs once; value j goes to element 0 of output j,
    unless it is already there (short-circuited: the body yields row 0 of output j
    itself), and then output j is not even a parameter."""
    captured = [v for v in captured_values(op) if v not in op.outputs]
    operands = [*captured, *gpu_body_outputs(op)]
    scratch_types = scratch_parameters(op, plan) if plan else []
    block = Block(arg_types=[*[v.type for v in operands], *[t for _, t in scratch_types]])
    for param, v in zip(block.args, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    for param, (hint, _) in zip(block.args[len(operands) :], scratch_types):
        param.name_hint = hint
    body = KernelBody(Builder(InsertPoint.at_end(block)), dict(zip(operands, block.args)))
    zero = _index(body.b, 0)
    bind_scratch(body.b, body, plan, block.args[len(operands) :], zero)
    body.run_gpu_body(op, zero)
    body.b.insert(gpu.ReturnOp([]))
    return gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True), operands


def build_map_kernel(op: mem.MapOp, name: str, plan: ScratchPlan | None = None) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """The kernel of a host-level map, and the host values to launch it with (the
    captured values, the inputs, the outputs; then the row count, then the scratch
    memory of `plan`)."""
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, *op.outputs]
    scratch_types = scratch_parameters(op, plan)
    block = Block(arg_types=[*[v.type for v in operands], IndexType(), *[t for _, t in scratch_types]])
    params = block.args[: len(operands)]
    n = block.args[len(operands)]
    for param, v in zip(params, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    n.name_hint = "rows"
    for param, (hint, _) in zip(block.args[len(operands) + 1 :], scratch_types):
        param.name_hint = hint
    b = Builder(InsertPoint.at_end(block))
    values: dict[SSAValue, SSAValue | Row] = dict(zip(operands, params))
    first, threads = _grid_stride(b)
    k = len(op.inputs)
    in_params = params[len(captured) : len(captured) + k]
    out_params = params[len(captured) + k :]
    lam = op.body.block
    array_outs = [v for v in out_params if v.type.get_num_dims() > 1]

    def rows(builder: Builder, lb: SSAValue, body: KernelBody) -> None:
        """for row = lb to n step threads: the lambda on row `row`."""
        row_block = Block(arg_types=[IndexType()])
        i = row_block.args[0]
        i.name_hint = "row"
        body.b = Builder(InsertPoint.at_end(row_block))
        for param, view in zip(lam.args[:k], in_params):
            body.values[param] = body.element_or_row(Row(view, ()), i)
        for param, view in zip(lam.args[k:], array_outs):
            body.values[param] = Row(view, (i,))
        if op.row_index is not None:
            body.values[op.row_index] = i
        body.translate_block(lam)
        for value, view in zip(lam.last_op.operands, out_params):
            body.store(body.values[value], Row(view, ()), i, op)
        body.b.insert(scf.YieldOp())
        builder.insert(scf.ForOp(lb, n, threads, [], Region(row_block)))

    body = KernelBody(b, values)
    bind_scratch(b, body, plan, block.args[len(operands) + 1 :], first)
    # (an indexed map takes its rows one by one: a vector of rows has no one row number)
    width = shared_vector_width(op.inputs, op.outputs, op.body) if plan is None and op.indexed is None else None
    if width is None:
        rows(b, first, body)
    else:
        aligned = all_vectorizable(body, [*in_params, *out_params])
        by_vectors, by_elements = Block(), Block()
        _vector_rows(Builder(InsertPoint.at_end(by_vectors)), body, lam, in_params, out_params, width, first, threads, n, rows)
        by_vectors.add_op(scf.YieldOp())
        rows(Builder(InsertPoint.at_end(by_elements)), first, body)
        by_elements.add_op(scf.YieldOp())
        b.insert(scf.IfOp(aligned, [], Region(by_vectors), Region(by_elements)))
    b.insert(gpu.ReturnOp([]))
    kernel = gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True)
    return kernel, operands


def _vector_rows(b: Builder, body: KernelBody, lam: Block, in_params, out_params, width: int, first, threads, n, rows) -> None:
    """Groups of `width` rows by vector loads and stores: thread t takes groups t, t + T,
    ...; the lambda runs once per row of the group. Then the rows after the last whole
    group, one at a time."""
    k = len(in_params)
    w = _index(b, width)
    groups = b.insert(arith.DivUIOp(n, w)).results[0]
    group_block = Block(arg_types=[IndexType()])
    body.b = Builder(InsertPoint.at_end(group_block))
    at = body.b.insert(arith.MuliOp(group_block.args[0], w)).results[0]
    loaded = [body.b.insert(soacc_gpu.VectorLoadOp(view, at)).results for view in in_params]
    results: list[list[SSAValue]] = []
    for lane in range(width):
        for param, values in zip(lam.args[:k], loaded):
            body.values[param] = values[lane]
        body.translate_block(lam)
        results.append([body.value(v) for v in lam.last_op.operands])
    for j, view in enumerate(out_params):
        body.b.insert(soacc_gpu.VectorStoreOp([results[lane][j] for lane in range(width)], view, at))
    body.b.insert(scf.YieldOp())
    b.insert(scf.ForOp(first, groups, threads, [], Region(group_block)))
    tail = b.insert(arith.AddiOp(b.insert(arith.MuliOp(groups, w)).results[0], first)).results[0]
    rows(b, tail, body)


def _record_lowered_from(k: Operation, before: Operation | None, new_kernels: list[gpu.FuncOp]) -> None:
    """The host code and the kernels that replace `k` were made from it (what errors
    in them, found later by the emitters, point at)."""
    for kernel in new_kernels:
        record_origin(kernel, k)
    host = k.prev_op
    while host is not None and host is not before:
        record_origin(host, k)
        host = host.prev_op


def _fail(error: CannotLower) -> PassFailedException:
    return located_failure(error.op, f"convert-mem-to-gpu: {error.op.name} {error}")


@dataclass(frozen=True)
class ConvertMemToGpuPass(ModulePass):
    """Outlines host-level kernels into gpu kernels and their launches (level 2 to level 3)."""

    name = "convert-mem-to-gpu"

    report: bool = False
    """Print, per host-level combinator, its kernels, how they share out its work and
    the nested combinators they run in each thread (lowering/kernel_parallelism.py)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels: list[gpu.FuncOp] = []
        # a husk that updates rows in place writes them as its source's rows, so that
        # the kernel sees one array, as without the husk (a group of threads may share
        # each row)
        for f in op.ops:
            runs = [r for r in f.walk() if isinstance(r, husk.RunOp)] if isinstance(f, func.FuncOp) else []
            if runs:
                symbolic = Symbolic(f)
                for run in runs:
                    run.share_rows_updated_in_place(lambda a, b: same_elements(symbolic, a, b))
        # kernels launched from host code; those place-kernels put on the host stay
        # mem ops, which the host code runs on the CPU (emit_host.py)
        launched = [
            k
            for f in op.ops
            if isinstance(f, func.FuncOp)
            for k in f.walk()
            if type(k) in _LOWERINGS and not runs_on_device(k) and not is_host_kernel(k)
        ]

        # an `if` in a kernel that yields blocks nothing uses after it: the blocks go (in
        # a kernel a view says where its elements are, and nothing frees a block)
        for k in launched:
            for inner in [o for o in k.walk() if isinstance(o, scf.IfOp)]:
                unused = [i for i, r in enumerate(inner.results) if isinstance(r.type, mem.BlockType) and not r.uses]
                if unused:
                    drop_if_results(inner, unused)

        def add_kernel(kernel: gpu.FuncOp) -> str:
            kernels.append(kernel)
            return kernel.sym_name.data

        # (found before anything is lowered: the analysis reads level-2 code)
        epilogues = {}
        for f in op.ops:
            if isinstance(f, func.FuncOp):
                epilogues |= find_epilogues(f, [k for k in launched if isinstance(k, REDUCTIONS) and f.is_ancestor(k)])
        folded = {e.body for e in epilogues.values()}
        # maps of maps whose rows a group of threads may share (also read from level 2)
        sharing: dict[Operation, RowSharing | None] = {}
        for f in op.ops:
            candidates = [k for k in launched if isinstance(k, mem.MapOp) and f.is_ancestor(k) and row_writers(k)]
            if candidates:
                aliases, symbolic = MemoryAliases(f), Symbolic(f)
                sharing |= {k: row_sharing(k, aliases, symbolic) for k in candidates}
        # perfect nests of maps, flattened (also read from level 2)
        nests: dict[Operation, list[mem.MapOp]] = {}
        for f in op.ops:
            found = {k: levels for k in launched if isinstance(k, mem.MapOp) and f.is_ancestor(k) and (levels := perfect_nest(k))}
            if found:
                aliases, symbolic = MemoryAliases(f), Symbolic(f)
                nests |= {k: levels for k, levels in found.items() if flattenable(levels, aliases, symbolic)}
        # maps of maps of a reduction that reuses its inputs (flattenable ones), tiled
        tilings = {k: t for k, levels in nests.items() if (t := tiling(levels)) is not None}
        # maps of a hist (a group of threads per row) or of a scatter (every row's
        # elements at once): also read from level 2
        per_row: dict[Operation, HistPerRow | ScatterPerRow] = {}
        for f in op.ops:
            maps = [k for k in launched if isinstance(k, mem.MapOp) and f.is_ancestor(k)]
            if maps:
                aliases, symbolic = MemoryAliases(f), Symbolic(f)
                for k in maps:
                    found = segmented_hist(k, aliases, symbolic) or segmented_scatter(k, aliases, symbolic)
                    if found is not None:
                        per_row[k] = found

        try:
            for index, k in enumerate(launched):
                if k in folded:
                    continue  # it runs in its reduction's final kernel
                kind, lower = _LOWERINGS[type(k)]
                before, first_kernel = k.prev_op, len(kernels)
                if k in epilogues:
                    lower_reduce(k, f"{kind}{index}", Builder(InsertPoint.before(k)), add_kernel, epilogues[k])
                    Rewriter.erase_op(epilogues[k].body)
                elif isinstance(k, mem.MapOp):
                    lower(
                        k, f"{kind}{index}", Builder(InsertPoint.before(k)), add_kernel,
                        sharing=sharing.get(k), nest=nests.get(k), tiled=tilings.get(k), per_row=per_row.get(k),
                    )
                else:
                    lower(k, f"{kind}{index}", Builder(InsertPoint.before(k)), add_kernel)
                _record_lowered_from(k, before, kernels[first_kernel:])
                self._note_parallelism(k, kernels[first_kernel:], nests.get(k))
                Rewriter.erase_op(k)
        except CannotLower as error:
            raise _fail(error) from None
        kernels = _share_kernels_with_forked_copies(op, kernels)
        if kernels:
            # (gpu.ModuleOp.__init__ takes a SymbolRefAttr, but its verifier wants a StringAttr)
            Rewriter.insert_op(gpu.ModuleOp(StringAttr("kernels"), Region(Block(kernels))), InsertPoint.at_end(op.body.block))  # type: ignore[arg-type]
            op.attributes["gpu.container_module"] = UnitAttr()


    def _note_parallelism(self, k: Operation, made: list[gpu.FuncOp], nest: list[mem.MapOp] | None = None) -> None:
        """Marks each kernel made of `k` with the combinators it runs in each thread,
        and reports them where asked."""
        names = [kernel.sym_name.data for kernel in made]
        # (a segmented map's thread-per-row kernel is the host's choice for short rows:
        # its sequential row is no cliff)
        grouped = any(name.endswith("_block_per_row") for name in names)
        flattened = nest if nest and any(name.endswith(FLAT_SUFFIX) for name in names) else None
        inside = nested_combinators(flattened[-1]) if flattened else sequential_inside(k, grouped)
        if any(name.endswith("_scatter_rows") for name in names):
            inside = []  # (every row's scatter shared out: nothing runs in one thread)
        # (a tiled kernel's threads each fold their results' reduction, in registers)
        tiled = nested_combinators(nest[-1]) if nest and any(name.endswith(TILED_SUFFIX) for name in names) else None
        for kernel in made:
            mark(kernel, tiled if tiled is not None and kernel.sym_name.data.endswith(TILED_SUFFIX) else inside)
        if tiled is not None:
            inside = tiled
        if not self.report or not made:
            return
        where = k.parent_op()
        while where is not None and not isinstance(where, func.FuncOp):
            where = where.parent_op()
        if isinstance(where, func.FuncOp) and "soacc.forked_variant_of" in where.attributes:
            return  # (a function's forked copy: the same kernels, reported with it)
        function = f"@{where.sym_name.data}: " if isinstance(where, func.FuncOp) else ""
        print(
            f"convert-mem-to-gpu: {function}{describe(k)} -> {', '.join(names)}: {strategy(k, names)}"
            + (f"; in each thread: {', '.join(describe(o) for o in inside)}" if inside else ""),
            file=sys.stderr,
        )


def _share_kernels_with_forked_copies(module: ModuleOp, kernels: list[gpu.FuncOp]) -> list[gpu.FuncOp]:
    """A function's forked copy (introduce-forks{beside}) launches the kernels of the
    function itself where they are the same (they are, but for their names: forks
    change the host code only), so the program's kernels are compiled once; the
    kernels left to keep."""
    launches: dict[str, list[gpu.LaunchFuncOp]] = {}
    in_copies: set[str] = set()
    for f in module.ops:
        if not isinstance(f, func.FuncOp):
            continue
        for launch in f.walk():
            if isinstance(launch, gpu.LaunchFuncOp):
                name = launch.kernel.nested_references.data[-1].data
                launches.setdefault(name, []).append(launch)
                if fork.forked_variant_of(f) is not None:
                    in_copies.add(name)
    originals: dict[tuple, list[gpu.FuncOp]] = {}
    for kernel in kernels:
        name = kernel.sym_name.data
        if name not in in_copies:
            originals.setdefault(_kernel_shape(kernel), []).append(kernel)
    kept = []
    renamed: dict[str, str] = {}
    for kernel in kernels:
        name = kernel.sym_name.data
        twin = None
        if name in in_copies:
            candidates = originals.get(_kernel_shape(kernel), [])
            twin = next((o for o in candidates if o.body.is_structurally_equivalent(kernel.body)), None)
        if twin is None:
            kept.append(kernel)
            continue
        for launch in launches.get(name, []):
            launch.kernel = SymbolRefAttr("kernels", [twin.sym_name.data])
        renamed[_lowered_name(name)] = _lowered_name(twin.sym_name.data)
    # a copy's thresholds take the names of the original's (one tuning serves both)
    for f in module.ops:
        if isinstance(f, func.FuncOp) and fork.forked_variant_of(f) is not None:
            for op in f.walk():
                if isinstance(op, mem.ThresholdOp):
                    lowered, _, what = op.threshold.data.partition(".")
                    if lowered in renamed:
                        op.threshold = StringAttr(f"{renamed[lowered]}.{what}")
    return kept


def _lowered_name(kernel: str) -> str:
    """The name of the host-level op a kernel was made of (`map3` of `map3_tiled`),
    which its thresholds start with."""
    found = re.match(r"(.*?\d+)(_|$)", kernel)
    return found.group(1) if found else kernel


def _kernel_shape(kernel: gpu.FuncOp) -> tuple:
    """What two equal kernels have alike (cheap to compare before their bodies)."""
    return (kernel.function_type, sum(1 for _ in kernel.walk()))


def _one_kernel(build, rows_of, allocates: bool = False):
    """A lowering that builds one kernel and launches it: over the rows of rows_of(op)
    (grid-stride), or on one thread where rows_of is None. Where `allocates`, arrays the
    lambdas allocate get slots in a scratch buffer allocated before the launch."""

    def lower(
        k: Operation,
        name: str,
        b: Builder,
        add_kernel,
        sharing: RowSharing | None = None,
        nest: list[mem.MapOp] | None = None,
        tiled: Tiling | None = None,
        per_row: HistPerRow | ScatterPerRow | None = None,
    ) -> None:
        # a map of maps of a reduction that reuses its inputs (a matrix product's):
        # tiled where both sides of its results are wide, else as below
        if tiled is not None and lower_tiled(tiled, name, b, add_kernel, lambda inner: untiled(k, name, inner, add_kernel, sharing, nest)):
            return
        untiled(k, name, b, add_kernel, sharing, nest, per_row)

    def untiled(
        k: Operation,
        name: str,
        b: Builder,
        add_kernel,
        sharing: RowSharing | None,
        nest: list[mem.MapOp] | None,
        per_row: HistPerRow | ScatterPerRow | None = None,
    ) -> None:
        # a map of a scatter: one kernel over every row's elements
        if isinstance(per_row, ScatterPerRow) and lower_scatter_per_row(per_row, name, b, add_kernel):
            return
        # a perfect nest of maps (`nest`, gpu_flatten.flattenable): a thread per element
        # of the product of its levels' rows (where a group per row would share out a
        # map of maps, that stays: it chooses by the rows' length; three levels and
        # more are flattened)
        if nest is not None and (sharing is None or len(nest) > 2) and lower_flattened(nest, name, b, add_kernel):
            return
        plan = plan_scratch(k, b) if allocates else None
        kernel, operands = build(k, name, plan) if allocates else build(k, name)
        add_kernel(kernel)

        def launch(b: Builder) -> None:
            one = _index(b, 1)
            if rows_of is None:  # one thread
                scratch = scratch_operands(b, plan, one, k, threads_per_block=1)
                b.insert(gpu.LaunchFuncOp(SymbolRefAttr("kernels", [name]), [one, one, one], [one, one, one], kernelOperands=[*operands, *scratch]))
                return
            rows = b.insert(mem.SizeOp(rows_of(k), 0)).result
            if plan is not None:
                _launch_spread(b, name, rows, plan, [*operands, rows], k)
                return
            needed = b.insert(arith.CeilDivUIOp(rows, _index(b, THREADS_PER_BLOCK))).results[0]
            blocks = grid_blocks(b, needed, plan)
            gpu_launch(b, name, blocks, [*operands, rows, *scratch_operands(b, plan, blocks, k)])

        # a map of a hist: a block or a warp per row by the rows' length, a thread per
        # row for short ones
        if isinstance(per_row, HistPerRow) and lower_hist_per_row(per_row, name, b, add_kernel, launch):
            return
        if isinstance(k, mem.MapOp) and lower_segmented_map(k, name, b, add_kernel, launch, sharing, plan):
            return
        launch(b)

    return lower


FEW_ROWS = 32 * 1024
"""A kernel whose threads allocate, over fewer rows than this, launches blocks of a warp
each (see _launch_spread)."""


def _launch_spread(b: Builder, name: str, rows: SSAValue, plan: ScratchPlan, operands: list[SSAValue], k: Operation) -> None:
    """Launches a grid-stride kernel whose threads allocate (a thread per row, each with
    arrays of its own: LocVolCalib's tridiagonal solves): over few rows, in blocks of one
    warp rather than of THREADS_PER_BLOCK threads, so that its threads spread over the
    GPU's multiprocessors instead of sharing a few: each has its own L1 cache for the
    threads' arrays, and such a thread waits on memory at every step of its loops."""
    few = b.insert(arith.CmpiOp(rows, _index(b, FEW_ROWS), "ult")).result
    per_block = b.insert(arith.SelectOp(few, _index(b, WARP), _index(b, THREADS_PER_BLOCK))).result
    needed = b.insert(arith.CeilDivUIOp(rows, per_block)).results[0]
    blocks = scratch_blocks(b, plan, needed, per_block)
    scratch = scratch_operands(b, plan, blocks, k, threads_per_block=per_block)
    gpu_launch(b, name, blocks, [*operands, *scratch], threads_per_block=per_block)


_LOWERINGS = {
    mem.MapOp: ("map", _one_kernel(build_map_kernel, lambda k: k.rows_of, allocates=True)),
    mem.IotaOp: ("iota", _one_kernel(build_iota_kernel, lambda k: k.output)),
    mem.FillOp: ("fill", _one_kernel(build_fill_kernel, lambda k: k.output)),
    mem.ScatterOp: ("scatter", _one_kernel(build_scatter_kernel, lambda k: k.indices)),
    mem.GpuBodyOp: ("gpu_body", _one_kernel(build_gpu_body_kernel, None, allocates=True)),
    mem.ReduceOp: ("reduce", lower_reduce),
    mem.HistOp: ("hist", lower_hist),
    mem.ScanOp: ("scan", lower_scan),
    # soac-fusion's fused combinators take their unfused forms' kernels (kernel_elements.py)
    mem.RedomapOp: ("redomap", lower_reduce),
    mem.ScanomapOp: ("scanomap", lower_scan),
    mem.ScatteromapOp: ("scatteromap", lower_scatteromap),
    mem.HistomapOp: ("histomap", lower_hist),
}
"""Each host-level kernel op: its kernels' name prefix, and its lowering
(op, name, builder before the op, add_kernel) that adds kernels and writes the launches."""




