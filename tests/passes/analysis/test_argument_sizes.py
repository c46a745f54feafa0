"""passes/analysis/argument_sizes.py: the size requirements an entry point's ops that
always run make of its arguments."""

from __future__ import annotations

from xdsl.dialects import func

from soacc.passes.analysis.argument_sizes import NotNegative, SameOuterSize, argument_requirements
from soacc.program import parse_program

PROGRAM = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %is: tensor<?xindex>, %n: index, %c: i1) -> tensor<?xf32> {
  %r = soac.map(%a, %b, %a) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32, %w: f32):
    soac.yield %x : f32
  }
  %s = soac.scatter %r[%is] = %b : tensor<?xf32>, tensor<?xindex>, tensor<?xf32>
  %i = soac.iota %n : tensor<?xindex>
  %t = scf.if %c -> (tensor<?xindex>) {
    %j = soac.iota %n : tensor<?xindex>
    scf.yield %j : tensor<?xindex>
  } else {
    scf.yield %i : tensor<?xindex>
  }
  func.return %s : tensor<?xf32>
}
"""


def test_requirements_of_the_ops_that_always_run():
    function = next(op for op in parse_program(PROGRAM).ops if isinstance(op, func.FuncOp))
    found = argument_requirements(function)
    assert [(type(r), getattr(r, "params", getattr(r, "param", None)), r.op.name) for r in found] == [
        (SameOuterSize, (0, 1), "soac.map"),  # %a twice counts once
        (SameOuterSize, (2, 1), "soac.scatter"),
        (NotNegative, 3, "soac.iota"),  # the one in the scf.if may not run: not required
    ]
