"""The one size algebra (passes/analysis/sizes.py): polynomials over atoms, the level-1
rules convert-soac-to-mem derives sizes with, and the level-2 rules hoist-allocations,
fuse-iota and the memory passes (through Symbolic) read views' sizes with."""

from __future__ import annotations

from tests.support.memory_util import level2, op_named, value

from soacc.passes.analysis.sizes import ArraySizes, Dim, Poly, Select, outer_size, stated_size
from soacc.passes.analysis.symbolic import Symbolic
from soacc.program import parse_program


def test_polynomials_normalise():
    a, b = Poly.atom(0), Poly.atom(1)
    assert a * b + b * a == (a * b).scale(2)
    assert (a + Poly.const(1)) * (a - Poly.const(1)) == a * a - Poly.const(1)
    assert (a - a).constant == 0 and Poly.const(7).constant == 7


def _level1(source: str):
    module = parse_program(source)
    return next(iter(module.ops))


# Rows made by an `if` whose branches concatenate the same arrays in either order: the
# one algebra adds sizes as polynomials, so the branches' sizes are equal. (The level-1
# algebra convert-soac-to-mem had before compared sums term by term, saw two sizes and
# chose between them with an `arith.select` by the condition.)
SWAPPED = """
func.func @main(%p: i1, %x: tensor<?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = soac.map(%x) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %c = scf.if %p -> (tensor<?xf32>) {
      %ab = soac.concat %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      scf.yield %ab : tensor<?xf32>
    } else {
      %ba = soac.concat %b, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      scf.yield %ba : tensor<?xf32>
    }
    soac.yield %c : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
"""


def test_branches_adding_sizes_in_either_order_have_one_size():
    f = _level1(SWAPPED)
    sizes = ArraySizes()
    row = sizes.canonical(sizes.dim(value(f, "c"), 0))
    assert not any(isinstance(sizes.key(i), Select) for i in row.atoms())
    assert {sizes.key(i) for i in row.atoms()} == {Dim(value(f, "a"), 0), Dim(value(f, "b"), 0)}
    converted = level2(SWAPPED)
    assert not [op for op in converted.walk() if op.name == "arith.select"]


# Sizes computed twice by the same arithmetic are equal: normal forms expand `+`.
TWICE = """
func.func @main(%p: i1, %n: index, %v: f32) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %r = scf.if %p -> (tensor<?xf32>) {
    %m = arith.addi %n, %c1 : index
    %s = soac.replicate %m, %v : f32 -> tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  } else {
    %k = arith.addi %c1, %n : index
    %t = soac.replicate %k, %v : f32 -> tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


def test_branch_sizes_computed_by_equal_arithmetic_are_equal():
    f = _level1(TWICE)
    sizes = ArraySizes()
    derived = sizes.derive_dim(value(f, "r"), 0)
    assert derived.single_atom is not None and not isinstance(sizes.key(derived.single_atom), Select)
    assert sizes.equal(derived, sizes.atom(value(f, "k")))


ROWS = """
func.func @main(%m: tensor<?x?xf64>) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %s = soac.map(%m) : (tensor<?x?xf64>) -> tensor<?xf64> {
  ^bb0(%row: tensor<?xf64>):
    %t = soac.reduce(%row) neutral(%z : f64) commutative : (tensor<?xf64>) -> f64 {
    ^bb1(%u: f64, %w: f64):
      %y = arith.addf %u, %w : f64
      soac.yield %y : f64
    }
    soac.yield %t : f64
  }
  func.return %s : tensor<?xf64>
}
"""


def test_a_lambda_row_has_its_arrays_row_size():
    # hoist-allocations' stated sizes knew a row's size; Symbolic now reads the same rule
    # (before, a row's size was an atom of its own, equal to nothing)
    f = level2(ROWS)
    row, m = value(f, "row"), value(f, "m")
    assert stated_size(row, 0) is stated_size(m, 1) is not None
    symbolic = Symbolic(f)
    assert symbolic.equal(symbolic.size_of(row, 0), symbolic.size_of(m, 1))
    assert symbolic.size_of(row, 0).single_atom is not None
    assert not isinstance(symbolic.key(symbolic.size_of(row, 0).single_atom), Dim) or (
        symbolic.key(symbolic.size_of(row, 0).single_atom).array is not row
    )


def test_outer_size_follows_sizes_of_views():
    f = level2(ROWS)
    size = outer_size(value(f, "m"))
    assert size is not None and size is stated_size(value(f, "m"), 0)
    assert outer_size(op_named(f, "mem.map").outputs[0]) is not None


# An iota and an array whose sizes are computed apart but equal: fuse-iota compared
# stated size values (%m against %k, two names) and kept the iota's array; with the one
# algebra it compares normal forms too (n + 1 both), and the map reads the row number.
APART = """
func.func @main(%n: index, %v: f32) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 : index
  %k = arith.addi %c1, %n : index
  %i = soac.iota %m : tensor<?xi64>
  %r = soac.replicate %k, %v : f32 -> tensor<?xf32>
  %s = soac.map(%r, %i) : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32> {
  ^bb0(%b: f32, %a: i64):
    %f = arith.sitofp %a : i64 to f32
    %g = arith.addf %f, %b : f32
    soac.yield %g : f32
  }
  func.return %s : tensor<?xf32>
}
"""


def test_fuse_iota_takes_an_iota_of_an_equal_size_computed_apart():
    f = level2(APART, "convert-soac-to-mem,fuse-iota")
    assert not [op for op in f.walk() if op.name == "mem.iota"]
    assert op_named(f, "mem.map").indexed is not None
