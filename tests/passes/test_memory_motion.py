"""passes/utils/memory_motion: the Materialiser, which short-circuit and memory-reuse use to
make a destination's sizes and views available earlier, by cloning the pure ops that compute
them."""

from __future__ import annotations

from xdsl.dialects import arith, func

from soacc.passes.utils.memory_motion import Materialiser
from soacc.program import parse_program


def doubling_chain(depth: int) -> str:
    """A size doubled `depth` times after the point: each op uses the one before twice,
    so the values form a DAG with 2^depth paths from the last to the argument."""
    lines = ["func.func @main(%s0: index) -> index {", "  %point = arith.constant 0 : index"]
    lines += [f"  %s{i + 1} = arith.addi %s{i}, %s{i} : index" for i in range(depth)]
    lines += [f"  func.return %s{depth} : index", "}"]
    return "\n".join(lines)


def test_a_size_built_from_shared_operands_is_cloned_once_per_op():
    depth = 16
    module = parse_program(doubling_chain(depth))
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    point = main.body.block.first_op
    last = main.body.block.last_op.operands[0]
    materialiser = Materialiser(point)
    assert materialiser.possible(last)
    made = materialiser.value(last)
    before = []
    op = main.body.block.first_op
    while op is not point:
        before.append(op)
        op = op.next_op
    assert len(before) == depth  # one clone per addi (it made 2^depth - 1 before)
    assert all(isinstance(op, arith.AddiOp) for op in before) and made.op is before[-1]


def test_a_deep_doubling_chain_is_decided_at_once():
    """At depth 60 a walk of every path never ends."""
    module = parse_program(doubling_chain(60))
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    point = main.body.block.first_op
    assert Materialiser(point).possible(main.body.block.last_op.operands[0])
