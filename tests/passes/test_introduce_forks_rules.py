"""The synchronisation rules of the forks transformation (passes/utils/fork_environment.py)
as the study states them (Matser; digest 004 §10, B10 and B11): the environment split
at a fork (4.10) and the conditional sub-environment (4.11), on symbolic signals, with
the resolutions docs/introduce-forks.md gives where the rules are incomplete."""

from __future__ import annotations

import itertools

from soacc.passes.analysis.usage import Mode
from soacc.passes.utils.fork_environment import Entry, Helper, Lock, Split, drop, keep_in_branch, split

R, W = Mode.R, Mode.W


def _signals():
    """s1, s2, ... in the order the rule makes them."""
    counter = itertools.count(1)
    return lambda: f"s{next(counter)}"


def rw(a="a", b="b", c="c", d="d") -> Entry:
    """x -> r (a, b)(c, d); None for the study's `-`."""
    return Entry("r", Lock((a,) if a else (), b), Lock((c,) if c else (), d))


def ro(a="a", b="b") -> Entry:
    return Entry("r", Lock((a,) if a else (), b))


def test_read_read():
    # RR on x -> r (a, b): (a, s1) |><| (a, s2) + waitResolve [s1, s2] b
    got = split(ro(), R, R, _signals())
    assert got.first == Entry("r", Lock(("a",), "s1"))
    assert got.second == Entry("r", Lock(("a",), "s2"))
    assert got.helpers == (Helper(("s1", "s2"), "b"),)


def test_write_read():
    # WR on (a, b)(c, d): (a, s1)(c, s2) |><| (s2, s3) + waitResolve [s1, s3] b
    # + waitResolve [s2] d
    got = split(rw(), W, R, _signals())
    assert got.first == Entry("r", Lock(("a",), "s1"), Lock(("c",), "s2"))
    assert got.second == Entry("r", Lock(("s2",), "s3"))
    assert got.helpers == (Helper(("s1", "s3"), "b"), Helper(("s2",), "d"))


def test_read_write():
    # RW: (a, s1) |><| (a, b)(s2, d) + waitResolve [c, s1] s2
    got = split(rw(), R, W, _signals())
    assert got.first == Entry("r", Lock(("a",), "s1"))
    assert got.second == Entry("r", Lock(("a",), "b"), Lock(("s2",), "d"))
    assert got.helpers == (Helper(("c", "s1"), "s2"),)


def test_write_write():
    # WW: (a, s1)(c, s2) |><| (s2, b)(s1, d), no helper
    got = split(rw(), W, W, _signals())
    assert got.first == Entry("r", Lock(("a",), "s1"), Lock(("c",), "s2"))
    assert got.second == Entry("r", Lock(("s2",), "b"), Lock(("s1",), "d"))
    assert got.helpers == ()


def test_pruning_without_releases():
    # b = d = -: RR makes no signal; WR keeps only s2 (Example 4.13.1's s6)
    rr = split(ro(b=None), R, R, _signals())
    assert rr.new == () and rr.helpers == ()
    assert rr.first == rr.second == Entry("r", Lock(("a",), None))
    wr = split(rw(b=None, d=None), W, R, _signals())
    assert wr.new == ("s2",) and wr.helpers == ()
    assert wr.first == Entry("r", Lock(("a",), None), Lock(("c",), "s2"))
    assert wr.second == Entry("r", Lock(("s2",), None))


def test_one_side_only_moves_the_entry():
    # not in the study's rules (resolution: the entry moves unchanged)
    entry = rw()
    assert split(entry, W, None, _signals()) == Split(entry, None)
    got = split(entry, None, R, _signals())
    assert got.first is None and got.second == entry and got.helpers == ()


def test_read_read_on_an_entry_with_a_write_lock():
    # no rule in the study (resolution 3): the read release also waits for the earlier
    # reads (c); the write release is forwarded once the earlier writes are done (a)
    got = split(rw(), R, R, _signals())
    assert got.first == Entry("r", Lock(("a",), "s1"))
    assert got.second == Entry("r", Lock(("a",), "s2"))
    assert got.helpers == (Helper(("s1", "s2", "c"), "b"), Helper(("a",), "d"))


def test_sub_environment_keeps_what_a_branch_writes():
    # 4.11c, f: kept as it is, nothing resolved
    assert keep_in_branch(rw(), W) == (rw(), ())
    assert keep_in_branch(ro(), R) == (ro(), ())


def test_sub_environment_read_only_branch():
    # 4.11d resolves d at once; resolution 2 forwards it after the earlier writes (a)
    # and makes the branch's read wait for the earlier reads too (c)
    kept, helpers = keep_in_branch(rw(), R)
    assert kept == Entry("r", Lock(("a", "c"), "b"))
    assert helpers == (Helper(("a",), "d"),)


def test_sub_environment_unused():
    # 4.11e: resolve [b, d] (b after the earlier reads, d after the earlier writes);
    # 4.11g: resolve [b] at once
    assert keep_in_branch(rw(), None) == (None, (Helper(("c",), "b"), Helper(("a",), "d")))
    assert keep_in_branch(ro(), None) == (None, (Helper((), "b"),))
    assert drop(ro(b=None)) == ()


def test_a_ready_content_still_orders_its_writers():
    # an argument's content: nothing to wait for, but two writers get the split's
    # signals (WW: the second reads after s2, writes after s1)
    got = split(rw(None, None, None, None), W, W, _signals())
    assert got.first == Entry("r", Lock((), "s1"), Lock((), "s2"))
    assert got.second == Entry("r", Lock(("s2",), None), Lock(("s1",), None))
    # a value in scope is shared as it is
    assert split(Entry(None), R, R, _signals()) == Split(Entry(None), Entry(None))
    assert split(Entry(None), R, R, _signals()).new == ()

