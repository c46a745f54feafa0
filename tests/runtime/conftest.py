from __future__ import annotations

import numpy as np
import pytest

from tests.support import rt_util


@pytest.fixture
def run():
    """`run(src, *args, entry="main")`: compile (cached) and call an entry point."""
    return rt_util.run


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: reproducible, different per test."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(request.node.nodeid)) % (2**32)
    return np.random.default_rng(seed)
