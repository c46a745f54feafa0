"""passes/analysis/block_dataflow.py: what an op reads and consumes, where a value is
used in a block, what depends on what, on small parsed programs."""

from __future__ import annotations

from soacc.passes.analysis.block_dataflow import (
    BlockOrder,
    captured_values,
    consumed_values,
    read_values,
)
from soacc.dialects.shared.traits import consumed_operand
from soacc.program import parse_program

PROGRAM = """func.func @main(%a: tensor<?xf32>, %d: tensor<?xf32>, %is: tensor<?xi64>, %i: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %two = arith.constant 2.0 : f32
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %two : f32
    soac.yield %y : f32
  }
  %e = soac.index %b[%i] : tensor<?xf32>
  %k = math.sqrt %e : f32
  %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.divf %x, %k : f32
    %z = soac.index %b[%i] : tensor<?xf32>
    %w = arith.addf %y, %z : f32
    soac.yield %w : f32
  }
  %r = soac.scatter %d[%is] = %c : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  %u = scf.if %true -> (tensor<?xf32>) {
    %v = soac.update %r[%i] = %k : tensor<?xf32>, f32
    scf.yield %v : tensor<?xf32>
  } else {
    scf.yield %r : tensor<?xf32>
  }
  func.return %u, %b : tensor<?xf32>, tensor<?xf32>
}"""


def ops_by_result():
    module = parse_program(PROGRAM.replace("%true", "%t").replace("%two = arith", "%t = arith.constant true\n  %two = arith"))
    func = next(iter(module.ops))
    block = func.body.block
    named = {op.results[0].name_hint: op for op in block.ops if op.results and op.results[0].name_hint}
    return block, named, func


def test_captured_values_are_what_the_regions_use_from_outside():
    _, op, func = ops_by_result()
    a, d, is_, i = func.body.block.args
    assert captured_values(op["b"]) == {op["two"].results[0]}
    assert captured_values(op["c"]) == {op["k"].results[0], op["b"].results[0], i}
    assert read_values(op["c"]) == {a, op["k"].results[0], op["b"].results[0], i}


def test_consumed_values_include_nested_updates():
    _, op, func = ops_by_result()
    d = func.body.block.args[1]
    assert consumed_operand(op["r"]) is d
    assert consumed_values(op["r"]) == {d}
    assert consumed_values(op["u"]) == {op["r"].results[0]}  # the update inside the if
    assert consumed_values(op["b"]) == set()


def test_users_are_top_level_ops_in_block_order():
    block, op, _ = ops_by_result()
    order = BlockOrder(block)
    b = op["b"].results[0]
    assert order.users(b) == [op["e"], op["c"], block.last_op]  # the use in %c's lambda counts as %c's
    assert order.between(op["b"], op["c"]) == [op["e"], op["k"]]


def test_dependence_names_the_first_op_on_the_way():
    _, op, _ = ops_by_result()
    order = BlockOrder(op["b"].parent_block())
    assert order.dependence(op["k"], op["b"]) is op["e"]  # %k is made from %e, made from %b
    assert order.dependence(op["c"], op["b"]) is op["c"]  # reads %b directly (and through %k)
    assert order.dependence(op["r"], op["b"]) is op["c"]  # reads %c, which reads %b
    assert order.dependence(op["k"], op["two"]) is op["b"]  # %b captures %two
    assert order.dependence(op["c"], op["t"]) is None  # %t is the if's condition only


def test_defined_before_and_consumed_between():
    block, op, func = ops_by_result()
    order = BlockOrder(block)
    assert order.defined_before(func.body.block.args[0], op["b"])
    assert order.defined_before(op["two"].results[0], op["b"])
    assert not order.defined_before(op["k"].results[0], op["b"])
    d = func.body.block.args[1]
    assert order.consumed_between(op["b"], op["u"], [d]) is d  # the scatter consumes %d
    assert order.consumed_between(op["b"], op["r"], [d]) is None
