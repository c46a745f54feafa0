"""convert-mem-to-gpu: level 2 (mem) to level 3 (xDSL's gpu dialect) — first part.

Every host-level `mem.map`, `mem.iota`, `mem.fill`, `mem.scatter` and `mem.gpu_body`
becomes a kernel (`gpu.func` in `gpu.module @kernels`) and a `gpu.launch_func` of it
(`gpu_body` as a single-threaded kernel; a scatter ignores out-of-bounds indices). The kernel is a grid-stride loop over the map's rows: thread t
handles rows t, t + T, t + 2T, ... (T threads in the grid), so any grid size covers any
row count and consecutive threads touch consecutive elements (coalesced). Its parameters
are the values the lambda uses from outside (scalars, views), the input and output
views, and the row count.

Inside a kernel a row of a view is addressed, not copied: it is the view with leading
indices fixed (`memref.load %in[%i, %j]` for element j of row i). Combinators nested in
the lambda run sequentially in their thread: a nested map is a loop, a nested reduce or
scan a loop carrying the accumulators. What cannot run in a kernel is reported at the op:
allocations inside a lambda (they need the expansion into per-thread slices of one
allocation made before the launch, still to come), and array-valued control flow.

Still to come in this pass (issue 4): kernels for host-level reduce, scan and hist,
which need cooperation within a block (shared memory, warp shuffles, atomics), and the
expansion of allocations made inside lambdas; those ops stay `mem` ops here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, gpu, memref, scf
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects import mem
from soacc.dialects.soac import SliceSpec

THREADS_PER_BLOCK = 256
MAX_BLOCKS = 65536  # a grid-stride loop covers the rest


class CannotLower(Exception):
    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


@dataclass(frozen=True)
class Row:
    """A part of a view addressed inside a kernel: `view[prefix..., ...]`."""

    view: SSAValue
    prefix: tuple[SSAValue, ...]

    @property
    def rank(self) -> int:
        t = self.view.type
        assert isinstance(t, MemRefType)
        return t.get_num_dims() - len(self.prefix)


def _index(b: Builder, n: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(n, IndexType()))).results[0]


def captured_values(op: Operation) -> list[SSAValue]:
    """Values the op's regions use but do not define, in first-use order."""
    inner_ops = set(op.walk())
    inner_blocks = {b for o in inner_ops for r in o.regions for b in r.blocks}
    seen: dict[SSAValue, None] = {}
    for o in op.walk():
        if o is op:
            continue
        for v in o.operands:
            owner = v.owner
            if isinstance(owner, Operation) and owner in inner_ops:
                continue
            if isinstance(owner, Block) and owner in inner_blocks:
                continue
            seen[v] = None
    return list(seen)


class KernelBody:
    """Translates level-2 lambda code into the code one thread runs."""

    def __init__(self, builder: Builder, values: dict[SSAValue, SSAValue | Row]):
        self.b = builder
        self.values = values

    def value(self, v: SSAValue) -> SSAValue:
        new = self.values[v]
        if isinstance(new, Row):
            raise KeyError(v)
        return new

    def row(self, v: SSAValue) -> Row:
        new = self.values[v]
        if isinstance(new, Row):
            return new
        if isinstance(new.type, MemRefType):
            return Row(new, ())
        raise KeyError(v)

    def element_or_row(self, row: Row, index: SSAValue) -> SSAValue | Row:
        """Row `index` of `row`: an element when that leaves no dimension."""
        if row.rank == 1:
            return self.b.insert(memref.LoadOp.get(row.view, [*row.prefix, index])).res
        return Row(row.view, (*row.prefix, index))

    def store(self, value: SSAValue | Row, row: Row, index: SSAValue, where: Operation) -> None:
        """Writes a scalar, or copies a row, to row `index` of `row`."""
        target = Row(row.view, (*row.prefix, index))
        if not isinstance(value, Row) and isinstance(value.type, MemRefType):
            value = Row(value, ())  # a whole view (captured from outside) is copied
        if not isinstance(value, Row):
            self.b.insert(memref.StoreOp.get(value, row.view, list(target.prefix)))
            return
        if value == target:
            return  # built in place
        self.copy(value, target)

    def copy(self, source: Row, target: Row) -> None:
        """An element-by-element copy, one nested loop per dimension."""
        if source.rank == 0:
            x = self.b.insert(memref.LoadOp.get(source.view, list(source.prefix))).res
            self.b.insert(memref.StoreOp.get(x, target.view, list(target.prefix)))
            return
        n = self.dim(source, 0)
        self.loop(n, lambda j: self.copy(Row(source.view, (*source.prefix, j)), Row(target.view, (*target.prefix, j))))

    def dim(self, row: Row, axis: int) -> SSAValue:
        position = _index(self.b, len(row.prefix) + axis)
        return self.b.insert(memref.DimOp(row.view, position)).result

    def loop(self, n: SSAValue, body, carried: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """for j in 0..n: body(j, *carried) -> new carried values."""
        zero, one = _index(self.b, 0), _index(self.b, 1)
        block = Block(arg_types=[IndexType(), *[c.type for c in carried]])
        outer = self.b
        self.b = Builder(InsertPoint.at_end(block))
        try:
            results = body(block.args[0], *block.args[1:]) or []
            self.b.insert(scf.YieldOp(*results))
        finally:
            self.b = outer
        loop = self.b.insert(scf.ForOp(zero, n, one, list(carried), Region(block)))
        return list(loop.results)

    # --- ops -----------------------------------------------------------------------------

    def translate_block(self, block: Block, stop_at_terminator: bool = True) -> None:
        for op in block.ops:
            if stop_at_terminator and op is block.last_op and op.has_trait(IsTerminator):
                return
            self.translate(op)

    def translate(self, op: Operation) -> None:
        match op:
            case mem.LoadOp():
                row = self.row(op.view)
                load = self.b.insert(memref.LoadOp.get(row.view, [*row.prefix, *[self.value(i) for i in op.indices]]))
                self.values[op.result] = load.res
            case mem.StoreOp():
                row = self.row(op.view)
                self.b.insert(memref.StoreOp.get(self.value(op.value), row.view, [*row.prefix, *[self.value(i) for i in op.indices]]))
            case mem.SizeOp():
                self.values[op.result] = self.dim(self.row(op.view), op.dim.value.data)
            case mem.SliceOp() if all(k == SliceSpec.FIXED for k in op.kinds.get_values()):
                row = self.row(op.source)
                self.values[op.result] = Row(row.view, (*row.prefix, *[self.value(i) for i in op.spec]))
            case mem.MapOp():
                self.nested_map(op)
            case mem.ReduceOp() if not op.outputs:
                self.nested_reduce(op)
            case mem.ScanOp():
                self.nested_scan(op)
            case mem.AllocOp():
                raise CannotLower(
                    op,
                    "allocates inside a kernel; per-thread memory must first be expanded into "
                    "one allocation before the launch, which is not done yet",
                )
            case scf.IfOp() | scf.ForOp() | scf.WhileOp():
                self.structured(op)
            case scf.YieldOp() | scf.ConditionOp():
                self.b.insert(op.clone(value_mapper={v: self.value(v) for v in op.operands}))
            case _ if op.dialect_name() in ("arith", "math") and not op.regions:
                new = op.clone(value_mapper={v: self.value(v) for v in op.operands})
                self.b.insert(new)
                for old_r, new_r in zip(op.results, new.results):
                    self.values[old_r] = new_r
            case _:
                raise CannotLower(op, "cannot run inside a kernel yet")

    def structured(self, op: Operation) -> None:
        if any(isinstance(r.type, MemRefType | mem.BlockType) for r in op.results):
            raise CannotLower(op, "carries arrays through control flow inside a kernel, which is not supported yet")
        new = op.clone(value_mapper={v: self.value(v) for v in op.operands})
        # the regions are translated afresh (they may hold mem ops)
        for old_region, new_region in zip(op.regions, new.regions):
            for old_block, new_block in zip(old_region.blocks, new_region.blocks):
                for inner in list(new_block.ops):
                    new_block.erase_op(inner, safe_erase=False)
                for old_arg, new_arg in zip(old_block.args, new_block.args):
                    self.values[old_arg] = new_arg
                outer = self.b
                self.b = Builder(InsertPoint.at_end(new_block))
                try:
                    self.translate_block(old_block, stop_at_terminator=False)
                finally:
                    self.b = outer
        self.b.insert(new)
        for old_r, new_r in zip(op.results, new.results):
            self.values[old_r] = new_r

    def nested_map(self, op: mem.MapOp) -> None:
        k = len(op.inputs)
        ins = [self.row(v) for v in op.inputs]
        outs = [self.row(v) for v in op.outputs]
        body = op.body.block
        array_outs = [o for o in outs if o.rank > 1]

        def row_body(j: SSAValue):
            for param, source in zip(body.args[:k], ins):
                self.values[param] = self.element_or_row(source, j)
            for param, out in zip(body.args[k:], array_outs):
                self.values[param] = Row(out.view, (*out.prefix, j))
            self.translate_block(body)
            for value, out in zip(body.last_op.operands, outs):
                self.store(self.values[value], out, j, op)

        self.loop(self.dim(ins[0], 0), row_body)

    def _operator(self, region: Region, left: Sequence[SSAValue], right: Sequence[SSAValue]) -> list[SSAValue]:
        block = region.block
        for param, v in zip(block.args, [*left, *right]):
            self.values[param] = v
        self.translate_block(block)
        return [self.value(v) for v in block.last_op.operands]

    def nested_reduce(self, op: mem.ReduceOp) -> None:
        ins = [self.row(v) for v in op.inputs]
        if any(r.rank != 1 for r in ins):
            raise CannotLower(op, "reduces rows inside a kernel, which is not supported yet")
        neutral = [self.value(v) for v in op.neutral]

        def step(j: SSAValue, *acc: SSAValue):
            xs = [self.element_or_row(r, j) for r in ins]
            return self._operator(op.body, acc, xs)

        results = self.loop(self.dim(ins[0], 0), step, neutral)
        for old, new in zip(op.results_, results):
            self.values[old] = new

    def nested_scan(self, op: mem.ScanOp) -> None:
        ins = [self.row(v) for v in op.inputs]
        outs = [self.row(v) for v in op.outputs]
        if any(r.rank != 1 for r in ins):
            raise CannotLower(op, "scans rows inside a kernel, which is not supported yet")

        def step(j: SSAValue, *acc: SSAValue):
            xs = [self.element_or_row(r, j) for r in ins]
            new = self._operator(op.body, acc, xs)
            for v, out in zip(new, outs):
                self.store(v, out, j, op)
            return new

        self.loop(self.dim(ins[0], 0), step, [self.value(v) for v in op.neutral])


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
    first = b.insert(gpu.GlobalIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result
    threads = b.insert(
        arith.MuliOp(
            b.insert(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result,
            b.insert(gpu.BlockDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result,
        )
    ).results[0]
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


def build_gpu_body_kernel(op: mem.GpuBodyOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """A single-threaded kernel: the body runs once; value j goes to element 0 of output j."""
    captured = [v for v in captured_values(op) if v not in op.outputs]
    operands = [*captured, *op.outputs]
    block = Block(arg_types=[v.type for v in operands])
    for param, v in zip(block.args, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    body = KernelBody(Builder(InsertPoint.at_end(block)), dict(zip(operands, block.args)))
    body.translate_block(op.body.block)
    zero = _index(body.b, 0)
    outs = block.args[len(captured) :]
    for value, out in zip(op.body.block.last_op.operands, outs):
        body.store(body.values[value], Row(out, ()), zero, op)
    body.b.insert(gpu.ReturnOp([]))
    return gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True), operands


def build_map_kernel(op: mem.MapOp, name: str) -> tuple[gpu.FuncOp, list[SSAValue]]:
    """The kernel of a host-level map, and the host values to launch it with (the
    captured values, the inputs, the outputs; then the row count)."""
    captured = [v for v in captured_values(op) if v not in op.inputs and v not in op.outputs]
    operands = [*captured, *op.inputs, *op.outputs]
    block = Block(arg_types=[*[v.type for v in operands], IndexType()])
    *params, n = block.args
    for param, v in zip(params, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    n.name_hint = "rows"
    b = Builder(InsertPoint.at_end(block))
    values: dict[SSAValue, SSAValue | Row] = dict(zip(operands, params))
    first = b.insert(gpu.GlobalIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result
    threads = b.insert(
        arith.MuliOp(
            b.insert(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result,
            b.insert(gpu.BlockDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))).result,
        )
    ).results[0]
    k = len(op.inputs)
    in_params = params[len(captured) : len(captured) + k]
    out_params = params[len(captured) + k :]
    row_block = Block(arg_types=[IndexType()])
    i = row_block.args[0]
    i.name_hint = "row"
    body = KernelBody(Builder(InsertPoint.at_end(row_block)), values)
    lam = op.body.block
    for param, view in zip(lam.args[:k], in_params):
        body.values[param] = body.element_or_row(Row(view, ()), i)
    array_outs = [v for v in out_params if v.type.get_num_dims() > 1]
    for param, view in zip(lam.args[k:], array_outs):
        body.values[param] = Row(view, (i,))
    body.translate_block(lam)
    for value, view in zip(lam.last_op.operands, out_params):
        body.store(body.values[value], Row(view, ()), i, op)
    body.b.insert(scf.YieldOp())
    b.insert(scf.ForOp(first, n, threads, [], Region(row_block)))
    b.insert(gpu.ReturnOp([]))
    kernel = gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True)
    return kernel, operands


def _launch(b: Builder, kernel: str, operands: Sequence[SSAValue], rows: SSAValue) -> None:
    threads = _index(b, THREADS_PER_BLOCK)
    one = _index(b, 1)
    needed = b.insert(arith.CeilDivUIOp(rows, threads)).results[0]
    capped = b.insert(arith.MinUIOp(needed, _index(b, MAX_BLOCKS))).results[0]
    blocks = b.insert(arith.MaxUIOp(capped, one)).results[0]
    b.insert(
        gpu.LaunchFuncOp(
            SymbolRefAttr("kernels", [kernel]),
            [blocks, one, one],
            [threads, one, one],
            kernelOperands=[*operands, rows],
        )
    )


def _fail(error: CannotLower) -> PassFailedException:
    message = f"convert-mem-to-gpu: {error.op.name} {error}"
    exception = PassFailedException(message)
    exception.op = error.op  # type: ignore[attr-defined]  (for located diagnostics)
    diagnostic = Diagnostic()
    diagnostic.add_message(error.op, message)
    try:
        diagnostic.raise_exception(error.op, exception)
    except PassFailedException as annotated:
        return annotated
    return exception


class ConvertMemToGpuPass(ModulePass):
    """Outlines host-level maps into gpu kernels (the first part of level 2 to level 3)."""

    name = "convert-mem-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels: list[gpu.FuncOp] = []
        host_kernels = [
            k
            for f in op.ops
            if isinstance(f, func.FuncOp)
            for k in f.walk()
            if type(k) in _BUILDERS and not _inside_kernel(k)
        ]
        try:
            for k in host_kernels:
                kind, build, rows_of = _BUILDERS[type(k)]
                name = f"{kind}{len(kernels)}"
                kernel, operands = build(k, name)
                kernels.append(kernel)
                b = Builder(InsertPoint.before(k))
                if rows_of is None:  # a single thread
                    one = _index(b, 1)
                    b.insert(gpu.LaunchFuncOp(SymbolRefAttr("kernels", [name]), [one, one, one], [one, one, one], kernelOperands=operands))
                else:
                    _launch(b, name, operands, b.insert(mem.SizeOp(rows_of(k), 0)).result)
                Rewriter.erase_op(k)
        except CannotLower as error:
            raise _fail(error) from None
        if kernels:
            # (gpu.ModuleOp.__init__ takes a SymbolRefAttr, but its verifier wants a StringAttr)
            op.body.block.add_op(gpu.ModuleOp(StringAttr("kernels"), Region(Block(kernels))))  # type: ignore[arg-type]
            op.attributes["gpu.container_module"] = UnitAttr()


_BUILDERS = {
    mem.MapOp: ("map", build_map_kernel, lambda k: k.inputs[0]),
    mem.IotaOp: ("iota", build_iota_kernel, lambda k: k.output),
    mem.FillOp: ("fill", build_fill_kernel, lambda k: k.output),
    mem.ScatterOp: ("scatter", build_scatter_kernel, lambda k: k.indices),
    mem.GpuBodyOp: ("gpu_body", build_gpu_body_kernel, None),
}
"""Kernel ops lowered so far: name prefix, kernel builder, and the view whose outer size
is the kernel's row count (None: one thread)."""


def _inside_kernel(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, mem.MapOp | mem.ReduceOp | mem.ScanOp | mem.HistOp | mem.GpuBodyOp):
            return True
        parent = parent.parent_op()
    return False

