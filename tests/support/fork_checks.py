"""What the fork tests check of a forked program on the reference executor: under every
seeded interleaving, the results of the program without forks (or an error where it
fails). Tests import it as `tests.support.fork_checks`."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.runtime.errors import ExecutionError
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import mismatch


def copies(args):
    """The arguments, arrays copied (a call may not change its caller's)."""
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def check_interleavings(base, forked, args, options: str, interleavings: int) -> None:
    """`forked` (introduce-forks{options} of `base`) gives `base`'s results, bit for
    bit, or fails where it fails, under seeds 0..interleavings-1."""
    try:
        want = ReferenceExecutor(base).call("main", copies(args))
    except ExecutionError as error:
        want = error
    for interleaving in range(interleavings):
        executor = ReferenceExecutor(forked, fork_seed=interleaving)
        if isinstance(want, ExecutionError):
            with pytest.raises(ExecutionError):
                executor.call("main", copies(args))
            continue
        got = executor.call("main", copies(args))
        assert mismatch(got, want, 0.0, 0.0) is None, f"{options}, interleaving {interleaving}: {mismatch(got, want, 0.0, 0.0)}"
