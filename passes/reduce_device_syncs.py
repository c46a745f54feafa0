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
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects.utils import defined_inside
from soacc.dialects import soac
from soacc.passes.analysis.migration_table import (
    MigrationTable,
    Placement,
    analyse_module,
    is_constant,
    is_kernel,
    is_scalar,
    runs_on_device,
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
            if is_kernel(op):
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
                op.detach()
                op.erase()
                if zero is not None and not zero.uses and isinstance(zero.owner, arith.ConstantOp):
                    zero.owner.detach()
                    zero.owner.erase()

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
        elif isinstance(op, soac.GpuBodyOp) or is_kernel(op):
            self.localize(op)
        elif isinstance(op, soac.UpdateOp) and is_scalar(op.value):
            self.rewrite_update(op)
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
                v.replace_uses_with_if(read.result, lambda use, r=region: r.is_ancestor(use.operation))
            first = block.first_op
            if first is None:
                block.add_ops(reads)
            else:
                block.insert_ops_before(reads, first)

    def replace_by_one_row(self, op: Operation, value: SSAValue) -> None:
        """`op`, whose one result is a one-element array of `value`, becomes a gpu_body
        that yields `value` (its result is that one-row array)."""
        body = Block()
        body.add_op(soac.YieldOp(value))
        gpu = soac.GpuBodyOp([op.results[0].type], Region(body))
        op.parent_block().insert_op_before(gpu, op)
        op.results[0].replace_all_uses_with(gpu.outputs[0])
        op.detach()
        op.erase()
        self.prepare_device_body(gpu)

    def prepare_device_body(self, gpu: soac.GpuBodyOp) -> None:
        """Makes a new gpu_body one kernel: nested gpu_bodies flattened, calls inlined,
        moved values read from their storage."""
        for nested in [o for o in gpu.walk() if isinstance(o, soac.GpuBodyOp) and o is not gpu]:
            flatten_gpu_body(nested)
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
                    r.replace_all_uses_with(mapping.get(v, v))
                break
            clone = op.clone(value_mapper=mapping)
            block.insert_op_before(clone, call)
        call.detach()
        call.erase()

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
            body = Block()
            body.add_op(soac.YieldOp(value))
            gpu = soac.GpuBodyOp([soac.array_of(value.type, 1)], Region(body))
            gpu.outputs[0].name_hint = f"{value.name_hint}_dev" if value.name_hint else None
            owner = value.owner
            if isinstance(owner, Block):
                first = owner.first_op
                assert first is not None
                owner.insert_op_before(gpu, first)
            else:
                owner.parent_block().insert_op_after(gpu, owner)
            self.copies[value] = gpu.outputs[0]
        return self.copies[value]

    def device_constant(self, value: SSAValue) -> SSAValue:
        constant = value.owner
        assert isinstance(constant, arith.ConstantOp)
        key = (constant.value, value.type)
        if key not in self.constants:
            body = Block()
            inner = constant.clone()
            body.add_ops([inner, soac.YieldOp(inner.result)])
            gpu = soac.GpuBodyOp([soac.array_of(value.type, 1)], Region(body))
            gpu.outputs[0].name_hint = "const_dev"
            self._at_entry([gpu])
            self.constants[key] = gpu.outputs[0]
        return self.constants[key]

    def _at_entry(self, ops: list[Operation]) -> None:
        first = self.entry.first_op
        if first is None:
            self.entry.add_ops(ops)
        else:
            self.entry.insert_ops_before(ops, first)

    def rebind(self, storage: SSAValue, after: Operation, name: str | None, moved: bool) -> SSAValue:
        """`%v = soac.index storage[%c0]` after `after`: the value on the host. When the
        value `moved` off the host the read is tentative: device code reads the storage
        instead, and the read goes when nothing on the host uses it."""
        ops = read_row_zero(storage)
        block = after.parent_block()
        assert block is not None
        block.insert_ops_after(ops, after)
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
        first = block.first_op
        assert first is not None
        block.insert_ops_before(ops, first)
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
        block.insert_op_before(gpu, op)
        op.detach()
        body.add_ops([op, soac.YieldOp(*op.results)])
        after: Operation = gpu
        for r, storage, status in zip(op.results, gpu.outputs, statuses):
            if r.name_hint:
                storage.name_hint = f"{r.name_hint}_dev"
            host = self.rebind(storage, after, r.name_hint, moved=status is Placement.DEVICE)
            after = host.owner  # type: ignore[assignment]
            r.replace_uses_with_if(host, lambda use, g=gpu: not g.is_ancestor(use.operation))
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
        regions = [op.detach_region(r) for r in list(op.regions)]
        new = scf.IfOp(op.cond, types, regions[0], regions[1] if len(regions) > 1 else None)
        op.parent_block().insert_op_before(new, op)
        self.replace_results(op, new, changed, statuses)

    def carry_on_device(self, block: Block, index: int, moved: bool) -> None:
        """Block argument `index` becomes a one-row array, read at the top of the block."""
        old = block.args[index]
        new = block.insert_arg(soac.array_of(old.type, 1), index)
        new.name_hint = f"{old.name_hint}_dev" if old.name_hint else None
        host = self.rebind_at_start(new, block, old.name_hint, moved)
        old.replace_all_uses_with(host)
        host.name_hint = old.name_hint
        block.erase_arg(old)

    def process_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        params = list(body.args[1:])
        param_status = [self.table.status(p) for p in params]
        result_status = [self.table.status(r) for r in op.results]
        carried = [
            i for i, p in enumerate(params) if is_scalar(p) and param_status[i] is not Placement.HOST
        ]
        inits = list(op.iter_args)
        for i in carried:
            inits[i] = self.store(inits[i])
            self.carry_on_device(body, i + 1, moved=param_status[i] is Placement.DEVICE)
        self.process_block(body)
        if not carried:
            return
        yield_op = body.last_op
        for i in carried:
            yield_op.operands[i] = self.store(yield_op.operands[i])
        region = op.detach_region(op.body)
        new = scf.ForOp(op.lb, op.ub, op.step, inits, region)
        op.parent_block().insert_op_before(new, op)
        self.replace_results(op, new, carried, result_status)

    def process_while(self, op: scf.WhileOp) -> None:
        before = op.before_region.block
        after = op.after_region.block
        params = list(before.args)
        param_status = [self.table.status(p) for p in params]
        arg_status = [self.table.status(a) for a in after.args]
        result_status = [self.table.status(r) for r in op.results]
        carried = [
            i for i, p in enumerate(params) if is_scalar(p) and param_status[i] is not Placement.HOST
        ]
        inits = list(op.arguments)
        for i in carried:
            inits[i] = self.store(inits[i])
            self.carry_on_device(before, i, moved=param_status[i] is Placement.DEVICE)
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
        regions = [op.detach_region(r) for r in (op.before_region, op.after_region)]
        new = scf.WhileOp(inits, types, regions[0], regions[1])
        op.parent_block().insert_op_before(new, op)
        self.replace_results(op, new, forwarded, result_status)

    def replace_results(self, old: Operation, new: Operation, changed: list[int], statuses: list[Placement]) -> None:
        after: Operation = new
        for i, (o, n) in enumerate(zip(old.results, new.results)):
            if i in changed:
                n.name_hint = f"{o.name_hint}_dev" if o.name_hint else None
                host = self.rebind(n, after, o.name_hint, moved=statuses[i] is Placement.DEVICE)
                after = host.owner  # type: ignore[assignment]
                o.replace_all_uses_with(host)
            else:
                o.replace_all_uses_with(n)
        old.detach()
        old.erase()

    # --- writes --------------------------------------------------------------------------------

    def rewrite_update(self, op: soac.UpdateOp) -> None:
        """A scalar write of a moved value becomes an asynchronous copy of its storage
        into a one-element slice (even where the value is also on the host: copying on
        the device beats a synchronous write)."""
        value = op.value
        if not (value in self.stored or value in self.device_direct):
            return
        storage = self.store(value)
        kinds = list(op.kinds.get_values())
        spec = list(op.spec)
        one = _index(1)
        op.parent_block().insert_op_before(one, op)
        kinds[-1] = soac.SliceSpec.RANGE
        new = soac.UpdateOp(op.source, kinds, [*spec, one.result], storage)
        op.parent_block().insert_op_before(new, op)
        new.result.name_hint = op.result.name_hint
        op.result.replace_all_uses_with(new.result)
        op.detach()
        op.erase()

    def rewrite_replicate(self, op: soac.ReplicateOp) -> None:
        """Copies of a moved value are copies of its storage's row (§5.10)."""
        value = op.value
        if not self.off(value):
            return
        block = op.parent_block()
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
        block.insert_ops_before([rows, zero, column], op)
        column.result.name_hint = op.result.name_hint
        op.result.replace_all_uses_with(column.result)
        op.detach()
        op.erase()


def rotate_while(op: scf.WhileOp) -> None:
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
            if before_op is None:
                at.add_op(clone)
            else:
                at.insert_op_before(clone, before_op)
            for old, new in zip(inner.results, clone.results):
                mapping[old] = new
        return [mapping.get(v, v) for v in condition.operands]

    first = evaluate(list(op.arguments), block, op)
    types = [v.type for v in first]
    new_before = Block(arg_types=types)
    new_before.add_op(scf.ConditionOp(new_before.args[0], *new_before.args[1:]))
    for arg, old in zip(new_before.args[1:], condition.args):
        arg.name_hint = old.name_hint
    new_before.args[0].name_hint = condition.condition.name_hint
    after = op.after_region.block
    term = after.last_op
    assert isinstance(term, scf.YieldOp)
    next_inputs = list(term.operands)
    term.detach()
    term.erase()
    following = evaluate(next_inputs, after, None)
    after.add_op(scf.YieldOp(*following))
    after_region = op.detach_region(op.after_region)
    new = scf.WhileOp(first, [r.type for r in op.results], Region(new_before), after_region)
    block.insert_op_before(new, op)
    for old, result in zip(op.results, new.results):
        old.replace_all_uses_with(result)
    op.detach()
    op.erase()


def rotate_host_loops(function: func.FuncOp) -> None:
    """rotate_while for every while loop of the function that runs on the host."""
    for op in [o for o in function.walk() if isinstance(o, scf.WhileOp)]:
        if not runs_on_device(op):
            rotate_while(op)


def flatten_gpu_body(gpu: soac.GpuBodyOp) -> None:
    """A gpu_body inside another runs inline: its ops, then each result as a one-row
    literal of the value it yields (reads of its row 0 become the value itself)."""
    block = gpu.parent_block()
    assert block is not None
    body = gpu.body.block
    term = body.last_op
    values = list(term.operands)
    for op in list(body.ops):
        if op is term:
            break
        op.detach()
        block.insert_op_before(op, gpu)
    for result, value in zip(gpu.outputs, values):
        for use in list(result.uses):
            user = use.operation
            if soac.index_of_row_zero(user) is result:
                user.results[0].replace_all_uses_with(value)
                user.detach()
                user.erase()
        if result.uses:
            literal = soac.ArrayOp([value], result.type)
            block.insert_op_before(literal, gpu)
            result.replace_all_uses_with(literal.result)
    gpu.detach()
    gpu.erase()


@dataclass(frozen=True)
class ReduceDeviceSyncsPass(ModulePass):
    """Moves host scalar code to the device where that removes synchronous reads."""

    name = "reduce-device-syncs"

    dot: str | None = None
    """Write each function's migration graph and cut as Graphviz DOT to this file
    (`-`: standard error)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.ops:
            if isinstance(f, func.FuncOp) and f.body.blocks:
                rotate_host_loops(f)
        tables = analyse_module(op)
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
