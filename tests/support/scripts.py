"""Loading the scripts of benchmarks/ and examples/, which are files rather than modules
of a package: the one place the tests load code by path (importlib) and the one place
they touch sys.path (a benchmark program's definition may import a sibling helper
module, as crypt.py imports keys.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from soacc.tools.examples import Example, load_examples

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
EXAMPLES = ROOT / "examples"


def load_script(path: Path, name: str) -> ModuleType:
    """Executes the Python file at `path` as a new module called `name` (registered in
    sys.modules while it runs and after: dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_benchmark(script: str) -> ModuleType:
    """benchmarks/<script> (e.g. "memory.py") as a fresh module."""
    return load_script(BENCHMARKS / script, f"soacc_test_benchmark_{Path(script).stem}")


def load_example_definition(name: str) -> ModuleType:
    """examples/<name>.py, the NumPy definition beside an example program."""
    return load_script(EXAMPLES / f"{name}.py", f"soacc_test_example_{name}")


def benchmark_programs(folder: str) -> list[Example]:
    """The programs of benchmarks/<folder> (tools.examples.load_examples), their folder on
    sys.path while their definitions load, for the helper modules beside them."""
    directory = str(BENCHMARKS / folder)
    sys.path.insert(0, directory)
    try:
        return load_examples(BENCHMARKS / folder)
    finally:
        sys.path.remove(directory)


def every_program(*folders: str) -> list[Example]:
    """The examples, then the programs of benchmarks/<folder> for each folder, each
    program file once (a benchmark may reuse another folder's program with the same
    inputs, as device_syncs/locvolcalib does memory/locvolcalib's: testing it twice
    proves nothing more)."""
    seen: set[Path] = set()
    unique: list[Example] = []
    for program in [*load_examples(EXAMPLES), *(p for folder in folders for p in benchmark_programs(folder))]:
        path = Path(program.program_path).resolve()
        if path not in seen:
            seen.add(path)
            unique.append(program)
    return unique

