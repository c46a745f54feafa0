"""Device loops (passes/analysis/device_loops.py): which while loops keep every value
that changes on the device, and the placements that makes. The lit file
reduce-device-syncs.mlir shows the programs the pass makes of two of these; the GPU
tests run the benchmark programs that become device loops as task graphs."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from soacc.passes.analysis.device_loops import find_device_loop, with_device_loops
from soacc.passes.analysis.migration_table import Placement, analyse_module
from soacc.passes.reduce_device_syncs import rotate_host_loops
from soacc.program import parse_program

ROOT = Path(__file__).resolve().parents[3]

HEADER = """
func.func @main(%a: tensor<?xf32>, %eps: f32, %maxit: index) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
"""

LOOP = """
  %v, %it = scf.while (%u = %a, %i = %c0) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %s = soac.reduce(%u) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %more = arith.cmpi ult, %i, %maxit : index
    %big = arith.cmpf ogt, %s, %eps : f32
    %go = arith.andi %more, %big : i1
    scf.condition(%go) %u, %i : tensor<?xf32>, index
  } do {
  ^bb0(%x: tensor<?xf32>, %j: index):
    BODY
    %j1 = arith.addi %j, %c1 : index
    scf.yield %h, %j1 : tensor<?xf32>, index
  }
"""

HALVE = """%h = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%e: f32):
      %half = arith.constant 0.5 : f32
      %y = arith.mulf %e, %half : f32
      soac.yield %y : f32
    }"""


def program(body: str = HALVE, tail: str = "func.return %v, %it : tensor<?xf32>, index") -> str:
    return HEADER + LOOP.replace("BODY", body) + "  " + tail + "\n}\n"


def analysed(source: str):
    module = parse_program(source)
    f = next(op for op in module.ops if isinstance(op, func.FuncOp))
    rotate_host_loops(f)
    loop = next(op for op in f.walk() if isinstance(op, scf.WhileOp))
    table = analyse_module(module)[f]
    return f, loop, table


def names(values) -> set[str]:
    return {v.name_hint for v in values}


def test_a_loop_of_kernels_with_a_counter_is_a_device_loop():
    _, loop, table = analysed(program())
    found = find_device_loop(loop)
    assert found is not None
    assert {"i", "j", "j1", "s", "more", "big", "go"} <= names(found.varying)
    # the first condition's reduction before the loop moves with it (no read before)
    assert names(found.initial) == {"s", "big", "go"}
    placed = with_device_loops(table)
    assert placed.status(found.condition) is Placement.READ
    assert placed.status(loop.results[1]) is Placement.READ  # the count, read once after
    assert placed.device_loops == [loop]
    assert placed.reads == 2  # the condition per iteration, the count once
    assert table.reads == 2 and not table.overrides  # the cut's: read(s) before and in the loop


def test_a_counter_the_host_needs_keeps_the_loop_on_the_host():
    body = "%n = soac.slice %x[%c0:%j] : tensor<?xf32> -> tensor<?xf32>\n    " + HALVE.replace("soac.map(%x)", "soac.map(%n)")
    _, loop, table = analysed(program(body))
    assert find_device_loop(loop) is None
    assert with_device_loops(table) is table


AT_THE_COUNTER = """%part = soac.slice %x[%j:%c1] : tensor<?xf32> -> tensor<?xf32>
    %twice = soac.map(%part) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb2(%e2: f32):
      %y2 = arith.addf %e2, %e2 : f32
      soac.yield %y2 : f32
    }
    %x1 = soac.update %x[%j:%c1] = %twice : tensor<?xf32>, tensor<?xf32>
    %x2 = soac.update %x1[%c0] = %zero : tensor<?xf32>, f32
    %m = soac.reduce(%x2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb3(%l3: f32, %r3: f32):
      %t3 = arith.maximumf %l3, %r3 : f32
      soac.yield %t3 : f32
    }
    %x3 = soac.update %x2[%j] = %m : tensor<?xf32>, f32
    """ + HALVE.replace("soac.map(%x)", "soac.map(%x3)")


def test_slices_and_element_writes_at_the_counter_keep_the_loop_on_the_device():
    """Issue 18, item 6: a slice at the counter's offset that only a kernel uses, and
    updates at the counter (of a slice, of an element by a host value and by the loop's
    reduction), need the counter on the device only."""
    _, loop, table = analysed(program(AT_THE_COUNTER))
    found = find_device_loop(loop)
    assert found is not None
    assert {"j", "j1", "s", "m"} <= names(found.varying)
    placed = with_device_loops(table)
    assert placed.device_loops == [loop]
    assert placed.status(found.condition) is Placement.READ
    body = loop.after_region.block
    counter = body.args[1]
    assert placed.status(counter) is Placement.DEVICE  # never read: only positions use it


def test_a_loop_without_kernels_is_left_to_the_cut():
    scalar = HEADER + """
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %maxit : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1 : index
  }
  func.return %a, %r : tensor<?xf32>, index
}
"""
    _, loop, _ = analysed(scalar)
    assert find_device_loop(loop) is None


def test_a_read_before_the_loop_that_the_host_also_uses_stays():
    returned = program().replace(
        "-> (tensor<?xf32>, index) {\n  %c0", "-> (tensor<?xf32>, index, f32) {\n  %c0", 1
    ).replace("func.return %v, %it : tensor<?xf32>, index", "func.return %v, %it, %s_0 : tensor<?xf32>, index, f32")
    # the first reduction, computed before the loop by the rotation, also returned
    returned = returned.replace("  %v, %it = scf.while", "  %s_0 = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {\n  ^bb0(%l0: f32, %r0: f32):\n    %t0 = arith.addf %l0, %r0 : f32\n    soac.yield %t0 : f32\n  }\n  %v, %it = scf.while", 1)
    f, loop, _ = analysed(returned)
    found = find_device_loop(loop)
    assert found is not None
    # cse (as the pipeline runs it first) would make the rotated reduction the returned
    # one; here they are two, so the first condition's still moves
    assert names(found.initial) == {"s", "big", "go"}
    module = f.parent_op()
    CommonSubexpressionElimination().apply(Context(), module)
    loop = next(op for op in f.walk() if isinstance(op, scf.WhileOp))
    found = find_device_loop(loop)
    assert found is not None and found.initial == []  # the shared read stays on the host


@pytest.mark.parametrize(
    "path, device_loop",
    [
        ("benchmarks/device_syncs/convergence.mlir", True),
        ("examples/convergence_loop.mlir", True),  # an update of a row at the counter
        ("examples/clean.mlir", True),  # a slice, a slice update and an element at a reduction's position
        ("benchmarks/memory/bfs.mlir", True),
        ("examples/mandelbrot.mlir", False),  # its loops run inside a kernel
    ],
)
def test_the_programs_that_become_device_loops(path, device_loop):
    module = parse_program((ROOT / path).read_text())
    found = []
    for f, table in analyse_module(module).items():
        rotate_host_loops(f)
    for f, table in analyse_module(module).items():
        found += with_device_loops(table).device_loops
    assert bool(found) is device_loop
