"""benchmarks/husks.py on the reference executor (plain, husks on one device and on
two simulated ones): every program's configurations are checked against its
definition, and the table and JSON have a row and an entry per program, with the
husks each call ran and the copies between devices; the thesis's patterns
(benchmarks/husks/) give their NumPy definitions' results with husks on 1-3 devices."""

from __future__ import annotations

import json

import numpy as np
import pytest

import soacc
from soacc.tools.examples import mismatch

from tests.support.scripts import benchmark_programs, load_benchmark

PATTERNS = benchmark_programs("husks")


def test_husks_benchmark_runs_on_the_reference_executor(capsys, tmp_path):
    module = load_benchmark("husks.py")
    out = tmp_path / "husks.json"
    names = ["mandelbrot", "nn", "matvec", "tunnel", "lud", "cfd"]
    args = ["--backend", "numpy", "--small", "--repeat", "1", "--devices", "2", "--split", "always"]
    assert module.main([*args, "--programs", ",".join(names), "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert all(name in table for name in names) and "plain/husks-2" in table
    report = json.loads(out.read_text())
    assert set(report["programs"]) == set(names)
    for entry in report["programs"].values():
        assert entry["status"] == {"plain": "ok", "husks": "ok", "husks-2": "ok", "husks-2-fresh": "ok"}
        statistics = entry["statistics"]
        assert statistics["plain"]["husks"] == 0 and statistics["husks-2"]["husks"] >= 1
        # what the devices kept is what the thesis's husks sent again
        split, fresh = statistics["husks-2"], statistics["husks-2-fresh"]
        assert fresh["kept_bytes"] == 0 and split["peer_bytes"] + split["kept_bytes"] == fresh["peer_bytes"]
    assert report["programs"]["matvec"]["statistics"]["husks-2"]["peer_copies"] == 3  # rows, the vector, results
    assert report["programs"]["cfd"]["statistics"]["husks-2"]["kept_bytes"] > 0  # a loop of husks


def test_husks_benchmark_refuses_an_unknown_program(capsys):
    module = load_benchmark("husks.py")
    with pytest.raises(SystemExit) as exit_:
        module.main(["--backend", "numpy", "--programs", "nonesuch"])
    assert exit_.value.code == 2
    assert "no program nonesuch" in capsys.readouterr().err


@pytest.mark.parametrize("example", PATTERNS, ids=[e.name for e in PATTERNS])
@pytest.mark.parametrize("size", [0, 1, 7])
def test_the_patterns_with_husks(example, size):
    if size == 0 and example.name == "nn":
        pytest.skip("nn asks for k = min(10, n) neighbours of n records: n >= 1")
    args = example.make_inputs(np.random.default_rng(size), size)
    want = example.reference(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    for devices in (1, 2, 3):
        got = soacc.compile(example.program_path, backend="numpy", devices=devices).main(*args)
        why = mismatch(got, want, example.rtol, example.atol)
        assert why is None, f"devices={devices}: {why}"
