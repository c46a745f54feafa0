"""The program API of soacc.compile: argument checking, entry points, results, and the
errors (ProgramError, ArgumentError, ExecutionError) with where they happened."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import soacc

from tests.support.rt_util import assert_array, run

SIG = """func.func @main(%v: tensor<?xf32>, %m: tensor<3x?xi64>, %n: index, %x: f32, %b: i1, %k: i32)
    -> (tensor<?xf32>, i64, f32) {
  %c0 = arith.constant 0 : index
  %s = soac.size %m[1] : tensor<3x?xi64>
  %y = arith.select %b, %x, %x : f32
  func.return %v, %s, %y : tensor<?xf32>, index, f32
}"""

# The same, without the aliasing result (see test_results_never_alias_arguments).
SIG_OK = SIG.replace("func.return %v, %s, %y", "%w = soac.copy %v : tensor<?xf32>\n  func.return %w, %s, %y").replace(
    "-> (tensor<?xf32>, i64, f32)", "-> (tensor<?xf32>, index, f32)"
)


def _args(**over):
    args = {
        "v": np.zeros(4, np.float32),
        "m": np.zeros((3, 5), np.int64),
        "n": 3,
        "x": 1.5,
        "b": True,
        "k": 7,
    }
    args.update(over)
    return list(args.values())


def test_program_with_valid_arguments():
    prog = soacc.compile(SIG_OK)
    w, s, y = prog.main(*_args())
    assert_array(w, np.zeros(4, np.float32), np.float32)
    assert isinstance(s, np.int64) and s == 5
    assert isinstance(y, np.float32) and y == 1.5


def test_python_scalars_are_accepted_for_scalar_parameters():
    prog = soacc.compile(SIG_OK)
    # int for index, float for f32, bool for i1, int for i32; NumPy scalars and 0-d arrays too
    prog.main(*_args(n=0, x=-2.0, b=False, k=-(2**31)))
    prog.main(*_args(n=np.int64(3), x=np.float32(2.0), b=np.bool_(True), k=np.int32(2**31 - 1)))
    prog.main(*_args(n=np.array(3, np.int64), x=np.array(2.0, np.float32)))
    _, _, y = prog.main(*_args(x=3))  # an int is a fine f32
    assert y == 3.0 and isinstance(y, np.float32)


RANK0 = """func.func @main(%a: tensor<?xf32>, %s: tensor<f32>) -> (tensor<?xf32>, tensor<f32>) {
  %m = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    soac.yield %e : f32
  }
  func.return %m, %s : tensor<?xf32>, tensor<f32>
}"""


def test_a_rank_0_array_argument_runs_at_both_levels():
    m, s = run(RANK0, np.arange(3, dtype=np.float32), np.array(5.0, np.float32))
    assert_array(m, [0, 1, 2], np.float32)
    assert s == np.float32(5.0)


@pytest.mark.parametrize(
    "over,pattern",
    [
        ({"v": np.zeros(4, np.float64)}, r"argument 0 \(%v\) of @main.*float32 array.*got float64"),
        ({"v": np.zeros((4, 1), np.float32)}, r"argument 0 \(%v\).*got float32 array of shape \[4, 1\]"),
        ({"m": np.zeros((4, 5), np.int64)}, r"argument 1 \(%m\).*dimension 0 must be 3"),
        ({"m": np.zeros(3, np.int64)}, r"argument 1 \(%m\)"),
        ({"m": np.zeros((3, 5), np.int32)}, r"argument 1 \(%m\).*got int32"),
        ({"v": [1.0, 2.0]}, r"argument 0 \(%v\).*got list"),
        ({"v": 1.0}, r"argument 0 \(%v\).*got float"),
        ({"n": 1.0}, r"argument 2 \(%n\).*got float"),
        ({"n": np.float64(1.0)}, r"argument 2 \(%n\)"),
        ({"n": np.int32(1)}, r"argument 2 \(%n\).*int32"),
        ({"n": np.zeros(3, np.int64)}, r"argument 2 \(%n\)"),
        ({"n": "3"}, r"argument 2 \(%n\).*got str"),
        ({"x": np.float64(1.0)}, r"argument 3 \(%x\).*float64"),
        ({"b": 1}, r"argument 4 \(%b\)"),
        ({"k": 2**31}, r"argument 5 \(%k\) of @main: 2147483648 does not fit int32"),
        ({"k": True}, r"argument 5 \(%k\).*got True"),
        ({"n": False}, r"argument 2 \(%n\).*got False"),
        ({"k": -(2**31) - 1}, r"argument 5 \(%k\).*does not fit"),
        ({"n": 2**63}, r"argument 2 \(%n\).*does not fit"),
        ({"k": 1.5}, r"argument 5 \(%k\).*got float"),
        ({"k": None}, r"argument 5 \(%k\).*NoneType"),
    ],
    ids=lambda p: p if isinstance(p, str) else ",".join(p) if isinstance(p, dict) else None,
)
def test_bad_arguments(over, pattern):
    prog = soacc.compile(SIG_OK)
    with pytest.raises(soacc.ArgumentError, match=pattern):
        prog.main(*_args(**over))


def test_wrong_argument_count():
    prog = soacc.compile(SIG_OK)
    with pytest.raises(soacc.ArgumentError, match=r"@main\(.*\) takes 6 argument\(s\), 5 given"):
        prog.main(*_args()[:5])
    with pytest.raises(soacc.ArgumentError, match=r"takes 6 argument\(s\), 7 given"):
        prog.main(*_args(), 1)
    with pytest.raises(soacc.ArgumentError, match=r"takes 6 argument\(s\), 0 given"):
        prog.main()


TWO_ENTRIES = """func.func private @helper(%x: i32) -> i32 {
  func.return %x : i32
}
func.func @first(%x: i32) -> i32 {
  %r = func.call @helper(%x) : (i32) -> i32
  func.return %r : i32
}
func.func @second(%x: i32, %y: i32) -> (i32, i32) {
  func.return %y, %x : i32, i32
}"""


def test_entry_points():
    prog = soacc.compile(TWO_ENTRIES)
    assert sorted(prog.entry_points) == ["first", "second"]
    assert prog.first(5) == 5 and isinstance(prog.first(5), np.int32)
    assert prog.entry("second")(1, 2) == (2, 1)
    with pytest.raises(AttributeError, match=r"no public function @nope; it has @first, @second"):
        prog.nope  # noqa: B018
    assert not hasattr(prog, "helper")  # private
    assert not hasattr(prog, "main")
    with pytest.raises(soacc.ArgumentError, match=r"no public function @helper"):
        prog.entry("helper")
    with pytest.raises(soacc.ArgumentError, match=r"no public function @main"):
        prog.entry("main")


def test_results_are_numpy_values():
    src = """func.func @main(%a: tensor<?xi32>) -> (tensor<?xi32>, i32, i1, index, f64, tensor<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %x = soac.index %a[%c0] : tensor<?xi32>
  %t = arith.constant true
  %f = arith.constant 2.5 : f64
  %m = arith.constant dense<1.0> : tensor<2x2xf32>
  %b = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %y = arith.addi %e, %e : i32
    soac.yield %y : i32
  }
  func.return %b, %x, %t, %c0, %f, %m : tensor<?xi32>, i32, i1, index, f64, tensor<2x2xf32>
}"""
    res = run(src, np.array([3, 4], np.int32))
    assert isinstance(res, tuple) and len(res) == 6
    b, x, t, c0, f, m = res
    assert_array(b, [6, 8], np.int32)
    assert type(x) is np.int32 and x == 3
    assert type(t) is np.bool_ and t
    assert type(c0) is np.int64 and c0 == 0
    assert type(f) is np.float64 and f == 2.5
    assert_array(m, np.ones((2, 2)), np.float32)
    for arr in (b, m):
        assert arr.flags.writeable and arr.flags.owndata


# Results that are (or view) an argument, or another result.
ALIASING = {
    "return-argument": """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  func.return %a : tensor<?xf32>
}""",
    "identity-map": """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return %r : tensor<?xf32>
}""",
    "if-yielding-argument": """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %t = arith.constant true
  %r = scf.if %t -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    scf.yield %a : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}""",
}


def test_results_that_are_views_are_copies():
    """A slice or a row of an argument comes back as the caller's own array."""
    src = """func.func @main(%a: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = soac.index %a[%c0] : tensor<?x?xf32>
  %s = soac.slice %a[%c0:%c1] : tensor<?x?xf32> -> tensor<?x?xf32>
  %t = soac.transpose %a [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  func.return %row, %s, %t : tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for r in run(src, a):
        assert not np.shares_memory(r, a)
        r[...] = -1
    assert_array(a, np.arange(6, dtype=np.float32).reshape(2, 3), np.float32)


@pytest.mark.parametrize("kind", sorted(ALIASING))
def test_results_never_alias_arguments(kind):
    a = np.arange(4, dtype=np.float32)
    r = run(ALIASING[kind], a)
    assert_array(r, np.arange(4, dtype=np.float32), np.float32)
    r[0] = 100.0
    assert a[0] == 0.0, "mutating the result changed the caller's argument"


def test_results_never_alias_each_other():
    src = """func.func @main(%n: index) -> (tensor<?xi32>, tensor<?xi32>) {
  %z = arith.constant 0 : i32
  %r = soac.iota %n : tensor<?xi32>
  %m = soac.map(%r) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %z : i32
    soac.yield %y : i32
  }
  func.return %m, %m : tensor<?xi32>, tensor<?xi32>
}"""
    a, b = run(src, 3)
    a[0] = 100
    assert b[0] == 0


def test_argument_arrays_are_not_modified_by_running(rng):
    src = """func.func @main(%a: tensor<?xf32>, %i: tensor<?xindex>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %u = soac.update %a[%c0] = %z : tensor<?xf32>, f32
  %s = soac.scatter %a[%i] = %a : tensor<?xf32>, tensor<?xindex>, tensor<?xf32>
  func.return %u, %s : tensor<?xf32>, tensor<?xf32>
}"""
    a = rng.standard_normal(5).astype(np.float32)
    before = a.copy()
    i = np.array([4, 3, 2, 1, 0])
    u, s = run(src, a, i)
    assert_array(a, before, np.float32)
    assert u[0] == 0 and u[1:].tolist() == before[1:].tolist()
    assert_array(s, before[::-1], np.float32)


# --------------------------------------------------------------------------------------
# Errors with locations
# --------------------------------------------------------------------------------------

PARSE_ERROR = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x %x : f32
    soac.yield %y : f32
  }
  func.return %r : tensor<?xf32>
}"""

VERIFY_ERROR = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f64):
    %y = arith.addf %x, %x : f64
    soac.yield %y : f64
  }
  func.return %r : tensor<?xf32>
}"""


def test_parse_error_has_a_location():
    with pytest.raises(soacc.ProgramError) as info:
        soacc.compile(PARSE_ERROR)
    msg = str(info.value)
    assert re.search(r"<input>:5:\d+", msg), msg
    assert "%x %x" in msg  # the offending line is quoted


def test_parse_error_for_an_undefined_value():
    src = PARSE_ERROR.replace("%x %x : f32", "%x, %undefined : f32")
    with pytest.raises(soacc.ProgramError, match=r"<input>:\d+:\d+(.|\n)*%undefined"):
        soacc.compile(src)


def test_parse_error_at_a_bad_token():
    with pytest.raises(soacc.ProgramError, match=r"<input>:2:\d+"):
        soacc.compile("func.func @main() {\n  %x = arith.constant : i32\n  func.return\n}")
    with pytest.raises(soacc.ProgramError, match=r"<input>:1:\d+"):
        soacc.compile("func.func @main( {")


def test_verifier_error_has_a_location():
    with pytest.raises(soacc.ProgramError) as info:
        soacc.compile(VERIFY_ERROR)
    msg = str(info.value)
    assert re.search(r"<input>:3:3: error: ", msg), msg
    assert "soac.map lambda parameters are (f64); expected (f32)" in msg


def test_a_type_error_found_while_parsing_is_located():
    src = """func.func @main(%a: tensor<?xf32>) -> index {
  %r = soac.map(%a) : (tensor<?xf32>) -> index {
  ^bb0(%e: f32):
    soac.yield %e : f32
  }
  func.return %r : index
}"""
    with pytest.raises(soacc.ProgramError, match=r"<input>:2:3"):
        soacc.compile(src)


def test_a_value_used_before_its_definition_is_a_located_error():
    src = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %z : f32
    soac.yield %y : f32
  }
  %z = arith.constant 1.0 : f32
  func.return %r : tensor<?xf32>
}"""
    with pytest.raises(soacc.ProgramError, match=r"<input>:4:5: error: arith.addf uses %z before it is defined"):
        soacc.compile(src)


def test_compile_from_a_path(tmp_path):
    p = tmp_path / "prog.mlir"
    p.write_text(VERIFY_ERROR)
    with pytest.raises(soacc.ProgramError, match=re.escape(str(p)) + r":3:3: error: "):
        soacc.compile(p)
    p.write_text(ALIASING["identity-map"].replace("soac.yield %x", "%y = arith.negf %x : f32\n    soac.yield %y"))
    assert_array(soacc.compile(p).main(np.array([1.0], np.float32)), [-1.0], np.float32)
    with pytest.raises(soacc.ProgramError, match="cannot read"):
        soacc.compile(tmp_path / "missing.mlir")


def test_unknown_backend():
    with pytest.raises(soacc.ArgumentError, match="unknown backend 'cobol'"):
        soacc.compile(ALIASING["identity-map"], backend="cobol")
    assert "numpy" in soacc.available_backends()


INDEX_ERROR = """func.func @main(%a: tensor<?xf32>, %i: index) -> f32 {
  %x = soac.index %a[%i] : tensor<?xf32>
  func.return %x : f32
}"""

NESTED_ERROR = """func.func private @get(%a: tensor<?xf32>, %i: index) -> f32 {
  %v = soac.index %a[%i] : tensor<?xf32>
  func.return %v : f32
}
func.func @main(%a: tensor<?xf32>, %is: tensor<?xindex>) -> tensor<?xf32> {
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %x = func.call @get(%a, %i) : (tensor<?xf32>, index) -> f32
    soac.yield %x : f32
  }
  func.return %r : tensor<?xf32>
}"""


def test_execution_error_names_the_op():
    a = np.zeros(3, np.float32)
    with pytest.raises(soacc.ExecutionError) as info:
        run(INDEX_ERROR, a, 3)
    msg = str(info.value)
    assert msg.startswith("soac.index %x in @main: "), msg
    assert "index 3 is out of bounds for dimension 0 of size 3" in msg
    with pytest.raises(soacc.ExecutionError, match=r"^soac\.index %v in @get: index 7 is out of bounds"):
        run(NESTED_ERROR, a, np.array([0, 7, 1]))
    assert_array(run(NESTED_ERROR, np.array([1, 2, 3], np.float32), np.array([2, 0])), [3, 1], np.float32)


def test_errors_are_soacc_errors():
    for cls in (soacc.ProgramError, soacc.ArgumentError, soacc.ExecutionError):
        assert issubclass(cls, soacc.SoaccError)


def test_a_program_runs_many_times_with_different_sizes(rng):
    """Nothing of one call (lane state, caches) leaks into the next."""
    src = """func.func @main(%a: tensor<?xf64>, %k: f64) -> tensor<?x?xf64> {
  %r = soac.map(%a) : (tensor<?xf64>) -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %s = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
    ^bb1(%y: f64):
      %p = arith.mulf %x, %y : f64
      %q = arith.addf %p, %k : f64
      soac.yield %q : f64
    }
    soac.yield %s : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}"""
    prog = soacc.compile(src)
    for n in (3, 0, 1, 5, 2, 0, 7):
        a = rng.standard_normal(n)
        assert_array(prog.main(a, float(n)), np.outer(a, a) + n, np.float64)


def test_examples_compile():
    """Every example program parses and verifies (they are the documentation)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    files = sorted(examples.glob("*.mlir"))
    if not files:
        pytest.skip("no examples")
    for f in files:
        assert soacc.compile(f).entry_points, f
