"""Smaller faults a review found: rank-0 array arguments at level 2, bit counts on i1,
a type error found while parsing, and a map yielding a whole captured array lowered to
a kernel (each checked at level 1 and level 2 through tests.support.rt_util.run where
it runs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc

from tests.support.rt_util import assert_array, run

RANK0 = """func.func @main(%a: tensor<?xf32>, %s: tensor<f32>) -> (tensor<?xf32>, tensor<f32>) {
  %m = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    soac.yield %e : f32
  }
  func.return %m, %s : tensor<?xf32>, tensor<f32>
}"""

CTLZ_I1 = """func.func @main(%a: tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %r:3 = soac.map(%a) : (tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  ^bb0(%x: i1):
    %l = math.ctlz %x : i1
    %t = math.cttz %x : i1
    %p = math.ctpop %x : i1
    soac.yield %l, %t, %p : i1, i1, i1
  }
  func.return %r#0, %r#1, %r#2 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}"""


def test_a_rank_0_array_argument_runs_at_both_levels():
    m, s = run(RANK0, np.arange(3, dtype=np.float32), np.array(5.0, np.float32))
    assert_array(m, [0, 1, 2], np.float32)
    assert s == np.float32(5.0)


def test_bit_counts_of_i1():
    lz, tz, pop = run(CTLZ_I1, np.array([True, False]))
    assert_array(lz, [False, True], np.bool_)
    assert_array(tz, [False, True], np.bool_)
    assert_array(pop, [True, False], np.bool_)


def test_a_type_error_found_while_parsing_is_located():
    src = """func.func @main(%a: tensor<?xf32>) -> index {
  %r = soac.map(%a) : (tensor<?xf32>) -> index {
  ^bb0(%e: f32):
    soac.yield %e : f32
  }
  func.return %r : index
}"""
    with pytest.raises(soacc.ProgramError, match=r"<input>:2:3"):
        soacc.compile(src)


def test_a_map_yielding_a_captured_array_lowers_to_a_valid_kernel():
    path = Path(__file__).parents[1] / "lowering" / "programs" / "map_yields_a_captured_array.mlir"
    program = soacc.compile(path, backend="numpy", pipeline="convert-soac-to-mem,convert-mem-to-gpu")
    program.module.verify()


ROW_SIZE_BY_CONDITION = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xindex>, %c: i1) -> tensor<?x?xf32> {
  %r = soac.map(%b) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %y = scf.if %c -> (tensor<?xf32>) {
      scf.yield %a : tensor<?xf32>
    } else {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s = soac.slice %a[%c0:%c1] : tensor<?xf32> -> tensor<?xf32>
      scf.yield %s : tensor<?xf32>
    }
    soac.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""

ROW_SIZE_BY_ROW = ROW_SIZE_BY_CONDITION.replace(
    "  ^bb0(%i: index):\n", "  ^bb0(%i: index):\n    %z = arith.constant 0 : index\n    %c = arith.cmpi eq, %i, %z : index\n"
).replace("%b: tensor<?xindex>, %c: i1)", "%b: tensor<?xindex>)")


@pytest.mark.parametrize("condition", [False, True])
def test_a_row_size_chosen_by_a_condition_known_before_the_map(condition):
    a = np.array([1, 2, 3], np.float32)
    got = run(ROW_SIZE_BY_CONDITION, a, np.array([0, 1], np.int64), np.bool_(condition))
    assert_array(got, [[1, 2, 3]] * 2 if condition else [[1]] * 2, np.float32)


def test_rows_of_different_sizes_are_an_error_at_both_levels():
    with pytest.raises(soacc.ExecutionError):
        run(ROW_SIZE_BY_ROW, np.array([1, 2, 3], np.float32), np.array([0, 1], np.int64))


def test_a_value_used_before_its_definition_is_a_located_error():
    src = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %z : f32
    soac.yield %y : f32
  }
  %z = arith.constant 1.0 : f32
  func.return %r : tensor<?xf32>
}"""
    with pytest.raises(soacc.ProgramError, match=r"<input>:4:5: error: arith.addf uses %z before it is defined"):
        soacc.compile(src)
