"""benchmarks/fusion.py runs on the CPU reference executor (its GPU run is the lead's):
every program gives the right result with fusion off and on, and fusion launches fewer
kernels. Timings are printed, never asserted."""

from __future__ import annotations

from tests.support.scripts import load_benchmark


def test_fusion_benchmark_runs_on_the_reference_executor(capsys):
    module = load_benchmark("fusion.py")
    assert module.main(["--backend", "numpy", "--log2n", "10", "--repeat", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.endswith((" ok", " WRONG"))]
    assert len(rows) == 4 and all(row.endswith(" ok") for row in rows)
    kernels = [row.split()[-10] for row in rows]
    assert kernels == ["3->1", "3->2", "2->1", "5->1"]
