"""benchmarks/memory.py and its programs (benchmarks/memory/): each port gives its NumPy
reference's results with the memory passes on and off, bit for bit the same both ways,
with no higher peak; the script runs on the reference executor."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.tools.examples import as_tuple, load_examples, mismatch

from tests.support.marks import params
from tests.support.scripts import load_benchmark

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = load_examples(ROOT / "benchmarks" / "memory")
BASE = "canonicalize,cse,convert-soac-to-mem"
MEMORY = BASE + ",hoist-allocations,short-circuit,memory-reuse"


def test_there_are_the_eight_ports():
    assert {p.name for p in PROGRAMS} == {
        "backprop", "bfs", "canny", "locvolcalib", "lud", "myocyte", "optionpricing", "series"
    }


@pytest.mark.parametrize("example", params(PROGRAMS, [p.name for p in PROGRAMS], slow=["locvolcalib"]))
def test_each_port_matches_its_reference_with_and_without_the_passes(example):
    size = min(example.definition.SMALL_SIZE, 64)
    args = example.make_inputs(np.random.default_rng(1), size)
    off = soacc.compile(example.program_path, backend="numpy", pipeline=BASE)
    on = soacc.compile(example.program_path, backend="numpy", pipeline=MEMORY)
    got_off, got_on = off.main(*args), on.main(*args)
    assert mismatch(got_on, example.reference(*args), example.rtol, example.atol) is None
    for a, b in zip(as_tuple(got_off), as_tuple(got_on)):
        assert np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
    assert on.statistics.spaces["device"].peak_bytes <= off.statistics.spaces["device"].peak_bytes


def test_the_benchmark_runs_on_the_reference_executor(capsys):
    benchmark = load_benchmark("memory.py")
    assert benchmark.main(["--backend", "numpy", "--small", "--repeat", "0", "--no-examples", "lud", "series"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(("lud ", "series "))]
    assert [(r[0], r[2]) for r in rows] == [(n, c) for n in ("lud", "series") for c in ("off", "on", "linear")]
    assert all(r[-1] == "ok" for r in rows)
    lud_off, lud_on = (int(r[3]) for r in rows[:2])
    assert lud_on < lud_off  # the matrix is updated in place: one block instead of two
