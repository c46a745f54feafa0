"""The environment of the forks transformation and its two synchronisation rules
(Matser, digest 004 §4.8 and §4.9): how the locks of what a term uses are split
between the two threads of a fork, and which releases a branch of an `if` resolves for
what it does not use.

Every used thing (a variable or a memory's content) has an `Entry`: the reference
holding a variable's value (none for a value in scope, and for a content), a read lock
and, for contents, a write lock. A lock is (signals to wait for before the access,
signal to resolve after it); the study's `-` is an empty wait or no release.

The rules work on signals as opaque tokens made by a factory, so they are tested
without IR (tests/passes/test_introduce_forks_rules.py); the pass makes the factory
create `fork.signal` ops. Where the study's rules are incomplete or unsafe, the
resolution is the one docs/introduce-forks.md gives, marked here "(resolution N)".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from soacc.passes.analysis.usage import Mode

Signal = Hashable
NewSignal = Callable[[], Signal]


@dataclass(frozen=True)
class Lock:
    wait: tuple[Signal, ...] = ()
    release: Signal | None = None


@dataclass(frozen=True)
class Entry:
    ref: object | None
    """The reference holding a variable's value; None for a value in scope (a direct
    value) and for a content."""
    read: Lock = Lock()
    write: Lock | None = None
    """Contents only: variables are written by their definition alone."""

    def waits(self) -> tuple[Signal, ...]:
        """What an access waits for (rule 4.7 waits on both locks)."""
        return self.read.wait + (self.write.wait if self.write else ())

    def releases(self) -> tuple[Signal, ...]:
        out = (self.read.release,) + ((self.write.release,) if self.write else ())
        return tuple(s for s in out if s is not None)

    @property
    def free(self) -> bool:
        """Nothing to wait for or resolve."""
        return not self.waits() and not self.releases()


@dataclass(frozen=True)
class Helper:
    """`waitResolve waits target`: a thread that resolves `target` once every signal of
    `waits` is resolved (immediately when `waits` is empty)."""

    waits: tuple[Signal, ...]
    target: Signal


@dataclass(frozen=True)
class Split:
    first: Entry | None
    """The binding's entry (thread 1), None when it does not use the thing."""
    second: Entry | None
    """The in-clause's entry (thread 2)."""
    helpers: tuple[Helper, ...] = ()
    new: tuple[Signal, ...] = ()
    """The signals the split made (after pruning)."""


def split(entry: Entry, first: Mode | None, second: Mode | None, new_signal: NewSignal) -> Split:
    """Rule 4.10 for one entry used with mode `first` by the binding and `second` by
    the in-clause (None: not used), pruned: a helper into no signal is dropped, and a
    new signal nobody waits for is not made."""
    if entry.free and entry.write is None:
        # a value in scope: never written again, nothing to order (a content with
        # nothing to wait for still orders the accesses of the two threads)
        return Split(entry if first else None, entry if second else None)
    made: list[Signal] = []

    def fresh() -> Signal:
        s = new_signal()
        made.append(s)
        return s

    a, b = entry.read.wait, entry.read.release
    c, d = (entry.write.wait, entry.write.release) if entry.write else ((), None)
    if first is None and second is None:
        return Split(None, None, drop(entry))
    if second is None:
        return Split(entry, None)
    if first is None:
        return Split(None, entry)
    if first == Mode.R and second == Mode.R:
        # (4.10c); on an entry with a write lock (no rule: resolution 3) the read
        # release also waits for the earlier reads (c), and the write release is
        # forwarded once the earlier writes are done (a)
        s1, s2 = fresh(), fresh()
        helpers = [Helper((s1, s2) + c, b)] if b is not None else []
        if d is not None:
            helpers.append(Helper(a, d))
        result = Split(Entry(entry.ref, Lock(a, s1)), Entry(entry.ref, Lock(a, s2)), tuple(helpers))
    elif first == Mode.W and second == Mode.R:
        # (4.10d): the reader waits for the writer's write (s2)
        s1, s2, s3 = fresh(), fresh(), fresh()
        helpers = []
        if b is not None:
            helpers.append(Helper((s1, s3), b))
        if d is not None:
            helpers.append(Helper((s2,), d))
        result = Split(
            Entry(entry.ref, Lock(a, s1), Lock(c, s2)), Entry(entry.ref, Lock((s2,), s3)), tuple(helpers)
        )
    elif first == Mode.R and second == Mode.W:
        # (4.10e): the writer waits for the earlier writes and the reader's reads (s2)
        s1, s2 = fresh(), fresh()
        result = Split(
            Entry(entry.ref, Lock(a, s1)),
            Entry(entry.ref, Lock(a, b), Lock((s2,), d)),
            (Helper(c + (s1,), s2),),
        )
    else:
        # (4.10f): the second reads after the first's write, writes after its read
        s1, s2 = fresh(), fresh()
        result = Split(Entry(entry.ref, Lock(a, s1), Lock(c, s2)), Entry(entry.ref, Lock((s2,), b), Lock((s1,), d)))
    return _prune(result, made)


def drop(entry: Entry) -> tuple[Helper, ...]:
    """The releases of an entry a scope does not use, resolved for it (the study
    resolves them at once, 4.11e/g; resolution 2: a write release says the earlier
    writes are done, so it waits for them (a); a read release of an entry with a write
    lock says the earlier reads are done (c))."""
    helpers = []
    if entry.read.release is not None:
        helpers.append(Helper(entry.write.wait if entry.write else (), entry.read.release))
    if entry.write is not None and entry.write.release is not None:
        helpers.append(Helper(entry.read.wait, entry.write.release))
    return tuple(helpers)


def keep_in_branch(entry: Entry, mode: Mode | None) -> tuple[Entry | None, tuple[Helper, ...]]:
    """Rule 4.11 (the conditional sub-environment) for one entry at the head of a
    branch that uses it with `mode`: the entry the branch keeps, and the releases
    resolved for what it does not do. (4.11d, read only: the study resolves the write
    release at once; resolution 2: it waits for the earlier writes (a), and the read
    lock waits for the earlier reads (c), so its release still means they are done.)"""
    if mode is None:
        return None, drop(entry)
    if mode == Mode.W or entry.write is None:
        return entry, ()
    kept = Entry(entry.ref, Lock(entry.read.wait + entry.write.wait, entry.read.release))
    helpers = (Helper(entry.read.wait, entry.write.release),) if entry.write.release is not None else ()
    return kept, helpers


def _prune(result: Split, made: list[Signal]) -> Split:
    """Drops the new signals nobody waits for (a release into them is no release) and
    the helpers that resolve only those."""
    helpers = list(result.helpers)
    first, second = result.first, result.second
    while True:
        waited = {s for e in (first, second) if e is not None for s in e.waits()}
        waited |= {s for h in helpers for s in h.waits}
        unwaited = {s for s in made if s not in waited}
        if not unwaited:
            break
        made = [s for s in made if s not in unwaited]
        first, second = (_without(e, unwaited) for e in (first, second))
        helpers = [h for h in helpers if h.target not in unwaited]
    return Split(first, second, tuple(helpers), tuple(made))


def _without(entry: Entry | None, gone: set[Signal]) -> Entry | None:
    if entry is None:
        return None

    def lock(lock: Lock | None) -> Lock | None:
        if lock is None:
            return None
        return replace(lock, release=None) if lock.release in gone else lock

    return Entry(entry.ref, lock(entry.read), lock(entry.write))  # type: ignore[arg-type]
