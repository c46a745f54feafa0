"""Packaging guards: every package folder is listed in pyproject.toml (STYLE.md §11), and
the `xdsl.universe` entry point makes the soac dialect visible to xdsl-opt."""

import tomllib
from pathlib import Path

from xdsl.universe import Universe

ROOT = Path(__file__).resolve().parents[1]
PKG = "soacc"
FOLDERS = ("dialects", "passes", "lowering", "runtime", "tools")


def package_of(folder: Path) -> str:
    """The import name of a package folder: api/ is `soacc` itself, every other folder
    `soacc.<path>`."""
    parts = folder.relative_to(ROOT).parts
    if parts[0] == "api":
        parts = parts[1:]
    return ".".join((PKG, *parts))


def listed_packages() -> set[str]:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(cfg["packages"])


def test_package_of_maps_api_to_soacc():
    assert package_of(ROOT / "api") == "soacc"
    assert package_of(ROOT / "passes" / "analysis") == "soacc.passes.analysis"


def test_all_subpackages_listed():
    on_disk = {
        package_of(init.parent)
        for folder in (*FOLDERS, "api")
        for init in (ROOT / folder).rglob("__init__.py")
    }
    missing = on_disk - listed_packages()
    assert not missing, f"add to [tool.setuptools].packages: {sorted(missing)}"


def test_multiverse_has_the_soac_dialect():
    dialects = Universe.get_multiverse().all_dialects
    assert "soac" in dialects
    assert dialects["soac"]().name == "soac"
