"""First and last uses of blocks (passes/analysis/memory_liveness.py): by statement or
by the body's results, and loop-aware."""

from __future__ import annotations

from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.memory_liveness import block_liveness

from tests.support.memory_util import level2, op_named, value

RESULT_LAST_USE = """
func.func @main(%src: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %dst0 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %dst0[%c0] : tensor<?xi32>
  %dst1 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %k : i32
    soac.yield %y : i32
  }
  func.return %dst0, %dst1 : tensor<?xi32>, tensor<?xi32>
}
"""


def test_first_use_is_where_an_array_is_made_and_last_use_its_last_reader():
    f = level2(RESULT_LAST_USE, "convert-soac-to-mem,hoist-allocations{allocations=false}")
    live = block_liveness(f.body.block, MemoryAliases(f))
    src = value(f, "src_mem")
    assert live.statements[live.first_use[src]].name == "mem.copy"  # made by the copy to the device
    assert live.is_last_use(src, op_named(f, "mem.map", 1))
    assert live.last_uses_at(live.index(op_named(f, "mem.map", 1))) >= {src}


def test_a_block_returned_by_the_body_dies_at_its_results():
    f = level2(RESULT_LAST_USE)
    live = block_liveness(f.body.block, MemoryAliases(f))
    dst0 = value(f, "dst0_mem")
    # dst0 is copied to the host, which is its last statement; the host blocks are results
    assert live.last_use[value(f, "dst0_host_mem")] == live.results
    assert live.last_use[dst0] < live.results
    assert dst0 in live.live_at(live.index(op_named(f, "mem.load")))


LOOP = """
func.func @main(%xs0: tensor<?xi32>, %t: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %xs0[0] : tensor<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %u = soac.map(%xs, %t) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    %k = soac.index %u[%c0] : tensor<?xi32>
    %v = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32):
      %s = arith.addi %a, %k : i32
      soac.yield %s : i32
    }
    scf.yield %v : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
"""


def test_memory_from_outside_a_loop_is_live_through_its_body():
    f = level2(LOOP)
    loop = op_named(f, "scf.for")
    live = block_liveness(loop.body.block, MemoryAliases(f))
    t = value(f, "t_mem")
    # t is read by the body's first map only, but every iteration reads it
    assert live.first_use[t] == 0 and live.last_use[t] == live.results
    # u is made and dies in one iteration
    u = value(f, "u_mem")
    assert live.first_use[u] < live.last_use[u] < live.results


def test_the_previous_iterations_block_is_not_this_iterations():
    f = level2(LOOP)
    loop = op_named(f, "scf.for")
    live = block_liveness(loop.body.block, MemoryAliases(f))
    v = value(f, "v_mem")
    # xs (the carried array) is read before v is made: that is the previous run's v
    assert live.first_use[v] == live.index(op_named(f, "mem.map", 1))
    assert live.previous_run[v] >= live.index(op_named(f, "mem.map", 0))
    assert live.last_use[v] == live.results  # yielded
