"""Imports point one way: tools -> api (soacc itself: the compile driver) -> runtime and
lowering -> passes -> passes/analysis -> dialects. The runtime and the lowerings do not
import each other, a pass does not import another pass (passes/utils/ holds what passes
share), and nothing imports through the bare folder names. Reads every module's import
statements, lazy ones inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"api": "soacc", "dialects": "soacc.dialects", "passes": "soacc.passes", "lowering": "soacc.lowering", "runtime": "soacc.runtime", "tools": "soacc.tools"}
RANK = {"dialects": 0, "analysis": 1, "utils": 2, "passes": 3, "lowering": 4, "runtime": 4, "api": 5, "tools": 6}


def layer(module: str) -> str:
    """The layer of a module named in the soacc namespace."""
    parts = module.split(".")
    if parts[0] != "soacc" or len(parts) == 1:
        return "api"
    if parts[1] == "passes" and len(parts) > 2 and parts[2] in ("analysis", "utils"):
        return parts[2]
    return parts[1] if parts[1] in RANK else "api"


def modules():
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT / folder).with_suffix("")
            name = ".".join([package, *relative.parts]).removesuffix(".__init__")
            yield name, path


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def violation(importer: str, imported: str) -> str | None:
    """Why importing `imported` from `importer` points the wrong way, or None."""
    if imported.split(".")[0] in FOLDERS and imported.split(".")[0] != "soacc":
        return "imports through a bare folder name"
    if not imported.startswith("soacc"):
        return None
    a, b = layer(importer), layer(imported)
    if RANK[b] > RANK[a]:
        return f"{a} imports {b}, a layer above it"
    if {a, b} == {"runtime", "lowering"}:
        return "the runtime and the lowerings do not import each other"
    if a == b == "passes" and imported != importer and imported != "soacc.passes":
        return "a pass imports another pass"
    return None


def all_violations() -> list[str]:
    found = []
    for name, path in modules():
        for line, imported in imports(path):
            why = violation(name, imported)
            if why:
                found.append(f"{path.relative_to(ROOT)}:{line}: {name} -> {imported}: {why}")
    return found


def test_imports_point_down():
    assert all_violations() == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("soacc.dialects.mem", "soacc.passes.analysis.symbolic"),
        ("soacc.passes.fuse_iota", "soacc.passes.hoist_allocations"),
        ("soacc.runtime.reference", "soacc.lowering.emit_cuda"),
        ("soacc.lowering.emit_host", "soacc.runtime.host_scalars"),
        ("soacc.runtime.program", "soacc.program"),
        ("soacc.passes.analysis.liveness", "soacc.passes.utils.memory_motion"),
    ],
)
def test_an_import_that_points_up_is_caught(importer, imported):
    assert violation(importer, imported) is not None


def test_allowed_imports_pass():
    assert violation("soacc.passes.memory_reuse", "soacc.passes.utils.memory_motion") is None
    assert violation("soacc.lowering.convert_soac_to_mem", "soacc.passes.analysis.symbolic") is None
    assert violation("soacc.program", "soacc.runtime.reference") is None
    assert violation("soacc.tools.soacc_opt", "soacc.program") is None
