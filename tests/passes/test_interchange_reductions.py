"""interchange-reductions (passes/interchange_reductions.py): reductions and scans of
rows by an element-wise operator as maps of column reductions and scans. On the reference executor the
program means the same, at every shape that matters (no rows, no columns, one of
each, more than a block), with the run-time error of rows that do not match the
neutral row, with no rows too; the
seeded random programs of the nested family are interchanged in about half the cases
and tested through every pipeline prefix (test_pipeline_prefixes.py). On the GPU
(marker gpu) the programs that convert-mem-to-gpu refused before compile and give the
reference's results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.tools.examples import as_tuple

LIT = Path(__file__).resolve().parents[1] / "filecheck" / "passes" / "interchange-reductions.mlir"
CHUNKS = LIT.read_text().split("// -----")
COLUMN_SUMS, LAST_SET, PREFIX_ROWS = CHUNKS[0], CHUNKS[1], CHUNKS[2]
SHAPES = [(0, 3), (0, 5), (3, 0), (1, 1), (5, 4), (300, 33), (7, 1000)]


def _programs(source: str):
    return (
        soacc.compile(source, backend="numpy", pipeline="canonicalize"),
        soacc.compile(source, backend="numpy", pipeline="interchange-reductions"),
    )


def test_the_pass_applies_and_the_pipeline_runs_it(capsys):
    soacc.compile(COLUMN_SUMS, backend="numpy", pipeline="interchange-reductions{report=true}")
    assert "interchange-reductions: %sums: a map over the columns" in capsys.readouterr().err
    program = soacc.compile(COLUMN_SUMS, backend="numpy")  # the default level-2 pipeline
    assert not any(op.name == "mem.reduce" and op.inputs[0].type.get_num_dims() == 2 for op in program.module.walk())


@pytest.mark.parametrize("shape", SHAPES)
def test_column_sums_mean_the_same(shape):
    before, after = _programs(COLUMN_SUMS)
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    # whole numbers: sums exact in any order (the executor's reduction of rows and of a
    # column need not add in one order)
    a = rng.integers(-9, 9, shape).astype(np.float32)
    z = np.zeros(shape[1], np.float32)  # (a neutral element: combined any number of times)
    want = before.column_sums(a.copy(), z.copy())
    np.testing.assert_array_equal(after.column_sums(a.copy(), z.copy()), want)
    np.testing.assert_array_equal(want, a.sum(axis=0))


@pytest.mark.parametrize("shape", SHAPES)
def test_a_tuple_of_rows_with_an_order_that_matters(shape):
    before, after = _programs(LAST_SET)
    rng = np.random.default_rng(shape[0] + 7 * shape[1])
    a = rng.integers(-9, 9, shape).astype(np.int32)
    f = rng.random(shape) < 0.3
    za = rng.integers(-9, 9, shape[1]).astype(np.int32)
    zf = np.zeros(shape[1], dtype=bool)
    want = as_tuple(before.last_set(a, f, za, zf))
    got = as_tuple(after.last_set(a, f, za, zf))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_scan_of_rows_means_the_same(shape):
    before, after = _programs(PREFIX_ROWS)
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    a = rng.integers(-9, 9, shape).astype(np.float32)
    z = np.zeros(shape[1], np.float32)
    want = before.prefix_rows(a.copy(), z.copy())
    np.testing.assert_array_equal(after.prefix_rows(a.copy(), z.copy()), want)
    np.testing.assert_array_equal(want, np.cumsum(a, axis=0))


@pytest.mark.parametrize("rows", [0, 2])
def test_rows_that_do_not_match_the_neutral_row_fail_as_before(rows):
    before, after = _programs(COLUMN_SUMS)
    a, z = np.ones((rows, 5), np.float32), np.ones(3, np.float32)
    for program in (before, after):
        with pytest.raises(soacc.ExecutionError):
            program.column_sums(a, z)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_on_the_gpu(shape):
    rng = np.random.default_rng(shape[0] + shape[1])
    a = rng.integers(-9, 9, shape).astype(np.float32)  # whole numbers: sums exact in any order
    z = np.zeros(shape[1], np.float32)
    gpu = soacc.compile(COLUMN_SUMS, backend="cuda")
    np.testing.assert_array_equal(gpu.column_sums(a, z), a.sum(axis=0))
    ai = rng.integers(-9, 9, shape).astype(np.int32)
    f = rng.random(shape) < 0.3
    za = rng.integers(-9, 9, shape[1]).astype(np.int32)
    zf = np.zeros(shape[1], dtype=bool)
    np.testing.assert_array_equal(soacc.compile(PREFIX_ROWS, backend="cuda").prefix_rows(a, z), np.cumsum(a, axis=0))
    want_v, want_f = soacc.compile(LAST_SET, backend="numpy").last_set(ai, f, za, zf)
    got_v, got_f = soacc.compile(LAST_SET, backend="cuda").last_set(ai, f, za, zf)
    np.testing.assert_array_equal(got_f, want_f)
    # (where no flag is set the value is whichever unflagged one the order left: the
    # neutral pair is neutral only for the flag)
    np.testing.assert_array_equal(got_v[want_f], want_v[want_f])
