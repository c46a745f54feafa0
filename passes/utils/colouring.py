"""The colouring solver of memory-reuse: which blocks of one body share an allocation.

Pure: it sees no IR. A candidate is a block's live range (statement indices) and its
size in each size scenario; `apart` says which pairs never interfere and `size_fits`
whose size can be maxed where another is allocated (both decided by memory-reuse from
the IR). A class of candidates becomes one allocation.

`first_fit` is the study's linear scan. `colouring` colours the interference graph
weighted by block size: among the colourings that raise the body's peak bytes in no
size scenario, a branch-and-bound search over the candidates' order finds one with the
lowest peak, then the fewest allocations, then the fewest bytes; it starts from a
best-fit colouring and stops after `SEARCH_STEPS` search steps with the best found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from soacc.dialects.shared.overflow import MAX_SIZE

UNKNOWN_SIZE = 1024
"""What an unknown size counts as when the colouring compares block sizes."""
SMALL_SIZE = 8
SEARCH_STEPS = 3_000
MAX_SCENARIO_ATOMS = 5

T = TypeVar("T")

ALONE_CELLS = 1 << 22
"""At most this many numbers (32 MiB) for the candidates' profiles alone."""


@dataclass
class Candidate(Generic[T]):
    item: T
    """What the caller colours (memory-reuse: an allocation)."""
    weights: np.ndarray
    """Its size in each size scenario."""
    position: int
    """Where it is allocated: a class is allocated where its earliest member is."""
    first: int
    last: int
    previous_run: int
    """-1, or the last statement using the previous loop iteration's block."""

    @property
    def weight(self) -> int:
        return int(self.weights[0])


class Problem(Generic[T]):
    """The blocks of one body, which pairs may share, and the bytes live at each
    statement in each size scenario."""

    def __init__(
        self,
        candidates: list[Candidate[T]],
        apart: Sequence[Sequence[bool]],
        size_fits: Sequence[Sequence[bool]],
        background: np.ndarray,
        opaque: list[int],
    ):
        self.candidates = candidates
        self._apart = apart
        """apart[i][j]: candidates i and j never interfere and may share a block."""
        self._size_fits = size_fits
        """size_fits[i][j]: i's size is j's or can be maxed where j is allocated."""
        self.background = background
        """The bytes live at each statement in each scenario that no candidate holds."""
        self.opaque = opaque
        """Statements that allocate memory the caller cannot size (calls, lambdas
        that allocate per lane): no class may hold more there than before."""
        self._index = {id(c): i for i, c in enumerate(candidates)}
        self._classes: dict[tuple[int, ...], np.ndarray] = {}
        """The profile of each class of several members seen so far, by their indices:
        a search meets the same classes at many of its leaves."""
        # each candidate's bytes alone, stacked, where that is small: a search costs a
        # profile per step, mostly of classes of one member, summed in one step
        cells = len(candidates) * background.size
        self._alone = np.stack([self._class_profile([c]) for c in candidates]) if candidates and cells <= ALONE_CELLS else None
        self.baseline_profile = self.profile([[c] for c in candidates])
        self.baseline = self.baseline_profile.max(axis=1)

    def fits(self, new: Candidate[T], members: list[Candidate[T]]) -> bool:
        """Whether `new` may join the class: it interferes with no member, and every
        member's size is equal to the class allocation's or can be maxed there (the
        class is allocated where its earliest member was)."""
        apart = self._apart[self._index[id(new)]]
        if not all(apart[self._index[id(m)]] for m in members):
            return False
        everyone = [*members, new]
        rep = self._index[id(min(everyone, key=lambda c: c.position))]
        return all(self._size_fits[self._index[id(c)]][rep] for c in everyone)

    def peaks(self, classes: list[list[Candidate[T]]]) -> np.ndarray:
        """The peak bytes of each scenario."""
        return self.profile(classes).max(axis=1)

    def profile(self, classes: list[list[Candidate[T]]]) -> np.ndarray:
        """The bytes live at each statement in each scenario: a class's block lives
        from its first member's first use to its last member's last use, at its
        largest member's size."""
        profile = self.background.copy()
        if self._alone is not None:
            alone = [self._index[id(m[0])] for m in classes if len(m) == 1]
            if alone:
                profile += self._alone[alone].sum(axis=0)
            classes = [m for m in classes if len(m) > 1]
        for members in classes:
            if len(members) == 1:
                profile += self._class_profile(members)
                continue
            key = tuple(sorted(self._index[id(m)] for m in members))
            known = self._classes.get(key)
            if known is None:
                known = self._classes[key] = self._class_profile(members)
            profile += known
        return profile

    def _class_profile(self, members: list[Candidate[T]]) -> np.ndarray:
        """One class's bytes at each statement in each scenario."""
        out = np.zeros_like(self.background)
        lo = min(c.first for c in members)
        hi = max(c.last for c in members)
        weights = members[0].weights if len(members) == 1 else np.maximum.reduce([c.weights for c in members])
        weight = weights[:, None]
        out[:, lo : hi + 1] += weight
        carried = max(c.previous_run for c in members)
        if carried >= 0:  # the previous iteration's block, a block of its own, until its last use
            out[:, : carried + 1] += weight
        return out

    def admissible(self, classes: list[list[Candidate[T]]], profile: np.ndarray | None = None) -> bool:
        """No scenario's peak is above what it is without reuse, nor what is live
        where unknown memory is allocated (`profile`: the classes', if known)."""
        if profile is None:
            profile = self.profile(classes)
        if not np.all(profile.max(axis=1) <= self.baseline):
            return False
        return bool(np.all(profile[:, self.opaque] <= self.baseline_profile[:, self.opaque]))

    def cost(self, classes: list[list[Candidate[T]]], profile: np.ndarray | None = None) -> tuple[int, int, int]:
        """(peak, allocations, bytes allocated), in the nominal scenario (`profile`:
        the classes', if known)."""
        nominal = profile[0].max() if profile is not None else self.peaks(classes)[0]
        return int(nominal), len(classes), sum(max(c.weight for c in members) for members in classes)


def first_fit(problem: Problem[T]) -> list[list[Candidate[T]]]:
    """The study's linear scan: each block takes the first class it fits."""
    classes: list[list[Candidate[T]]] = []
    for c in problem.candidates:
        for members in classes:
            if problem.fits(c, members):
                members.append(c)
                break
        else:
            classes.append([c])
    return classes


def best_fit(problem: Problem[T]) -> list[list[Candidate[T]]]:
    """Each block joins the class that leaves the lowest peak, then grows least, when
    no scenario's peak rises; else it stays on its own."""
    classes: list[list[Candidate[T]]] = []
    for n, c in enumerate(problem.candidates):
        rest = [[x] for x in problem.candidates[n + 1 :]]
        options = []
        for i, members in enumerate(classes):
            if problem.fits(c, members):
                trial = [m if j != i else [*m, c] for j, m in enumerate(classes)]
                largest = max(m.weight for m in members)
                options.append((problem.cost(trial + rest)[0], max(0, c.weight - largest), i, trial))
        for _, _, i, trial in sorted(options, key=lambda o: o[:3]):
            if problem.admissible(trial + rest):
                classes = trial
                break
        else:
            classes.append([c])
    return classes


def colouring(problem: Problem[T], steps: int = SEARCH_STEPS) -> list[list[Candidate[T]]]:
    """The lowest peak, then the fewest allocations, then the fewest bytes, among the
    colourings that raise no scenario's peak: branch and bound from best fit, for at
    most `steps` search steps."""
    candidates = problem.candidates
    start = [best_fit(problem), [[c] for c in candidates]]
    linear = first_fit(problem)
    if problem.admissible(linear):
        start.append(linear)
    best = min(start, key=problem.cost)
    best_cost = [problem.cost(best)]
    best_classes = [[list(m) for m in best]]
    taken = [0]

    def search(i: int, classes: list[list[Candidate[T]]]) -> None:
        taken[0] += 1
        if taken[0] > steps:
            return
        if i == len(candidates):
            profile = problem.profile(classes)
            cost = problem.cost(classes, profile)
            if cost < best_cost[0] and problem.admissible(classes, profile):
                best_cost[0] = cost
                best_classes[0] = [list(m) for m in classes]
            return
        c = candidates[i]
        for members in classes:
            if problem.fits(c, members):
                members.append(c)
                search(i + 1, classes)
                members.pop()
        classes.append([c])
        search(i + 1, classes)
        classes.pop()

    search(0, [])
    return best_classes[0]


def scenarios(atoms: list[int]) -> list[dict[int, int]]:
    """Sizes to weigh blocks by: every unknown size large (the nominal scenario
    first), every one small, and each one large while the others are small and the
    other way round (for the first `MAX_SCENARIO_ATOMS` atoms)."""
    large, small = UNKNOWN_SIZE, SMALL_SIZE
    out = [{a: large for a in atoms}, {a: small for a in atoms}]
    for a in atoms[:MAX_SCENARIO_ATOMS]:
        out.append({b: (large if b == a else small) for b in atoms})
        out.append({b: (small if b == a else large) for b in atoms})
    return out




def weights(terms: Iterable[tuple[tuple[int, ...], int]], cases: list[dict[int, int]]) -> np.ndarray:
    """A polynomial's value (Σ coefficient · Π atoms, given as its terms) in each
    scenario, from 0 to the largest int64 (a size past 64 bits, of constants or of a
    scenario's guesses, weighs as the largest: the program fails where it computes it)."""
    terms = list(terms)
    out = np.zeros(len(cases), dtype=np.int64)
    for k, values in enumerate(cases):
        total = 0
        for monomial, c in terms:
            term = c
            for a in monomial:
                term *= values.get(a, UNKNOWN_SIZE)
            total += term
        out[k] = min(max(total, 0), MAX_SIZE)
    return out
