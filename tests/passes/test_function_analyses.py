"""The analyses memory passes keep per function (passes/utils/function_analyses.py):
built once, dropped only as far as a change requires."""

from __future__ import annotations

from tests.support.memory_util import level2

from soacc.passes.utils.function_analyses import FunctionAnalyses

SOURCE = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %one : f32
    soac.yield %y : f32
  }
  func.return %b : tensor<?xf32>
}
"""


def test_kept_until_the_ir_changes():
    f = level2(SOURCE)
    analyses = FunctionAnalyses(f)
    block = f.body.block
    aliases, symbolic, live = analyses.aliases, analyses.symbolic(block), analyses.liveness(block)
    assert analyses.aliases is aliases and analyses.symbolic(block) is symbolic and analyses.liveness(block) is live
    assert analyses.symbolic() is not symbolic  # each body has its own facts
    analyses.moved()  # statement order changed: liveness goes, aliases and sizes stay
    assert analyses.aliases is aliases and analyses.symbolic(block) is symbolic
    assert analyses.liveness(block) is not live
    kept = analyses.kept()
    analyses.changed()
    assert analyses.aliases is not aliases and analyses.symbolic(block) is not symbolic
    analyses.restore(kept)  # the IR is back as it was
    assert analyses.aliases is aliases and analyses.symbolic(block) is symbolic
