"""benchmarks/nested.py (issue 21's benchmark of nested parallelism) on the CPU: every
program runs on the reference executor and its CuPy version on NumPy, both checked
against the program's NumPy definition; a wrong or failing result is reported WRONG or
ERROR, not timed; a program in a child process that outlives its time-out is
reported TIMEOUT; and every program compiles through soacc-pipeline to CUDA C that
nvcc compiles for sm_90 (the GPU run itself is the lead's)."""

from __future__ import annotations

import dataclasses
import io
import json
import shutil

import numpy as np
import pytest

import soacc
from soacc.lowering.emit_cuda import emit_cuda

from tests.support.nvcc import compile_ptx
from tests.support.scripts import load_benchmark


@pytest.fixture(scope="module")
def nested():
    return load_benchmark("nested.py")


NESTED = load_benchmark("nested.py")
NAMES = [b.name for b in NESTED.BENCHMARKS]
FILES = sorted({b.file for b in NESTED.BENCHMARKS})
DOES_NOT_COMPILE: dict[str, str] = {}
"""Programs that do not compile for the GPU, and why (none now: the segmented hist, a
map of hists, runs each row's hist in a thread since 2026-12-07)."""


def rows(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in NAMES}


def test_every_program_runs_on_the_cpu_and_agrees_with_its_definition(nested, tmp_path, capsys):
    report = tmp_path / "nested.json"
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    table = rows(out)
    assert list(table) == NAMES  # a row per program, in the benchmark's order
    for name, row in table.items():
        assert float(row[2]) > 0 and float(row[3]) > 0, row  # soacc and NumPy timed: both agreed
    data = json.loads(report.read_text())
    assert data["backend"] == "numpy" and [p["name"] for p in data["programs"]] == NAMES
    for program in data["programs"]:
        assert program["soacc"]["status"] == "ok" and program["cupy"]["status"] == "ok", program
        assert len(program["soacc"]["samples_s"]) == 1
        assert program["strategy"], program["name"]  # how soacc parallelises it, or why it cannot
    by_name = {p["name"]: p for p in data["programs"]}
    assert by_name["stencil2d"]["bytes"] == 2 * 4 * 9 * 13  # the grid read and written
    assert by_name["scatter_rows"]["bytes"] == 3 * 4 * 7 * 50  # positions, values, the row written
    assert by_name["matmul"]["gflop_s"] > 0 and by_name["matmul"]["gb_s"] is None
    assert "how soacc parallelised each program" in out
    assert "stencil3d: mem.map -> map0_flat: a thread per element of its perfectly nested maps (flattened)" in out


def test_a_wrong_result_is_reported_and_not_timed(nested, monkeypatch, capsys):
    benchmark = nested.BY_NAME["seg_reduce_few"]
    wrong = dataclasses.replace(benchmark, definition=lambda xss: benchmark.definition(xss) + np.float32(1))
    monkeypatch.setitem(nested.BY_NAME, "seg_reduce_few", wrong)
    monkeypatch.setattr(nested, "BENCHMARKS", [wrong])
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1"]) == 1  # soacc's result is wrong
    out = capsys.readouterr().out
    row = rows(out)["seg_reduce_few"]
    assert row[2:4] == ["WRONG", "WRONG"] and row[4] == "-"
    assert "seg_reduce_few: soacc: WRONG: result 0 differs at (0,)" in out


def test_a_failing_version_is_reported_and_the_others_still_run(nested, monkeypatch, capsys):
    def broken(xp, xss):
        raise MemoryError("out of device memory")

    chosen = [dataclasses.replace(nested.BY_NAME["seg_scan_few"], xp_version=broken), nested.BY_NAME["seg_scan_many"]]
    monkeypatch.setattr(nested, "BENCHMARKS", chosen)
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    table = rows(out)
    assert float(table["seg_scan_few"][2]) > 0 and table["seg_scan_few"][3] == "ERROR"
    assert "seg_scan_few: numpy: ERROR: MemoryError: out of device memory" in out
    assert float(table["seg_scan_many"][3]) > 0


def test_a_program_that_does_not_compile_for_the_gpu_says_why(nested, monkeypatch, capsys):
    """On the CPU it still runs (the reference executor needs no kernels)."""
    report = nested.parallelism_report

    def refuse(path, backend):
        if path.stem == "segmented_hist":
            raise soacc.ProgramError("convert-mem-to-gpu: mem.hist cannot run inside a kernel yet")
        return report(path, backend)

    monkeypatch.setattr(nested, "parallelism_report", refuse)
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "seg_hist_few", "--timeout-per-program", "0"]) == 0
    out = capsys.readouterr().out
    assert rows(out)["seg_hist_few"][-4:] == ["no", "kernels:", "compile", "error"]
    assert "seg_hist_few: does not compile for the GPU: ProgramError: " in out
    assert "mem.hist cannot run inside a kernel yet" in out


def test_the_segmented_hist_runs_a_thread_per_row(nested, capsys):
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "seg_hist_few"]) == 0
    out = capsys.readouterr().out
    assert "does not compile" not in out
    assert float(rows(out)["seg_hist_few"][2]) > 0


def test_each_program_runs_in_a_child_process_under_its_time_out(nested, capsys):
    argv = ["--backend", "numpy", "--small", "--repeat", "1", "--programs", "seg_reduce_many", "--timeout-per-program", "120"]
    assert nested.main(argv) == 0
    assert float(rows(capsys.readouterr().out)["seg_reduce_many"][2]) > 0
    argv[-1] = "0.05"  # (the child cannot even import soacc in that time)
    assert nested.main(argv) == 0
    out = capsys.readouterr().out
    assert rows(out)["seg_reduce_many"][2:4] == ["TIMEOUT", "TIMEOUT"]
    assert "seg_reduce_many: soacc: TIMEOUT: killed after 0.05 s (--timeout-per-program)" in out


def test_sizes(nested):
    parser = nested.argparse.ArgumentParser()
    assert nested.parse_sizes(parser, ["matmul=64x32x16", "stencil2d=8X9"]) == {"matmul": (64, 32, 16), "stencil2d": (8, 9)}
    options = nested.argparse.Namespace(small=False, scale=0.5, issue_sizes=False)
    assert nested.shape_of(nested.BY_NAME["stencil3d"], options, {}) == nested.scaled(
        nested.BY_NAME["stencil3d"].default or nested.BY_NAME["stencil3d"].issue, 0.5
    )
    options.issue_sizes, options.scale = True, 1.0
    assert all(nested.shape_of(b, options, {}) == b.issue for b in nested.BENCHMARKS)
    assert nested.BY_NAME["matmul"].issue == (4096, 4096, 4096) and nested.BY_NAME["stencil3d"].issue == (512, 512, 512)
    assert nested.BY_NAME["seg_scan_few"].issue == (64, 1 << 20) and nested.BY_NAME["seg_scan_many"].issue == (1 << 20, 64)


@pytest.mark.parametrize(
    "argv",
    [["--programs", "nonesuch"], ["--size", "matmul=64x64"], ["--size", "nonesuch=4"], ["--size", "stencil2d=4xa"],
     ["--repeat", "-1"], ["--scale", "0"], ["--timeout-per-program", "-1"]],
)
def test_bad_arguments_are_usage_errors(nested, argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        nested.main(["--backend", "numpy", *argv])
    assert exit_.value.code == 2


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize(
    "file",
    [pytest.param(f, marks=pytest.mark.xfail(raises=soacc.ProgramError, strict=True, reason=DOES_NOT_COMPILE[f])) if f in DOES_NOT_COMPILE else f
     for f in FILES],
)
def test_each_program_compiles_to_cuda_c_that_nvcc_compiles(nested, file, tmp_path):
    program = soacc.compile(nested.PROGRAMS_DIR / f"{file}.mlir", backend="numpy", pipeline="soacc-pipeline")
    source = io.StringIO()
    emit_cuda(program.module, source)
    result = compile_ptx(source.getvalue(), tmp_path, file)
    assert result.returncode == 0, result.stderr[-3000:]


def test_a_program_past_the_run_budget_is_skipped(nested, capsys):
    assert nested.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "matmul", "--run-budget", "1"]) == 0
    out = capsys.readouterr().out
    assert rows(out)["matmul"][2:4] == ["SKIPPED", "SKIPPED"]
    assert "matmul: soacc: SKIPPED: the run's time (--run-budget) was spent" in out
