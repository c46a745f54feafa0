"""The lit tests' programs (tests/filecheck) as inputs of pytest tests: a lit file's
`// -----` cases, the case that defines a given function, and arguments for a
program's parameters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, TensorType

from soacc.dialects.shared.dtypes import numpy_dtype

ROOT = Path(__file__).resolve().parents[2]
FILECHECK = ROOT / "tests" / "filecheck"
PASSES = FILECHECK / "passes"
MEMORY_REUSE = (PASSES / "memory-reuse.mlir", PASSES / "memory-reuse")
"""memory-reuse's lit tests: the basics, named like the pass, and one file per further
topic in the folder beside it."""

SEPARATOR = "\n// -----\n"


def lit_files(*paths: Path) -> list[Path]:
    """The .mlir files named, folders replaced by the .mlir files under them (sorted)."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("*.mlir")) if path.is_dir() else [path]
    return files


def cases(path: Path) -> list[str]:
    """The `// -----` cases of a lit file, in order."""
    return path.read_text().split(SEPARATOR)


def case_defining(function: str, *paths: Path, as_main: bool = True) -> str:
    """The case of the lit files under `paths` that defines @function (exactly one does),
    with @function renamed @main unless as_main is false."""
    found = [c for path in lit_files(*paths) for c in cases(path) if f"func.func @{function}(" in c]
    assert len(found) == 1, f"{len(found)} lit cases define @{function}"
    return found[0].replace(f"func.func @{function}(", "func.func @main(") if as_main else found[0]


def argument(t, rng: np.random.Generator, n: int):
    """An argument for a parameter type: arrays n long in every dimension, small
    values; index values 1 (a valid row of any array), booleans true."""
    if isinstance(t, TensorType):
        shape = [n if d < 0 else d for d in t.get_shape()]
        dtype = numpy_dtype(t.element_type)
        if dtype.kind == "f":
            return rng.uniform(-2, 2, shape).astype(dtype)
        if dtype.kind == "b":
            return rng.integers(0, 2, shape).astype(dtype)
        return rng.integers(0, n, shape).astype(dtype)
    if isinstance(t, IndexType):
        return 1
    if isinstance(t, IntegerType) and t.width.data == 1:
        return True
    return numpy_dtype(t).type(rng.integers(0, 3))
