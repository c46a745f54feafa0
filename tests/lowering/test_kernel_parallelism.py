"""What each kernel leaves to its threads (lowering/kernel_parallelism.py): the note on
its gpu.func, the emitted module's table, and the runtime's statistics of launches of
few threads (issue 21: no silent cliff). The report itself is a lit test
(tests/filecheck/lowering/convert-mem-to-gpu-report.mlir)."""

from __future__ import annotations

from soacc.lowering.emit_host import emit_host
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.gpu.host_runtime import HostRuntime
from soacc.runtime.statistics import FEW_THREADS, Statistics

from tests.support.simulated_device import SimulatedDevice

HIST_IN_MAP = """
func.func @main(%xss: tensor<?x?xi32>, %starts: tensor<?x8xi32>, %zero: i32) -> tensor<?x8xi32> {
  %hs = soac.map(%xss, %starts) : (tensor<?x?xi32>, tensor<?x8xi32>) -> tensor<?x8xi32> {
  ^bb0(%row: tensor<?xi32>, %start: tensor<8xi32>):
    %is = soac.map(%row) : (tensor<?xi32>) -> tensor<?xindex> {
    ^bb1(%x: i32):
      %e = arith.constant 7 : i32
      %b = arith.andi %x, %e : i32
      %i = arith.index_cast %b : i32 to index
      soac.yield %i : index
    }
    %h = soac.hist %start[%is], %row neutral(%zero : i32) : tensor<8xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb2(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}
"""

ROW_SUMS = """
func.func @main(%xss: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = soac.map(%xss) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %sums : tensor<?xf32>
}
"""


def host_module(source: str):
    module = parse_program(source)
    apply_pipeline(module, SoaccPipelinePass())
    return emit_host(module)


def test_the_emitted_module_names_what_each_kernel_leaves_to_its_threads():
    assert host_module(HIST_IN_MAP).sequential_inside == {"map0": "soac.histomap %h (as mem.histomap)"}
    assert host_module(ROW_SUMS).sequential_inside == {}  # a group per row shares each row out


def counting_runtime(inside: dict[str, str]) -> HostRuntime:
    def kernel(*args):
        pass

    rt = HostRuntime(SimulatedDevice(), {"map0": kernel, "map1": kernel})
    rt.sequential_inside = inside
    return rt


def test_launches_of_few_threads_that_run_nested_combinators_are_noted():
    rt = counting_runtime({"map0": "soac.hist %h"})
    rt.launch("map0", (2, 1, 1), (256, 1, 1))
    rt.launch("map0", (1, 1, 1), (32, 1, 1))
    rt.launch("map0", (FEW_THREADS // 256, 1, 1), (256, 1, 1))  # enough threads: not noted
    rt.launch("map1", (1, 1, 1), (32, 1, 1))  # runs nothing nested
    seen = rt.statistics.sequential_inside
    assert list(seen) == ["map0"]
    assert (seen["map0"].inside, seen["map0"].launches, seen["map0"].fewest_threads) == ("soac.hist %h", 2, 32)
    assert rt.statistics.kernel_launches == 4
    table = rt.statistics.table()
    assert "nested parallelism run sequentially" in table
    assert "map0: each thread runs soac.hist %h; 2 launch(es), 32 threads at fewest" in table
    assert rt.statistics.as_dict()["sequential_inside"]["map0"]["launches"] == 2


def test_the_notes_add_up_across_devices_and_replays():
    rt = counting_runtime({"map0": "soac.hist %h"})
    rt.launch("map0", (1, 1, 1), (64, 1, 1))
    other = Statistics()
    other.ran_sequential_inside("map0", "soac.hist %h", 16)
    other.ran_sequential_inside("map0", "soac.hist %h", FEW_THREADS)  # not few
    rt.statistics.add_counts(other)
    seen = rt.statistics.sequential_inside["map0"]
    assert (seen.launches, seen.fewest_threads) == (2, 16)
    replayed = Statistics()
    replayed.take_counters(rt.statistics)
    assert replayed.sequential_inside["map0"].launches == 2
    assert replayed.sequential_inside is not rt.statistics.sequential_inside
    assert "nested parallelism" not in Statistics().table()
