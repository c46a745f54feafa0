"""benchmarks/kernel_profile.py on the CPU (its GPU run is the lead's): on the reference
executor the harness prints each program's counts and a summary row, with no kernel
times, in both modes, and writes the same in JSON; a wrong result or a failing program
is a row that says so and the exit status. The per-kernel table, which needs profiled
GPU calls, is checked on reference-executor programs that report made-up kernel times
as a profiled call does (Statistics.record_profile). Shapes, not times."""

from __future__ import annotations

import json

import pytest

from tests.support.negated_reference import NegatedReference
from tests.support.scripts import load_benchmark

THREE = ["srad", "crypt", "nbody"]


@pytest.fixture(scope="module")
def harness():
    return load_benchmark("kernel_profile.py")


def summary_rows(out: str, names: list[str]) -> dict[str, list[str]]:
    """The summary table's rows (after its dashed line), by program."""
    lines = out.splitlines()
    start = max(i for i, line in enumerate(lines) if line and set(line) == {"-"})
    return {line.split()[0]: line.split() for line in lines[start + 1 :] if line.split()[:1] and line.split()[0] in names}


def test_profile_mode_on_the_reference_executor_prints_counts_and_no_kernel_times(harness, tmp_path, capsys):
    report = tmp_path / "profile.json"
    argv = ["--backend", "numpy", "--small", "--repeat", "2", "--programs", ",".join(THREE), "--json", str(report)]
    assert harness.main(argv) == 0
    out = capsys.readouterr().out
    assert "no kernel times" in out and "mean nothing for the GPU" in out
    for name in THREE:
        assert f"{name} (size " in out and "): 2 calls; per call, medians: wall " in out
    assert out.count("  no kernel times: the reference executor runs no kernels") == 3
    assert out.count("  per call: ") == 3

    rows = summary_rows(out, THREE)
    assert list(rows) == ["srad", "crypt", "nbody"]  # in peers.py's order
    data = json.loads(report.read_text())
    assert data["backend"] == "numpy" and data["mode"] == "profile" and data["repeat"] == 2
    assert [p["name"] for p in data["programs"]] == list(rows)
    for program in data["programs"]:
        row = rows[program["name"]]
        assert len(row) == 13
        assert int(row[1]) == program["size"]
        assert float(row[2]) > 0  # wall ms
        assert row[3:6] == ["-", "-", "-"]  # no kernel time, host time or share
        assert program["status"] == "ok" and program["why"] is None and len(program["calls"]) == 2
        summary = program["summary"]
        assert summary["kernel_s"] is None and summary["kernels"] is None
        assert float(row[2]) == pytest.approx(summary["wall_s"] * 1e3, abs=1e-3)
        counts = summary["counts"]
        assert [int(v) for v in row[6:12]] == [
            counts[k] for k in ("launches", "sync reads", "scalar writes", "h->d", "d->h", "d->d")
        ]
        assert counts["launches"] >= 1 and counts["h->d"] >= 1 and counts["h->d bytes"] > 0
        assert all(c["kernel_time_s"] is None for c in program["calls"])


def test_no_profile_mode_on_the_reference_executor_times_its_one_configuration(harness, tmp_path, capsys):
    report = tmp_path / "wall.json"
    argv = ["--backend", "numpy", "--small", "--repeat", "3", "--programs", "srad,crypt", "--no-profile", "--json", str(report)]
    assert harness.main(argv) == 0
    out = capsys.readouterr().out
    assert "reference ms" in out and "graphs" not in out
    rows = summary_rows(out, ["srad", "crypt"])
    assert set(rows) == {"srad", "crypt"}
    assert all(float(row[2]) > 0 for row in rows.values())
    data = json.loads(report.read_text())
    assert data["mode"] == "no-profile"
    for program in data["programs"]:
        assert program["status"] == "ok" and program["eager_over_graphs"] is None
        assert len(program["configurations"]["reference"]["samples_s"]) == 3


class Profiled:
    """A reference-executor program that reports its calls as a profiled GPU call does:
    the made-up launches below, through Statistics.record_profile; and, with task
    graphs on, its third call onwards as replayed."""

    backend = "cuda"

    def __init__(self, program, task_graphs: bool):
        self.program = program
        self.task_graphs = task_graphs
        self.calls = 0

    def main(self, *args):
        result = self.program.main(*args)
        self.calls += 1
        self.statistics = self.program.statistics
        self.statistics.record_profile(LAUNCHES)
        self.statistics.task_graph = "replayed" if self.task_graphs and self.calls > 2 else None
        return result


# big: 3 launches of 2 ms; small: 1 of 1 ms; 14 more of 1 us: 16 kernels, 12 tabled
LAUNCHES = [("big", 2e-3), ("small", 1e-3), ("big", 2e-3), ("big", 2e-3)] + [(f"tiny{i:02}", 1e-6) for i in range(14)]


@pytest.fixture
def profiled_gpu(harness, monkeypatch):
    """The harness's cuda backend, on Profiled programs."""
    import soacc.runtime.gpu

    compile_for_cpu = harness.compile_program
    monkeypatch.setattr(soacc.runtime.gpu, "gpu_available", lambda: (True, "a made-up GPU"))
    monkeypatch.setattr(harness, "gpu_description", lambda: "a made-up GPU")
    monkeypatch.setattr(
        harness, "compile_program",
        lambda example, backend, task_graphs=None, profiling=False: Profiled(
            compile_for_cpu(example, "numpy"), task_graphs is not False
        ),
    )


def test_the_kernel_table_of_profiled_calls(harness, profiled_gpu, tmp_path, capsys):
    report = tmp_path / "profile.json"
    assert harness.main(["--small", "--repeat", "2", "--programs", "srad,dot_product", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "backend cuda: a made-up GPU" in out and "CUDA events around every launch" in out
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("srad (size 12): 2 calls; per call, medians: wall "))
    assert ", kernels 7.014 ms, host " in lines[at]
    assert lines[at + 2].split() == ["kernel", "launches/call", "ms/call", "us/launch", "share"]
    table = [line.split() for line in lines[at + 3 : at + 3 + harness.TOP]]
    assert table[0] == ["big", "3", "6.000", "2000.000", "85.5%"]
    assert table[1] == ["small", "1", "1.000", "1000.000", "14.3%"]
    assert [row[0] for row in table[2:]] == [f"tiny{i:02}" for i in range(10)]  # equal times: by name
    assert lines[at + 3 + harness.TOP].strip() == "... 4 more kernels: 0.004 ms/call (0.1%)"

    row = summary_rows(out, ["srad", "dot_product"])["srad"]
    assert row[3] == "7.014" and row[-2:] == ["big", "(86%)"]
    srad = json.loads(report.read_text())["programs"][0]
    kernels = srad["summary"]["kernels"]
    assert len(kernels) == 16 and kernels[0]["name"] == "big"
    assert kernels[0]["launches_per_call"] == 3 and kernels[0]["seconds_per_launch"] == pytest.approx(2e-3)
    assert sum(k["share"] for k in kernels) == pytest.approx(1.0)
    assert srad["summary"]["host_s"] == pytest.approx(srad["summary"]["wall_s"] - 7.014e-3)


def test_no_profile_mode_times_graphs_against_eager(harness, profiled_gpu, tmp_path, capsys):
    report = tmp_path / "wall.json"
    assert harness.main(["--small", "--repeat", "4", "--programs", "crypt", "--no-profile", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    row = summary_rows(out, ["crypt"])["crypt"]
    assert float(row[2]) > 0 and float(row[3]) > 0  # graphs ms, eager ms
    assert row[4].endswith("x") and row[5].startswith("[")  # eager/graphs and its interval
    assert row[6] == "replayed"
    configurations = json.loads(report.read_text())["programs"][0]["configurations"]
    assert [len(c["samples_s"]) for c in configurations.values()] == [4, 4]
    assert configurations["graphs"]["task_graph"] == "replayed" and configurations["eager"]["task_graph"] is None


def test_a_wrong_result_is_a_row_and_the_exit_status(harness, monkeypatch, capsys):
    """srad's definition negated (NegatedReference): soacc now disagrees."""
    load = harness.load_programs
    monkeypatch.setattr(
        harness, "load_programs", lambda: {k: NegatedReference(v) if k[1] == "srad" else v for k, v in load().items()}
    )
    assert harness.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "srad,crypt"]) == 1
    out = capsys.readouterr().out
    rows = summary_rows(out, ["srad", "crypt"])
    assert rows["srad"][2] == "WRONG" and "result 0 differs" in " ".join(rows["srad"])
    assert float(rows["crypt"][2]) > 0  # the other program still ran
    assert "Traceback" not in out
    assert harness.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "srad", "--no-profile"]) == 1
    row = summary_rows(capsys.readouterr().out, ["srad"])["srad"]
    assert row[2] == "WRONG" and "reference: result 0 differs" in " ".join(row)


def test_a_program_that_does_not_compile_is_a_row_that_says_why(harness, monkeypatch, capsys):
    import soacc

    real = harness.compile_program

    def compile_program(example, backend, **options):
        if example.name == "crypt":
            raise soacc.ProgramError("the program does not compile\nits details")
        return real(example, backend, **options)

    monkeypatch.setattr(harness, "compile_program", compile_program)
    assert harness.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "srad,crypt"]) == 1
    out = capsys.readouterr().out
    rows = summary_rows(out, ["srad", "crypt"])
    assert rows["crypt"][2] == "ERROR"
    assert " ".join(rows["crypt"][3:]) == "does not compile: ProgramError: the program does not compile"
    assert float(rows["srad"][2]) > 0


@pytest.mark.parametrize("argv", [["--programs", "nonesuch"], ["--repeat", "0"], ["--json", "/nonesuch/out.json"]])
def test_bad_arguments_are_usage_errors(harness, argv):
    with pytest.raises(SystemExit) as exit_:
        harness.main(["--backend", "numpy", *argv])
    assert exit_.value.code == 2


def test_the_cuda_backend_without_a_gpu_is_exit_status_2(harness, capsys):
    from soacc.runtime.gpu import gpu_available

    if gpu_available()[0]:
        pytest.skip("there is a GPU here: the harness would run every program")
    assert harness.main(["--programs", "srad"]) == 2
    assert "kernel_profile: error: no GPU" in capsys.readouterr().err
