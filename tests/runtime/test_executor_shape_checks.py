"""Level 1 does not broadcast where a compiled program fails: an update with a narrower
value, a slice whose static size disagrees with its run-time size, and a reduce or hist
whose neutral element is narrower than its rows are errors at level 1 as at level 2."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

UPDATE = """func.func @main(%a: tensor<?xf32>, %v: tensor<?xf32>, %o: index, %n: index) -> tensor<?xf32> {
  %r = soac.update %a[%o:%n] = %v : tensor<?xf32>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}
"""
ROW_UPDATE = """func.func @main(%a: tensor<?x?xf32>, %v: tensor<?xf32>, %i: index) -> tensor<?x?xf32> {
  %r = soac.update %a[%i] = %v : tensor<?x?xf32>, tensor<?xf32>
  func.return %r : tensor<?x?xf32>
}
"""
SLICE = """func.func @main(%a: tensor<?xf32>, %o: index) -> tensor<3xf32> {
  %c2 = arith.constant 2 : index
  %r = soac.slice %a[%o:%c2] : tensor<?xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
"""
REDUCE = """func.func @main(%a: tensor<?x?xf32>, %ne: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.reduce(%a) neutral(%ne : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%l: tensor<?xf32>, %q: tensor<?xf32>):
    %s = soac.map(%l, %q) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      soac.yield %z : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""
HIST = """func.func @main(%d: tensor<?x?xf32>, %is: tensor<?xindex>, %vs: tensor<?x?xf32>, %ne: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = soac.hist %d[%is], %vs neutral(%ne : tensor<?xf32>) : tensor<?x?xf32>, tensor<?xindex>, tensor<?x?xf32> {
  ^bb0(%l: tensor<?xf32>, %q: tensor<?xf32>):
    %s = soac.map(%l, %q) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      soac.yield %z : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
"""
f32 = np.float32
CASES = {
    "update with a one-element value": (UPDATE, (np.arange(4, dtype=f32), np.array([9], f32), 1, 2), r"shape \[1\] does not fit|shape \[1\] into one of shape \[2\]"),
    "row update with a shorter row": (ROW_UPDATE, (np.ones((2, 3), f32), np.array([9, 8], f32), 1), r"shape \[2\] does not fit|shape \[2\] into one of shape \[3\]"),
    "slice whose static size disagrees": (SLICE, (np.arange(4, dtype=f32), 0), "the result has 2 elements in dimension 0, but its type"),
    "reduce with a narrower neutral": (REDUCE, (np.ones((2, 3), f32), np.zeros(1, f32)), r"neutral element 0 has shape \[1\], but the rows it combines have shape \[3\]"),
    "hist with a narrower neutral": (
        HIST,
        (np.zeros((2, 3), f32), np.array([0, 1], np.int64), np.ones((2, 3), f32), np.zeros(1, f32)),
        r"neutral element 0 has shape \[1\], but the rows it combines have shape \[3\]",
    ),
}


@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem"], ids=["level 1", "level 2"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_no_broadcasting_where_a_compiled_program_fails(name, pipeline):
    source, args, message = CASES[name]
    program = soacc.compile(source, backend="numpy", pipeline=pipeline)
    with pytest.raises(soacc.ExecutionError, match=message):
        program.main(*args)


def test_values_of_the_right_shape_still_update():
    program = soacc.compile(UPDATE, backend="numpy", pipeline="")
    assert program.main(np.arange(4, dtype=f32), np.array([9, 8], f32), 1, 2).tolist() == [0, 9, 8, 3]


STEP_IN_A_LAMBDA = """func.func @main(%a: tensor<?xindex>) -> tensor<?xindex> {
  %r = soac.map(%a) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%s: index):
    %z = arith.constant 0 : index
    %n = arith.constant 10 : index
    %t = scf.for %i = %z to %n step %s iter_args(%acc = %z) -> (index) {
      %b = arith.addi %acc, %i : index
      scf.yield %b : index
    }
    soac.yield %t : index
  }
  func.return %r : tensor<?xindex>
}
"""


@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem"], ids=["level 1", "level 2"])
def test_a_loop_of_step_0_in_a_lambda_is_an_error_not_a_hang(pipeline):
    program = soacc.compile(STEP_IN_A_LAMBDA, backend="numpy", pipeline=pipeline)
    assert program.main(np.array([1, 3, 2], np.int64)).tolist() == [45, 18, 20]
    with pytest.raises(soacc.ExecutionError, match="step 0 is not positive"):
        program.main(np.array([1, 0, 2], np.int64))


def test_a_long_reduction_runs_in_chunks_with_the_same_result(monkeypatch):
    """Between chunks Python sees Ctrl-C; the result is the unchunked one."""
    from soacc.runtime.interp import soac as implementations

    monkeypatch.setattr(implementations, "_REDUCE_CHUNK", 7)
    x = np.arange(50, dtype=np.int64).reshape(2, 25)
    assert implementations._interruptible_reduce(np.add, x, 1).tolist() == x.sum(1).tolist()
    assert implementations._interruptible_reduce(np.maximum, x, 0).tolist() == x.max(0).tolist()


# A map over zero rows runs no lambda: nothing in it may fail, even where a size it
# computes from its rows' values cannot be known (there is no row to compute it from).
ZERO_ROWS_UPDATE_A_ROW = """func.func @main(%a: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a[0] : tensor<?xf32>
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%x: f32):
    %made = soac.replicate %c1, %x : f32 -> tensor<?xf32>
    %grid = soac.replicate %n, %made : tensor<?xf32> -> tensor<?x?xf32>
    %upd = soac.update %grid[%c0] = %made : tensor<?x?xf32>, tensor<?xf32>
    %row = soac.index %upd[%c0] : tensor<?x?xf32>
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}"""

ZERO_ROWS_UPDATE_OF_A_SIZE_PER_ROW = """func.func @main(%a: tensor<?xf32>) -> tensor<?xindex> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xindex> {
  ^bb0(%x: f32):
    %xi = arith.fptosi %x : f32 to i32
    %cnt = arith.index_cast %xi : i32 to index
    %made = soac.replicate %cnt, %x : f32 -> tensor<?xf32>
    %grid = soac.replicate %c1, %made : tensor<?xf32> -> tensor<?x?xf32>
    %one = soac.replicate %c1, %x : f32 -> tensor<?xf32>
    %upd = soac.update %grid[%c0] = %one : tensor<?x?xf32>, tensor<?xf32>
    %size = soac.size %upd[1] : tensor<?x?xf32>
    soac.yield %size : index
  }
  func.return %r : tensor<?xindex>
}"""


@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem", None])
@pytest.mark.parametrize("source", [ZERO_ROWS_UPDATE_A_ROW, ZERO_ROWS_UPDATE_OF_A_SIZE_PER_ROW], ids=["row", "size-per-row"])
def test_a_map_over_zero_rows_updating_an_array_it_made_runs_nothing(source, pipeline):
    program = soacc.compile(source, backend="numpy", pipeline=pipeline)
    for n in (0, 1, 3):
        result = program.main(np.ones(n, np.float32))
        assert np.shape(result)[0] == n
        if n:
            assert np.all(np.asarray(result) == 1)


ZERO_ROWS_WRONG_LENGTH = """func.func @main(%m: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    %made = soac.copy %row : tensor<4xf32>
    %part = soac.slice %row[%c0:%c2] : tensor<4xf32> -> tensor<?xf32>
    %bad = soac.update %made[%c0:%c3] = %part : tensor<4xf32>, tensor<?xf32>
    soac.yield %bad : tensor<4xf32>
  }
  func.return %r : tensor<?x4xf32>
}"""


@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem", None])
def test_a_wrong_update_in_a_map_over_zero_rows_fails_only_with_rows(pipeline):
    """Every row's update has a value of the wrong length: an error where there are
    rows, and at every level none where there are none (level 2 checked its copy's
    shapes though no row ran)."""
    program = soacc.compile(ZERO_ROWS_WRONG_LENGTH, backend="numpy", pipeline=pipeline)
    assert program.main(np.ones((0, 4), np.float32)).shape == (0, 4)
    with pytest.raises(soacc.ExecutionError):
        program.main(np.ones((2, 4), np.float32))


SCATTER_AND_HIST_OF_OTHER_SIZES = """func.func @main(%a: tensor<?xf32>, %k: tensor<?xi32>, %which: i1) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %one = soac.replicate %c1, %z : f32 -> tensor<?xf32>
  %longer = soac.concat %a, %one : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %dest = soac.copy %a : tensor<?xf32>
  %r = scf.if %which -> (tensor<?xf32>) {
    %s = soac.scatter %dest[%k] = %longer : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  } else {
    %h = soac.hist %dest[%k], %longer neutral(%z : f32) : tensor<?xf32>, tensor<?xi32>, tensor<?xf32> {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %x, %y : f32
      soac.yield %m : f32
    }
    scf.yield %h : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}"""


@pytest.mark.parametrize("which", [True, False], ids=["scatter", "hist"])
@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem", None])
def test_scatter_and_hist_with_more_values_than_indices_fail_at_every_size(pipeline, which):
    """n indices and n + 1 values: an error at level 1, and at level 2 too, with no
    index at all (level 2 failed only where NumPy happened to)."""
    program = soacc.compile(SCATTER_AND_HIST_OF_OTHER_SIZES, backend="numpy", pipeline=pipeline)
    for n in (0, 1, 3):
        with pytest.raises(soacc.ExecutionError, match="outer sizes"):
            program.main(np.ones(n, np.float32), np.zeros(n, np.int32), which)
