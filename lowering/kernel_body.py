"""What kernel builders share: how level-2 lambda code becomes the code one thread
runs (`KernelBody`), rows addressed in place (`Row`), and the error for what cannot run
in a kernel (`CannotLower`, reported at the op by convert-mem-to-gpu)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, gpu, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, IndexType, IntegerAttr, MemRefType, StridedLayoutAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

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


def index_constant(b: Builder, n: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(n, IndexType()))).results[0]


def threshold(b: Builder, name: str, default: int) -> SSAValue:
    """Host code: a size at which the host switches between versions of a kernel,
    `default` unless the run's tuning names it (mem.threshold)."""
    return b.insert(mem.ThresholdOp(name, default)).result


def host_branch(b: Builder, condition: SSAValue, then, otherwise) -> None:
    """Host code: then(builder) where `condition` holds, else otherwise(builder)."""
    regions = []
    for branch in (then, otherwise):
        block = Block()
        branch(Builder(InsertPoint.at_end(block)))
        block.add_op(scf.YieldOp())
        regions.append(Region(block))
    b.insert(scf.IfOp(condition, [], regions[0], regions[1]))


def choose_from(b: Builder, size: SSAValue, name: str, default: int, above, below) -> None:
    """Host code: above(builder) where `size` is at least the threshold `name`
    (mem.threshold, `default` unless tuned), else below(builder)."""
    reached = b.insert(arith.CmpiOp(size, threshold(b, name, default), "uge")).result
    host_branch(b, reached, above, below)


def index_value(b: Builder, n: int | SSAValue) -> SSAValue:
    """n as an index value: a constant for an int, else n itself."""
    return index_constant(b, n) if isinstance(n, int) else n


def is_first_row_of(value: SSAValue, view: SSAValue) -> bool:
    """Whether `value` is `mem.slice %view[0]`: row 0 of `view` itself."""
    row = value.owner
    return (
        isinstance(row, mem.SliceOp)
        and row.source == view
        and list(row.kinds.get_values()) == [SliceSpec.FIXED]
        and const_evaluate_operand(row.spec[0]) == 0
    )


def gpu_body_stores(op: mem.GpuBodyOp) -> list[tuple[SSAValue, SSAValue]]:
    """(value, output) for each result a gpu_body's kernel stores to element 0 of its
    output: all but those the body built in place (row 0 of that output itself)."""
    results = op.body.block.last_op.operands
    return [(value, out) for value, out in zip(results, op.outputs) if not is_first_row_of(value, out)]


def gpu_body_outputs(op: mem.GpuBodyOp) -> list[SSAValue]:
    """The outputs a gpu_body's kernel takes: those its statements use, and those it
    stores its results to."""
    needed = {v for inner in op.body.walk() for v in inner.operands} | {out for _, out in gpu_body_stores(op)}
    return [out for out in op.outputs if out in needed]


class KernelBody:
    """Translates level-2 lambda code into the code one thread runs."""

    def __init__(self, builder: Builder, values: dict[SSAValue, SSAValue | Row]):
        self.b = builder
        self.values = values
        self.scratch: dict[Operation, object] = {}
        """Each mem.alloc of the kernel's lambdas: its thread's slot (a ScratchBlock)."""
        self.shared: dict[Operation, Callable[[], tuple[SSAValue, SSAValue]]] = {}
        """Nested maps and copies whose rows the threads of a group share
        (gpu_segmented.py): for each, this thread's first row and the step to its next."""

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

    def copy(self, source: Row, target: Row, op: Operation | None = None) -> None:
        """An element-by-element copy, one nested loop per dimension (the outer one only
        over this thread's rows where a group shares the rows of the copy `op`)."""
        if source.rank == 0:
            x = self.b.insert(memref.LoadOp.get(source.view, list(source.prefix))).res
            self.b.insert(memref.StoreOp.get(x, target.view, list(target.prefix)))
            return

        def row(j: SSAValue) -> None:
            self.copy(Row(source.view, (*source.prefix, j)), Row(target.view, (*target.prefix, j)))

        self.rows_loop(op, source, row)

    def check_same_shape(self, source: Row, target: Row) -> None:
        """A copy's two shapes agree, as mem.copy checks on the host: inside a kernel a
        failed check stops the launch (a cf.assert traps, as a size check a pass left in
        a lambda does), instead of copying part of a row or writing past one. Sizes the
        types fix alike fold away."""
        for axis in range(source.rank):
            a, b = self.dim(source, axis), self.dim(target, axis)
            same = self.op(arith.CmpiOp(a, b, "eq"))
            self.b.insert(cf.AssertOp(same, "copies an array into one of another shape"))

    def dim(self, row: Row, axis: int) -> SSAValue:
        position = index_constant(self.b, len(row.prefix) + axis)
        return self.b.insert(memref.DimOp(row.view, position)).result

    def loop(self, n: SSAValue, body, carried: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """for j in 0..n: body(j, *carried) -> new carried values."""
        return self.range_loop(index_constant(self.b, 0), n, index_constant(self.b, 1), body, carried)

    def rows_loop(self, op: Operation | None, row: Row, body) -> None:
        """for j over the rows of `row`: body(j); only this thread's rows where the
        threads of a group share the rows of `op` (self.shared)."""
        if op in self.shared:
            first, step = self.shared[op]()
            self.range_loop(first, self.dim(row, 0), step, body)
        else:
            self.loop(self.dim(row, 0), body)

    def range_loop(self, lb: SSAValue, ub: SSAValue, step: SSAValue, body, carried: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """for j in lb, lb+step, ... < ub: body(j, *carried) -> new carried values."""
        block = Block(arg_types=[IndexType(), *[c.type for c in carried]])
        outer = self.b
        self.b = Builder(InsertPoint.at_end(block))
        try:
            results = body(block.args[0], *block.args[1:]) or []
            self.b.insert(scf.YieldOp(*results))
        finally:
            self.b = outer
        loop = self.b.insert(scf.ForOp(lb, ub, step, list(carried), Region(block)))
        return list(loop.results)

    def when(self, condition: SSAValue, then, otherwise=None, result_types: Sequence = ()) -> list[SSAValue]:
        """if condition: then() else otherwise(); each returns the results (if any)."""
        regions = []
        for branch in (then, otherwise):
            if branch is None:
                regions.append(Region(Block([scf.YieldOp()])) if result_types else Region())
                continue
            block = Block()
            outer = self.b
            self.b = Builder(InsertPoint.at_end(block))
            try:
                results = branch() or []
                self.b.insert(scf.YieldOp(*results))
            finally:
                self.b = outer
            regions.append(Region(block))
        op = self.b.insert(scf.IfOp(condition, list(result_types), regions[0], regions[1]))
        return list(op.results)

    def op(self, operation: Operation) -> SSAValue:
        """Inserts an op and gives its (first) result."""
        self.b.insert(operation)
        return operation.results[0] if operation.results else None  # type: ignore[return-value]

    def constant(self, value: int, t=None) -> SSAValue:
        return self.op(arith.ConstantOp(IntegerAttr(value, t or IndexType())))

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
            case mem.SliceOp():
                from soacc.dialects import soacc_gpu

                source = self.materialise(op.source)
                t = op.result.type
                self.values[op.result] = self.op(
                    soacc_gpu.SliceOp(source, list(op.kinds.get_values()), [self.value(v) for v in op.spec], t)
                )
            case mem.MapOp():
                self.nested_map(op)
            case mem.ReduceOp() if not op.outputs:
                self.nested_reduce(op)
            case mem.ScanOp():
                self.nested_scan(op)
            case mem.RedomapOp() | mem.ScanomapOp() | mem.ScatteromapOp() | mem.HistomapOp() | mem.HistOp():
                from soacc.lowering.kernel_elements import translate_nested

                translate_nested(self, op)
            case mem.AllocOp() if op in self.scratch:
                self.values[op.results[0]] = self.scratch[op]  # type: ignore[assignment]
            case mem.AllocOp():
                raise CannotLower(op, "allocates inside a kernel that has no scratch memory for it")
            case mem.ViewOp():
                self.scratch_view(op)
            case scf.IfOp() | scf.ForOp() | scf.WhileOp():
                self.structured(op)
            case scf.YieldOp() | scf.ConditionOp():
                self.b.insert(op.clone(value_mapper={v: self.materialise(v) for v in op.operands}))
            case mem.ArrayOp():
                out = self.row(op.output)
                for j, element in enumerate(op.elements):
                    self.store(self.values[element], out, index_constant(self.b, j), op)
            case mem.FillOp():
                out = self.row(op.output)
                self.loop(self.dim(out, 0), lambda j: self.store(self.values[op.value], out, j, op))
            case mem.IotaOp():
                out = self.row(op.output)
                element = op.output.type.element_type
                cast = (lambda j: j) if isinstance(element, IndexType) else (lambda j: self.op(arith.IndexCastOp(j, element)))
                self.rows_loop(op, out, lambda j: self.store(cast(j), out, j, op))
            case mem.CopyOp():
                self.check_same_shape(self.row(op.source), self.row(op.dest))
                self.copy(self.row(op.source), self.row(op.dest), op)
            case mem.ScatterOp():
                self.scatter(op)
            case cf.AssertOp():
                self.b.insert(op.clone(value_mapper={op.arg: self.value(op.arg)}))
            case _ if op.dialect_name() in ("arith", "math") and not op.regions:
                new = op.clone(value_mapper={v: self.value(v) for v in op.operands})
                self.b.insert(new)
                for old_r, new_r in zip(op.results, new.results):
                    self.values[old_r] = new_r
            case _:
                raise CannotLower(op, "cannot run inside a kernel yet")

    def scatter(self, op: mem.ScatterOp) -> None:
        """A scatter inside a kernel: its thread writes value j to row indices[j] of the
        destination, in order (the last of equal indices wins, as on the reference
        executor), ignoring indices out of bounds (negative ones become huge)."""
        dest, indices, values = self.row(op.dest), self.row(op.indices), self.row(op.values)
        rows = self.dim(dest, 0)

        def one(j: SSAValue) -> None:
            k = self.op(memref.LoadOp.get(indices.view, [*indices.prefix, j]))
            if not isinstance(k.type, IndexType):
                k = self.op(arith.IndexCastOp(k, IndexType()))
            if values.rank > 1:
                value: SSAValue | Row = Row(values.view, (*values.prefix, j))
            else:
                value = self.op(memref.LoadOp.get(values.view, [*values.prefix, j]))
            self.when(self.op(arith.CmpiOp(k, rows, "ult")), lambda: self.store(value, dest, k, op))

        self.loop(self.dim(indices, 0), one)

    def scratch_view(self, op: mem.ViewOp) -> None:
        """A view of a thread's slot, row-major unless strides are given, in the
        threads' interleaved layout (kernel_scratch): its strides times the threads, from
        the slot's start plus its byte offset times the threads plus its thread's
        element."""
        from soacc.dialects import soacc_gpu

        slot = self.values[op.block]
        t = op.result.type
        assert isinstance(t, MemRefType)
        dynamic = iter(op.sizes)
        sizes = [self.value(next(dynamic)) if d == DYNAMIC_INDEX else index_constant(self.b, d) for d in t.get_shape()]
        if op.strides:
            strides = [self.value(s) for s in op.strides]
        else:
            strides = []
            running = index_constant(self.b, 1)
            for size in reversed(sizes):
                strides.insert(0, running)
                running = self.op(arith.MuliOp(running, size))
        threads = slot.threads  # type: ignore[union-attr]
        strides = [self.op(arith.MuliOp(s, threads)) for s in strides]
        element_bytes = index_constant(self.b, t.element_type.compile_time_size)
        offset = self.op(arith.MuliOp(self.value(op.byte_offset), threads))
        offset = self.op(arith.AddiOp(slot.slot_start, offset))  # type: ignore[union-attr]
        offset = self.op(arith.AddiOp(offset, self.op(arith.MuliOp(slot.thread, element_bytes))))  # type: ignore[union-attr]
        self.values[op.result] = self.op(soacc_gpu.ViewOp(slot.buffer, offset, sizes, strides, t))  # type: ignore[union-attr]

    def materialise(self, v: SSAValue) -> SSAValue:
        """v as an SSA value of the kernel: a row addressed by fixed indices becomes a
        view of its own (soacc_gpu.row)."""
        from soacc.dialects import soacc_gpu

        new = self.values[v]
        if not isinstance(new, Row):
            return new
        if not new.prefix:
            return new.view
        t = new.view.type
        assert isinstance(t, MemRefType)
        rest = t.get_shape()[len(new.prefix) :]
        row_type = MemRefType(t.element_type, rest, StridedLayoutAttr([None] * len(rest), None), t.memory_space)
        return self.op(soacc_gpu.RowOp(new.view, list(new.prefix), row_type))

    def structured(self, op: Operation) -> None:
        if any(isinstance(r.type, mem.BlockType) for r in op.results) or (
            not isinstance(op, scf.IfOp) and any(isinstance(r.type, MemRefType) for r in op.results)
        ):
            raise CannotLower(op, "carries arrays through a loop inside a kernel, which is not supported yet")
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
        """The map's rows in a loop (this thread's share, where a group shares them)."""
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
            if op.row_index is not None:
                self.values[op.row_index] = j
            self.translate_block(body)
            for value, out in zip(body.last_op.operands, outs):
                self.store(self.values[value], out, j, op)

        self.rows_loop(op, (*ins, *outs)[0], row_body)

    def run_gpu_body(self, op: mem.GpuBodyOp, zero: SSAValue | None = None) -> None:
        """A gpu_body's statements on this thread, then its results to element 0 of their
        outputs (gpu_body_stores); `zero` is the index 0 where the kernel has one."""
        self.translate_block(op.body.block)
        stores = gpu_body_stores(op)
        if stores and zero is None:
            zero = self.constant(0)
        for value, out in stores:
            self.store(self.values[value], Row(self.values[out], ()), zero, op)

    def apply_operator(self, region: Region, left: Sequence[SSAValue], right: Sequence[SSAValue]) -> list[SSAValue]:
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
            return self.apply_operator(op.body, acc, xs)

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
            new = self.apply_operator(op.body, acc, xs)
            for v, out in zip(new, outs):
                self.store(v, out, j, op)
            return new

        self.loop(self.dim(ins[0], 0), step, [self.value(v) for v in op.neutral])




def kernel_function(name: str, operands: Sequence[SSAValue], extra: Sequence[tuple[str, object]], build) -> gpu.FuncOp:
    """A kernel whose parameters are `operands` (host values, keeping their names) and
    then `extra` (name, type) parameters; build(kb, params, extra_params) writes its body
    with a KernelBody that maps each operand to its parameter."""
    block = Block(arg_types=[*[v.type for v in operands], *[t for _, t in extra]])
    params = list(block.args[: len(operands)])
    extra_params = list(block.args[len(operands) :])
    for param, v in zip(params, operands):
        if v.name_hint:
            param.name_hint = v.name_hint
    for param, (hint, _) in zip(extra_params, extra):
        param.name_hint = hint
    kb = KernelBody(Builder(InsertPoint.at_end(block)), dict(zip(operands, params)))
    build(kb, params, extra_params)
    kb.b.insert(gpu.ReturnOp([]))
    return gpu.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), kernel=True)
