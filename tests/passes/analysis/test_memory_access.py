"""What ops do to memory (passes/analysis/memory_access.py): read, written, created
views from the memory-effect interface and the operand groups."""

from __future__ import annotations

from soacc.passes.analysis.memory_access import NO_ACCESS, access_of, is_kernel, is_loop

from tests.support.memory_util import level2, op_named, value

PROGRAM = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %i: index) -> (tensor<?xf32>, f32) {
  %one = arith.constant 1.0 : f32
  %m = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    soac.yield %s : f32
  }
  %u = soac.update %m[%i] = %one : tensor<?xf32>, f32
  %e = soac.index %u[%i] : tensor<?xf32>
  %c = soac.copy %u : tensor<?xf32>
  func.return %c, %e : tensor<?xf32>, f32
}
"""


def test_a_map_reads_its_inputs_and_creates_its_outputs():
    f = level2(PROGRAM)
    access = access_of(op_named(f, "mem.map"))
    assert access.reads == (value(f, "a"), value(f, "b"))
    assert access.writes == access.creates == (value(f, "m"),)
    assert is_kernel(op_named(f, "mem.map")) and not is_loop(op_named(f, "mem.map"))


def test_copies_loads_and_stores():
    f = level2(PROGRAM)
    copy = op_named(f, "mem.copy", 2)  # after the two arguments' copies to the device
    assert access_of(copy).reads == (copy.source,) and access_of(copy).creates == (copy.dest,)
    assert access_of(op_named(f, "mem.store")).writes == (value(f, "m"),)
    assert access_of(op_named(f, "mem.store")).creates == ()
    assert access_of(op_named(f, "mem.load")).reads == (value(f, "m"),)


def test_views_sizes_and_allocations_touch_no_content():
    f = level2(PROGRAM)
    for name in ("mem.view", "mem.size", "mem.alloc"):
        assert access_of(op_named(f, name)) is NO_ACCESS


def test_a_call_is_opaque():
    source = """
func.func private @g(%x: tensor<?xf32>) -> tensor<?xf32> {
  func.return %x : tensor<?xf32>
}
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @g(%a) : (tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
"""
    f = level2(source)
    access = access_of(op_named(f, "func.call"))
    assert value(f, "a") in access.opaque and not access.reads
