"""Device loops: `scf.while` loops whose condition the device computes (issue 18, item 5).
Never changes IR.

The migration table (migration_table.py) keeps a while loop that launches kernels on
the host and reads, every iteration, the fewest values that decide whether it goes on:
a convergence loop reads its largest change and compares it with eps on the host. That
is one read per iteration either way, but a loop whose body needs nothing from the
host can do better: with every value that changes from one iteration to the next on
the device, the body is the same host code in every iteration, so the runtime can
capture it once as the body of a CUDA graph *conditional node* and the whole loop runs
on the device, the condition set by a kernel at the end of each iteration
(runtime/gpu/task_graphs.py). Eagerly the loop still reads one value per iteration:
its condition.

A loop in the study's form (the condition a parameter `y_c`, computed before the loop
and at the end of each iteration: reduce_device_syncs.rotate_while) is a device loop
when these values, the *varying* ones, can all live on the device:

- its scalar parameters whose next value is not the parameter itself (counters,
  carried reductions), and the body's arguments they are forwarded as;
- every read in its body (a scalar `soac.index`, a kernel's scalar result);
- every scalar a host `arith`/`math` op computes from a varying value.

A varying value may be used only where the device can use it: by another such op, in a
kernel's lambda or a gpu_body (which read its one-row storage), in an array literal of
scalars (made on the device), as the value of a scalar update (a one-element device
copy), as an index, offset or stride of an update or of a sub-array or slice only device
work uses (`soac.device_index`, `soac.device_update`), or carried to the next
iteration. Any other use (a size, a range's count, a kernel's neutral element, an
`if` or inner loop it decides, a call) needs it on the host in every iteration, and the
loop stays as the table has it. A loop without kernels is left to the table (it moves
whole, onto the device, when it can).

The placements: every varying value on the device, the condition `y_c` read (at the top
of each iteration: the loop's one read), and each loop result bound to a varying value
read once after the loop where the host uses it. The initial values of the varying
parameters move to the device with the reads they are computed from, where nothing else
on the host uses those (a first condition computed from a reduction before the loop):
a read before the loop would keep a task graph from capturing the call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, math, scf
from xdsl.ir import Operation, SSAValue

from soacc.dialects import mem, soac
from soacc.dialects.shared.traits import is_kernel, is_parallel_kernel, runs_on_device
from soacc.passes.analysis.migration_table import (
    MigrationTable,
    Placement,
    device_position,
    is_scalar,
)


@dataclass
class DeviceLoop:
    """One while loop whose varying values all live on the device."""

    loop: scf.WhileOp
    varying: list[SSAValue] = field(default_factory=list)
    """In the order found: parameters, reads, then what is computed from them."""
    initial: list[SSAValue] = field(default_factory=list)
    """Scalars before the loop, from reads, that only make varying initial values."""

    @property
    def condition(self) -> SSAValue:
        term = self.loop.before_region.block.last_op
        assert isinstance(term, scf.ConditionOp)
        return term.condition

    def placements(self) -> dict[SSAValue, Placement]:
        placements = {v: Placement.DEVICE for v in (*self.varying, *self.initial)}
        placements[self.condition] = Placement.READ
        term = self.loop.before_region.block.last_op
        assert isinstance(term, scf.ConditionOp)
        for result, forwarded in zip(self.loop.results, term.args):
            if forwarded in placements and is_scalar(result):
                placements[result] = Placement.READ if result.uses else Placement.DEVICE
        return placements


class _NotOnDevice(Exception):
    """A varying value has a use that needs it on the host."""


def _is_scalar_arith(op: Operation) -> bool:
    return (
        op.dialect_name() in (arith.Arith.name, math.Math.name)
        and not op.regions
        and bool(op.results)
        and all(map(is_scalar, op.results))
    )


def _reads(op: Operation) -> list[SSAValue]:
    """The values `op` reads from the device onto the host (the table's sources)."""
    if isinstance(op, soac.IndexOp) and is_scalar(op.result):
        return [op.result]
    if is_parallel_kernel(op):
        return [r for r in op.results if is_scalar(r)]
    return []


def _host_ops(block) -> list[Operation]:
    """The host-level ops of a block and of the host regions nested in it (not the
    insides of kernels)."""
    found: list[Operation] = []
    for op in block.ops:
        found.append(op)
        if is_kernel(op):
            continue
        for region in op.regions:
            for inner in region.blocks:
                found.extend(_host_ops(inner))
    return found


def find_device_loop(loop: scf.WhileOp) -> DeviceLoop | None:
    """`loop` as a device loop, or None where it cannot be one (see the module)."""
    before = loop.before_region.block
    after = loop.after_region.block
    term = before.last_op
    if not (isinstance(term, scf.ConditionOp) and before.first_op is term and term.condition in before.args):
        return None  # not in the study's form
    body = _host_ops(after)
    if not any(is_kernel(op) for op in body):
        return None
    yields = after.last_op
    assert isinstance(yields, scf.YieldOp)
    found = DeviceLoop(loop)
    seen: set[SSAValue] = set()
    work: list[SSAValue] = []

    def vary(value: SSAValue) -> None:
        if is_scalar(value) and value not in seen:
            seen.add(value)
            found.varying.append(value)
            work.append(value)

    for param, next_value in zip(before.args, yields.operands):
        if next_value is not param:
            vary(param)
    for op in body:
        for value in _reads(op):
            vary(value)
    try:
        while work:
            value = work.pop()
            for use in list(value.uses):
                _follow(use, found, vary)
    except _NotOnDevice:
        return None
    if term.condition not in seen:
        return None  # a condition that never changes: nothing to gain
    found.initial = _initial_values_on_device(loop, {k for k, p in enumerate(before.args) if p in seen})
    return found


def _initial_values_on_device(loop: scf.WhileOp, varying: set[int]) -> list[SSAValue]:
    """The scalars computed right before the loop, from reads, that only make the
    initial values of its varying parameters (its first condition, say): computed on
    the device too, their reads go, and a task graph can capture the call whole. Those
    that anything else on the host uses stay as the table has them."""
    block = loop.parent_block()
    candidates: set[SSAValue] = set()
    stack = [loop.arguments[k] for k in varying if is_scalar(loop.arguments[k])]
    while stack:
        value = stack.pop()
        op = value.owner
        if value in candidates or not isinstance(op, Operation) or op.parent_block() is not block:
            continue
        if value in _reads(op):
            candidates.add(value)
        elif _is_scalar_arith(op):
            candidates.add(value)
            stack.extend(v for v in op.operands if is_scalar(v))
    # only what depends on a read is worth moving (the rest the host computes for free)
    from_reads: set[SSAValue] = set()
    changed = True
    while changed:
        changed = False
        for value in candidates - from_reads:
            op = value.owner
            if value in _reads(op) or any(v in from_reads for v in op.operands):
                from_reads.add(value)
                changed = True
    for value in from_reads:
        for use in value.uses:
            user = use.operation
            if (user is loop and use.index in varying) or runs_on_device(user):
                continue  # the initial value of a varying parameter, or device code
            if not any(r in from_reads for r in user.results):
                return []
    return [r for op in block.ops for r in op.results if r in from_reads]


def _follow(use, found: DeviceLoop, vary) -> None:
    """The varying value of `use` used there: what else varies, or _NotOnDevice."""
    user = use.operation
    loop = found.loop
    before = loop.before_region.block
    after = loop.after_region.block
    if user is before.last_op:
        if use.index > 0:  # forwarded into the body
            vary(after.args[use.index - 1])
        return
    if user is after.last_op:
        vary(before.args[use.index])
        return
    if runs_on_device(user):
        return  # in a lambda or gpu_body: read from its storage there
    if _is_scalar_arith(user):
        for result in user.results:
            vary(result)
        return
    if isinstance(user, soac.IndexOp) and use.index > 0 and is_scalar(user.result):
        vary(user.result)  # an element at a device position: moves with it
        return
    if device_position(user, use.index):
        return  # soac.device_index, soac.device_update
    if isinstance(user, soac.ArrayOp) and all(map(is_scalar, user.elements)):
        return  # a literal of scalar variables is always made on the device
    if isinstance(user, soac.UpdateOp) and use.index == len(user.operands) - 1 and is_scalar(user.value):
        return  # a one-element copy on the device
    raise _NotOnDevice


def reads_only_its_condition(loop: scf.WhileOp, constants: bool = False) -> bool:
    """Whether a level-2 `scf.while` has a device loop's form: its before region loads
    the condition from one of the loop's arguments and forwards arguments, nothing
    else (what reduce-device-syncs makes of a device loop; the emitter runs such a loop
    as `rt.device_while`, a conditional graph node under a capture). `constants`:
    constants for the load's indices may be there too (before the level-3 cleanup
    moves them out of the loop)."""
    before = loop.before_region.block
    ops = [o for o in before.ops if not (constants and isinstance(o, arith.ConstantOp))]
    if len(ops) != 2 or not isinstance(ops[0], mem.LoadOp) or not isinstance(ops[1], scf.ConditionOp):
        return False
    load, condition = ops
    return (
        condition.condition is load.result
        and load.view in before.args
        and load.result.uses.get_length() == 1
        and all(a in before.args for a in condition.args)
    )


def with_device_loops(table: MigrationTable) -> MigrationTable:
    """The table with every host while loop that can be a device loop made one
    (outermost first; the loops nested in one are part of its body)."""
    overrides: dict[SSAValue, Placement] = {}
    loops: list[scf.WhileOp] = []

    def visit(block) -> None:
        for op in block.ops:
            if is_kernel(op):
                continue
            if isinstance(op, scf.WhileOp) and table.status(op.before_region.block.last_op.condition) is not Placement.DEVICE:
                found = find_device_loop(op)
                if found is not None:
                    overrides.update(found.placements())
                    loops.append(op)
                    continue
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner)

    visit(table.function.body.block)
    if not loops:
        return table
    return table.overridden(overrides, loops)
