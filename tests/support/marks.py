"""Marking long-running tests `slow` (registered in pyproject.toml; deselect them with
-m 'not slow'; CI runs them all): whole tests with @pytest.mark.slow, single
parameters of a parametrized test with `params`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest


def params(values: Sequence, ids: Sequence[str], slow: Iterable[str] = ()) -> list:
    """pytest.param of each value with its id, marked slow where the id is in `slow`
    (each of which must be one of the ids)."""
    slow = set(slow)
    assert slow <= set(ids), f"no parameter {sorted(slow - set(ids))}"
    return [pytest.param(v, id=i, marks=[pytest.mark.slow] if i in slow else []) for v, i in zip(values, ids, strict=True)]
