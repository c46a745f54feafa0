"""Randomised differential tests: generated programs (the lanes family of
tests/support/random_programs: chains of soac.map over 1-3 inputs whose lambdas compose
random arith ops, then a reduce or a scan) against the same computation written
directly in NumPy. Fixed seed, 60 programs, each run at several sizes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.random_programs import random_program
from tests.support.random_programs.lanes import FLOAT_BINARY, INT_BINARY
from tests.support.rt_util import DTYPES, assert_array, run

N_PROGRAMS = 60
RUN_SIZES = (0, 1, 2, 3, 7, 1000)


@pytest.mark.parametrize("seed", range(N_PROGRAMS))
def test_generated_program(seed):
    g = random_program("lanes", 1000 + seed)
    t, reduction = g.info["dtype"], g.info["reduction"]
    rng = np.random.default_rng(seed)
    dt = DTYPES[t]
    for n in RUN_SIZES:
        args = g.inputs(n, rng)
        got_map, got_red = run(g.source, *args)
        want_map, want_red = g.reference(*args)
        assert_array(got_map, want_map, dt)
        if reduction in ("addf", "scan_addf"):
            scale = max(float(np.abs(want_map).sum()), 1.0)
            tol = (1e-5 if t == "f32" else 1e-12) * scale
            got = np.atleast_1d(np.asarray(got_red, dt))
            assert got.dtype == dt and got.shape == np.atleast_1d(want_red).shape
            np.testing.assert_allclose(got, np.atleast_1d(want_red), rtol=0, atol=tol)
        elif reduction.startswith("scan_"):
            assert_array(got_red, want_red, dt)
        else:
            assert isinstance(got_red, np.generic) and got_red.dtype == dt
            assert got_red == want_red or (np.isnan(got_red) and np.isnan(want_red)), (got_red, want_red)


def test_generator_covers_the_operators():
    """The generated programs use every op kind and every reduction (so that the
    differential test above exercises what it claims)."""
    programs = [random_program("lanes", 1000 + s) for s in range(N_PROGRAMS)]
    texts = [p.source for p in programs]
    joined = "\n".join(texts)
    for op in [*INT_BINARY, *FLOAT_BINARY, "shli", "shrsi", "shrui", "divui", "remui", "divsi", "remsi", "cmpi", "cmpf", "select", "negf", "math.absf"]:
        assert f"{op} " in joined or f".{op} " in joined, op
    reductions = {p.info["reduction"] for p in programs}
    assert reductions >= {"addi", "select_max", "last_nonzero", "addf", "scan_addi"}, reductions
    assert any(t.count("soac.map") >= 3 for t in texts)
    assert any("-> (tensor<?xi32>, tensor<?xi32>)" in t or "%m0:2" in t for t in texts)
