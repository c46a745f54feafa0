"""dialects/shared/structural_checks.py: the rules xDSL 0.74's verifiers miss are located
ProgramErrors in soacc.compile (and soacc-run), as in soacc-opt (the lit file
tests/filecheck/dialects/scf/invalid.mlir)."""

from __future__ import annotations

import pytest

import soacc

CASES = {
    "if without else": (
        "func.func @main(%c: i1) -> f32 {\n  %r = scf.if %c -> (f32) {\n    %z = arith.constant 0.0 : f32\n    scf.yield %z : f32\n  }\n  func.return %r : f32\n}\n",
        "<input>:2:3: error: scf.if has results (f32) but no `else` branch",
    ),
    "while whose before block disagrees": (
        'func.func @main(%n: index) -> index {\n  %r = "scf.while"(%n) ({\n  ^bb0(%x: f32):\n    %c = arith.constant true\n'
        '    "scf.condition"(%c, %n) : (i1, index) -> ()\n  }, {\n  ^bb0(%y: index):\n    "scf.yield"(%y) : (index) -> ()\n'
        "  }) : (index) -> index\n  func.return %r : index\n}\n",
        "<input>:2:3: error: scf.while: the `before` block's parameters are of types (f32)",
    ),
    "for with a zero step": (
        "func.func @main(%n: index) {\n  %z = arith.constant 0 : index\n  scf.for %i = %z to %n step %z {\n    scf.yield\n  }\n  func.return\n}\n",
        "<input>:3:3: error: scf.for has step 0",
    ),
    "use before definition": (
        "func.func @main(%n: index) -> index {\n  %r = arith.addi %q, %n : index\n  %q = arith.constant 1 : index\n  func.return %r : index\n}\n",
        "<input>:2:3: error: arith.addi uses %q before it is defined",
    ),
    "an entry signature of the wrong kind": (
        "func.func @main(%a: index) -> index attributes {soacc.entry_signature = 3 : i32} {\n  func.return %a : index\n}\n",
        "<input>:1:1: error: func.func: soacc.entry_signature must be a function type on a func.func, not 3 : i32",
    ),
    "dimension beyond 64 bits": (
        "func.func @main(%a: tensor<99999999999999999999xf32>) {\n  func.return\n}\n",
        "dimension beyond 64 bits",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_rule_xdsl_misses_is_a_located_error(name):
    source, message = CASES[name]
    with pytest.raises(soacc.ProgramError) as caught:
        soacc.compile(source, backend="numpy")
    assert message in str(caught.value)


def test_valid_structured_control_flow_still_verifies():
    source = """func.func @main(%n: index) -> index {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  %r = scf.for %i = %z to %n step %one iter_args(%a = %z) -> (index) {
    %b = arith.addi %a, %i : index
    scf.yield %b : index
  }
  %w = scf.while (%x = %r) : (index) -> index {
    %c = arith.cmpi sgt, %x, %n : index
    scf.condition(%c) %x : index
  } do {
  ^bb0(%y: index):
    %d = arith.subi %y, %one : index
    scf.yield %d : index
  }
  func.return %w : index
}
"""
    assert soacc.compile(source, backend="numpy").main(5) == 5
