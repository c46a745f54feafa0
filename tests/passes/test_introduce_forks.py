"""introduce-forks as a pass (passes/introduce_forks.py): where it applies. Its rules
are tests/passes/test_introduce_forks_rules.py, its cases
tests/filecheck/passes/introduce-forks.mlir, its programs' runs
tests/runtime/test_fork_interleavings.py."""

from __future__ import annotations

from pathlib import Path

from soacc.program import apply_pipeline, parse_program

ROOT = Path(__file__).resolve().parents[2]


def test_the_pass_leaves_level_1_and_forked_functions_alone():
    source = (ROOT / "examples" / "dot_product.mlir").read_text()
    module = parse_program(source)
    apply_pipeline(module, "introduce-forks")
    assert not any(op.dialect_name() == "fork" for op in module.walk())
    apply_pipeline(module, "convert-soac-to-mem,introduce-forks")
    once = str(module)
    assert "fork.fork" in once
    apply_pipeline(module, "introduce-forks")
    assert str(module) == once
