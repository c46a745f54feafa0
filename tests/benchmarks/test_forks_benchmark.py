"""benchmarks/forks.py on the reference executor (sequential and forks; streams and graphs need
the GPU): every program's configurations are checked against its definition, and the
table and JSON have a row and an entry per program; ad's gradient formulas against finite
differences."""

from __future__ import annotations

import json

from tests.support.scripts import benchmark_programs, load_benchmark

PROGRAMS = ["chains", "reductions", "saltmarsh", "ad", "stencils"]


def test_forks_benchmark_runs_on_the_reference_executor(capsys, tmp_path):
    module = load_benchmark("forks.py")
    out = tmp_path / "forks.json"
    assert module.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", ",".join(PROGRAMS), "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert all(name in table for name in PROGRAMS) and "seq/forks" in table
    report = json.loads(out.read_text())
    assert set(report["programs"]) == set(PROGRAMS)
    for entry in report["programs"].values():
        assert entry["status"] == {"sequential": "ok", "forks": "ok"}


def test_forks_benchmark_refuses_an_unknown_program(capsys):
    module = load_benchmark("forks.py")
    try:
        module.main(["--backend", "numpy", "--programs", "nonesuch"])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "no program nonesuch" in capsys.readouterr().err


def test_ad_gradient_meets_finite_differences():
    (ad,) = [e for e in benchmark_programs("forks") if e.name == "ad"]
    assert ad.definition.check_gradient(size=6) < 1e-7


def test_a_program_that_fails_is_a_row_that_says_why_not_a_traceback(capsys, monkeypatch):
    import soacc

    module = load_benchmark("forks.py")

    def broken(*args, **kwargs):
        raise soacc.ProgramError("the program does not compile\nits details")

    monkeypatch.setattr(module, "compile_all", broken)
    assert module.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "chains"]) == 1
    table = capsys.readouterr().out
    assert "sequential: ERROR: the program does not compile" in table
