"""soacc-examples: run every example program and check it against its NumPy definition.

Each example is a pair `examples/<name>.mlir` (the program, entry `@main`) and
`examples/<name>.py` (`make_inputs(rng, size)`, `reference(*args)`, `RTOL`, `ATOL`,
optionally `DEFAULT_SIZE`). The same loader serves the tests and the benchmarks.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from soacc.runtime.errors import ArgumentError, ProgramError, SoaccError
from soacc.program import BACKENDS, Program, compile
from soacc.tools.cli import run_tool


@dataclass(frozen=True)
class Example:
    name: str
    program_path: Path
    definition: ModuleType

    @property
    def make_inputs(self) -> Callable[[np.random.Generator, int], tuple]:
        return self.definition.make_inputs

    @property
    def reference(self) -> Callable:
        return self.definition.reference

    @property
    def rtol(self) -> float:
        return getattr(self.definition, "RTOL", 1e-6)

    @property
    def atol(self) -> float:
        return getattr(self.definition, "ATOL", 0.0)

    @property
    def default_size(self) -> int:
        return getattr(self.definition, "DEFAULT_SIZE", 1000)

    @property
    def summary(self) -> str:
        doc = (self.definition.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""

    def compile(self, backend: str = "auto") -> Program:
        return compile(self.program_path, backend=backend)


def load_examples(directory: Path) -> list[Example]:
    """Every example in `directory` (a .mlir with a .py beside it), by name. A .py with
    no .mlir beside it that sets `PROGRAM` (a path relative to it) runs that program
    with its own inputs: a benchmark of an example at another size, without a copy."""
    examples = []
    for definition_path in sorted(directory.glob("*.py")):
        program = definition_path.with_suffix(".mlir")
        if not program.exists() and not re.search(r"^PROGRAM = ", definition_path.read_text(), re.MULTILINE):
            continue  # a helper module
        spec = importlib.util.spec_from_file_location(f"soacc_example_{definition_path.stem}", definition_path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as error:  # the example's own code is broken, not soacc
            raise ProgramError(f"{definition_path}: the example's definition fails to load: {type(error).__name__}: {error}") from None
        if not program.exists():
            program = (definition_path.parent / module.PROGRAM).resolve()
        examples.append(Example(definition_path.stem, program, module))
    return examples


def as_tuple(results) -> tuple:
    return results if isinstance(results, tuple) else (results,)


def mismatch(got, expected, rtol: float, atol: float) -> str | None:
    """Why `got` differs from `expected` (result by result), or None when they agree."""
    got, expected = as_tuple(got), as_tuple(expected)
    if len(got) != len(expected):
        return f"{len(got)} results, expected {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        g, e = np.asarray(g), np.asarray(e)
        if g.shape != e.shape:
            return f"result {i} has shape {g.shape}, expected {e.shape}"
        if g.dtype != e.dtype:
            return f"result {i} has dtype {g.dtype}, expected {e.dtype}"
        if e.dtype.kind == "f":
            close = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
        else:
            close = g == e
        if not np.all(close):
            where = np.argwhere(~np.asarray(close))[0] if g.ndim else ()
            return (
                f"result {i} differs at {tuple(int(w) for w in where)}: "
                f"{g[tuple(where)]} vs expected {e[tuple(where)]}"
            )
    return None


def _positive(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seed(text: str) -> int:
    value = _integer(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be from 0 to 2**64 - 1, not {value}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="soacc-examples",
        description="Run every example program and check it against its NumPy definition.",
    )
    parser.add_argument("--dir", type=Path, default=Path("examples"), help="the examples folder")
    parser.add_argument("--size", type=_positive, help="problem size (default: each example's own)")
    parser.add_argument("--backend", default="auto", choices=["auto", *BACKENDS])
    parser.add_argument("--seed", type=_seed, default=0, help="the inputs' random seed (0 to 2**64 - 1)")
    parser.add_argument("names", nargs="*", help="only these examples")
    options = parser.parse_args(argv)

    def body() -> int:
        examples = load_examples(options.dir)
        if options.names:
            unknown = set(options.names) - {e.name for e in examples}
            if unknown:
                raise ArgumentError(f"no example named {', '.join(sorted(unknown))} in {options.dir}")
            examples = [e for e in examples if e.name in options.names]
        if not examples:
            raise ArgumentError(f"no examples (.mlir with a .py beside it) in {options.dir}")
        failures = 0
        backend_note = None
        print(f"{'example':20} {'size':>8} {'time':>9}  result")
        for example in examples:
            size = example.default_size if options.size is None else options.size
            try:
                args = example.make_inputs(np.random.default_rng(options.seed), size)
            except MemoryError:
                raise ArgumentError(f"--size {size}: {example.name}'s inputs do not fit in this machine's memory") from None
            try:
                program = example.compile(options.backend)
                backend_note = program.runs_on
                if "main" not in program.entry_points:
                    raise ProgramError(f"{example.program_path.name} has no public function @main")
                started = time.perf_counter()
                got = program.main(*args)
                elapsed = time.perf_counter() - started
            except ArgumentError:
                raise  # the command line is wrong (an unusable --backend): say so once
            except SoaccError as error:  # this example fails; the others still run
                failures += 1
                print(f"{example.name:20} {size:>8} {'':>9}  ERROR: {str(error).splitlines()[0]}")
                continue
            why = mismatch(got, example.reference(*args), example.rtol, example.atol)
            failures += why is not None
            print(f"{example.name:20} {size:>8} {elapsed * 1e3:>7.1f}ms  {'ok' if why is None else 'MISMATCH: ' + why}")
        where = f" (on {backend_note})" if backend_note else ""
        print(f"\n{len(examples) - failures} passed, {failures} failed{where}")
        return 1 if failures else 0

    return run_tool("soacc-examples", body)


if __name__ == "__main__":
    sys.exit(main())
