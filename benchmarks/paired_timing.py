"""Timing two configurations of a program against each other on a shared machine:
the runs alternate, one of each per round, so each round gives its own ratio, and the
median of those ratios gets a distribution-free confidence interval. What slows the
machine for a while (another process, clocks) slows both runs of a round and cancels
in their ratio, and the interval says whether a difference is more than noise.
Used by device_syncs.py, memory.py and peers.py."""

from __future__ import annotations

import math
import statistics


def alternating_rounds(programs: dict, args, repeat: int) -> dict[str, list[float]]:
    """Seconds of `repeat` calls of each program's `main(*args)`, round by round, one
    of each per round, in the given order in even rounds and reversed in odd ones (so
    none always runs first, after the others warmed or cooled the machine)."""
    import time

    samples: dict[str, list[float]] = {name: [] for name in programs}
    order = list(programs)
    for round_ in range(repeat):
        for name in order if round_ % 2 == 0 else order[::-1]:
            started = time.perf_counter()
            programs[name].main(*args)
            samples[name].append(time.perf_counter() - started)
    return samples


def median_interval(samples: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """A distribution-free confidence interval for the median of `samples` (assumed
    independent): the order statistics x(k) and x(n+1-k) for the largest k with
    P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2. With fewer than 6 samples no
    such k exists at 95%, and the interval is the whole range."""
    ordered = sorted(samples)
    n = len(ordered)
    tail = (1 - confidence) / 2
    below = 0.0  # P(Binomial(n, 1/2) < k), for k = 1, 2, ...
    k = 0
    while k < n // 2:
        below += math.comb(n, k) / 2**n
        if below > tail:
            break
        k += 1
    k = max(k, 1)
    return ordered[k - 1], ordered[n - k]


def paired_speedups(off: list[float], on: list[float]) -> list[float]:
    """off / on in each round: the two ran back to back, so what slows the machine
    for a while (another process, clocks) slows both and cancels."""
    return [a / b for a, b in zip(off, on)]


def paired_summary(off: list[float], on: list[float]) -> tuple[float, float, float] | None:
    """The median of the rounds' off/on ratios and its 95% interval (None without a
    round)."""
    rounds = paired_speedups(off, on)
    if not rounds:
        return None
    return (statistics.median(rounds), *median_interval(rounds))


SLOWDOWN_LIMIT = 0.98  # the "no program slower by more than 2%"


def classify(intervals: list[tuple[str, float, float]], limit: float) -> tuple[list[str], list[str]]:
    """The programs whose whole interval is below `limit` (shown slower), and those
    whose interval reaches below it (undecided); the rest are shown not slower."""
    slower = [n for n, _, high in intervals if high < limit]
    undecided = [n for n, low, high in intervals if low < limit <= high]
    return slower, undecided


def slowdown_verdict(intervals: list[tuple[str, float, float]], limit: float, repeat: int) -> str:
    """Which programs the paired intervals show slower than `limit` (the whole interval
    below it), which they show not to be (the whole interval at or above it), and
    which they leave undecided."""
    slower, undecided = classify(intervals, limit)
    line = f"paired speedups (median of {repeat} rounds, 95% interval): "
    if slower:
        line += f"slower than {limit:.2f}x: {', '.join(slower)}; "
    else:
        line += f"none is slower than {limit:.2f}x; "
    if undecided:
        line += f"interval reaching below {limit:.2f}x: {', '.join(undecided)}"
    else:
        line += f"every interval is at or above {limit:.2f}x"
    return line
