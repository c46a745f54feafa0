"""reduce-device-syncs: fewer synchronous device-to-host reads, by moving host scalar
code into single-threaded device regions (`soac.gpu_body`) where a minimum vertex cut
says so (digest §5–6; Futhark's ReduceDeviceSyncs).

The analysis (passes/analysis/migration_table.py) decides, per function, which values
are computed on the device; this pass only carries that out:

- an op whose value moves becomes its own `soac.gpu_body`, whose results are one-row
  arrays (the *storage* of the values); the host reads a value back
  (`soac.index %v_dev[%c0]`) only where the cut says so. Other gpu_bodies and kernel
  lambdas that use a moved value read it from its storage on the device;
- an `scf.if` or loop whose condition (a for loop's bounds) moves is moved whole; one
  that stays on the host carries moved values as one-row arrays: a branch or an
  iteration that yields a host value stores it (`soac.gpu_body` at the end of the
  branch or body, or a device constant made once at the function's entry), and a loop
  parameter in the cut is read at the start of each iteration;
- a scalar `soac.update` of a moved value becomes an update of a one-element slice, an
  asynchronous device copy; a `soac.replicate` of one replicates the storage;
- partial indexing, slices and updates at a moved position become `soac.device_index`
  and `soac.device_update`, copy kernels that read the position from its storage (the
  analysis moves such an index only where device work alone uses what it addresses);
- a reduction result that only device code uses is never read by the host at all
  (convert-soac-to-mem leaves it in device memory);
- array literals with a scalar variable always move: their writes happen on the device.

Nested gpu_bodies of a moved op are flattened and calls inlined, so every gpu_body is
one kernel. `merge-gpu-bodies` then merges neighbouring gpu_bodies. With
`dot=FILE` (or `dot=-` for stderr) the pass writes each function's graph and cut in
Graphviz DOT: what moves, what is read, and the route that forces each read.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects.shared.utils import defined_inside
from soacc.dialects import soac
from soacc.dialects.shared.traits import is_kernel, is_parallel_kernel, runs_on_device
from soacc.passes.utils.memory_motion import move
from soacc.passes.utils.read_sinking import sink_reads
from soacc.passes.analysis.device_loops import with_device_loops
from soacc.passes.analysis.migration_table import (
    MigrationTable,
    Placement,
    analyse_module,
    is_constant,
    is_scalar,
    single_element,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def read_row_zero(array: SSAValue) -> list[Operation]:
    """`%c0 = arith.constant 0; %v = soac.index %array[%c0]`."""
    zero = _index(0)
    return [zero, soac.IndexOp(array, [zero.result])]


class _Migration:
    """Carries out one function's migration table."""

    def __init__(self, table: MigrationTable, module: ModuleOp):
        self.table = table
        self.module = module
        self.function = table.function
        self.entry = self.function.body.block
        self.rewriter = PatternRewriter(self.function)  # every change to the function goes through it
        self.stored: dict[SSAValue, SSAValue] = {}
        """A host value (possibly a tentative read) -> its one-row device storage."""
        self.off_host: set[SSAValue] = set()
        """Tentative host reads of values that moved off the host: device code reads
        their storage instead, and a read nobody uses is removed at the end."""
        self.device_direct: set[SSAValue] = set()
        """Kernel results that stay in device memory: device code uses them as they are."""
        self.rebindings: list[Operation] = []
        self.constants: dict[tuple, SSAValue] = {}
        self.copies: dict[SSAValue, SSAValue] = {}
        """Host values stored for the device by a gpu_body of their own."""
        self.to_move: set[Operation] = set()
        self._collect(self.entry)

    def _collect(self, block: Block) -> None:
        for op in block.ops:
            if self.table.should_move(op):
                self.to_move.add(op)
                continue
            if is_parallel_kernel(op):
                self.device_direct.update(
                    r for r in op.results if is_scalar(r) and self.table.status(r) is Placement.DEVICE
                )
                continue
            if isinstance(op, soac.GpuBodyOp):
                continue
            for region in op.regions:
                for b in region.blocks:
                    self._collect(b)

    def off(self, value: SSAValue) -> bool:
        """`value` is not (really) on the host."""
        return value in self.off_host or value in self.device_direct

    # --- the walk ------------------------------------------------------------------------

    def run(self) -> None:
        self.process_block(self.entry)
        for op in reversed(self.rebindings):
            if op.parent is not None and not any(r.uses for r in op.results):
                zero = op.operands[1] if len(op.operands) > 1 else None
                self.rewriter.erase(op)
                if zero is not None and not zero.uses and isinstance(zero.owner, arith.ConstantOp):
                    self.rewriter.erase(zero.owner)

    def process_block(self, block: Block) -> None:
        for op in list(block.ops):
            self.process(op)

    def process(self, op: Operation) -> None:
        if op in self.to_move:
            self.move(op)
        elif isinstance(op, scf.IfOp):
            self.process_if(op)
        elif isinstance(op, scf.ForOp):
            self.process_for(op)
        elif isinstance(op, scf.WhileOp):
            self.process_while(op)
        elif is_kernel(op):
            self.localize(op)
        elif isinstance(op, soac.UpdateOp) and is_scalar(op.value):
            self.rewrite_update(op)
        elif isinstance(op, soac.IndexOp) and not is_scalar(op.result) and any(map(self.off, op.indices)):
            self.rewrite_device_index(op)
        elif isinstance(op, soac.SliceOp) and any(map(self.off, op.spec)):
            self.rewrite_device_index(op)
        elif isinstance(op, soac.UpdateOp) and any(map(self.off, op.spec)):
            self.rewrite_device_update(op)
        elif isinstance(op, soac.ReplicateOp) and is_scalar(op.value):
            self.rewrite_replicate(op)

    # --- reading moved values on the device ------------------------------------------------

    def localize(self, op: Operation) -> None:
        """Device code in `op` reads moved values from their storage: a read at the top
        of each region that uses one."""
        for region in op.regions:
            used: list[SSAValue] = []
            for inner in region.walk():
                for v in inner.operands:
                    if v in self.off_host and not defined_inside(v, op) and v not in used:
                        used.append(v)
            if not used:
                continue
            block = region.blocks[0]
            zero = _index(0)
            reads = [zero]
            for v in used:
                read = soac.IndexOp(self.stored[v], [zero.result])
                read.result.name_hint = v.name_hint
                reads.append(read)
                self.rewriter.replace_uses_with_if(v, read.result, lambda use, r=region: r.is_ancestor(use.operation))
            self.rewriter.insert(reads, InsertPoint.at_start(block))

    def replace_by_one_row(self, op: Operation, value: SSAValue) -> None:
        """`op`, whose one result is a one-element array of `value`, becomes a gpu_body
        that yields `value` (its result is that one-row array)."""
        gpu = soac.GpuBodyOp([op.results[0].type], Region(Block([soac.YieldOp(value)])))
        self.rewriter.replace(op, gpu)
        self.prepare_device_body(gpu)

    def prepare_device_body(self, gpu: soac.GpuBodyOp) -> None:
        """Makes a new gpu_body one kernel: nested gpu_bodies flattened, calls inlined,
        moved values read from their storage."""
        for nested in [o for o in gpu.walk() if isinstance(o, soac.GpuBodyOp) and o is not gpu]:
            flatten_gpu_body(nested, self.rewriter)
        while True:
            calls = [o for o in gpu.walk() if isinstance(o, func.CallOp)]
            if not calls:
                break
            for call in calls:
                self.inline(call)
        self.localize(gpu)

    def inline(self, call: func.CallOp) -> None:
        """The callee's body in place of the call (the analysis only moves calls of
        functions without arrays, soac ops or recursion)."""
        name = call.callee.root_reference
        callee = next(f for f in self.module.ops if isinstance(f, func.FuncOp) and f.sym_name == name)
        assert isinstance(callee, func.FuncOp)
        body = callee.body.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, call.arguments))
        block = call.parent_block()
        assert block is not None
        for op in body.ops:
            if isinstance(op, func.ReturnOp):
                for r, v in zip(call.results, op.operands):
                    self.rewriter.replace_all_uses_with(r, mapping.get(v, v))
                break
            clone = op.clone(value_mapper=mapping)
            self.rewriter.insert(clone, InsertPoint.before(call))
        self.rewriter.erase(call)

    # --- storage ---------------------------------------------------------------------------

    def store(self, value: SSAValue) -> SSAValue:
        """A one-row device array holding `value`: its storage when it moved, a device
        constant made once at the function's entry, or a gpu_body storing it once, right
        where it is defined (so out of every branch and loop it does not depend on)."""
        if value in self.stored:
            return self.stored[value]
        if is_constant(value):
            return self.device_constant(value)
        if value not in self.copies:
            gpu = soac.GpuBodyOp([soac.array_of(value.type, 1)], Region(Block([soac.YieldOp(value)])))
            gpu.outputs[0].name_hint = f"{value.name_hint}_dev" if value.name_hint else None
            owner = value.owner
            if isinstance(owner, Block):
                assert owner.first_op is not None
                self.rewriter.insert(gpu, InsertPoint.at_start(owner))
            else:
                self.rewriter.insert(gpu, InsertPoint.after(owner))
            self.copies[value] = gpu.outputs[0]
        return self.copies[value]

    def device_constant(self, value: SSAValue) -> SSAValue:
        constant = value.owner
        assert isinstance(constant, arith.ConstantOp)
        key = (constant.value, value.type)
        if key not in self.constants:
            inner = constant.clone()
            gpu = soac.GpuBodyOp([soac.array_of(value.type, 1)], Region(Block([inner, soac.YieldOp(inner.result)])))
            gpu.outputs[0].name_hint = "const_dev"
            self._at_entry([gpu])
            self.constants[key] = gpu.outputs[0]
        return self.constants[key]

    def _at_entry(self, ops: list[Operation]) -> None:
        self.rewriter.insert(ops, InsertPoint.at_start(self.entry))

    def rebind(self, storage: SSAValue, after: Operation, name: str | None, moved: bool) -> SSAValue:
        """`%v = soac.index storage[%c0]` after `after`: the value on the host. When the
        value `moved` off the host the read is tentative: device code reads the storage
        instead, and the read goes when nothing on the host uses it."""
        ops = read_row_zero(storage)
        self.rewriter.insert(ops, InsertPoint.after(after))
        host = ops[1].results[0]
        host.name_hint = name
        self.rebindings.append(ops[1])
        if is_scalar(host):
            self.stored[host] = storage
            if moved:
                self.off_host.add(host)
        return host

    def rebind_at_start(self, storage: SSAValue, block: Block, name: str | None, moved: bool) -> SSAValue:
        ops = read_row_zero(storage)
        assert block.first_op is not None
        self.rewriter.insert(ops, InsertPoint.at_start(block))
        host = ops[1].results[0]
        host.name_hint = name
        self.rebindings.append(ops[1])
        self.stored[host] = storage
        if moved:
            self.off_host.add(host)
        return host

    # --- moving ops ------------------------------------------------------------------------

    def move(self, op: Operation) -> None:
        """`op` runs in a gpu_body of its own; its results come back as one-row arrays."""
        block = op.parent_block()
        assert block is not None
        if isinstance(op, soac.ArrayOp) and len(op.elements) == 1 and is_scalar(op.elements[0]):
            # `[x]` is already one row: the gpu_body makes it directly
            self.replace_by_one_row(op, op.elements[0])
            return
        statuses = [self.table.status(r) for r in op.results]
        body = Block()
        gpu = soac.GpuBodyOp([soac.array_of(r.type, 1) for r in op.results], Region(body))
        self.rewriter.insert(gpu, InsertPoint.before(op))
        move(op, InsertPoint.at_end(body))
        self.rewriter.insert(soac.YieldOp(*op.results), InsertPoint.at_end(body))
        after: Operation = gpu
        for r, storage, status in zip(op.results, gpu.outputs, statuses):
            if r.name_hint:
                storage.name_hint = f"{r.name_hint}_dev"
            host = self.rebind(storage, after, r.name_hint, moved=status is Placement.DEVICE)
            after = host.owner  # type: ignore[assignment]
            self.rewriter.replace_uses_with_if(r, host, lambda use, g=gpu: not g.is_ancestor(use.operation))
        self.prepare_device_body(gpu)

    # --- structured control flow that stays on the host --------------------------------------

    def process_if(self, op: scf.IfOp) -> None:
        statuses = [self.table.status(r) for r in op.results]
        blocks = [r.block for r in op.regions if r.blocks]
        for b in blocks:
            self.process_block(b)
        if not op.results:
            return
        yields = [b.last_op for b in blocks]
        changed = [
            i
            for i, r in enumerate(op.results)
            if is_scalar(r) and any(self.off(y.operands[i]) for y in yields)
        ]
        if not changed:
            return
        for i in changed:
            for y in yields:
                y.operands[i] = self.store(y.operands[i])
        types = [soac.array_of(r.type, 1) if i in changed else r.type for i, r in enumerate(op.results)]
        regions = [self.rewriter.move_region_contents_to_new_regions(r) for r in list(op.regions)]
        new = scf.IfOp(op.cond, types, regions[0], regions[1] if len(regions) > 1 else None)
        self.rewriter.insert(new, InsertPoint.before(op))
        self.replace_results(op, new, changed, statuses)

    def carry_on_device(self, block: Block, index: int, moved: bool) -> None:
        """Block argument `index` becomes a one-row array, read at the top of the block."""
        old = block.args[index]
        new = self.rewriter.insert_block_argument(block, index, soac.array_of(old.type, 1))
        new.name_hint = f"{old.name_hint}_dev" if old.name_hint else None
        host = self.rebind_at_start(new, block, old.name_hint, moved)
        self.rewriter.replace_all_uses_with(old, host)
        host.name_hint = old.name_hint
        self.rewriter.erase_block_argument(old)

    def carry_scalars(self, block: Block, first: int, inits: list[SSAValue]) -> list[int]:
        """The loop's scalar parameters (`block`'s arguments from `first` on) that are
        not on the host are carried on the device: their initial values stored, each a
        one-row device array read at the start of the body. Returns their positions."""
        params = list(block.args[first:])
        status = [self.table.status(p) for p in params]
        carried = [i for i, p in enumerate(params) if is_scalar(p) and status[i] is not Placement.HOST]
        for i in carried:
            inits[i] = self.store(inits[i])
            self.carry_on_device(block, i + first, moved=status[i] is Placement.DEVICE)
        return carried

    def process_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        result_status = [self.table.status(r) for r in op.results]
        inits = list(op.iter_args)
        carried = self.carry_scalars(body, 1, inits)
        self.process_block(body)
        if not carried:
            return
        yield_op = body.last_op
        for i in carried:
            yield_op.operands[i] = self.store(yield_op.operands[i])
        new = scf.ForOp(op.lb, op.ub, op.step, inits, self.rewriter.move_region_contents_to_new_regions(op.body))
        self.rewriter.insert(new, InsertPoint.before(op))
        self.replace_results(op, new, carried, result_status)

    def process_while(self, op: scf.WhileOp) -> None:
        before = op.before_region.block
        after = op.after_region.block
        arg_status = [self.table.status(a) for a in after.args]
        result_status = [self.table.status(r) for r in op.results]
        inits = list(op.arguments)
        carried = self.carry_scalars(before, 0, inits)
        self.process_block(before)
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        forwarded = [i for i, v in enumerate(condition.args) if is_scalar(v) and self.off(v)]
        for i in forwarded:
            condition.operands[i + 1] = self.store(condition.args[i])
            self.carry_on_device(after, i, moved=arg_status[i] is Placement.DEVICE)
        self.process_block(after)
        if not carried and not forwarded:
            return
        yield_op = after.last_op
        for i in carried:
            yield_op.operands[i] = self.store(yield_op.operands[i])
        types = [v.type for v in condition.args]
        regions = [self.rewriter.move_region_contents_to_new_regions(r) for r in (op.before_region, op.after_region)]
        new = scf.WhileOp(inits, types, regions[0], regions[1])
        self.rewriter.insert(new, InsertPoint.before(op))
        self.replace_results(op, new, forwarded, result_status)

    def replace_results(self, old: Operation, new: Operation, changed: list[int], statuses: list[Placement]) -> None:
        after: Operation = new
        for i, (o, n) in enumerate(zip(old.results, new.results)):
            if i in changed:
                n.name_hint = f"{o.name_hint}_dev" if o.name_hint else None
                host = self.rebind(n, after, o.name_hint, moved=statuses[i] is Placement.DEVICE)
                after = host.owner  # type: ignore[assignment]
                self.rewriter.replace_all_uses_with(o, host)
            else:
                self.rewriter.replace_all_uses_with(o, n)
        self.rewriter.erase(old)

    # --- writes --------------------------------------------------------------------------------

    def rewrite_update(self, op: soac.UpdateOp) -> None:
        """A scalar write of a moved value becomes an asynchronous copy of its storage
        into a one-element slice (even where the value is also on the host: copying on
        the device beats a synchronous write); at a position only the device has, a
        `soac.device_update` (one thread writes the element, or copies the slice)."""
        value: SSAValue = op.value
        kinds = list(op.kinds.get_values())
        spec = list(op.spec)
        moved = value in self.stored or value in self.device_direct
        if moved:
            value = self.store(value)
            one = _index(1)
            self.rewriter.insert(one, InsertPoint.before(op))
            kinds[-1] = soac.SliceSpec.RANGE
            spec.append(one.result)
        if any(map(self.off, spec)):
            new: Operation = soac.DeviceUpdateOp(op.source, self.device_indices(spec), value, kinds)
        elif moved:
            new = soac.UpdateOp(op.source, kinds, spec, value)
        else:
            return
        new.result.name_hint = op.result.name_hint
        self.rewriter.replace(op, new)

    def device_indices(self, indices) -> list[SSAValue]:
        """Indices for a device-indexed op: a value off the host by its storage."""
        return [self.store(i) if self.off(i) else i for i in indices]

    def rewrite_device_index(self, op: soac.IndexOp | soac.SliceOp) -> None:
        """A sub-array or slice at a position only the device has (the analysis made
        sure that only device work uses it) is copied by a kernel that reads the
        position there. A copy that was its only use is that copy."""
        if isinstance(op, soac.SliceOp):
            new = soac.DeviceIndexOp(op.source, self.device_indices(op.spec), op.kinds.get_values(), op.result.type)
        else:
            new = soac.DeviceIndexOp(op.array, self.device_indices(op.indices))
        new.result.name_hint = op.result.name_hint
        copy = op.result.get_user_of_unique_use() if op.result.has_one_use() else None
        self.rewriter.replace(op, new)
        if isinstance(copy, soac.CopyOp):
            new.result.name_hint = copy.result.name_hint or new.result.name_hint
            self.rewriter.replace(copy, [], [new.result])

    def rewrite_device_update(self, op: soac.UpdateOp) -> None:
        """An update of a sub-array at a position only the device has: a copy kernel
        that reads the position there."""
        new = soac.DeviceUpdateOp(op.source, self.device_indices(op.spec), op.value, op.kinds.get_values())
        new.result.name_hint = op.result.name_hint
        self.rewriter.replace(op, new)

    def rewrite_replicate(self, op: soac.ReplicateOp) -> None:
        """Copies of a moved value are copies of its storage's row (§5.10)."""
        value = op.value
        if not self.off(value):
            return
        if single_element(op.result.type) and const_evaluate_operand(op.count) == 1:
            self.replace_by_one_row(op, value)
            return
        storage = self.store(value)
        outer = op.result.type.get_shape()[0]
        rows = soac.ReplicateOp(op.count, storage, outer)
        zero = _index(0)
        column = soac.SliceOp(
            rows.result,
            [soac.SliceSpec.RANGE, soac.SliceSpec.FIXED],
            [zero.result, op.count, zero.result],
            op.result.type,
        )
        self.rewriter.insert([rows, zero], InsertPoint.before(op))
        column.result.name_hint = op.result.name_hint
        self.rewriter.replace(op, column)


def rotate_while(op: scf.WhileOp, rewriter: PatternRewriter) -> None:
    """Puts a while loop in the study's form: its condition (and the values it forwards)
    computed once before the loop and then at the end of each iteration, so that the
    loop's parameters are the condition and the forwarded values. The first condition
    is then outside the loop, where its read belongs (it happens once, not once per
    iteration). Loops already in that form are left alone."""
    before = op.before_region.block
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    if condition is before.first_op and condition.condition in before.args:
        return
    block = op.parent_block()
    assert block is not None

    def evaluate(inputs: list[SSAValue], at: Block, before_op: Operation | None) -> list[SSAValue]:
        """The before region's ops cloned with its arguments bound to `inputs`; gives the
        condition and the forwarded values."""
        mapping: dict[SSAValue, SSAValue] = dict(zip(before.args, inputs))
        for inner in before.ops:
            if inner is condition:
                break
            clone = inner.clone(value_mapper=mapping)
            rewriter.insert(clone, InsertPoint.at_end(at) if before_op is None else InsertPoint.before(before_op))
            for old, new in zip(inner.results, clone.results):
                mapping[old] = new
        return [mapping.get(v, v) for v in condition.operands]

    first = evaluate(list(op.arguments), block, op)
    types = [v.type for v in first]
    new_before = Block(arg_types=types)
    rewriter.insert(scf.ConditionOp(new_before.args[0], *new_before.args[1:]), InsertPoint.at_end(new_before))
    for arg, old in zip(new_before.args[1:], condition.args):
        arg.name_hint = old.name_hint
    new_before.args[0].name_hint = condition.condition.name_hint
    after = op.after_region.block
    term = after.last_op
    assert isinstance(term, scf.YieldOp)
    next_inputs = list(term.operands)
    rewriter.erase(term)
    following = evaluate(next_inputs, after, None)
    rewriter.insert(scf.YieldOp(*following), InsertPoint.at_end(after))
    after_region = rewriter.move_region_contents_to_new_regions(op.after_region)
    new = scf.WhileOp(first, [r.type for r in op.results], Region(new_before), after_region)
    rewriter.replace(op, new)


class RotateHostWhile(RewritePattern):
    """rotate_while for a while loop that runs on the host."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        if not runs_on_device(op):
            rotate_while(op, rewriter)


def rotate_host_loops(function: func.FuncOp) -> None:
    """rotate_while for every while loop of the function that runs on the host (each
    once: the loops a rotation makes are in the rotated form already)."""
    PatternRewriteWalker(RotateHostWhile(), apply_recursively=False).rewrite_region(function.body)


def flatten_gpu_body(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> None:
    """A gpu_body inside another runs inline: its ops, then each result as a one-row
    literal of the value it yields (reads of its row 0 become the value itself)."""
    body = gpu.body.block
    term = body.last_op
    values = list(term.operands)
    for op in list(body.ops):
        if op is term:
            break
        move(op, InsertPoint.before(gpu))
    for result, value in zip(gpu.outputs, values):
        for use in list(result.uses):
            user = use.operation
            if soac.index_of_row_zero(user) is result:
                rewriter.replace(user, [], [value])
        if result.uses:
            literal = soac.ArrayOp([value], result.type)
            rewriter.insert(literal, InsertPoint.before(gpu))
            rewriter.replace_all_uses_with(result, literal.result)
    rewriter.erase(gpu)


@dataclass(frozen=True)
class ReduceDeviceSyncsPass(ModulePass):
    """Moves host scalar code to the device where that removes synchronous reads."""

    name = "reduce-device-syncs"

    dot: str | None = None
    """Write each function's migration graph and cut as Graphviz DOT to this file
    (`-`: standard error)."""

    device_loops: bool = True
    """While loops whose body needs nothing from the host compute their condition on
    the device (passes/analysis/device_loops.py), so that a task graph can run them
    whole as a conditional node."""

    sink: bool = True
    """Reads used in one branch of an `if` are read in that branch (Futhark's sinkGPU,
    passes/utils/read_sinking.py), their bounds checks left where they were."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.ops:
            if isinstance(f, func.FuncOp) and f.body.blocks:
                if self.sink:
                    sink_reads(f)
                rotate_host_loops(f)
        tables = analyse_module(op)
        if self.device_loops:
            tables = {f: with_device_loops(t) for f, t in tables.items()}
        if self.dot is not None:
            text = "".join(t.dot() for t in tables.values())
            if self.dot == "-":
                sys.stderr.write(text)
            else:
                try:
                    with open(self.dot, "w") as out:
                        out.write(text)
                except OSError as error:
                    raise PassFailedException(f"reduce-device-syncs: cannot write {self.dot}: {error.strerror}") from None
        for table in tables.values():
            _Migration(table, op).run()
