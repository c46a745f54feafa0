"""Symbolic sizes and index functions (passes/analysis/symbolic.py)."""

from __future__ import annotations

from soacc.passes.analysis.symbolic import Symbolic

from tests.support.memory_util import level2, op_named, value


CONCAT = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = soac.concat %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %c : tensor<?xf32>
}
"""


def test_sizes_computed_two_ways_are_equal():
    f = level2(CONCAT, "convert-soac-to-mem,hoist-allocations")
    symbolic = Symbolic(f)
    allocs = [o for o in f.walk() if o.name == "mem.alloc"]
    c = next(o for o in allocs if o.block.name_hint == "c_mem")
    host = next(o for o in allocs if o.block.name_hint == "c_host_mem")
    # 4 * (dim a + dim b), built separately for the device and the host blocks
    assert symbolic.equal(symbolic.expr(c.bytes), symbolic.expr(host.bytes))
    assert "4*dim(%a_host, 0) + 4*dim(%b_host, 0)" == symbolic.describe(symbolic.expr(c.bytes))


def test_the_parts_of_a_concatenation_are_apart():
    f = level2(CONCAT)
    symbolic = Symbolic(f)
    first, second = [op_named(f, "mem.slice", i).result for i in (0, 1)]
    a, b = symbolic.index_function(first), symbolic.index_function(second)
    assert symbolic.disjoint(a, b) and symbolic.disjoint(b, a)
    assert not symbolic.disjoint(a, symbolic.index_function(value(f, "c")))


def test_facts_make_sizes_equal():
    zip_ = """
func.func @main(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %z = soac.map(%x, %y) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %f = arith.addi %a, %b : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}
"""
    f = level2(zip_)
    symbolic = Symbolic(f)
    nx, ny = symbolic.size_of(value(f, "x"), 0), symbolic.size_of(value(f, "y"), 0)
    assert not symbolic.equal(nx, ny)
    symbolic.assume_facts_of([op_named(f, "mem.map")])
    assert symbolic.equal(nx, ny)


LOOP = """
func.func @main(%a: tensor<?xi32>, %k: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%b = %a) -> (tensor<?xi32>) {
    %b1 = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
"""


def test_a_loop_carried_array_has_the_layout_it_starts_with():
    """By induction: every iteration yields a view of the size and layout it was
    given, so the carried array has the starting array's index function, on the
    loop's carried block."""
    f = level2(LOOP, "convert-soac-to-mem,hoist-allocations")
    symbolic = Symbolic(f)
    carried = value(f, "b")
    ixfun = symbolic.index_function(carried)
    start = symbolic.index_function(value(f, "a"))
    assert ixfun is not None and ixfun.block is value(f, "b_mem")
    assert symbolic.same_addresses(ixfun, start)


def test_a_carried_array_whose_layout_changes_has_none():
    transposing = """
func.func @main(%a: tensor<?x?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%b = %a) -> (tensor<?x?xi32>) {
    %t = soac.transpose %b [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
    scf.yield %t : tensor<?x?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
"""
    f = level2(transposing, "convert-soac-to-mem,hoist-allocations")
    assert Symbolic(f).index_function(value(f, "b")) is None


SQUARE_TRANSPOSED = """
func.func @main(%a: tensor<?x?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%b = %a) -> (tensor<?x?xi32>) {
    %t = soac.transpose %b [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
    %m = soac.map(%t) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb0(%row: tensor<?xi32>):
      soac.yield %row : tensor<?xi32>
    }
    %mt = soac.transpose %m [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
    scf.yield %mt : tensor<?x?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
"""


def test_a_carried_array_whose_layout_changes_keeps_its_sizes():
    """Each iteration yields a transpose of an array built row by row: the layout
    differs from the starting array's (no index function), but the sizes are the
    same in every iteration, by the same induction."""
    f = level2(SQUARE_TRANSPOSED, "convert-soac-to-mem,hoist-allocations")
    symbolic = Symbolic(f)
    carried, start = value(f, "b"), value(f, "a")
    assert symbolic.index_function(carried) is None
    assert symbolic.shape(carried) == symbolic.shape(start)
    rows, cols = symbolic.shape(start)
    assert symbolic.size_of(value(f, "t"), 0) == cols and symbolic.size_of(value(f, "t"), 1) == rows


def test_a_carried_array_whose_sizes_change_has_no_shape():
    growing = """
func.func @main(%a: tensor<?xi32>, %k: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%b = %a) -> (tensor<?xi32>) {
    %d = soac.concat %b, %b : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    scf.yield %d : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
"""
    f = level2(growing, "convert-soac-to-mem,hoist-allocations")
    assert Symbolic(f).shape(value(f, "b")) is None
