"""The usage analysis (passes/analysis/usage.py): the study's rules of §4.10 (digest
004, case B12) at level 2, variables and memory contents through views and aliases."""

from __future__ import annotations

from soacc.passes.analysis.usage import Content, Mode, UsageAnalysis, Variable
from soacc.program import parse_program

from tests.support.memory_util import op_named, value

V = "memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>"

EXAMPLE_4_13_1 = f"""
func.func @main(%e0: index, %bytes: index, %zero: index, %b0_mem: !mem.block<device>, %b0: {V}) -> (index, {V}) {{
  %b1_mem = mem.alloc %bytes : !mem.block<device>
  %b1 = mem.view %b1_mem[%zero] sizes(%e0) : !mem.block<device> -> {V}
  mem.map ins(%b0 : {V}) outs(%b1 : {V}) {{
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %y = arith.addf %one, %x : f32
    mem.yield %y : f32
  }}
  func.return %e0, %b1 : index, {V}
}}
"""

IF_AND_ALIASES = f"""
func.func @main(%c: i1, %n: index, %bytes: index, %zero: index, %x_mem: !mem.block<device>, %x: {V}, %y_mem: !mem.block<device>, %y: {V}) -> {V} {{
  %r_mem, %r = scf.if %c -> (!mem.block<device>, {V}) {{
    %t_mem = mem.alloc %bytes : !mem.block<device>
    %t = mem.view %t_mem[%zero] sizes(%n) : !mem.block<device> -> {V}
    mem.copy %x, %t : {V}, {V}
    scf.yield %t_mem, %t : !mem.block<device>, {V}
  }} else {{
    scf.yield %y_mem, %y : !mem.block<device>, {V}
  }}
  %s = mem.slice %r[%zero:%n] : {V} -> {V}
  mem.copy %x, %s : {V}, {V}
  func.return %r : {V}
}}
"""


def _main(source: str):
    module = parse_program(source)
    return next(iter(module.ops))


def test_op_usage_reads_operands_and_writes_contents_through_views():
    f = _main(EXAMPLE_4_13_1)
    usage = UsageAnalysis(f)
    b0_mem, b1_mem = value(f, "b0_mem"), value(f, "b1_mem")
    # the map reads its views and writes the content of the block its output is in;
    # its lambda's own values are not used from outside
    assert usage.of(op_named(f, "mem.map")) == {
        Variable(value(f, "b0")): Mode.R,
        Variable(value(f, "b1")): Mode.R,
        Content(b0_mem): Mode.R,
        Content(b1_mem): Mode.W,
    }
    # a view reads its block's handle and sizes, not the content
    assert usage.of(op_named(f, "mem.view")) == {
        Variable(b1_mem): Mode.R,
        Variable(value(f, "zero")): Mode.R,
        Variable(value(f, "e0")): Mode.R,
    }


def test_block_usage_removes_what_it_binds():
    # B12: the usage of `let b1 = alloc e0 in map(...); return (e0, b1)` does not
    # mention b1 or its content
    f = _main(EXAMPLE_4_13_1)
    usage = UsageAnalysis(f)
    body = list(f.body.block.ops)
    assert usage.of_ops(body) == {
        Variable(value(f, "bytes")): Mode.R,
        Variable(value(f, "zero")): Mode.R,
        Variable(value(f, "e0")): Mode.R,
        Variable(value(f, "b0")): Mode.R,
        Content(value(f, "b0_mem")): Mode.R,
    }
    # the tail after the alloc: b1's content written by the map
    tail = usage.of_ops(body[2:])
    assert tail[Content(value(f, "b1_mem"))] == Mode.W
    assert usage.binds(body[0]) == (Variable(value(f, "b1_mem")), Content(value(f, "b1_mem")))


def test_if_usage_joins_branches_and_binds_memories_made_inside():
    f = _main(IF_AND_ALIASES)
    usage = UsageAnalysis(f)
    if_op = op_named(f, "scf.if")
    t_mem = value(f, "t_mem")
    got = usage.of(if_op)
    assert got[Variable(value(f, "c"))] == Mode.R  # rule (e): the condition
    assert got[Content(value(f, "x_mem"))] == Mode.R
    # the else branch yields y: its content is handed over to the code after the if
    assert got[Content(value(f, "y_mem"))] == Mode.W
    assert Content(t_mem) not in got  # made inside: the if's own
    assert Content(t_mem) in usage.binds(if_op)
    # the copy into a slice of the if's result writes every memory it may be in
    copy = op_named(f, "mem.copy", 1)
    assert {t for t, m in usage.of(copy).items() if m == Mode.W} == {Content(t_mem), Content(value(f, "y_mem"))}
