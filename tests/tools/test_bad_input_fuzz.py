"""A corpus of generated bad input, run through soacc.compile and the entry points as a
user's program would be: mutations of the examples (lines dropped, doubled, swapped,
cut short; tokens and types changed; names undefined), deep nesting, random bytes and
random arguments. Each must end in a clear diagnostic (a SoaccError) or a result, never
another exception, never a hang; and the mutations that make a program invalid for
sure (a value used but never defined, a result of another type than the function
declares) must be refused.

The corpus is seeded, so a failure names the case that reproduces it:
`pytest tests/tools/test_bad_input_fuzz.py -k 'case-123'`.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import soacc

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
CORPUS_SIZE = 520
TIME_LIMIT_S = 60
PIPELINES = [None, "", "convert-soac-to-mem"]


@dataclass(frozen=True)
class Case:
    source: str
    why: str
    must_refuse: bool = False
    pipeline: str | None = None


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _drop_line(rng: random.Random, text: str) -> Case:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return Case("".join(lines[:i] + lines[i + 1 :]), f"line {i + 1} dropped")


def _double_line(rng: random.Random, text: str) -> Case:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return Case("".join(lines[: i + 1] + lines[i:]), f"line {i + 1} doubled")


def _swap_lines(rng: random.Random, text: str) -> Case:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return Case("".join(lines), f"lines {i + 1} and {j + 1} swapped")


def _cut(rng: random.Random, text: str) -> Case:
    at = rng.randrange(1, len(text))
    return Case(text[:at], f"cut at character {at}")


_TOKENS = ["f32", "f64", "i32", "i64", "index", "i1", "tensor<?xf32>", "tensor<?x?xf32>", "tensor<3xf32>", "0", "-1", "1.5", "true"]


def _change_token(rng: random.Random, text: str) -> Case:
    old = rng.choice([t for t in _TOKENS if t in text] or ["f32"])
    new = rng.choice([t for t in _TOKENS if t != old])
    positions = [i for i in range(len(text)) if text.startswith(old, i)] or [0]
    at = rng.choice(positions)
    return Case(text[:at] + new + text[at + len(old) :], f"{old!r} at {at} became {new!r}")


def _undefined_name(rng: random.Random, text: str) -> Case:
    """A use of a value no op defines: invalid for sure."""
    lines = _lines(text)
    uses = [(i, line) for i, line in enumerate(lines) if "=" in line and "%" in line.split("=", 1)[1]]
    if not uses:
        return _cut(rng, text)
    i, line = rng.choice(uses)
    left, right = line.split("=", 1)
    names = re.findall(r"%[\w.$-]+", right)
    if not names:
        return _cut(rng, text)
    name = rng.choice(names)
    lines[i] = left + "=" + re.sub(re.escape(name) + r"(?![\w.$-])", "%never_defined_anywhere", right, count=1)
    return Case("".join(lines), f"line {i + 1}: {name} became undefined", must_refuse=True)


def _wrong_return_type(rng: random.Random, text: str) -> Case:
    """func.return of a value whose type the function does not declare: invalid."""
    lines = _lines(text)
    returns = [i for i, line in enumerate(lines) if "func.return" in line and ":" in line]
    if not returns:
        return _cut(rng, text)
    i = rng.choice(returns)
    head, types = lines[i].rsplit(":", 1)
    first = types.split(",")[0].strip()
    other = "i1" if first != "i1" else "f64"
    lines[i] = head + ": " + types.replace(first, other, 1).lstrip()
    return Case("".join(lines), f"line {i + 1}: func.return's type {first} became {other}", must_refuse=True)


def _random_bytes(rng: random.Random, _text: str) -> Case:
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    return Case(data.decode("latin-1"), "random characters")


def _deep(rng: random.Random, _text: str) -> Case:
    depth = rng.choice([50, 200, 600, 2000])
    body = "%c = arith.constant true\n" + "scf.if %c {\n" * depth + "}\n" * depth
    return Case(f"func.func @main() {{\n{body}func.return\n}}\n", f"scf.if nested {depth} deep")


MUTATIONS: list[Callable[[random.Random, str], Case]] = [
    _drop_line,
    _double_line,
    _swap_lines,
    _cut,
    _change_token,
    _undefined_name,
    _wrong_return_type,
    _random_bytes,
    _deep,
]


def corpus() -> list[Case]:
    rng = random.Random(20261125)
    texts = [p.read_text() for p in EXAMPLES]
    cases = []
    for _ in range(CORPUS_SIZE):
        mutation = rng.choice(MUTATIONS)
        case = mutation(rng, rng.choice(texts))
        cases.append(Case(case.source, case.why, case.must_refuse, rng.choice(PIPELINES)))
    return cases


CASES = corpus()


@contextmanager
def time_limit(seconds: int):
    def expired(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _random_argument(rng: np.random.Generator, t):
    """A value that may or may not fit parameter type `t`: half of them of its dtype and
    rank with random sizes and values (so programs run, on odd sizes), half not."""
    if rng.integers(2):
        return _well_typed(rng, t)
    choice = rng.integers(7)
    if choice == 6:  # a count near the 64-bit limit: sizes past it are errors, not wrapped
        return int(rng.choice([2**62, 2**63 - 1, -(2**63), 2**61 + 1]))
    if choice == 0:
        return None
    if choice == 1:
        return "3"
    if choice == 2:
        return rng.integers(-5, 5, size=rng.integers(0, 4)).astype(rng.choice([np.int64, np.float32, np.int32]))
    if choice == 3:
        return int(rng.integers(-5, 10**6))
    if choice == 4:
        return float(rng.normal())
    return np.zeros((2, 2), np.float32)


def _well_typed(rng: np.random.Generator, t):
    from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType

    from soacc.dialects.shared.dtypes import numpy_dtype

    try:
        dtype = numpy_dtype(t)
    except TypeError:
        return None
    if isinstance(t, TensorType):
        shape = [int(rng.integers(0, 5)) if d == DYNAMIC_INDEX else d for d in t.get_shape()]
        return (rng.integers(-3, 8, size=shape) if dtype.kind in "iub" else rng.normal(size=shape)).astype(dtype)
    if dtype.kind == "b":
        return bool(rng.integers(2))
    if dtype.kind in "iu":
        return int(rng.integers(-3, 50))
    return float(rng.normal())


PYTHON_TERMS = re.compile(
    r"IndexError|ValueError|KeyError|TypeError|AttributeError|InterpretationError|AssertionError|OverflowError"
    r"|ZeroDivisionError|RuntimeError|MemoryError|Exception|Traceback|numpy|internal error"
)
"""What a diagnostic in soacc's terms never says: Python's exception classes, NumPy's
own wording, a traceback (the op and the values say what went wrong)."""


def _in_soaccs_terms(error: soacc.SoaccError) -> None:
    found = PYTHON_TERMS.search(str(error))
    assert found is None, f"the message says {found.group(0)!r}: {error}"


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(CASES)), ids=lambda n: f"case-{n}")
def test_bad_input_ends_in_a_diagnostic(number):
    case = CASES[number]
    with time_limit(TIME_LIMIT_S):
        try:
            program = soacc.compile(case.source, backend="numpy", pipeline=case.pipeline)
        except soacc.SoaccError as error:
            _in_soaccs_terms(error)
            return
        assert not case.must_refuse, f"accepted an invalid program ({case.why})"
        rng = np.random.default_rng(number)
        for entry in program.entry_points.values():
            args = [_random_argument(rng, t) for t in entry.param_types]
            try:
                entry(*args)
            except soacc.SoaccError as error:
                _in_soaccs_terms(error)


def test_the_corpus_is_large_and_varied():
    assert len(CASES) >= 500
    kinds = {c.why.split(" ")[0] for c in CASES}
    assert len(kinds) >= 8
    assert sum(c.must_refuse for c in CASES) >= 50
