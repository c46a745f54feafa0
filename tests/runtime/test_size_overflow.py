"""Sizes that do not fit 64 bits are errors at every level, never wrapped numbers: an
array's bytes (its dimensions times its element size) past 2^63 - 1 is an
ExecutionError naming the op and the values, at level 1 (the executor's own
arithmetic) as at level 2 (the size arithmetic convert-soac-to-mem emits, marked
`overflow<nsw>`, and the views the executor makes). A user's own `arith` arithmetic
keeps wrapping, as MLIR defines it."""

from __future__ import annotations

import numpy as np
import pytest

import soacc

REPLICATE = """func.func @main(%n: index) -> tensor<?xf64> {
  %v = arith.constant 1.0 : f64
  %r = soac.replicate %n, %v : f64 -> tensor<?xf64>
  func.return %r : tensor<?xf64>
}
"""
IOTA = """func.func @main(%n: index) -> tensor<?xindex> {
  %r = soac.iota %n : tensor<?xindex>
  func.return %r : tensor<?xindex>
}
"""
SQUARE = """func.func @main(%n: index, %m: index) -> tensor<?x?xf32> {
  %v = arith.constant 1.0 : f32
  %row = soac.replicate %m, %v : f32 -> tensor<?xf32>
  %r = soac.replicate %n, %row : tensor<?xf32> -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
"""
CONCAT = """func.func @main(%n: index) -> tensor<?xi32> {
  %v = arith.constant 1 : i32
  %a = soac.replicate %n, %v : i32 -> tensor<?xi32>
  %r = soac.concat %a, %a : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}
"""
WRAPS = """func.func @main(%a: index, %b: index) -> index {
  %r = arith.muli %a, %b : index
  func.return %r : index
}
"""

PIPELINES = ["", "convert-soac-to-mem", None]


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["level 1", "level 2", "default"])
@pytest.mark.parametrize(
    ("source", "args", "op"),
    [
        (REPLICATE, (2**61,), "replicate"),  # 2^61 f64: 2^64 bytes, 0 once wrapped
        (REPLICATE, (2**61 + 2**59,), "replicate"),  # wraps to 2^62 bytes: no memory for it
        (IOTA, (2**61,), "iota"),
        (SQUARE, (2**62, 4), "replicate"),  # 2^66 bytes
    ],
    ids=["replicate", "replicate wrapping to a huge size", "iota", "2-D"],
)
def test_a_size_past_64_bits_is_an_error(source, args, op, pipeline):
    program = soacc.compile(source, backend="numpy", pipeline=pipeline)
    with pytest.raises(soacc.ExecutionError, match="past 64 bits") as error:
        program.main(*args)
    message = str(error.value)
    assert op in message, message  # the op whose size it is, itself or as what the arithmetic is of
    assert "out of memory" not in message and "negative" not in message and "Error" not in message, message


def test_a_concat_past_64_bits_is_an_error():
    # (level 1 only: at level 2 each half, 2^62 bytes, is allocated first, which no
    # machine has memory for)
    program = soacc.compile(CONCAT, backend="numpy", pipeline="")
    with pytest.raises(soacc.ExecutionError, match=r"soac.concat .*2305843009213693952 elements of 4 bytes .*past 64 bits"):
        program.main(2**60)


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["level 1", "level 2", "default"])
def test_sizes_that_fit_still_run(pipeline):
    program = soacc.compile(SQUARE, backend="numpy", pipeline=pipeline)
    assert program.main(3, 2).shape == (3, 2)


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["level 1", "level 2", "default"])
def test_a_users_arithmetic_still_wraps(pipeline):
    program = soacc.compile(WRAPS, backend="numpy", pipeline=pipeline)
    assert program.main(2**62, 4) == 0
    assert program.main(2**62, 3) == np.int64(2**62 * 3 - 2**64)


@pytest.mark.parametrize(("source", "args"), [(REPLICATE, (2**61,)), (SQUARE, (2**62, 4))], ids=["replicate", "2-D"])
def test_the_gpus_host_code_checks_sizes_as_the_executor_does(source, args):
    # the cuda backend's host code on a simulated device: the same error, before any
    # allocation of a wrapped size
    from soacc.backends import host_code_executor
    from soacc.program import apply_pipeline, parse_program
    from soacc.runtime.reference import ReferenceExecutor
    from tests.support.simulated_device import SimulatedDevice

    module = parse_program(source)
    apply_pipeline(module, "soacc-pipeline{syncs=false}")
    arguments = [np.int64(a) for a in args]
    with pytest.raises(soacc.ExecutionError, match="past 64 bits") as expected:
        ReferenceExecutor(module).call("main", arguments)
    with pytest.raises(soacc.ExecutionError, match="past 64 bits") as got:
        host_code_executor(module, SimulatedDevice(), {}).call("main", arguments)
    assert str(got.value) == str(expected.value)


def test_a_result_too_large_for_memory_is_an_execution_error():
    # level 1 keeps a replicate as a broadcast view; the caller gets its own copy of
    # 2^57 f64 (2^60 bytes, within 64 bits), which no machine has memory for
    program = soacc.compile(REPLICATE, backend="numpy", pipeline="")
    with pytest.raises(soacc.ExecutionError, match="@main: out of memory"):
        program.main(2**57)



UNFLAGGED = """func.func @main(%n: index) {
  %c8 = arith.constant 8 : index
  %bytes = arith.muli %n, %c8 : index
  %b = mem.alloc %bytes : !mem.block<host>
  %c0 = arith.constant 0 : index
  %v = mem.view %b[%c0] sizes(%n) : !mem.block<host> -> memref<?xf64, strided<[?], offset: ?>, #mem.space<host>>
  func.return
}
"""


def test_a_view_past_64_bits_says_so_when_its_blocks_size_wrapped():
    # arithmetic without flags wraps (2^61 × 8 is 0), and the view, whose extent the
    # executors compute exactly, names the cause rather than "a block of 0 bytes"
    from soacc.backends import host_code_executor
    from soacc.program import parse_program
    from tests.support.simulated_device import SimulatedDevice

    program = soacc.compile(UNFLAGGED, backend="numpy", pipeline="")
    with pytest.raises(soacc.ExecutionError, match=r"mem.view %v in @main: its shape \[2305843009213693952\] reaches byte 18446744073709551616, past 64 bits"):
        program.main(2**61)
    host = host_code_executor(parse_program(UNFLAGGED), SimulatedDevice(), {})
    with pytest.raises(soacc.ExecutionError, match=r"mem.view %v in @main: .*reaches byte 18446744073709551616, past 64 bits"):
        host.call("main", [np.int64(2**61)])
