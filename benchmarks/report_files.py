"""Writing a harness's measurements as JSON (`--json FILE`), one way for every harness:
what a GPU run brings back (benchmarks/results/)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def write_report(path: Path, report: dict, harness: str) -> bool:
    """Writes `report` to `path` and says so; False, with a line on stderr, where it
    cannot (the harness then exits 2)."""
    try:
        path.write_text(json.dumps(report, indent=1) + "\n")
    except OSError as error:
        print(f"{harness}: error: cannot write {path}: {error.strerror}", file=sys.stderr)
        return False
    print(f"wrote {path}")
    return True
