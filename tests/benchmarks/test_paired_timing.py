"""benchmarks/paired_timing.py, the statistics of device_syncs.py and memory.py: the
interval for the median of the rounds' paired speedups, and the verdict on the issues'
"no program slower by more than 2%"."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.support.scripts import load_benchmark


@pytest.fixture(scope="module")
def benchmark():
    return load_benchmark("paired_timing.py")


@pytest.mark.parametrize("n, ranks", [(6, (1, 6)), (10, (2, 9)), (30, (10, 21)), (100, (40, 61))])
def test_the_interval_is_the_order_statistics_of_the_binomial_table(benchmark, n, ranks):
    # the ranks (1-based) of the usual 95% interval for a median, from tables
    samples = [float(v) for v in np.random.default_rng(n).permutation(n)]
    assert benchmark.median_interval(samples) == (ranks[0] - 1, ranks[1] - 1)


def test_too_few_samples_give_the_whole_range(benchmark):
    assert benchmark.median_interval([3.0, 1.0, 2.0]) == (1.0, 3.0)
    assert benchmark.median_interval([2.0]) == (2.0, 2.0)


def test_the_interval_covers_the_true_median_at_least_95_percent_of_the_time(benchmark):
    rng = np.random.default_rng(0)
    true_median = math.exp(0.0)  # of a log-normal with mu = 0: skewed, as run times are
    trials = 4000
    covered = sum(
        low <= true_median <= high
        for low, high in (benchmark.median_interval(list(rng.lognormal(0.0, 0.5, 30))) for _ in range(trials))
    )
    assert covered / trials >= 0.94  # exactly 95.7% for n = 30, less the trials' noise


def test_paired_speedups_divide_round_by_round(benchmark):
    off = [2.0, 4.0, 6.0]
    on = [1.0, 4.0, 2.0]
    assert benchmark.paired_speedups(off, on) == [2.0, 1.0, 3.0]
    assert benchmark.paired_summary(off, on) == (2.0, 1.0, 3.0)  # (3 rounds: the whole range)
    assert benchmark.paired_summary([], []) is None


def test_the_verdict_separates_slower_undecided_and_not_slower(benchmark):
    line = benchmark.slowdown_verdict([("a", 0.90, 0.95), ("b", 0.97, 1.01), ("c", 0.99, 1.10)], 0.98, 30)
    assert "slower than 0.98x: a;" in line
    assert "interval reaching below 0.98x: b" in line
    assert benchmark.classify([("a", 0.90, 0.95), ("b", 0.97, 1.01), ("c", 0.99, 1.10)], 0.98) == (["a"], ["b"])
    assert "none is slower" in benchmark.slowdown_verdict([("c", 0.99, 1.10)], 0.98, 30)
    assert "every interval is at or above 0.98x" in benchmark.slowdown_verdict([("c", 0.99, 1.10)], 0.98, 30)


def test_memory_benchmark_pairs_each_configuration_with_off():
    memory = load_benchmark("memory.py")

    def measurement(samples):
        return memory.Measurement(0, 0, 0, 0, samples, None, None, "ok")

    off = measurement([2.0, 4.0, 6.0, 8.0, 10.0, 12.0])
    on = measurement([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert off.seconds == 2.0
    assert on.paired(off) == (2.0, 2.0, 2.0)
    assert measurement([]).paired(off) is None


@pytest.mark.parametrize("script, repeat, message", [
    ("device_syncs.py", "0", "--repeat must be at least 1"),
    ("memory.py", "-1", "--repeat must be 0 (counts only) or more"),
])
def test_the_benchmarks_refuse_a_bad_number_of_rounds(script, repeat, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        load_benchmark(script).main(["--backend", "numpy", "--small", "--repeat", repeat])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
