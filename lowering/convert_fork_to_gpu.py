"""convert-fork-to-gpu: the fork dialect on the GPU (level 3, after convert-mem-to-gpu).

On the device, task parallelism is streams: a fork thread's device work goes on a
stream of its own, a signal is the CUDA events its resolver's work is recorded in, and
a wait makes the waiting thread's stream wait for those events, so two threads that do
not wait for each other run their kernels side by side. The host does not need threads
for that: it issues every thread's work where the thread is forked, in program order,
and the device orders it by the events. The host code (the python target) does exactly
that with the fork ops, and the runtime (runtime/gpu/cuda_memory.py) keeps the streams
and events; under a task graph's capture the same streams and events become the
graph's fork and join edges.

Two conditions make this sound, and this pass establishes them:

1. **Program order is a schedule.** The host runs a thread to its end before it goes
   on, so every `fork.wait` must wait for signals resolved earlier in program order
   (a signal a loop carries: its initial value resolved before the loop, the next
   iteration's before the `scf.yield`; a branch's: in both branches). introduce-forks
   makes such programs (each binding's inputs come from earlier bindings); a program
   written otherwise, which the reference executor's threads could still run, is
   refused here with the wait's location, rather than run wrongly.
2. **No thread that needs no stream takes one.** A thread with no device work (it
   computes sizes, reads a reference, allocates) gains nothing from a stream; its body
   is put in place of its `fork.fork`, in the thread that forked it, with its signals
   and references as they were (a signal it resolves stands for what it waited for).
3. **No bookkeeping that one thread's order already gives.** Then a signal whose
   resolves and waits are all in one thread is dropped (its waits come after its
   resolve in program order, on the thread's own stream), and a reference written once
   and read after the write in the same block becomes the written value: each was a
   runtime call per use, in a loop per iteration.

Memory the host frees while several streams have work in flight is held by the pool
until the device is waited for (a block is reused only by work ordered after its last
use), which the runtime does on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, gpu, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from soacc.dialects import fork, mem
from soacc.dialects.shared.traits import is_kernel
from soacc.dialects.shared.utils import located_failure
from soacc.passes.utils.memory_motion import dominates


def does_device_work(thread: fork.ForkOp) -> bool:
    """Whether the thread itself puts work on a stream: a launch (or, before
    convert-mem-to-gpu, a kernel), a copy, literal or scalar write into device memory,
    or a call (whose body may). Work in a thread it forks is that thread's."""

    def in_op(op: Operation) -> bool:
        if isinstance(op, gpu.LaunchFuncOp | func.CallOp) or is_kernel(op):
            return True
        if isinstance(op, mem.CopyOp | mem.ArrayOp | mem.StoreOp) and any(_on_device(v) for v in op.operands):
            return True
        return any(
            in_op(inner)
            for region in op.regions
            if not isinstance(op, fork.ForkOp) or op is thread
            for block in region.blocks
            for inner in block.ops
        )

    return in_op(thread)


def _on_device(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, MemRefType) and isinstance(t.memory_space, mem.MemorySpaceAttr) and t.memory_space.is_device


@dataclass
class _Schedule:
    """Signals resolved so far, walking in program order."""

    resolved: set[SSAValue]

    def check_op(self, op: Operation) -> None:
        if isinstance(op, fork.ResolveOp):
            self.resolved.update(op.signals)
        elif isinstance(op, fork.WaitOp):
            for signal in op.signals:
                self.require(signal, op, "waits for")
        elif isinstance(op, scf.YieldOp | scf.ConditionOp) and isinstance(op.parent_op(), scf.ForOp | scf.WhileOp):
            for value in op.operands:
                if isinstance(value.type, fork.SignalType):
                    self.require(value, op, "hands the next iteration")
        elif isinstance(op, scf.ForOp | scf.WhileOp):
            for value in op.operands:
                if isinstance(value.type, fork.SignalType):
                    self.require(value, op, "starts with")
            for region in op.regions:
                inner = _Schedule(set(self.resolved))
                for block in region.blocks:
                    inner.resolved.update(a for a in block.args if isinstance(a.type, fork.SignalType))
                    inner.check_block_ops(block)
            self.resolved.update(r for r in op.results if isinstance(r.type, fork.SignalType))
        elif isinstance(op, scf.IfOp):
            branches = []
            for region in op.regions:
                inner = _Schedule(set(self.resolved))
                for block in region.blocks:
                    inner.check_block_ops(block)
                branches.append(inner.resolved)
            if len(branches) == 2:
                self.resolved |= branches[0] & branches[1]
            self.resolved.update(r for r in op.results if isinstance(r.type, fork.SignalType))
        else:
            # a fork's body runs here, to its end, before the ops after the fork
            for region in op.regions:
                for block in region.blocks:
                    self.check_block_ops(block)

    def check_block_ops(self, block) -> None:
        for op in block.ops:
            self.check_op(op)

    def require(self, signal: SSAValue, op: Operation, what: str) -> None:
        if signal not in self.resolved:
            raise located_failure(
                op,
                f"convert-fork-to-gpu: {op.name} {what} a signal that is not resolved earlier in "
                f"program order; on the GPU the host issues each thread where it is forked, so "
                f"every wait must follow its resolve in program order",
            )


def _signals_of(op: Operation) -> tuple[set[SSAValue], set[SSAValue]]:
    """(what `op` waits for, what it resolves): signals made outside it that a wait, a
    resolve, or a loop's initial state in it names."""
    inside = {r for o in op.walk() for r in o.results}
    needs: set[SSAValue] = set()
    gives: set[SSAValue] = set()
    for o in op.walk():
        if isinstance(o, fork.ResolveOp):
            gives.update(v for v in o.signals if v not in inside)
        elif isinstance(o, fork.WaitOp):
            needs.update(v for v in o.signals if v not in inside and not _is_block_argument_inside(v, op))
        elif isinstance(o, scf.ForOp | scf.WhileOp):
            needs.update(v for v in o.operands if isinstance(v.type, fork.SignalType) and v not in inside)
    return needs - gives, gives


def _is_block_argument_inside(value: SSAValue, op: Operation) -> bool:
    owner = getattr(value, "block", None)
    while owner is not None:
        parent = owner.parent_op()
        if parent is op:
            return True
        owner = parent.parent_block() if parent is not None else None
    return False


def schedule_block(block, resolved: set[SSAValue] = frozenset()) -> None:
    """Moves forks later in `block` (never earlier, and never past its terminator) so
    that each thread comes after the threads whose signals it waits for: introduce-
    forks forks a lock's helper thread (the join of two release signals, rule 4.10)
    before the thread that resolves one of them. Ops that are not forks keep their
    order. Nested blocks first; `resolved`: the signals resolved before the block."""
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                schedule_block(inner)
    order: list[Operation] = []
    pending: list[fork.ForkOp] = []
    done = set(resolved)
    signals = {op: _signals_of(op) for op in block.ops}
    local = set().union(*(gives for _, gives in signals.values()))
    """What ops of this block resolve: only these order its forks (the others are
    resolved before the block, or never: the check says which)."""

    def ready(op: Operation) -> bool:
        return signals[op][0] & local <= done

    def place(op: Operation) -> None:
        order.append(op)
        done.update(signals[op][1])
        progress = True
        while progress:
            progress = False
            for waiting in list(pending):
                if ready(waiting):
                    pending.remove(waiting)
                    order.append(waiting)
                    done.update(signals[waiting][1])
                    progress = True

    for op in list(block.ops):
        if isinstance(op, fork.ForkOp) and not ready(op):
            pending.append(op)
        else:
            place(op)
    if pending:
        return  # no order of these forks is a schedule: the check says where
    terminator = block.last_op
    if [o for o in order if o is not terminator] + ([terminator] if terminator in order else []) != list(block.ops):
        for op in order:
            op.detach()
        for op in order:
            block.add_op(op)
        if terminator is not None and block.last_op is not terminator:
            terminator.detach()
            block.add_op(terminator)


def dissolve_helpers(function: func.FuncOp) -> None:
    """A helper thread (the study's `waitResolve`: it waits for some signals and then
    resolves one) whose signal is only ever waited for is the join of what it waits
    for: each wait for its signal waits for those instead, and it goes. Program order
    may have no place for the helper itself where a thread resolves one of its signals
    and then, later in its body, waits for the helper's (a read and then a write of the
    same memory in one thread, a lock split between them, rule 4.10): the thread cannot
    be issued before the helper nor the helper before the thread. Its waits in place
    have no such cycle (the thread's own resolves come before them)."""
    for helper in [o for o in function.walk() if isinstance(o, fork.ForkOp)]:
        ops = list(helper.body.block.ops)
        if not (
            len(ops) == 3
            and isinstance(ops[0], fork.WaitOp)
            and isinstance(ops[1], fork.ResolveOp)
            and isinstance(ops[2], fork.EndOp)
            and len(ops[1].signals) == 1
        ):
            continue
        waits, target = list(ops[0].signals), ops[1].signals[0]
        users = [u.operation for u in target.uses if u.operation is not ops[1]]
        if not all(isinstance(u, fork.WaitOp) for u in users):
            continue  # carried by a loop or a branch: one signal must stand for the join
        if not all(dominates(w, u) for w in waits for u in users):
            continue
        for user in users:
            joined: list[SSAValue] = []
            for v in user.signals:
                for w in waits if v is target else [v]:
                    if w not in joined:
                        joined.append(w)
            user.parent_block().insert_op_before(fork.WaitOp(joined), user)  # type: ignore[union-attr]
            user.detach()
            user.erase()
        helper.detach()
        helper.erase()
        if isinstance(target.owner, fork.SignalOp) and not target.uses:
            target.owner.detach()
            target.owner.erase()


def inline_fork(op: fork.ForkOp) -> None:
    """The thread's body in place of the fork, in the thread that forked it."""
    block = op.body.block
    parent = op.parent_block()
    assert parent is not None
    for inner in list(block.ops):
        if isinstance(inner, fork.EndOp):
            continue
        inner.detach()
        parent.insert_op_before(inner, op)
    op.detach()
    op.erase()


class ConvertForkToGpuPass(ModulePass):
    """Checks that program order schedules every function's forks and puts threads with
    no device work in place; the host code then runs forks on streams."""

    name = "convert-fork-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if not isinstance(function, func.FuncOp) or not function.body.blocks:
                continue
            if not fork.has_forks(function):
                continue
            dissolve_helpers(function)
            schedule_block(function.body.block)
            _Schedule(set()).check_block_ops(function.body.block)
            for candidate in reversed([o for o in function.walk() if isinstance(o, fork.ForkOp)]):
                if not does_device_work(candidate):
                    inline_fork(candidate)
            drop_thread_local(function)


def _thread_of(op: Operation) -> Operation | None:
    """The innermost fork.fork around `op` (None: the function's own thread)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, fork.ForkOp | func.FuncOp):
        parent = parent.parent_op()
    return parent if isinstance(parent, fork.ForkOp) else None


def drop_thread_local(function: func.FuncOp) -> None:
    """Signals and references that never leave one thread (after threads without device
    work were put in place, most of introduce-forks' are such): a wait for a signal its
    own thread resolved earlier in program order (the schedule above checked it is
    earlier) waits for nothing the thread's stream does not order already, and a
    reference written once and read after the write in the same block is the written
    value. Each such signal costs the host code a runtime call per resolve and wait
    (in a loop, every iteration: srad's forked sweep made 108 resolves and 90 waits)."""
    for signal in [o for o in function.walk() if isinstance(o, fork.SignalOp)]:
        uses = list(signal.signal.uses)
        users = [u.operation for u in uses]
        if not all(isinstance(u, fork.ResolveOp | fork.WaitOp) for u in users):
            continue  # carried by a loop or a branch, or returned
        if len({_thread_of(u) for u in users}) != 1:
            continue  # (where the signal is made does not matter: making one is no work)
        for user in users:
            rest = [v for v in user.signals if v is not signal.signal]
            if rest:
                user.parent_block().insert_op_before(type(user)(rest), user)
            user.detach()
            user.erase()
        signal.detach()
        signal.erase()
    for ref in [o for o in function.walk() if isinstance(o, fork.RefOp)]:
        users = [u.operation for u in ref.ref.uses]
        writes = [u for u in users if isinstance(u, fork.WriteOp)]
        reads = [u for u in users if isinstance(u, fork.ReadOp)]
        if len(writes) != 1 or len(writes) + len(reads) != len(users):
            continue
        write = writes[0]
        block = write.parent_block()
        if block is None or block is not ref.parent_block():
            continue
        ops = list(block.ops)
        at = ops.index(write)
        if not all(r.parent_block() is block and ops.index(r) > at for r in reads):
            continue
        for read in reads:
            read.value.replace_all_uses_with(write.value)
            read.detach()
            read.erase()
        write.detach()
        write.erase()
        ref.detach()
        ref.erase()
