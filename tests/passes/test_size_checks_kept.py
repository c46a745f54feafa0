"""No pass loses a run-time size check (nor adds one): programs whose sizes disagree
on purpose (an update of a part with an array of another length, a concatenation into
a row, a map over arrays of different outer sizes feeding or fed by fusable
combinators) run through every prefix of the default level-2 pipeline on the
reference executor. Each prefix fails with a soacc error exactly when the program as
written does, and otherwise gives the same results to the bit. The checks the passes
leave fail alike in host code and stop a kernel on the GPU."""

from __future__ import annotations

import io

import numpy as np
import pytest

import soacc
from soacc.backends import host_code_executor
from soacc.lowering.emit_cuda import emit_cuda
from soacc.lowering.emit_host import emit_host
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import mismatch

from tests.support.checked_programs import ROW_IN_A_LAMBDA
from tests.support.simulated_device import SimulatedDevice

LEVEL2_PASSES = [p.name for p in SoaccPipelinePass().level2_passes()]
PREFIXES = [",".join(LEVEL2_PASSES[: k + 1]) for k in range(len(LEVEL2_PASSES))]


def i64s(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64)


def f32s(n: int) -> np.ndarray:
    return np.linspace(0.5, 2.0, n, dtype=np.float32)


PROGRAMS: dict[str, tuple[str, list[tuple]]] = {
    # short-circuit builds the value in the updated part: the copy's check must stay
    "update_with_iota": (
        """
func.func @main(%n: index, %m: index) -> tensor<?xi64> {
  %big = arith.addi %n, %n : index
  %c = soac.iota %big : tensor<?xi64>
  %v = soac.iota %m : tensor<?xi64>
  %o = arith.constant 0 : index
  %r = soac.update %c[%o : %n] = %v : tensor<?xi64>, tensor<?xi64>
  func.return %r : tensor<?xi64>
}""",
        [(2, 2), (2, 3), (3, 2), (0, 0), (0, 1)],
    ),
    "update_with_replicate": (
        """
func.func @main(%n: index, %m: index, %x: i64) -> tensor<?xi64> {
  %big = arith.addi %n, %n : index
  %c = soac.iota %big : tensor<?xi64>
  %v = soac.replicate %m, %x : i64 -> tensor<?xi64>
  %o = arith.constant 1 : index
  %r = soac.update %c[%o : %n] = %v : tensor<?xi64>, tensor<?xi64>
  func.return %r : tensor<?xi64>
}""",
        [(2, 2, 7), (2, 1, 7), (3, 4, 7)],
    ),
    "update_with_map": (
        """
func.func @main(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %big = arith.addi %n, %n : index
  %zero = arith.constant 0.0 : f32
  %c = soac.replicate %big, %zero : f32 -> tensor<?xf32>
  %v = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %o = arith.constant 0 : index
  %r = soac.update %c[%o : %n] = %v : tensor<?xf32>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}""",
        [(f32s(3), 3), (f32s(2), 3), (f32s(4), 3), (f32s(0), 0)],
    ),
    "update_with_concat": (
        """
func.func @main(%n: index, %m: index, %k: index) -> tensor<?xi64> {
  %big = arith.addi %n, %n : index
  %c = soac.iota %big : tensor<?xi64>
  %u = soac.iota %m : tensor<?xi64>
  %w = soac.iota %k : tensor<?xi64>
  %v = soac.concat %u, %w : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  %o = arith.constant 0 : index
  %r = soac.update %c[%o : %n] = %v : tensor<?xi64>, tensor<?xi64>
  func.return %r : tensor<?xi64>
}""",
        [(3, 1, 2), (3, 2, 2), (3, 0, 2), (2, 0, 2)],
    ),
    "concat_into_a_row": (
        """
func.func @main(%rows: index, %n: index, %a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?x?xi64> {
  %zero = arith.constant 0 : i64
  %row = soac.replicate %n, %zero : i64 -> tensor<?xi64>
  %m = soac.replicate %rows, %row : tensor<?xi64> -> tensor<?x?xi64>
  %cat = soac.concat %a, %b : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  %i = arith.constant 0 : index
  %r = soac.update %m[%i] = %cat : tensor<?x?xi64>, tensor<?xi64>
  func.return %r : tensor<?x?xi64>
}""",
        [(2, 5, i64s(2), i64s(3)), (2, 5, i64s(2), i64s(2)), (2, 4, i64s(2), i64s(3))],
    ),
    # soac-fusion: the consumer's lambda reads only one of its inputs' rows
    "map_of_a_map_and_an_unread_array": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> tensor<?xf32> {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %p = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%p, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %z: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %c : tensor<?xf32>
}""",
        [(f32s(3), f32s(3), 3), (f32s(3), f32s(4), 4), (f32s(2), f32s(0), 0)],
    ),
    "map_of_a_map_whose_rows_are_unread": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> tensor<?xf32> {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %p = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%p, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %z: f32):
    %y = arith.negf %z : f32
    soac.yield %y : f32
  }
  func.return %c : tensor<?xf32>
}""",
        [(f32s(3), f32s(3), 3), (f32s(3), f32s(4), 4), (f32s(0), f32s(2), 2)],
    ),
    "map_of_two_arrays_into_a_reduce": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> f32 {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %prod = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    soac.yield %p : f32
  }
  %zero = arith.constant 0.0 : f32
  %dot = soac.reduce(%prod) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %dot : f32
}""",
        [(f32s(4), f32s(4), 4), (f32s(4), f32s(3), 3)],
    ),
    "map_unread_into_a_reduce": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> f32 {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %m = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %x : f32
    soac.yield %p : f32
  }
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%m) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %sum : f32
}""",
        [(f32s(4), f32s(4), 4), (f32s(4), f32s(5), 5)],
    ),
    "map_unread_into_a_scan": (
        """
func.func @main(%a: tensor<?xi32>, %whole: tensor<?xi32>, %k: index) -> tensor<?xi32> {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xi32> -> tensor<?xi32>
  %m = soac.map(%a, %b) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %p = arith.muli %x, %x : i32
    soac.yield %p : i32
  }
  %zero = arith.constant 0 : i32
  %s = soac.scan(%m) neutral(%zero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  }
  func.return %s : tensor<?xi32>
}""",
        [(np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32), 4), (np.arange(4, dtype=np.int32), np.arange(2, dtype=np.int32), 2)],
    ),
    # horizontal fusion of a map and a reduce of %a; the map also takes %b
    "horizontal_with_an_unread_array": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> (tensor<?xf32>, f32) {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %m = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.negf %x : f32
    soac.yield %p : f32
  }
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %m, %sum : tensor<?xf32>, f32
}""",
        [(f32s(4), f32s(4), 4), (f32s(4), f32s(1), 1)],
    ),
    # two maps of arrays of different sizes: fusing them must not add a check
    "independent_maps_of_different_sizes": (
        """
func.func @main(%a: tensor<?xf32>, %whole: tensor<?xf32>, %k: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %start = arith.constant 0 : index
  %b = soac.slice %whole[%start:%k] : tensor<?xf32> -> tensor<?xf32>
  %x = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %p = arith.negf %e : f32
    soac.yield %p : f32
  }
  %y = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    soac.yield %p : f32
  }
  func.return %x, %y : tensor<?xf32>, tensor<?xf32>
}""",
        [(f32s(4), f32s(4), 4), (f32s(4), f32s(2), 2)],
    ),
    "replicate_of_another_size": (
        """
func.func @main(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %r = soac.replicate %n, %one : f32 -> tensor<?xf32>
  %m = soac.map(%a, %r) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.addf %x, %y : f32
    soac.yield %p : f32
  }
  func.return %m : tensor<?xf32>
}""",
        [(f32s(3), 3), (f32s(3), 2)],
    ),
}


FAIL_NOWHERE = {"independent_maps_of_different_sizes"}
"""Programs whose arrays need not have one size: no pass may add a check to them."""


def _outcome(program: soacc.Program, args: tuple):
    """The results, or the class of the soacc error it fails with."""
    copies = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
    try:
        return program.main(*copies)
    except soacc.SoaccError as error:
        return type(error)


def _failed(outcome) -> bool:
    return isinstance(outcome, type) and issubclass(outcome, soacc.SoaccError)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_prefix_fails_exactly_when_the_program_does(name):
    source, arguments = PROGRAMS[name]
    as_written = soacc.compile(source, backend="numpy", pipeline="")
    expected = [_outcome(as_written, args) for args in arguments]
    assert any(e is soacc.ExecutionError for e in expected) or name in FAIL_NOWHERE, "a case fails as written"
    assert not all(_failed(e) for e in expected), "and one runs"
    for prefix in PREFIXES:
        program = soacc.compile(source, backend="numpy", pipeline=prefix)
        for args, want in zip(arguments, expected):
            got = _outcome(program, args)
            shown = [a.shape if isinstance(a, np.ndarray) else a for a in args]
            if _failed(want) or _failed(got):
                assert got is want, f"after {prefix} on {shown}: {got!r}, as written {want!r}"
            else:
                assert mismatch(got, want, 0.0, 0.0) is None, f"after {prefix} on {shown}: {mismatch(got, want, 0.0, 0.0)}"


CONCAT_INTO_A_ROW = """
func.func @main(%y: tensor<?x?xi32>, %a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %z = soac.concat %a, %b : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %y2 = soac.update %y[%c0] = %z : tensor<?x?xi32>, tensor<?xi32>
  func.return %y2 : tensor<?x?xi32>
}
"""


def test_the_check_in_host_code_fails_as_the_reference_executor_does():
    """After the whole pipeline the parts of %z arrive in the row, with no kernel: the
    host code's check (rt.check) says what the reference executor says."""
    module = parse_program(CONCAT_INTO_A_ROW)
    apply_pipeline(module, "soacc-pipeline{syncs=false}")
    assert "rt.check(" in emit_host(module).source
    reference = ReferenceExecutor(module)
    host = host_code_executor(module, SimulatedDevice(), {})
    y = np.zeros((2, 5), np.int32)
    fits = [y, np.arange(2, dtype=np.int32), np.arange(3, dtype=np.int32)]
    assert np.array_equal(host.call("main", fits)[0], reference.call("main", fits)[0])
    too_short = [y, np.arange(2, dtype=np.int32), np.arange(2, dtype=np.int32)]
    with pytest.raises(soacc.ExecutionError) as expected:
        reference.call("main", too_short)
    with pytest.raises(soacc.ExecutionError) as got:
        host.call("main", too_short)
    assert str(got.value) == str(expected.value)
    assert str(got.value) == "cf.assert in @main: %z does not fit a part of %y, where it is written (their sizes differ in dimension 0)"




def test_a_check_in_a_lambda_runs_at_level_2_and_stops_the_kernel_on_the_gpu():
    """The lambda's rows are made in the output rows (short-circuit's lambda rule): the
    check stays inside the lambda, where the reference executor checks it per row, and
    the cuda target traps (a kernel cannot name the check that failed)."""

    program = soacc.compile(ROW_IN_A_LAMBDA, backend="numpy")
    m, p = np.zeros((2, 2), np.int64), np.full(2, 3, np.int64)
    assert np.array_equal(program.main(m, p, 0, 2), [[3, 3], [7, 7]])
    with pytest.raises(soacc.ExecutionError, match="cf.assert in @main: %red does not fit %r_row"):
        program.main(m, p, 0, 3)
    module = parse_program(ROW_IN_A_LAMBDA)
    apply_pipeline(module, "soacc-pipeline")
    cuda = io.StringIO()
    emit_cuda(module, cuda)
    assert "__trap();" in cuda.getvalue()


WRITTEN_CHECK = """
func.func @main(%n: index, %m: index) -> tensor<?xi64> {
  %same = arith.cmpi eq, %n, %m : index
  cf.assert %same, "n and m differ"
  %v = soac.iota %n : tensor<?xi64>
  func.return %v : tensor<?xi64>
}
"""


@pytest.mark.parametrize("pipeline", ["", None, ",".join(LEVEL2_PASSES)])
def test_a_check_is_valid_at_level_1_and_kept_by_every_pass(pipeline):
    """cf.assert is no branch: the structural checks take it, bufferisation carries it,
    and no pass removes it as dead code (it has no memory-effect trait)."""
    program = soacc.compile(WRITTEN_CHECK, backend="numpy", pipeline=pipeline)
    assert np.array_equal(program.main(3, 3), [0, 1, 2])
    with pytest.raises(soacc.ExecutionError, match="^cf.assert in @main: n and m differ$"):
        program.main(3, 2)
