"""introduce-forks: automatic task parallelism at level 2 (Matser, *Automatic task
parallelism in Accelerate*; digest 004 §4 and §5), after memory planning, so that the
blocks memory reuse shares are ordered by the locks of their content.

Every op of a function's host code is a `let` of its results: the op (the binding)
runs in a thread of its own (`fork.fork`), the ops after it (the in-clause) go on in
the thread that reached it. A value a thread makes goes through a reference written
once, with a signal resolved after the write; a memory's content has a read lock and
a write lock (rule 4.10 splits them at every fork: a read waits for the earlier
writes, a write for the earlier reads and writes). An `scf.if` is one binding whose
branches are transformed in turn (4.5, with the sub-environment rule 4.11 at each
branch's head); a loop (`scf.for`, `scf.while`) is one binding whose thread only
starts iterations (the While rule, 4.9): each region of each iteration is a thread of
its own, its state comes by reference and signal and its contents' locks are the
earlier iteration's releases (signals the loop carries), so the next iteration starts
as soon as its guard is known while the current one's other work still runs; a
kernel's lambdas are device code, left alone. The function's result is its
destination: `func.return` waits for what it returns (4.8).

Options (digest §5), each switchable so it can be tested alone:
- `trivial`: an op that uses nothing (a constant) runs in place, not forked, and the
  ops after it use its value directly (5.1);
- `combine`: a binding whose every result the next op uses runs in that op's thread
  (5.2);
- `fork-returns`: each returned value is copied by its own thread to a destination the
  function waits for (5.3);
- `loops` (on by default): the While rule; off, a loop's thread runs its iterations in
  turn, each region a term whose threads end before the iteration does.

The rules and where the study's text is resolved are on docs/introduce-forks.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from soacc.dialects import fork
from soacc.dialects.shared.traits import is_kernel, runs_on_device
from soacc.dialects.shared.utils import located_failure
from soacc.passes.analysis.device_loops import reads_only_its_condition
from soacc.passes.analysis.usage import Content, Mode, UsageAnalysis, Used, Variable, gives_content, join
from soacc.passes.utils.fork_environment import Entry, Helper, Lock, keep_in_branch, split

Env = dict[Used, Entry]


@dataclass
class _Thread:
    """Code being built for one thread: the block its ops go to, and the values the
    source's values are in here (reads of references, clones' results)."""

    block: Block
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op


@dataclass(frozen=True)
class _Destination:
    """Where a scope's results go: a reference and the signal resolved after writing
    it, per result (an `if`'s results); None: the function returns them, or (`loop`,
    with `loops=false`) an iteration gives them to the next, once the signals of `loop`
    are resolved. `iteration` (the While rule): the slots are the next iteration's
    state, None where the terminator hands on a state value unchanged (its reference
    and signal go on as they are); the iteration's contents are handed on by their
    locks, not by the terminator."""

    slots: tuple[tuple[SSAValue, SSAValue] | None, ...] | None
    loop: tuple[SSAValue, ...] | None = None
    iteration: bool = False


class _Forks:
    def __init__(self, function: func.FuncOp, trivial: bool, combine: bool, fork_returns: bool, loops: bool = True):
        self.function = function
        self.trivial, self.combine, self.fork_returns, self.loops = trivial, combine, fork_returns, loops
        self.usage = UsageAnalysis(function)
        self.iteration_ends: dict[Operation, tuple[tuple[SSAValue, SSAValue] | None, ...]] = {}
        """The terminators of loop regions under the While rule, with their slots: they
        use only the state values they write (their contents go on by their locks)."""
        self.destinations: set[Operation] = set()
        """The signals and references of the function's own destinations (5.3), which
        the study does not count."""

    # --- the function (rules 4.4): its arguments are values in scope, their memories'
    # contents ready, with nothing to wait for

    def run(self) -> None:
        block = self.function.body.block
        source_ops = list(block.ops)
        env: Env = {}
        for thing in self.usage.of_ops(source_ops):
            env[thing] = Entry(None, Lock(), Lock() if isinstance(thing, Content) else None)
        new = Block()
        thread = _Thread(new, {arg: arg for arg in block.args})
        self.term(source_ops, env, thread, _Destination(None))
        # the threaded body replaces the sequential one (whose ops use each other:
        # erased last first, without the use check)
        Rewriter.inline_block(new, InsertPoint.at_end(block))
        for op in reversed(source_ops):
            Rewriter.erase_op(op, safe_erase=False)

    # --- a term: a chain of lets ending in a terminator

    def term(self, ops: list[Operation], env: Env, thread: _Thread, destination: _Destination) -> None:
        pending: list[Operation] = []
        """The code of combined bindings (5.2), for the thread of the next binding."""
        for index, op in enumerate(ops):
            if op.has_trait(IsTerminator):
                self.give_back(op, env, thread, destination)
                return
            if self.trivial and self.is_trivial(op):
                # (5.1) no fork, no reference: the value is in scope from here on
                clone = op.clone(value_mapper=dict(thread.values))
                thread.add(clone)
                for old, new in zip(op.results, clone.results):
                    thread.values[old] = new
                    env[Variable(old)] = Entry(None)
                continue
            following = ops[index + 1]
            if following.has_trait(IsTerminator) and not following.operands:
                # `let () = op in return ()` is the term `op` itself (4.7, 4.5): it
                # runs in this thread
                for op_ in pending:
                    thread.add(op_)
                self.binding(op, env, thread, self.bind(op, thread))
                env = {}
                continue
            first = self.effect(op, env)
            later = join(*(self.effect(o, env) for o in ops[index + 1 :]))
            binding_env, env = self.split_env(env, first, later, thread)
            bound = self.bind(op, thread)
            binding = _Thread(Block(), dict(thread.values))
            for op_ in pending:
                binding.add(op_)
            self.binding(op, binding_env, binding, bound)
            # a memory made again (in a loop's next iteration) keeps its entry: its
            # accesses stay ordered after the earlier instance's (see `effect`)
            env.update({thing: entry for thing, entry in bound.entries.items() if thing not in env})
            if self.combine and op.results and not following.has_trait(IsTerminator):
                uses = self.usage.of(following)
                if all(Variable(r) in uses for r in op.results):
                    pending = list(binding.block.ops)
                    for o in pending:
                        o.detach()
                    continue
            pending = []
            binding.add(fork.EndOp())
            thread.add(fork.ForkOp(Region(binding.block)))

    def effect(self, op: Operation, env: Env) -> dict[Used, Mode]:
        """What `op` does to the things of `env`: its usage, and W on the content of a
        memory it makes that `env` already has: in a loop, the same allocation's earlier
        instance, which the analysis cannot tell apart (reached through the loop's
        carried arrays), so the new one is ordered after every access to the old."""
        ends = self.iteration_ends.get(op)
        if ends is not None:
            return {Variable(v): Mode.R for v, slot in zip(op.operands, ends) if slot is not None and Variable(v) in env}
        usage = {t: m for t, m in self.usage.of(op).items() if t in env}
        for thing in self.usage.binds(op):
            if isinstance(thing, Content) and thing in env:
                usage[thing] = Mode.W
        return usage

    # --- the environment split at a fork (4.10)

    def split_env(self, env: Env, first: dict[Used, Mode], later: dict[Used, Mode], thread: _Thread) -> tuple[Env, Env]:
        ones, twos = {}, {}
        for thing, entry in env.items():
            result = split(entry, first.get(thing), later.get(thing), lambda: self.new_signal(thread))
            if result.first is not None:
                ones[thing] = result.first
            if result.second is not None:
                twos[thing] = result.second
            self.helpers(result.helpers, thread)
        return ones, twos

    def new_signal(self, thread: _Thread) -> SSAValue:
        op = thread.add(fork.SignalOp())
        op.results[0].name_hint = "s"
        return op.results[0]

    def helpers(self, helpers: tuple[Helper, ...], thread: _Thread) -> None:
        """`waitResolve`: a helper thread, or a resolve in place when it waits for
        nothing."""
        for helper in helpers:
            if not helper.waits:
                thread.add(fork.ResolveOp([helper.target]))  # type: ignore[list-item]
                continue
            block = Block([fork.WaitOp(_unique(helper.waits)), fork.ResolveOp([helper.target]), fork.EndOp()])  # type: ignore[list-item]
            thread.add(fork.ForkOp(Region(block)))

    # --- what a let binds (4.2): a signal and a reference per result; a second signal
    # for the write lock of a memory it makes

    @dataclass
    class _Bound:
        refs: dict[SSAValue, SSAValue]
        signals: dict[SSAValue, SSAValue]
        resolves: list[SSAValue]
        entries: dict[Used, Entry]

    def bind(self, op: Operation, thread: _Thread) -> _Forks._Bound:
        bound = _Forks._Bound({}, {}, [], {})
        for r in op.results:
            signal = self.new_signal(thread)
            bound.signals[r] = signal
            bound.resolves.append(signal)
        for thing in self.usage.binds(op):
            if isinstance(thing, Content) and thing.memory in bound.signals:
                # a memory the op makes: its content is ready when its handle is, and
                # written after a write lock of its own
                write = self.new_signal(thread)
                bound.resolves.append(write)
                ready = (bound.signals[thing.memory],)
                bound.entries[thing] = Entry(None, Lock(ready), Lock((write,)))
            elif isinstance(thing, Content):
                # a memory made inside an if or loop that leaves it through its results
                carriers = tuple(bound.signals[r] for r in op.results if thing in self.usage.contents(r))
                bound.entries[thing] = Entry(None, Lock(carriers), Lock(carriers))
        for r in op.results:
            ref = thread.add(fork.RefOp(r.type)).results[0]
            ref.name_hint = "r"
            bound.refs[r] = ref
            bound.entries[Variable(r)] = Entry(ref, Lock((bound.signals[r],)))
        return bound

    # --- a binding (4.3, 4.7; 4.5 for an if): wait, read, run, release, write, resolve

    def binding(self, op: Operation, env: Env, thread: _Thread, bound: _Forks._Bound) -> None:
        if isinstance(op, scf.IfOp):
            self.if_binding(op, env, thread, bound)
            return
        device_loop = isinstance(op, scf.WhileOp) and reads_only_its_condition(op, constants=True)
        if self.loops and isinstance(op, scf.ForOp | scf.WhileOp) and not device_loop:
            self.loop_binding(op, env, thread, bound)
            return
        self.acquire(env, thread)
        clone = op.clone(value_mapper=dict(thread.values))
        if isinstance(op, scf.ForOp | scf.WhileOp) and not device_loop:
            self.loop_regions(op, clone, thread)
        # (a device loop is one binding, left whole: on the GPU its iterations run in
        # turn inside one conditional graph node, on one stream, whatever forks they
        # hold; forked, its before region would wait and read references before it
        # reads its condition, which is no device loop's form)
        thread.add(clone)
        self.release(env, thread)
        for old, new in zip(op.results, clone.results):
            thread.add(fork.WriteOp(bound.refs[old], new))
        if bound.resolves:
            thread.add(fork.ResolveOp(bound.resolves))

    # --- a loop (4.9, the While rule): iterations overlap

    def loop_binding(self, op: scf.ForOp | scf.WhileOp, env: Env, thread: _Thread, bound: _Forks._Bound) -> None:
        """(4.9) The loop's thread runs a loop of its own that only starts iterations:
        each region of each iteration is forked as a term whose state comes by reference
        and signal, and whose contents' locks are the earlier iteration's releases
        (carried signals); the loop's thread waits for nothing but an `scf.while`'s
        guard, so the next iteration starts as soon as the guard is known, while the
        current one's other work still runs. On exit (resolution 1, the prose) the
        state the guard was computed on is written to the loop's destination."""
        # the bounds and the values used inside are read once, by the loop's thread
        variables = {t: e for t, e in env.items() if isinstance(t, Variable)}
        self.acquire(variables, thread)
        self.release(variables, thread)
        outer = {t: e for t, e in env.items() if isinstance(t, Content)}
        regions = [r.block for r in op.regions]
        used = [join(*(self.usage.of(o) for o in b.ops)) for b in regions]
        contents = list(outer) + [t for u in used for t in u if isinstance(t, Content) and t not in outer]
        contents = list(dict.fromkeys(contents))
        # resolved before the loop: what has nothing to wait for waits for it
        ready = self.new_signal(thread)

        def one(waits: tuple[SSAValue, ...]) -> SSAValue:
            waits = tuple(_unique(waits))
            if not waits:
                return ready
            if len(waits) == 1:
                return waits[0]
            signal = self.new_signal(thread)
            self.helpers((Helper(waits, signal),), thread)
            return signal

        # each content's lock: (the reads done, the writes done) up to this iteration
        locks: list[SSAValue] = []
        for content in contents:
            entry = outer.get(content)
            if entry is None:
                locks += [ready, ready]  # a memory made inside: nothing before the loop
            else:
                locks += [one(entry.write.wait if entry.write else ()), one(entry.read.wait)]
        inits = op.iter_args if isinstance(op, scf.ForOp) else op.arguments
        state: list[SSAValue] = []
        for value in inits:
            ref = thread.add(fork.RefOp(value.type)).results[0]
            ref.name_hint = "r"
            thread.add(fork.WriteOp(ref, thread.values.get(value, value)))
            state += [ref, ready]
        thread.add(fork.ResolveOp([ready]))
        lock_types = [fork.SIGNAL] * len(locks)

        def state_types(values) -> list:
            return [t for v in values for t in (fork.RefType(v.type), fork.SIGNAL)]

        if isinstance(op, scf.ForOp):
            old = op.body.block
            block = Block(arg_types=[old.args[0].type, *state_types(old.args[1:]), *lock_types])
            into = _Thread(block, dict(thread.values))
            into.values[old.args[0]] = block.args[0]
            block.args[0].name_hint = old.args[0].name_hint
            slots, next_locks = self.iteration(old, into, old.args[1:], block.args[1:], contents, block.args[1 + len(state) :])
            block.add_op(scf.YieldOp(*_flat(slots), *next_locks))
            lb, ub, step = (thread.values.get(v, v) for v in (op.lb, op.ub, op.step))
            loop = thread.add(scf.ForOp(lb, ub, step, [*state, *locks], Region(block)))
        else:
            before, after = op.before_region.block, op.after_region.block
            before_block = Block(arg_types=[*state_types(before.args), *lock_types])
            into = _Thread(before_block, dict(thread.values))
            slots, next_locks = self.iteration(before, into, before.args, before_block.args, contents, before_block.args[len(state) :])
            (guard_ref, guard_signal), forwarded = slots[0], slots[1:]
            into.add(fork.WaitOp([guard_signal]))
            guard = into.add(fork.ReadOp(guard_ref)).results[0]
            guard.name_hint = "go"
            into.add(scf.ConditionOp(guard, *_flat(forwarded), *next_locks))
            after_block = Block(arg_types=[*state_types(after.args), *lock_types])
            into = _Thread(after_block, dict(thread.values))
            count = 2 * len(after.args)
            slots, next_locks = self.iteration(after, into, after.args, after_block.args, contents, after_block.args[count:])
            into.add(scf.YieldOp(*_flat(slots), *next_locks))
            loop = thread.add(
                scf.WhileOp([*state, *locks], [*state_types(after.args), *lock_types], Region(before_block), Region(after_block))
            )
        results = loop.results
        for i, result in enumerate(results):
            result.name_hint = "r" if isinstance(result.type, fork.RefType) else "s"
        finals = dict(zip(contents, zip(results[2 * len(op.results) :: 2], results[2 * len(op.results) + 1 :: 2])))
        # the loop's releases, once the last iteration's are resolved
        for content, (reads, writes) in finals.items():
            entry = outer.get(content)
            if entry is None:
                continue
            helpers = [Helper((reads,), entry.read.release)] if entry.read.release is not None else []
            if entry.write is not None and entry.write.release is not None:
                helpers.append(Helper((writes,), entry.write.release))
            self.helpers(tuple(helpers), thread)
        if not op.results:
            return
        # the exit: the state the guard saw, with the contents made inside that it
        # reaches done with, goes to the loop's destination
        reached = _unique(c for r in op.results for c in self.usage.contents(r) if c in finals and c not in outer)
        waits = [results[2 * i + 1] for i in range(len(op.results))] + [s for c in reached for s in finals[c]]
        thread.add(fork.WaitOp(_unique(waits)))
        for i, r in enumerate(op.results):
            value = thread.add(fork.ReadOp(results[2 * i])).results[0]
            value.name_hint = r.name_hint
            thread.add(fork.WriteOp(bound.refs[r], value))
        if bound.resolves:
            thread.add(fork.ResolveOp(bound.resolves))

    def iteration(
        self,
        old: Block,
        into: _Thread,
        old_state: Sequence[SSAValue],
        state: Sequence[SSAValue],
        contents: list[Content],
        locks: Sequence[SSAValue],
    ) -> tuple[list[tuple[SSAValue, SSAValue]], list[SSAValue]]:
        """One region of one iteration, forked from the loop's thread (`into`): its
        state values come by reference and signal (`state`, pairs for `old_state`), a
        content's locks are the earlier region's (reads done, writes done). Gives the
        slots its terminator writes (a value it hands on unchanged keeps its own) and
        the locks it hands on (a content it does not use keeps its own)."""
        carried = {v: (state[2 * i], state[2 * i + 1]) for i, v in enumerate(old_state)}
        for ref, signal in carried.values():
            ref.name_hint, signal.name_hint = "r", "s"
        for lock in locks:
            lock.name_hint = "s"
        ops = list(old.ops)
        terminator = ops[-1]
        uses = join(*(self.usage.of(o) for o in ops[:-1]))
        env: Env = {}
        next_locks: list[SSAValue] = []
        for i, content in enumerate(contents):
            reads, writes = locks[2 * i], locks[2 * i + 1]
            if content not in uses:
                next_locks += [reads, writes]
                continue
            reads_after, writes_after = self.new_signal(into), self.new_signal(into)
            next_locks += [reads_after, writes_after]
            env[content] = Entry(None, Lock((writes,), reads_after), Lock((reads,), writes_after))
        slots: list[tuple[SSAValue, SSAValue]] = []
        own: list[tuple[SSAValue, SSAValue] | None] = []
        for value in terminator.operands:
            if value in carried:
                slots.append(carried[value])
                own.append(None)
                continue
            signal = self.new_signal(into)
            ref = into.add(fork.RefOp(value.type)).results[0]
            ref.name_hint = "r"
            slots.append((ref, signal))
            own.append((ref, signal))
        self.iteration_ends[terminator] = tuple(own)
        body = _Thread(Block(), dict(into.values))
        needed = join(uses, self.effect(terminator, {Variable(v): Entry(None) for v in terminator.operands}))
        for thing in needed:
            if isinstance(thing, Variable):
                if thing.value in carried:
                    ref, signal = carried[thing.value]
                    env[thing] = Entry(ref, Lock((signal,)))
                elif thing.value in body.values:
                    env[thing] = Entry(None)
        self.term(ops, env, body, _Destination(tuple(own), iteration=True))
        body.add(fork.EndOp())
        into.add(fork.ForkOp(Region(body.block)))
        return slots, next_locks

    def loop_regions(self, op: scf.ForOp | scf.WhileOp, clone: Operation, thread: _Thread) -> None:
        """Forks inside a loop with `loops=false` (not the study's While rule): each region
        of each iteration is a term of its own, whose values in scope are the loop's,
        and whose contents get fresh locks; the iteration ends once every access to
        them is done (the releases resolved), so iterations do not overlap."""
        for original, region in zip(op.regions, clone.regions):
            old = original.block
            block = Block(arg_types=[a.type for a in old.args])
            body = _Thread(block, dict(thread.values))
            body.values.update(zip(old.args, block.args))
            for a, b in zip(old.args, block.args):
                b.name_hint = a.name_hint
            ops = list(old.ops)
            env: Env = {}
            ends: list[SSAValue] = []
            for thing in join(*(self.usage.of(o) for o in ops)):
                if isinstance(thing, Variable):
                    if thing.value in body.values:
                        env[thing] = Entry(None)
                    continue
                read, write = self.new_signal(body), self.new_signal(body)
                ends += [read, write]
                env[thing] = Entry(None, Lock((), read), Lock((), write))
            self.term(ops, env, body, _Destination(None, tuple(ends)))
            cloned = region.block
            region.detach_block(cloned)
            cloned.erase(safe_erase=False)  # its ops' uses of the thread's values go
            region.add_block(block)

    def acquire(self, env: Env, thread: _Thread) -> None:
        waits = _unique(s for entry in env.values() for s in entry.waits())
        if waits:
            thread.add(fork.WaitOp(waits))  # type: ignore[arg-type]
        for thing, entry in env.items():
            if isinstance(thing, Variable) and entry.ref is not None:
                read = thread.add(fork.ReadOp(entry.ref))  # type: ignore[arg-type]
                read.results[0].name_hint = thing.value.name_hint
                thread.values[thing.value] = read.results[0]

    def release(self, env: Env, thread: _Thread) -> None:
        releases = _unique(s for entry in env.values() for s in entry.releases())
        if releases:
            thread.add(fork.ResolveOp(releases))  # type: ignore[arg-type]

    def if_binding(self, op: scf.IfOp, env: Env, thread: _Thread, bound: _Forks._Bound) -> None:
        """(4.5) wait for the condition and read it; each branch starts by resolving
        what it does not use (4.11) and writes the if's results to its destination."""
        condition = Variable(op.cond)
        entry = env[condition]
        if entry.read.wait:
            thread.add(fork.WaitOp(_unique(entry.read.wait)))  # type: ignore[arg-type]
        guard = thread.values.get(op.cond, op.cond)
        if entry.ref is not None:
            read = thread.add(fork.ReadOp(entry.ref))  # type: ignore[arg-type]
            read.results[0].name_hint = op.cond.name_hint
            guard = read.results[0]
        slots = tuple((bound.refs[r], bound.signals[r]) for r in op.results)
        # the write-lock signals of memories made inside and carried out are resolved
        # with the results' signals (bind gives them none of their own)
        regions = []
        for region in (op.true_region, op.false_region):
            block = Block()
            branch = _Thread(block, dict(thread.values))
            branch.values[op.cond] = guard
            ops = list(region.block.ops) if region.blocks else []
            uses = self.usage.of_ops(ops)
            kept: Env = {}
            for thing, e in env.items():
                if thing == condition and e.ref is not None:
                    e = Entry(None, Lock((), e.read.release))  # read once, above
                entry_kept, helpers = keep_in_branch(e, uses.get(thing))
                self.helpers(helpers, branch)
                if entry_kept is not None:
                    kept[thing] = entry_kept
            if ops:
                self.term(ops, kept, branch, _Destination(slots))
            branch.add(scf.YieldOp())
            regions.append(Region(block))
        thread.add(scf.IfOp(guard, [], regions[0], regions[1]))
        extra = [s for s in bound.resolves if s not in bound.signals.values()]
        if extra:
            thread.add(fork.ResolveOp(extra))

    # --- the scope's results (4.8; 5.3 with fork-returns)

    def give_back(self, terminator: Operation, env: Env, thread: _Thread, destination: _Destination) -> None:
        values = list(terminator.operands)
        if destination.iteration:
            self.iteration_end(terminator, env, thread, destination)
            return
        if destination.loop is not None:
            # to the next iteration, once this one is done with every content
            self.acquire(env, thread)
            self.release(env, thread)
            if destination.loop:
                thread.add(fork.WaitOp(list(destination.loop)))
            thread.add(terminator.clone(value_mapper=dict(thread.values)))
            return
        if not values:
            self.release(env, thread)
            if destination.slots is None:
                thread.add(func.ReturnOp())
            return
        if not self.fork_returns:
            self.acquire(env, thread)
            got = [thread.values.get(v, v) for v in values]
            self.release(env, thread)
            if destination.slots is None:
                thread.add(func.ReturnOp(*got))
                return
            for (ref, _), value in zip(destination.slots, got):
                thread.add(fork.WriteOp(ref, value))
            thread.add(fork.ResolveOp([s for _, s in destination.slots]))
            return
        slots = destination.slots
        if slots is None:
            made = []
            for v in values:
                signal = self.new_signal(thread)
                ref = thread.add(fork.RefOp(v.type)).results[0]
                ref.name_hint = "d"
                self.destinations |= {signal.owner, ref.owner}  # type: ignore[arg-type]
                made.append((ref, signal))
            slots = tuple(made)
        self.return_tree(list(zip(values, slots)), env, thread, terminator)
        if destination.slots is None:
            thread.add(fork.WaitOp([s for _, s in slots]))
            results = [thread.add(fork.ReadOp(ref)).results[0] for ref, _ in slots]
            thread.add(func.ReturnOp(*results))

    def iteration_end(self, terminator: Operation, env: Env, thread: _Thread, destination: _Destination) -> None:
        """The next iteration's state (4.9's destinations (r0, s0), (r1, s1)): each
        value written to its slot as soon as it is ready, in order (an `scf.while`'s
        guard first, which the loop's thread waits for), or by a thread of its own with
        fork-returns; the iteration's contents go on by their locks."""
        assert destination.slots is not None
        leaves = [(v, slot) for v, slot in zip(terminator.operands, destination.slots) if slot is not None]
        if leaves and self.fork_returns:
            self.return_tree(leaves, env, thread, terminator)
            return
        for value, (ref, signal) in leaves:
            entry = env.get(Variable(value))
            if entry is not None and entry.ref is not None:
                if entry.waits():
                    thread.add(fork.WaitOp(_unique(entry.waits())))  # type: ignore[arg-type]
                got = thread.add(fork.ReadOp(entry.ref)).results[0]  # type: ignore[arg-type]
                got.name_hint = value.name_hint
            else:
                got = thread.values.get(value, value)
            thread.add(fork.WriteOp(ref, got))
            thread.add(fork.ResolveOp([signal]))
        # what is left (nothing but the releases of what the writes read)
        self.acquire({t: e for t, e in env.items() if not (isinstance(t, Variable) and e.ref is not None)}, thread)
        self.release(env, thread)

    def return_tree(self, leaves: list[tuple[SSAValue, tuple[SSAValue, SSAValue]]], env: Env, thread: _Thread, terminator: Operation) -> None:
        """(5.3b) a binary tree of forks, one writer per leaf (5.3c); the first half in
        a new thread, the second in this one."""
        if len(leaves) == 1:
            (value, (ref, signal)), = leaves
            self.acquire(env, thread)
            thread.add(fork.WriteOp(ref, thread.values.get(value, value)))
            thread.add(fork.ResolveOp(list(_unique(s for e in env.values() for s in e.releases())) + [signal]))
            return
        half = len(leaves) // 2
        left, right = leaves[:half], leaves[half:]
        first = self.leaf_usage(left, env, terminator)
        later = self.leaf_usage(right, env, terminator)
        left_env, right_env = self.split_env(env, first, later, thread)
        spawned = _Thread(Block(), dict(thread.values))
        self.return_tree(left, left_env, spawned, terminator)
        spawned.add(fork.EndOp())
        thread.add(fork.ForkOp(Region(spawned.block)))
        self.return_tree(right, right_env, thread, terminator)

    def leaf_usage(self, leaves, env: Env, terminator: Operation) -> dict[Used, Mode]:
        given = gives_content(terminator) or Mode.R
        usage: dict[Used, Mode] = {}
        for value, _ in leaves:
            if Variable(value) in env:
                usage[Variable(value)] = Mode.R
            if terminator in self.iteration_ends:
                continue  # an iteration's contents go on by their locks
            for content in self.usage.contents(value):
                if content in env:
                    usage[content] = max(usage.get(content, given), given)
        return usage

    # --- the trivial optimisation's test (5.1)

    def is_trivial(self, op: Operation) -> bool:
        """An op that uses no variable, no memory and makes no memory: nothing to wait
        for (the study's constants and `use`)."""
        return not self.usage.of(op) and not op.regions and not any(isinstance(t, Content) for t in self.usage.binds(op))


def _unique(signals) -> list[SSAValue]:
    return list(dict.fromkeys(signals))


def _flat(pairs) -> list[SSAValue]:
    return [v for pair in pairs for v in pair]


def remove_dead_signals(root: Operation) -> None:
    """Dead-signal elimination (the study's pruning, kept apart from the rules): a
    signal nobody waits for is not made, a reference nobody reads is not written, and a
    helper thread left with nothing to resolve goes."""
    changed = True
    while changed:
        changed = False
        for op in list(root.walk()):
            if isinstance(op, scf.ForOp | scf.WhileOp) and _drop_dead_slots(op):
                changed = True
            elif isinstance(op, fork.SignalOp) and all(isinstance(u.operation, fork.ResolveOp) for u in op.signal.uses):
                for use in list(op.signal.uses):
                    resolve = use.operation
                    kept = [s for s in resolve.operands if s is not op.signal]
                    if kept:
                        Rewriter.replace_op(resolve, fork.ResolveOp(kept))  # type: ignore[arg-type]
                    else:
                        Rewriter.erase_op(resolve)
                Rewriter.erase_op(op)
                changed = True
            elif isinstance(op, fork.RefOp) and all(isinstance(u.operation, fork.WriteOp) for u in op.ref.uses):
                for use in list(op.ref.uses):
                    Rewriter.erase_op(use.operation)
                Rewriter.erase_op(op)
                changed = True
            elif isinstance(op, fork.ForkOp) and all(isinstance(o, fork.WaitOp | fork.EndOp) for o in op.body.block.ops):
                Rewriter.erase_op(op)
                changed = True


def _drop_dead_slots(loop: scf.ForOp | scf.WhileOp) -> bool:
    """The pruning of a loop's carried signals and references (the While rule's): a
    carried slot nobody waits for or reads, in any iteration or after the loop, only
    handed on, goes, with what hands it on. Whether anything went."""
    # a position is where a carried value is: for scf.for j, its argument j + 1 and
    # result j (given by init j and yield operand j); for scf.while a before argument
    # j (init j, yield operand j), then an after argument i with result i (condition
    # operand i + 1)
    condition = None
    if isinstance(loop, scf.ForOp):
        body = loop.body.block
        yield_ = body.last_op
        positions = [[body.args[j + 1], loop.results[j]] for j in range(len(loop.iter_args))]
    else:
        before, after = loop.before_region.block, loop.after_region.block
        yield_, condition = after.last_op, before.last_op
        nb = len(before.args)
        positions = [[before.args[j]] for j in range(nb)]
        positions += [[after.args[i], loop.results[i]] for i in range(len(after.args))]

    def position_of(use) -> int | None:
        """The position a use hands its value on to, None for a use of it."""
        if use.operation is yield_:
            return use.index
        if use.operation is condition and use.index > 0:
            return nb + use.index - 1
        return None

    carried = [i for i, values in enumerate(positions) if isinstance(values[0].type, fork.SignalType | fork.RefType)]
    alive = {i for i in range(len(positions)) if i not in carried}
    changed = True
    while changed:
        changed = False
        for i in carried:
            if i in alive:
                continue
            for value in positions[i]:
                for use in value.uses:
                    target = position_of(use)
                    if target is None or target in alive:
                        alive.add(i)
                        changed = True
                        break
                if i in alive:
                    break
    dead = [i for i in carried if i not in alive]
    if not dead:
        return False
    # the terminators first (their operands at dead positions), then the arguments
    if isinstance(loop, scf.ForOp):
        Rewriter.replace_op(yield_, scf.YieldOp(*[v for j, v in enumerate(yield_.operands) if j not in dead]))
        for j in sorted(dead, reverse=True):
            body.erase_arg(body.args[j + 1])
        region = loop.detach_region(loop.body)
        new = scf.ForOp(loop.lb, loop.ub, loop.step, [v for j, v in enumerate(loop.iter_args) if j not in dead], region)
        kept = [r for j, r in enumerate(loop.results) if j not in dead]
    else:
        assert condition is not None
        Rewriter.replace_op(yield_, scf.YieldOp(*[v for j, v in enumerate(yield_.operands) if j not in dead]))
        forwarded = [v for i, v in enumerate(condition.operands[1:]) if nb + i not in dead]
        Rewriter.replace_op(condition, scf.ConditionOp(condition.operands[0], *forwarded))
        for j in sorted((j for j in dead if j < nb), reverse=True):
            before.erase_arg(before.args[j])
        for i in sorted((i - nb for i in dead if i >= nb), reverse=True):
            after.erase_arg(after.args[i])
        kept = [r for i, r in enumerate(loop.results) if nb + i not in dead]
        before_region, after_region = loop.before_region, loop.after_region
        loop.detach_region(after_region)
        loop.detach_region(before_region)
        new = scf.WhileOp(
            [v for j, v in enumerate(loop.arguments) if j not in dead], [r.type for r in kept], before_region, after_region
        )
    Rewriter.insert_op(new, InsertPoint.before(loop))
    for old, result in zip(kept, new.results):
        old.replace_all_uses_with(result)
    Rewriter.erase_op(loop)
    return True


def is_helper(op: fork.ForkOp) -> bool:
    """A thread that only waits and resolves (the study's `waitResolve`)."""
    return all(isinstance(o, fork.WaitOp | fork.ResolveOp | fork.EndOp) for o in op.body.block.ops)


def counts(function: func.FuncOp, destinations: set[Operation] = frozenset()) -> str:  # type: ignore[assignment]
    """What the study counts: forks (helper threads apart), signals and references,
    the function's own destinations left out."""
    ops = [o for o in function.walk() if o not in destinations]
    forks = [o for o in ops if isinstance(o, fork.ForkOp)]
    helpers = sum(1 for o in forks if is_helper(o))
    signals = sum(1 for o in ops if isinstance(o, fork.SignalOp))
    refs = sum(1 for o in ops if isinstance(o, fork.RefOp))
    return f"{len(forks) - helpers} forks, {helpers} helpers, {signals} signals, {refs} references"


@dataclass(frozen=True)
class IntroduceForksPass(ModulePass):
    """introduce-forks{trivial combine fork-returns loops}: see the module docstring."""

    name = "introduce-forks"

    trivial: bool = False
    combine: bool = False
    fork_returns: bool = False
    loops: bool = True
    """The While rule (4.9): iterations overlap; false: they run in turn."""
    report: bool = False
    """Print what each function got (forks, helpers, signals, references) to stderr."""
    beside: bool = False
    """Each function keeps its form and gains a private forked copy beside it (named
    with fork.FORKED_SUFFIX, marked fork.FORKED_VARIANT_OF), for the runtime to choose between
    by measuring both (task graphs, runtime/gpu/task_graphs.py); a copy in which no
    kernel may overlap another (_may_overlap_kernels) is not kept."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # level 2 only: at level 1 nothing says what an op writes (values, not memory)
        dialects = {o.dialect_name() for o in op.walk()}
        if "mem" not in dialects or "soac" in dialects:
            return
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
            # a function with forks already has them
            if runs_on_device(function) or fork.has_forks(function) or fork.forked_variant_of(function) is not None:
                continue
            if len(function.body.blocks) != 1:
                raise located_failure(function, "introduce-forks: a function of one block is expected (structured control flow)")
            target = _forked_copy(function) if self.beside else function
            forks = _Forks(target, self.trivial, self.combine, self.fork_returns, self.loops)
            forks.run()
            remove_dead_signals(target)
            if self.beside and not _may_overlap_kernels(target):
                Rewriter.erase_op(target)  # nothing to choose between
                continue
            if self.report:
                print(f"introduce-forks: @{target.sym_name.data}: {counts(target, forks.destinations)}", file=sys.stderr)


def _may_overlap_kernels(function: func.FuncOp) -> bool:
    """Some kernel of the function's host code runs in a forked thread, and there is
    another kernel it might overlap (only kernels overlap on the device: a function
    whose forks hold host code alone, or with one kernel, cannot gain from them)."""
    kernels = [o for o in function.walk() if is_kernel(o) and not runs_on_device(o)]

    def forked(op: Operation) -> bool:
        parent = op.parent_op()
        while parent is not None and parent is not function:
            if isinstance(parent, fork.ForkOp):
                return True
            parent = parent.parent_op()
        return False

    return len(kernels) >= 2 and any(forked(k) for k in kernels)


def _forked_copy(function: func.FuncOp) -> func.FuncOp:
    """A private copy of the function right after it, to be forked."""
    name = function.sym_name.data
    copy = function.clone()
    copy.sym_name = StringAttr(name + fork.FORKED_SUFFIX)
    copy.sym_visibility = StringAttr("private")
    copy.attributes[fork.FORKED_VARIANT_OF] = StringAttr(name)
    Rewriter.insert_op(copy, InsertPoint.after(function))
    return copy
