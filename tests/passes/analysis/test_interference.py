"""Interference (passes/analysis/interference.py) and its index-access exceptions."""

from __future__ import annotations

import pytest
from memory_util import level2, op_named, value

from soacc.passes.analysis.interference import Interference, map_exception
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.memory_liveness import block_liveness
from soacc.passes.analysis.symbolic import Symbolic


def analyse(source: str):
    f = level2(source)
    aliases, symbolic = MemoryAliases(f), Symbolic(f)
    live = block_liveness(f.body.block, aliases)
    return f, aliases, symbolic, Interference(live, aliases, symbolic)


def map_of(body: str, out: str = "i32", rank: int = 1) -> str:
    t = "tensor<" + "?x" * rank + "i32>"
    return f"""
func.func @main(%xs: {t}) -> {out} {{
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = {body}
  %e = soac.index %ys[{", ".join(["%c0"] * rank)}] : {t.replace("i32", out)}
  func.return %e : {out}
}}
"""


ELEMENTWISE = map_of("""soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }""")


def test_arrays_live_together_interfere():
    f, _, _, interference = analyse(ELEMENTWISE)
    assert interference.interferes(value(f, "xs_mem"), value(f, "ys_mem")) is False
    assert frozenset((value(f, "xs_mem"), value(f, "ys_mem"))) in interference.exceptions


def test_the_exception_needs_each_lane_to_read_only_its_own_row():
    reversed_ = map_of("""soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %n = soac.size %xs[0] : tensor<?xi32>
    %y = soac.index %xs[%c0] : tensor<?xi32>
    soac.yield %y : i32
  }""")
    f, _, _, interference = analyse(reversed_)
    assert interference.interferes(value(f, "xs_mem"), value(f, "ys_mem"))
    assert not interference.exceptions


def test_the_exception_needs_equal_element_sizes():
    widening = map_of("""soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi64> {
  ^bb0(%x: i32):
    %y = arith.extsi %x : i32 to i64
    soac.yield %y : i64
  }""", out="i64")
    f, _, _, interference = analyse(widening)
    assert interference.interferes(value(f, "xs_mem"), value(f, "ys_mem"))


@pytest.mark.parametrize("inner", ["%x", "%r"])
def test_rows_built_in_place_element_by_element(inner):
    # the lambda's nested map reads the input row and writes the output row, element by
    # element; reading the whole input row into another array first is fine too
    source = f"""
func.func @main(%xs: tensor<?x?xi32>) -> i32 {{
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = soac.map(%xs) : (tensor<?x?xi32>) -> tensor<?x?xi32> {{
  ^bb0(%x: tensor<?xi32>):
    %r = soac.map(%x) : (tensor<?xi32>) -> tensor<?xi32> {{
    ^bb1(%e: i32):
      %f = arith.addi %e, %one : i32
      soac.yield %f : i32
    }}
    %s = soac.map({inner}) : (tensor<?xi32>) -> tensor<?xi32> {{
    ^bb1(%e: i32):
      %f = arith.addi %e, %one : i32
      soac.yield %f : i32
    }}
    soac.yield %s : tensor<?xi32>
  }}
  %e = soac.index %ys[%c0, %c0] : tensor<?x?xi32>
  func.return %e : i32
}}
"""
    f, aliases, symbolic, interference = analyse(source)
    xs, ys = value(f, "xs_mem"), value(f, "ys_mem")
    assert not interference.interferes(xs, ys)
    assert map_exception(op_named(f, "mem.map"), xs, ys, aliases, symbolic)
