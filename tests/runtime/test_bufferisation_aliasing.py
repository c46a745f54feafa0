"""In-place writes after bufferisation must never reach memory another live array still
uses: programs whose arrays share memory through control flow, run as written and
bufferised (rt_util.run checks the two agree exactly)."""

from __future__ import annotations

import numpy as np

from tests.support.rt_util import assert_array, run

IF_ALIAS = """func.func @main(%p: i1, %a: tensor<?xf32>, %b: tensor<?xf32>, %y: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %r = scf.if %p -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    scf.yield %b : tensor<?xf32>
  }
  %u = soac.update %r[%c0] = %y : tensor<?xf32>, f32
  func.return %u, %a : tensor<?xf32>, tensor<?xf32>
}"""

FOR_RESULT_ALIAS = """func.func @main(%n: index, %x: f32, %y: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
    scf.yield %z : tensor<?xf32>
  }
  %u = soac.update %r[%c0] = %y : tensor<?xf32>, f32
  func.return %u, %z : tensor<?xf32>, tensor<?xf32>
}"""

FOR_CARRIED_ALIAS = """func.func @main(%n: index, %x: f32, %y: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
    %u = soac.update %acc[%k] = %y : tensor<?xf32>, f32
    scf.yield %z : tensor<?xf32>
  }
  func.return %r, %z : tensor<?xf32>, tensor<?xf32>
}"""

WHILE_ALIAS = """func.func @main(%n: index, %x: f32, %y: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r = scf.while (%v0 = %init) : (tensor<?xf32>) -> tensor<?xf32> {
    scf.condition(%false) %z : tensor<?xf32>
  } do {
  ^bb0(%v: tensor<?xf32>):
    scf.yield %v : tensor<?xf32>
  }
  %u = soac.update %r[%c0] = %y : tensor<?xf32>, f32
  func.return %u, %z : tensor<?xf32>, tensor<?xf32>
}"""


def test_update_of_an_if_result_leaves_the_branch_input_alone():
    a, b = np.array([1, 2, 3], np.float32), np.array([4, 5, 6], np.float32)
    u, kept = run(IF_ALIAS, np.True_, a, b, np.float32(9))
    assert_array(u, [9, 2, 3], np.float32)
    assert_array(kept, [1, 2, 3], np.float32)


def test_update_of_a_loop_result_leaves_the_yielded_array_alone():
    u, kept = run(FOR_RESULT_ALIAS, np.int64(3), np.float32(1), np.float32(9))
    assert_array(u, [9, 1, 1], np.float32)
    assert_array(kept, [1, 1, 1], np.float32)


def test_update_of_a_carried_array_leaves_what_the_loop_yields_alone():
    r, kept = run(FOR_CARRIED_ALIAS, np.int64(3), np.float32(1), np.float32(9))
    assert_array(r, [1, 1, 1], np.float32)
    assert_array(kept, [1, 1, 1], np.float32)


def test_update_of_a_while_result_leaves_the_forwarded_array_alone():
    u, kept = run(WHILE_ALIAS, np.int64(3), np.float32(1), np.float32(9))
    assert_array(u, [9, 1, 1], np.float32)
    assert_array(kept, [1, 1, 1], np.float32)


WHILE_IN_PLACE = """func.func @main(%n: index, %x: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r:2 = scf.while (%i = %c0, %acc = %init) : (index, tensor<?xf32>) -> (index, tensor<?xf32>) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %acc : index, tensor<?xf32>
  } do {
  ^bb0(%j: index, %a: tensor<?xf32>):
    %jf = arith.index_cast %j : index to i64
    %v = arith.sitofp %jf : i64 to f32
    %u = soac.update %a[%j] = %v : tensor<?xf32>, f32
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %u : index, tensor<?xf32>
  }
  func.return %r#1 : tensor<?xf32>
}"""


def test_an_update_of_a_while_carried_array_is_in_place():
    import soacc

    r = run(WHILE_IN_PLACE, np.int64(5), np.float32(-1))
    assert_array(r, [0, 1, 2, 3, 4], np.float32)
    program = soacc.compile(WHILE_IN_PLACE, backend="numpy", pipeline="convert-soac-to-mem")
    program.main(np.int64(5), np.float32(-1))
    # the replicate's block is written in place every iteration: no device copies
    assert program.statistics.copies["device->device"].count == 0


LOADED_THEN_STORED = """func.func @main(%a: tensor<?xf32>, %s: f32) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %r, %best = soac.map(%a) : (tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?xf32>) {
  ^bb0(%x: f32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %row = soac.replicate %c4, %x : f32 -> tensor<4xf32>
    %loop, %lacc = scf.for %i = %c0 to %c3 step %c1 iter_args(%rc = %row, %acc = %s) -> (tensor<4xf32>, f32) {
      %e = soac.index %rc[%i] : tensor<4xf32>
      %v = arith.addf %e, %acc : f32
      %u = soac.update %rc[%i] = %v : tensor<4xf32>, f32
      %na = arith.maximumf %acc, %e : f32
      scf.yield %u, %na : tensor<4xf32>, f32
    }
    soac.yield %loop, %lacc : tensor<4xf32>, f32
  }
  func.return %r, %best : tensor<?x4xf32>, tensor<?xf32>
}"""


def test_an_element_read_keeps_its_value_when_the_element_is_written_after():
    """At level 2 the read is a mem.load and the update a mem.store into the same
    memory: what the load gave must not change with the store (the executor returned a
    view of the element, and a later use of %e saw the stored value)."""
    a = np.array([-4, 0, -1, 3], np.float32)
    s = np.float32(-4)
    rows, best = [], []
    for x in a:
        row, acc = np.full(4, x, np.float32), s
        for i in range(3):
            e = row[i]
            row[i] = e + acc
            acc = max(acc, e)
        rows.append(row)
        best.append(acc)
    r, b = run(LOADED_THEN_STORED, a, s)
    assert_array(r, np.array(rows), np.float32)
    assert_array(b, np.array(best), np.float32)
