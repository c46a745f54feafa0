"""Memory-block aliases (passes/analysis/memory_aliases.py): existential blocks of ifs
and loops to the actual blocks they may be, transitively and not symmetrically."""

from __future__ import annotations

from xdsl.dialects import scf

from soacc.passes.analysis.memory_aliases import MemoryAliases, may_share_memory, root_view, swapped_carried_blocks

from tests.support.memory_util import level2, value

LOOP_IN_IF = """
func.func @main(%a: tensor<?xf32>, %c: i1, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = scf.if %c -> (tensor<?xf32>) {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<?xf32>) {
      %b = soac.map(%acc) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb0(%x: f32):
        %y = arith.addf %x, %one : f32
        soac.yield %y : f32
      }
      scf.yield %b : tensor<?xf32>
    }
    scf.yield %l : tensor<?xf32>
  } else {
    %d = soac.copy %a : tensor<?xf32>
    scf.yield %d : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


def test_existential_blocks_alias_actual_blocks_transitively():
    f = level2(LOOP_IN_IF)
    aliases = MemoryAliases(f)
    a, b, d = value(f, "a_mem"), value(f, "b_mem"), value(f, "d_mem")
    # the loop's carried block: its initial block and what each iteration yields
    assert aliases.aliases_of_existential(value(f, "acc_mem")) == {a, b}
    assert aliases.aliases_of_existential(value(f, "l_mem")) == {a, b}
    # the if's block: either branch's, the loop's taken transitively
    assert aliases.aliases_of_existential(value(f, "r_mem")) == {a, b, d}
    assert aliases.is_existential(value(f, "r_mem")) and not aliases.is_existential(a)


def test_aliasing_is_not_symmetric():
    f = level2(LOOP_IN_IF)
    aliases = MemoryAliases(f)
    # the loop's block may be a's or b's, but a's and b's are two blocks
    assert aliases.memories(value(f, "a_mem")) == {value(f, "a_mem")}
    assert aliases.memories(value(f, "b_mem")) == {value(f, "b_mem")}


def test_views_slices_and_lambda_rows_are_in_their_arrays_blocks():
    source = """
func.func @main(%m: tensor<?x?xf32>, %i: index) -> tensor<?xf32> {
  %row = soac.index %m[%i] : tensor<?x?xf32>
  %t = soac.transpose %m [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %s = soac.map(%t) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%r: tensor<?xf32>):
    %c0 = arith.constant 0 : index
    %e = soac.index %r[%c0] : tensor<?xf32>
    soac.yield %e : f32
  }
  func.return %row : tensor<?xf32>
}
"""
    f = level2(source)
    aliases = MemoryAliases(f)
    m = value(f, "m_mem")
    for name in ("m", "row", "t", "r"):
        assert aliases.memories(value(f, name)) == {m}, name
    assert root_view(value(f, "row")).result is value(f, "m")



def test_replacing_a_memory_matches_a_rebuild():
    # memory-reuse merges one block into another of the same body: the aliases it
    # updates in place are those a rebuild finds
    source = """
func.func @main(%a: tensor<?xf32>, %c: i1) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %one : f32
    soac.yield %y : f32
  }
  %d = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %one : f32
    soac.yield %y : f32
  }
  %r = scf.if %c -> (tensor<?xf32>) {
    scf.yield %b : tensor<?xf32>
  } else {
    scf.yield %d : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""
    f = level2(source)
    aliases = MemoryAliases(f)
    b, d = value(f, "b_mem"), value(f, "d_mem")
    assert aliases.memories(value(f, "r_mem")) == {b, d}
    d.replace_all_uses_with(b)
    d.owner.parent_block().erase_op(d.owner)
    aliases.replace_memory(d, b)
    fresh = MemoryAliases(f)
    values = [v for op in f.walk() for v in op.results]
    values += [arg for op in f.walk() for region in op.regions for block in region.blocks for arg in block.args]
    assert all(aliases.memories(v) == fresh.memories(v) for v in values)
    assert aliases.memories(value(f, "r_mem")) == {b}
    assert aliases.allocs == fresh.allocs


STENCIL = """
func.func @main(%x0: tensor<?xf32>, %steps: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %x0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %it = %c0 to %steps step %c1 iter_args(%x = %x0) -> (tensor<?xf32>) {
    %is = soac.iota %n : tensor<?xindex>
    %y = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb0(%i: index):
      %j = arith.addi %i, %c1 : index
      %k = arith.minui %j, %last : index
      %a = soac.index %x[%i] : tensor<?xf32>
      %b = soac.index %x[%k] : tensor<?xf32>
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


def test_a_double_buffered_loop_s_two_blocks_never_share_memory_in_an_iteration():
    f = level2(STENCIL, "convert-soac-to-mem,hoist-allocations,memory-reuse")
    aliases = MemoryAliases(f)
    loop = next(op for op in f.walk() if isinstance(op, scf.ForOp))
    carried, x, spare = loop.body.block.args[1:]
    y = value(f, "y")
    # merging iterations, the aliases say each block may be either
    assert aliases.memories(carried) == aliases.memories(spare) and len(aliases.memories(carried)) == 2
    assert swapped_carried_blocks(carried, spare) and swapped_carried_blocks(spare, carried)
    assert not swapped_carried_blocks(carried, carried)
    # the array read and the array written in one iteration: apart, though both blocks'
    assert not may_share_memory(aliases, x, y)
    assert may_share_memory(aliases, x, x) and may_share_memory(aliases, y, y)


def test_blocks_a_loop_does_not_swap_may_share_memory():
    f = level2(STENCIL, "convert-soac-to-mem,hoist-allocations,memory-reuse{double_buffers=false}")
    aliases = MemoryAliases(f)
    x, y = value(f, "x"), value(f, "y")
    assert not swapped_carried_blocks(value(f, "x_mem"), value(f, "y_mem"))
    # the body's new block is one the previous iteration's array may be in
    assert may_share_memory(aliases, x, y)
