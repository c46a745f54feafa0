"""Thresholds and tunings (api/tuning.py, mem.threshold): what a compiled program
lists, how a tuning is checked and read, that the host code takes the version a tuning
chooses (on a simulated device), and the autotuner's choice and checks (with a program
whose calls' times and results the test sets)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.backends import host_code_executor
from soacc.program import apply_pipeline, parse_program
from soacc.tuning import NEVER, autotune, candidates, read_tuning, write_tuning

from tests.support.simulated_device import SimulatedDevice

ROOT = Path(__file__).resolve().parents[2]
MATMUL = (ROOT / "benchmarks" / "nested" / "matmul.mlir").read_text()
GPU = "soacc-pipeline{syncs=false}"


def test_a_program_lists_its_thresholds_with_their_defaults():
    program = soacc.compile(MATMUL, backend="numpy", pipeline=GPU)
    assert program.thresholds == {"map0.tiled_from": 32, "map0.block_per_row_from": 128, "map0.warp_per_row_from": 32}
    # the reference executor's own pipeline makes no versions
    assert soacc.compile(MATMUL, backend="numpy").thresholds == {}


TWO_ROW_REDUCTIONS = """
func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = soac.map(%x) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %r : f32
  }
  %m = soac.map(%y) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %r : f32
  }
  func.return %s, %m : tensor<?xf32>, tensor<?xf32>
}
"""


def test_a_forked_copy_names_its_thresholds_as_the_function_does():
    """introduce-forks{beside} copies a function for task graphs; the copy launches
    the function's kernels and its thresholds take their names, so one tuning serves
    both (the program lists each name once)."""
    program = soacc.compile(TWO_ROW_REDUCTIONS, backend="numpy", pipeline=GPU)
    functions = {f.sym_name.data: f for f in program.module.ops if f.name == "func.func"}
    assert set(functions) == {"main", "main__forked"}
    names = {
        name: sorted(op.threshold.data for op in f.walk() if op.name == "mem.threshold") for name, f in functions.items()
    }
    assert names["main"] == names["main__forked"] == sorted(program.thresholds)
    assert set(program.thresholds) == {f"map{i}.{what}" for i in (0, 1) for what in ("block_per_row_from", "warp_per_row_from")}


def test_a_tuning_is_checked_by_name_and_value():
    program = soacc.compile(MATMUL, backend="numpy", pipeline=GPU)
    with pytest.raises(soacc.ArgumentError, match="no threshold named 'map9.tiled_from'; its thresholds: map0.block_per_row_from"):
        program.tuning = {"map9.tiled_from": 1}
    for bad in (-1, 2.5, True, "8"):
        with pytest.raises(soacc.ArgumentError, match="is a size"):
            program.tuning = {"map0.tiled_from": bad}
    with pytest.raises(soacc.ArgumentError, match="maps threshold names to sizes"):
        program.tuning = [("map0.tiled_from", 1)]
    program.tuning = {"map0.tiled_from": np.int64(64)}
    assert program.tuning == {"map0.tiled_from": 64}
    # a program with no thresholds takes any tuning, which changes nothing
    plain = soacc.compile(MATMUL, backend="numpy")
    plain.tuning = {"map0.tiled_from": 64}
    a, b = np.ones((3, 2), np.float32), np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(plain.main(a, b), a @ b)


def _launched(tuning: dict[str, int], n: int, m: int) -> list[str]:
    module = parse_program(MATMUL)
    apply_pipeline(module, GPU)
    launched: list[str] = []
    names = [op.sym_name.data for op in module.walk() if op.name == "gpu.func"]

    def stub(name):
        def kernel(device, grid, block, args):
            launched.append(name)

        return kernel

    executor = host_code_executor(module, SimulatedDevice(), {name: stub(name) for name in names})
    executor.set_tuning(tuning)
    executor.call("main", [np.ones((n, 5), np.float32), np.ones((5, m), np.float32)])
    return launched


def test_the_host_code_takes_the_version_the_tuning_chooses():
    assert _launched({}, 40, 40) == ["map0_tiled"]  # (both sides 32 rows or more)
    assert _launched({}, 20, 40) != ["map0_tiled"]
    assert _launched({"map0.tiled_from": 64}, 40, 40) != ["map0_tiled"]
    assert _launched({"map0.tiled_from": 0}, 20, 40) == ["map0_tiled"]
    # untiled, rows of 40 results: a warp per row (from 32) by default, else a thread
    assert _launched({"map0.tiled_from": NEVER}, 40, 40) == ["map0_warp_per_row"]
    assert _launched({"map0.tiled_from": NEVER, "map0.warp_per_row_from": 64}, 40, 40) == ["map0"]
    assert _launched({"map0.tiled_from": NEVER, "map0.block_per_row_from": 8}, 40, 40) == ["map0_block_per_row"]


def test_tuning_files_are_read_with_clear_errors(tmp_path):
    path = tmp_path / "t.json"
    write_tuning(path, {"b": 2, "a": 1})
    assert json.loads(path.read_text()) == {"a": 1, "b": 2}
    assert not list(tmp_path.glob("*.partial"))
    assert read_tuning(path) == {"a": 1, "b": 2}
    with pytest.raises(soacc.ArgumentError, match="cannot read the tuning file"):
        read_tuning(tmp_path / "none.json")
    with pytest.raises(soacc.ArgumentError, match="cannot write the tuning file"):
        write_tuning(tmp_path / "no folder" / "t.json", {"a": 1})
    path.write_text("{1: 2")
    with pytest.raises(soacc.ArgumentError, match="is not JSON"):
        read_tuning(path)
    path.write_text("[1, 2]")
    with pytest.raises(soacc.ArgumentError, match="a JSON object of threshold names and sizes, not a list"):
        read_tuning(path)


def test_candidates_span_both_versions_and_sizes_around_the_default():
    tried = candidates(32)
    assert tried[0] == 0 and tried[-1] == NEVER
    assert {2, 4, 8, 16, 32, 64, 128, 256, 512} <= set(tried)
    assert candidates(1)[:2] == [0, 1]


class _Timed:
    """A program whose calls take the time `cost(tuning)` says (a fake clock) and give
    `result(tuning)`."""

    def __init__(self, cost, result=lambda tuning: np.arange(4.0)):
        self.thresholds = {"map0.tiled_from": 32, "map0.block_per_row_from": 128}
        self.tuning = {}
        self.cost, self.result = cost, result
        self.clock = 0.0

    def call(self):
        self.clock += self.cost(self.tuning)
        return self.result(self.tuning)


def test_the_autotuner_keeps_the_fastest_setting_of_each_threshold(monkeypatch):
    def cost(tuning):
        tiled = tuning.get("map0.tiled_from", 32)
        block = tuning.get("map0.block_per_row_from", 128)
        return abs(tiled - 8) + (0 if block == 128 else 1)  # fastest at 8, and at block's default

    program = _Timed(cost)
    monkeypatch.setattr("soacc.tuning.time.perf_counter", lambda: program.clock)
    said: list[str] = []
    best = autotune(program, program.call, rounds=2, say=said.append)
    assert best == {"map0.tiled_from": 8, "map0.block_per_row_from": 128}
    assert program.tuning == best
    assert said[0].startswith("map0.tiled_from (default 32): 0: ") and said[0].endswith("best 8")


def test_a_version_with_other_results_is_an_error(monkeypatch):
    program = _Timed(lambda tuning: 1.0, result=lambda tuning: np.arange(4) + (tuning.get("map0.tiled_from") == 0))
    monkeypatch.setattr("soacc.tuning.time.perf_counter", lambda: program.clock)
    with pytest.raises(soacc.ExecutionError, match="with map0.tiled_from = 0, result 0 differs"):
        autotune(program, program.call)


def test_soacc_run_takes_a_tuning_and_refuses_to_autotune_without_a_gpu(tmp_path, capsys):
    from soacc.tools.soacc_run import main

    np.save(tmp_path / "a.npy", np.ones((3, 4), np.float32))
    np.save(tmp_path / "b.npy", np.ones((4, 5), np.float32))
    (tmp_path / "t.json").write_text('{"map0.tiled_from": 64}')
    args = [str(ROOT / "benchmarks" / "nested" / "matmul.mlir"), "--arg", str(tmp_path / "a.npy"), "--arg", str(tmp_path / "b.npy"), "--backend", "numpy"]
    assert main([*args, "--tuning", str(tmp_path / "t.json")]) == 0
    assert "changes nothing here" in capsys.readouterr().err
    assert main([*args, "--autotune", str(tmp_path / "out.json")]) == 2
    assert "--autotune times the versions of kernels on the GPU" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


@pytest.mark.gpu
def test_soacc_run_autotunes_on_the_gpu_and_runs_with_the_tuning(tmp_path):
    from soacc.tools.soacc_run import main

    rng = np.random.default_rng(0)
    a, b = rng.integers(-3, 4, (96, 40)).astype(np.float32), rng.integers(-3, 4, (40, 70)).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "results"
    args = [str(ROOT / "benchmarks" / "nested" / "matmul.mlir"), "--arg", str(tmp_path / "a.npy"), "--arg", str(tmp_path / "b.npy")]
    assert main([*args, "--backend", "cuda", "--autotune", str(tmp_path / "t.json"), "--out", str(out), "--quiet"]) == 0
    tuned = json.loads((tmp_path / "t.json").read_text())
    assert set(tuned) == {"map0.tiled_from", "map0.block_per_row_from", "map0.warp_per_row_from"}
    np.testing.assert_array_equal(np.load(out / "result0.npy"), a @ b)
    assert main([*args, "--backend", "cuda", "--tuning", str(tmp_path / "t.json"), "--out", str(out), "--quiet"]) == 0
    np.testing.assert_array_equal(np.load(out / "result0.npy"), a @ b)
