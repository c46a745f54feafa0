"""In-place writes must not reach memory made outside the loop or lambda they run in:
every iteration or lane would write the same memory (the programs of a review, run as
written and bufferised: rt_util.run checks the two agree exactly)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.support.rt_util import assert_array, run

HERE = Path(__file__).parent

IF_IN_LOOP_YIELDS_OUTER = """func.func @main(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %other = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (tensor<?xf32>) {
    %y = scf.if %true -> (tensor<?xf32>) {
      scf.yield %other : tensor<?xf32>
    } else {
      %z = soac.copy %x : tensor<?xf32>
      scf.yield %z : tensor<?xf32>
    }
    %fi = arith.index_cast %i : index to i32
    %f = arith.sitofp %fi : i32 to f32
    %u = soac.update %y[%i] = %f : tensor<?xf32>, f32
    scf.yield %u : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}"""

WHILE_IN_LOOP_FROM_OUTER = """func.func @main(%a: tensor<?xf32>, %n: index) -> f32 {
  %other = soac.copy %a : tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zf = arith.constant 0.0 : f32
  %f = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zf) -> (f32) {
    %y = scf.while (%x = %other) : (tensor<?xf32>) -> tensor<?xf32> {
      %e = arith.constant false
      scf.condition(%e) %x : tensor<?xf32>
    } do {
    ^bb0(%z: tensor<?xf32>):
      scf.yield %z : tensor<?xf32>
    }
    %u = soac.update %y[%i] = %f : tensor<?xf32>, f32
    %v = soac.reduce(%u) neutral(%zf : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %q: f32):
      %s = arith.addf %l, %q : f32
      soac.yield %s : f32
    }
    %acc2 = arith.addf %acc, %v : f32
    scf.yield %acc2 : f32
  }
  func.return %r : f32
}"""

LOOP_IN_MAP_CARRIES_OUTER = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xindex>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 7.0 : f32
  %other = soac.copy %a : tensor<?xf32>
  %r = soac.map(%b) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %q = arith.addi %i, %c1 : index
    %y = scf.for %k = %c0 to %q step %c1 iter_args(%x = %other) -> (tensor<?xf32>) {
      %u = soac.update %x[%k] = %f : tensor<?xf32>, f32
      scf.yield %u : tensor<?xf32>
    }
    soac.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""


def test_an_if_in_a_loop_yielding_an_outer_array_is_copied_before_the_update():
    a = np.array([10, 20, 30], np.float32)
    assert_array(run(IF_IN_LOOP_YIELDS_OUTER, a, np.int64(3)), [10, 20, 2], np.float32)


def test_a_while_in_a_loop_starting_from_an_outer_array_is_copied_before_the_update():
    a = np.array([10, 20], np.float32)
    assert run(WHILE_IN_LOOP_FROM_OUTER, a, np.int64(2)) == np.float32(32)


def test_a_loop_in_a_lambda_carrying_an_outer_array_is_copied_per_lane():
    a = np.array([10, 20, 30], np.float32)
    got = run(LOOP_IN_MAP_CARRIES_OUTER, a, np.array([0, 1, 2], np.int64))
    assert_array(got, [[7, 20, 30], [7, 7, 30], [7, 7, 7]], np.float32)
