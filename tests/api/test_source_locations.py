"""Where an op of a transformed program comes from in the text (api/source.py,
dialects/shared/provenance.py): the op itself, what a lowering recorded it was made
from, or, for an op a pass made without a record, the op of the text with its name."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IndexType
from xdsl.rewriter import InsertPoint, Rewriter

from soacc.dialects.shared.provenance import record_origin
from soacc.program import make_context
from soacc.source import LocatingParser

TEXT = """func.func @main(%n: index) -> index {
  %c = arith.constant 2 : index
  %twice = arith.muli %n, %c : index
  func.return %twice : index
}
"""


def _parsed():
    parser = LocatingParser(make_context(), TEXT, "p.mlir")
    module = parser.parse_module()
    twice = next(op for op in module.walk() if isinstance(op, arith.MuliOp))
    return parser, twice


def _new_op_before(op, name: str | None = None):
    new = arith.ConstantOp(IntegerAttr(7, IndexType()))
    if name:
        new.result.name_hint = name
    Rewriter.insert_op(new, InsertPoint.before(op))
    return new


def test_an_op_of_the_text_is_where_the_parser_read_it():
    parser, twice = _parsed()
    assert parser.location(twice) == "p.mlir:3:3"


def test_an_op_made_from_another_is_where_its_origin_was_read():
    parser, twice = _parsed()
    made = _new_op_before(twice)
    assert parser.location(made) is None
    record_origin(made, twice)
    assert parser.location(made) == "p.mlir:3:3"


def test_an_op_made_without_a_record_is_found_by_its_name_in_its_function():
    parser, twice = _parsed()
    assert parser.location(_new_op_before(twice, "twice")) == "p.mlir:3:3"
    assert parser.location(_new_op_before(twice, "other")) is None
