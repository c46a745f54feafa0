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
branch's head); a loop is one binding whose thread runs it, each iteration's regions
transformed as terms of their own that end once their accesses are released; a
kernel's lambdas are device code, left alone. The function's result is its
destination: `func.return` waits for what it returns (4.8).

Options (digest §5), each switchable so it can be tested alone:
- `trivial`: an op that uses nothing (a constant) runs in place, not forked, and the
  ops after it use its value directly (5.1);
- `combine`: a binding whose every result the next op uses runs in that op's thread
  (5.2);
- `fork-returns`: each returned value is copied by its own thread to a destination the
  function waits for (5.3).

The rules and where the study's text is resolved are on docs/introduce-forks.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from soacc.dialects import fork
from soacc.dialects.shared.traits import runs_on_device
from soacc.dialects.shared.utils import located_failure
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
    it, per result (an `if`'s results); None: the function returns them, or (`loop`)
    an iteration gives them to the next, once the signals of `loop` are resolved."""

    slots: tuple[tuple[SSAValue, SSAValue], ...] | None
    loop: tuple[SSAValue, ...] | None = None


class _Forks:
    def __init__(self, function: func.FuncOp, trivial: bool, combine: bool, fork_returns: bool):
        self.function = function
        self.trivial, self.combine, self.fork_returns = trivial, combine, fork_returns
        self.usage = UsageAnalysis(function)
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
        self.acquire(env, thread)
        clone = op.clone(value_mapper=dict(thread.values))
        if isinstance(op, scf.ForOp | scf.WhileOp):
            self.loop_regions(op, clone, thread)
        thread.add(clone)
        self.release(env, thread)
        for old, new in zip(op.results, clone.results):
            thread.add(fork.WriteOp(bound.refs[old], new))
        if bound.resolves:
            thread.add(fork.ResolveOp(bound.resolves))

    def loop_regions(self, op: scf.ForOp | scf.WhileOp, clone: Operation, thread: _Thread) -> None:
        """Forks inside a loop (resolution 1: not the study's While rule): each region
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


def remove_dead_signals(root: Operation) -> None:
    """Dead-signal elimination (the study's pruning, kept apart from the rules): a
    signal nobody waits for is not made, a reference nobody reads is not written, and a
    helper thread left with nothing to resolve goes."""
    changed = True
    while changed:
        changed = False
        for op in list(root.walk()):
            if isinstance(op, fork.SignalOp) and not any(isinstance(u.operation, fork.WaitOp) for u in op.signal.uses):
                for use in list(op.signal.uses):
                    resolve = use.operation
                    kept = [s for s in resolve.operands if s is not op.signal]
                    if kept:
                        Rewriter.replace_op(resolve, fork.ResolveOp(kept))  # type: ignore[arg-type]
                    else:
                        Rewriter.erase_op(resolve)
                Rewriter.erase_op(op)
                changed = True
            elif isinstance(op, fork.RefOp) and not any(isinstance(u.operation, fork.ReadOp) for u in op.ref.uses):
                for use in list(op.ref.uses):
                    Rewriter.erase_op(use.operation)
                Rewriter.erase_op(op)
                changed = True
            elif isinstance(op, fork.ForkOp) and all(isinstance(o, fork.WaitOp | fork.EndOp) for o in op.body.block.ops):
                Rewriter.erase_op(op)
                changed = True


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
    """introduce-forks{trivial combine fork-returns}: see the module docstring."""

    name = "introduce-forks"

    trivial: bool = False
    combine: bool = False
    fork_returns: bool = False
    report: bool = False
    """Print what each function got (forks, helpers, signals, references) to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # level 2 only: at level 1 nothing says what an op writes (values, not memory)
        dialects = {o.dialect_name() for o in op.walk()}
        if "mem" not in dialects or "soac" in dialects:
            return
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
            # a function with forks already has them
            if runs_on_device(function) or fork.has_forks(function):
                continue
            if len(function.body.blocks) != 1:
                raise located_failure(function, "introduce-forks: a function of one block is expected (structured control flow)")
            forks = _Forks(function, self.trivial, self.combine, self.fork_returns)
            forks.run()
            remove_dead_signals(function)
            if self.report:
                print(f"introduce-forks: @{function.sym_name.data}: {counts(function, forks.destinations)}", file=sys.stderr)
