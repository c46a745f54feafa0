"""memory-reuse's colouring solver on small graphs, without IR: which candidates share
an allocation under first fit, best fit and the bounded branch-and-bound search."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.passes.utils import colouring as solver
from soacc.passes.utils.colouring import Candidate, Problem, best_fit, colouring, first_fit, scenarios, weights

STATEMENTS = 4


def problem(
    blocks: list[tuple[str, int, int, int]],
    interfering: set[frozenset[str]] = frozenset(),
    background: dict[int, int] | None = None,
    no_max: set[tuple[str, str]] = frozenset(),
    kind: type[Problem[str]] = Problem,
) -> Problem[str]:
    """Blocks (name, bytes, first, last) in allocation order, in one size scenario;
    pairs that interfere; bytes live besides them at some statements; and pairs
    (block, class representative) whose sizes cannot be maxed there."""
    candidates = [Candidate(name, np.array([size]), i, first, last, -1) for i, (name, size, first, last) in enumerate(blocks)]
    names = [b[0] for b in blocks]
    apart = [[a != b and frozenset((a, b)) not in interfering for b in names] for a in names]
    fits = [[(a, b) not in no_max for b in names] for a in names]
    profile = np.zeros((1, STATEMENTS + 1), dtype=np.int64)
    for statement, size in (background or {}).items():
        profile[0, statement] += size
    return kind(candidates, apart, fits, profile, [])


def names(classes: list[list[Candidate[str]]]) -> list[set[str]]:
    return sorted(({c.item for c in members} for members in classes), key=sorted)


def test_blocks_apart_share_one_allocation():
    p = problem([("a", 10, 0, 0), ("b", 10, 1, 1), ("c", 10, 2, 2)])
    assert names(first_fit(p)) == [{"a", "b", "c"}]
    assert names(colouring(p)) == [{"a", "b", "c"}]


def test_interfering_blocks_do_not_share():
    p = problem([("a", 10, 0, 1), ("b", 10, 1, 2)], {frozenset("ab")})
    assert names(first_fit(p)) == [{"a"}, {"b"}]
    assert names(colouring(p)) == [{"a"}, {"b"}]


def test_a_size_that_cannot_be_maxed_keeps_its_block():
    p = problem([("a", 10, 0, 0), ("b", 20, 1, 1)], no_max={("b", "a")})
    assert names(colouring(p)) == [{"a"}, {"b"}]


def test_best_fit_does_not_raise_the_peak_where_first_fit_does():
    # a large block joining the small early class is allocated early, over the
    # background at statement 0: first fit raises the peak, best fit waits for a
    # class made later
    p = problem(
        [("small", 10, 0, 0), ("large", 100, 1, 1), ("later", 100, 2, 3)],
        background={0: 100},
    )
    assert not p.admissible(first_fit(p))
    assert names(best_fit(p)) == [{"large", "later"}, {"small"}]
    assert p.admissible(best_fit(p))
    # with no search at all the colouring is its best-fit start
    assert names(colouring(p, steps=0)) == names(best_fit(p))


def test_search_improves_on_best_fit():
    # a path a-b-c-d of interference, met in the order a, d, b, c: the greedy start
    # needs three allocations, the search finds two
    p = problem(
        [("a", 10, 0, 0), ("d", 10, 0, 0), ("b", 10, 0, 0), ("c", 10, 0, 0)],
        {frozenset("ab"), frozenset("bc"), frozenset("cd")},
    )
    assert len(best_fit(p)) == 3
    assert names(colouring(p, steps=0)) == names(best_fit(p))
    assert names(colouring(p)) == [{"a", "c"}, {"b", "d"}]


def test_search_stops_after_its_step_cap():
    # twelve blocks that may all share: the search tree (Bell(12) leaves) is far
    # larger than the cap, so only the cap ends it
    class Counting(Problem[str]):
        calls = 0

        def fits(self, new, members):
            Counting.calls += 1
            return super().fits(new, members)

    p = problem([(f"b{i}", 10 + i, i % STATEMENTS, i % STATEMENTS) for i in range(12)], kind=Counting)
    start = best_fit(p), first_fit(p)
    Counting.calls = 0
    best_fit(p), first_fit(p)
    outside_search = Counting.calls
    Counting.calls = 0
    classes = colouring(p)
    searched = Counting.calls - outside_search
    # each search step tries the current block against at most every class (12)
    assert 0 < searched <= solver.SEARCH_STEPS * 12
    Counting.calls = 0
    colouring(p, steps=10 * solver.SEARCH_STEPS)
    assert Counting.calls - outside_search > searched
    assert p.admissible(classes)
    assert p.cost(classes) <= min(p.cost(s) for s in start)


def test_scenarios_weigh_each_atom_large_and_small():
    cases = scenarios([0, 1])
    assert cases[0] == {0: solver.UNKNOWN_SIZE, 1: solver.UNKNOWN_SIZE}  # the nominal one first
    assert {0: solver.SMALL_SIZE, 1: solver.SMALL_SIZE} in cases
    assert {0: solver.UNKNOWN_SIZE, 1: solver.SMALL_SIZE} in cases
    assert len(scenarios(list(range(10)))) == 2 + 2 * solver.MAX_SCENARIO_ATOMS
    # 4*n*m + 8, and never below zero
    assert list(weights([((0, 1), 4), ((), 8)], cases[:2])) == [4 * 1024 * 1024 + 8, 4 * 8 * 8 + 8]
    assert list(weights([((0,), -4)], cases[:1])) == [0]


@pytest.mark.parametrize("strategy", [first_fit, best_fit, colouring])
def test_every_block_is_in_exactly_one_class(strategy):
    p = problem(
        [("a", 10, 0, 1), ("b", 20, 1, 2), ("c", 10, 2, 3), ("d", 30, 3, 3)],
        {frozenset("ab"), frozenset("bc"), frozenset("cd")},
    )
    classes = strategy(p)
    assert sorted(c.item for members in classes for c in members) == ["a", "b", "c", "d"]
    for members in classes:
        assert all(p.fits(x, [y for y in members if y is not x]) for x in members)


def test_a_weight_past_64_bits_is_the_largest_not_an_overflow():
    # a constant size of 2^80 x 4 bytes (memory-reuse failed with "OverflowError: Python
    # int too large to convert to C long"); the program fails where it computes it
    cases = scenarios([0])
    assert list(weights([((), 4 * 2**80)], cases[:1])) == [2**63 - 1]
    assert list(weights([((0,) * 7, 1)], cases[:1])) == [2**63 - 1]  # 1024^7 guessed
