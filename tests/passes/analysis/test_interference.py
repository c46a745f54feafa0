"""Interference (passes/analysis/interference.py) and its index-access exceptions."""

from __future__ import annotations

import pytest

from soacc.passes.analysis.interference import Interference, map_exception
from soacc.passes.analysis.memory_aliases import MemoryAliases
from soacc.passes.analysis.memory_liveness import block_liveness
from soacc.passes.analysis.symbolic import Symbolic

from tests.support.memory_util import level2, op_named, value


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


def test_no_exception_when_a_lane_passes_its_input_on_to_another_output():
    """The second output is written from the element when the lane ends, after the
    first output was written in the element's place."""
    passing = """
func.func @main(%xs: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %one = arith.constant 1 : i32
  %ps, %vs = soac.map(%xs) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%x: i32):
    %p = arith.addi %x, %one : i32
    soac.yield %p, %x : i32, i32
  }
  func.return %ps, %vs : tensor<?xi32>, tensor<?xi32>
}
"""
    f = level2(passing)
    aliases, symbolic = MemoryAliases(f), Symbolic(f)
    kernel = op_named(f, "mem.map")
    xs = value(f, "xs_mem")
    assert not map_exception(kernel, xs, value(f, "ps_mem"), aliases, symbolic)
    assert map_exception(kernel, xs, value(f, "vs_mem"), aliases, symbolic)


@pytest.mark.parametrize("pivot, apart", [("%k", True), ("%k1", False)])
def test_the_exception_allows_reads_of_bytes_no_lane_writes(pivot, apart):
    """LUD's step: the rows below row k are replaced by a map that reads row k too,
    which no lane writes; reading row k+1, which a lane writes, is a race."""
    step = """
func.func @main(%m: tensor<?x?xf32>, %k: index) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %n = soac.size %m[0] : tensor<?x?xf32>
  %k1 = arith.addi %k, %c1 : index
  %prow = soac.index %m[PIVOT] : tensor<?x?xf32>
  %cnt = arith.subi %n, %k1 : index
  %below = soac.slice %m[%k1:%cnt] : tensor<?x?xf32> -> tensor<?x?xf32>
  %upd = soac.map(%below) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %new = soac.map(%row, %prow) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%e: f32, %p: f32):
      %v = arith.subf %e, %p : f32
      soac.yield %v : f32
    }
    soac.yield %new : tensor<?xf32>
  }
  %m2 = soac.update %m[%k1:%cnt] = %upd : tensor<?x?xf32>, tensor<?x?xf32>
  func.return %m2 : tensor<?x?xf32>
}
""".replace("PIVOT", pivot)
    f = level2(step, "convert-soac-to-mem,hoist-allocations")
    aliases, symbolic = MemoryAliases(f), Symbolic(f)
    kernel = op_named(f, "mem.map")
    # the map's output placed in m at the rows it reads
    placed = map_exception(kernel, value(f, "m_mem"), value(f, "upd_mem"), aliases, symbolic, new_view=value(f, "below"))
    assert placed is apart
