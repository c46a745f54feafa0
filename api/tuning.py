"""Thresholds: reading a tuning file, and the autotuner that writes one.

A program's host code switches between versions of some kernels at sizes its
mem.threshold ops name (convert-mem-to-gpu: a tiled matrix product from 32 rows on each
side, a block per row from 128 elements, ...), as Futhark's compiled programs do with
their tuning parameters. The defaults were measured on an H100; another GPU, or another
program's shapes, may want others. A tuning is a JSON object of names and sizes:

    {"map0.tiled_from": 64, "map0.block_per_row_from": 256}

`autotune` finds one for given arguments by coordinate descent: for each threshold in
turn, the others fixed at their best so far, it times the call with the threshold at 0
(always the version for large sizes), at NEVER (never it), and at sizes around its
default, and keeps the fastest. Every version's results are checked against the
defaults' (a version that computes anything else is an error, not a speed)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from soacc.runtime.errors import ArgumentError, ExecutionError

NEVER = 1 << 62
"""A threshold no size reaches: the host always takes the version for small sizes."""


def read_tuning(path: Path) -> dict[str, int]:
    """A tuning file's thresholds (ArgumentError for anything else)."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ArgumentError(f"cannot read the tuning file {path}: {error.strerror or error}") from None
    try:
        values = json.loads(text)
    except json.JSONDecodeError as error:
        raise ArgumentError(f"the tuning file {path} is not JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(values, dict):
        raise ArgumentError(f"the tuning file {path} holds a JSON object of threshold names and sizes, not a {type(values).__name__}")
    return values


def write_tuning(path: Path, values: Mapping[str, int]) -> None:
    """Writes a tuning file whole (a temporary file renamed over it: nothing half-written)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(dict(values), indent=2, sort_keys=True) + "\n")
        partial.replace(path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise ArgumentError(f"cannot write the tuning file {path}: {error.strerror or error}") from None


def candidates(default: int) -> list[int]:
    """The sizes tried for a threshold: 0, NEVER, and powers of two from a sixteenth of
    its default to sixteen times it."""
    tried = {0, NEVER, default}
    for shift in range(1, 5):
        tried |= {max(default >> shift, 1), default << shift}
    return sorted(tried)


def autotune(program, call: Callable[[], object], rounds: int = 3, say: Callable[[str], None] = lambda _: None) -> dict[str, int]:
    """The tuning of `program`'s thresholds fastest for `call()` (a call of one of its
    functions with fixed arguments); the program keeps it. Each setting is timed as the
    best of `rounds` calls after one that is not timed."""
    thresholds = program.thresholds
    if not thresholds:
        say("the program has no thresholds: nothing to tune")
        return {}
    best: dict[str, int] = {}
    program.tuning = {}
    reference = _results(call())

    def timed(values: dict[str, int]) -> float:
        program.tuning = values
        _check(_results(call()), reference, values)
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            call()
            times.append(time.perf_counter() - started)
        return min(times)

    for name, default in thresholds.items():
        timings = {value: timed({**best, name: value}) for value in candidates(default)}
        fastest = min(timings, key=lambda v: (timings[v], v != default))
        best[name] = fastest
        shown = ", ".join(f"{'never' if v == NEVER else v}: {t * 1e3:.3f} ms" for v, t in timings.items())
        say(f"{name} (default {default}): {shown}; best {'never' if fastest == NEVER else fastest}")
    program.tuning = best
    return best


def _results(value) -> tuple[np.ndarray, ...]:
    values = value if isinstance(value, tuple) else (value,)
    return tuple(np.asarray(v) for v in values)


def _check(got: Sequence[np.ndarray], want: Sequence[np.ndarray], values: Mapping[str, int]) -> None:
    """The results of one version against the defaults': equal, or for floats within
    the rounding of another order of combining."""
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        same = g.shape == w.shape and (
            np.allclose(g, w, rtol=1e-5, atol=1e-6 * float(np.abs(w).max() if w.size else 0.0), equal_nan=True)
            if w.dtype.kind in "fc"
            else np.array_equal(g, w)
        )
        if not same:
            setting = ", ".join(f"{k} = {v}" for k, v in values.items())
            raise ExecutionError(f"with {setting}, result {i} differs from the one with the default thresholds")


__all__ = ["NEVER", "autotune", "candidates", "read_tuning", "write_tuning"]
