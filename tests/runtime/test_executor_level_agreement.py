"""Where level 1 and level 2 of the reference executor disagreed on whether a program
fails (found by the pipeline-prefix differential test, tests/passes/test_pipeline_prefixes.py):
a map over zero rows runs nothing at either level, and a scatter or hist of more values
than indices fails at both, at every size."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

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


SCATTER_OF_OTHER_SIZES_IN_A_MAP = """func.func @main(%m: tensor<?x4xf32>, %k: tensor<4xi32>) -> tensor<?x4xf32> {
  %c1 = arith.constant 1 : index
  %r = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    %dest = soac.copy %row : tensor<4xf32>
    %one = soac.slice %row[%c1:%c1] : tensor<4xf32> -> tensor<?xf32>
    %longer = soac.concat %row, %one : (tensor<4xf32>, tensor<?xf32>) -> tensor<?xf32>
    %s = soac.scatter %dest[%k] = %longer : tensor<4xf32>, tensor<4xi32>, tensor<?xf32>
    soac.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<?x4xf32>
}"""


@pytest.mark.parametrize("pipeline", ["", "convert-soac-to-mem", None])
def test_a_scatter_of_other_sizes_fails_only_in_rows_that_run(pipeline):
    """4 positions and 5 values in every row: an error where a row runs, none in a map
    over no rows (level 2 runs no lambda there; level 1 checked the sizes anyway)."""
    program = soacc.compile(SCATTER_OF_OTHER_SIZES_IN_A_MAP, backend="numpy", pipeline=pipeline)
    positions = np.arange(4, dtype=np.int32)
    assert program.main(np.ones((0, 4), np.float32), positions).shape == (0, 4)
    with pytest.raises(soacc.ExecutionError, match="outer sizes"):
        program.main(np.ones((2, 4), np.float32), positions)


FUSED_SCATTER_OF_OTHER_SIZES_IN_A_MAP = """func.func @main(%m: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    %dest = soac.copy %row : tensor<4xf32>
    %one = soac.slice %row[%c1:%c1] : tensor<4xf32> -> tensor<?xf32>
    %longer = soac.concat %row, %one : (tensor<4xf32>, tensor<?xf32>) -> tensor<?xf32>
    %io = soac.iota %c4 : tensor<?xi32>
    %pos = soac.map(%io) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%i: i32):
      %j = arith.addi %i, %i : i32
      soac.yield %j : i32
    }
    %s = soac.scatter %dest[%pos] = %longer : tensor<4xf32>, tensor<?xi32>, tensor<?xf32>
    soac.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<?x4xf32>
}"""


@pytest.mark.parametrize("pipeline", ["", "soac-fusion", "soac-fusion,convert-soac-to-mem", None])
def test_a_fused_scatter_of_other_sizes_fails_only_in_rows_that_run(pipeline):
    """The same once soac-fusion makes the positions' map and the scatter one
    scatteromap: no error in a map over no rows (it failed there in NumPy's words)."""
    program = soacc.compile(FUSED_SCATTER_OF_OTHER_SIZES_IN_A_MAP, backend="numpy", pipeline=pipeline)
    assert program.main(np.ones((0, 4), np.float32)).shape == (0, 4)
    with pytest.raises(soacc.ExecutionError, match="outer sizes|number of rows"):
        program.main(np.ones((2, 4), np.float32))
