"""Marking long-running tests `slow` (registered in pyproject.toml; deselect them with
-m 'not slow'; CI runs them all): whole tests with @pytest.mark.slow, single
parameters of a parametrized test with `params`. And the depth of the randomised
sweeps (`sweep`, `sample`): CI runs a part of the largest, which keeps `.ci/run` within its
20 minutes on 2 cores; `SOACC_TESTS=deep` runs every sweep in full (after changing a
pass they cover, and before a release)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import os

import pytest

DEEP = os.environ.get("SOACC_TESTS", "") == "deep"


def params(values: Sequence, ids: Sequence[str], slow: Iterable[str] = ()) -> list:
    """pytest.param of each value with its id, marked slow where the id is in `slow`
    (each of which must be one of the ids)."""
    slow = set(slow)
    assert slow <= set(ids), f"no parameter {sorted(slow - set(ids))}"
    return [pytest.param(v, id=i, marks=[pytest.mark.slow] if i in slow else []) for v, i in zip(values, ids, strict=True)]


def sweep(default: int, deep: int) -> int:
    """How many seeds (programs, interleavings) a randomised sweep runs: `deep` with
    SOACC_TESTS=deep, else `default`."""
    return deep if DEEP else default


def sample(items: Sequence, every: int, keep: Iterable = ()) -> list:
    """Every `every`-th of `items` (and those in `keep`), a part spread over the list,
    for the sweeps over ported programs; all of them with SOACC_TESTS=deep."""
    keep = set(keep)
    return [x for i, x in enumerate(items) if DEEP or i % every == 0 or x in keep]
