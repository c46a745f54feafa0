"""Emitted host code (the python target), run here without a GPU: programs with no
kernels after soacc-pipeline run their host code against a device simulated in host
memory (simulated_device.py) and must give bit-identical results and identical
statistics to the reference executor running the same level-3 module. This checks
the host code's scalar semantics, control flow, views, copies of every kind and the
counting; tests/runtime/gpu/test_cuda_backend.py runs the rest on a real GPU."""

from __future__ import annotations

import shutil
import struct
import subprocess

import numpy as np
import pytest

import soacc
from soacc.backends import host_code_executor
from soacc.runtime.gpu.cuda_memory import MAX_COPY_RANK, STRIDED_COPY_FORMAT, STRIDED_COPY_SOURCE, strided_copy_arguments
from soacc.runtime.gpu.host_runtime import merge_dimensions
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.reference import ReferenceExecutor

from tests.support.simulated_device import SimulatedDevice


def executors(source: str, free_at_last_use: bool = True, forks: bool = False, hosts: int = 1):
    """The reference executor and `hosts` host-code executors of the compiled program,
    each on a simulated device of its own (the last one's reuses addresses, as the
    memory pool does, where there are several)."""
    module = parse_program(source)
    # without reduce-device-syncs, which would add gpu_body kernels the simulated device cannot run
    apply_pipeline(module, f"soacc-pipeline{{syncs=false forks={str(forks).lower()}}}")
    return (
        ReferenceExecutor(module, free_at_last_use=free_at_last_use),
        *(
            host_code_executor(module, SimulatedDevice(reuse=hosts > 1 and k == hosts - 1), {}, free_at_last_use=free_at_last_use)
            for k in range(hosts)
        ),
    )


def same_bits(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "f":  # NaN payloads and signed zeros too
        return np.array_equal(got.view(f"u{got.dtype.itemsize}"), want.view(f"u{want.dtype.itemsize}"))
    return np.array_equal(got, want)


def check(source: str, *argument_sets, entry: str = "main", free_at_last_use: bool = True):
    """Runs every argument set through both; results and statistics (peak memory
    included) must be equal. Returns the last results.

    A third executor runs the host code with task graphs (runtime/gpu/task_graphs.py)
    on every call: each argument set three times, eager, captured (where the host code
    can be a graph) and replayed, each equal to the reference. A fourth runs the program
    with forks (introduce-forks, convert-fork-to-gpu): the host issues every thread in
    program order, and a wait for a signal not yet resolved would fail the call.
    A fifth runs every call eagerly with segment graphs (runtime/gpu/segment_graphs.py),
    on a device that reuses addresses as the memory pool does, each argument set three
    times: segments that repeat are replayed."""
    reference, host, graphs, segments = executors(source, free_at_last_use, hosts=3)
    _, forked = executors(source, free_at_last_use, forks=True)
    graphs.use_task_graphs(True)
    graphs.task_graphs.min_nodes = 0
    graphs.use_segment_graphs(False)
    segments.use_segment_graphs(True)
    got = None
    for args in argument_sets:
        want = reference.call(entry, [np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        got = host.call(entry, list(args))
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert same_bits(g, w), f"result {i} for {args}: {g!r}, expected {w!r}"
        assert host.last_statistics.as_dict() == reference.last_statistics.as_dict(), args
        got_forked = forked.call(entry, [np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        for i, (g, w) in enumerate(zip(got_forked, want)):
            assert same_bits(g, w), f"with forks: result {i} for {args}: {g!r}, expected {w!r}"
        for round in ("eager", "capture", "replay"):
            arguments = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
            got_graph = graphs.call(entry, arguments)
            for i, (g, w) in enumerate(zip(got_graph, want)):
                assert same_bits(g, w), f"{round}: result {i} for {args}: {g!r}, expected {w!r}"
            assert graphs.last_statistics.as_dict() == reference.last_statistics.as_dict(), (round, args)
            if round == "replay" and graphs.last_statistics.task_graph is None:
                key = next(iter(graphs.task_graphs.unsupported), None)
                assert key is not None, "neither replayed nor refused"
        for round in range(3):
            got_segments = segments.call(entry, [np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
            for i, (g, w) in enumerate(zip(got_segments, want)):
                assert same_bits(g, w), f"with segment graphs, call {round}: result {i} for {args}: {g!r}, expected {w!r}"
            assert segments.last_statistics.as_dict() == reference.last_statistics.as_dict(), ("segments", round, args)
    SEGMENTS_REPLAYED.append(segments.segment_graphs.replays)
    return got


SEGMENTS_REPLAYED: list[int] = []
"""How many segments each check's fifth executor replayed (a test asks that some did)."""


# --------------------------------------------------------------------------------------
# Scalars: the reference executor's semantics, on NumPy scalars
# --------------------------------------------------------------------------------------

INT_OPS = [
    "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "floordivsi", "ceildivsi",
    "ceildivui", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori",
]
INT_VALUES = {
    "i32": [np.int32(v) for v in (-(2**31), -7, -1, 0, 1, 3, 2**31 - 1)],
    "i64": [np.int64(v) for v in (-(2**63), -7, -1, 0, 1, 3, 2**63 - 1)],
}


@pytest.mark.parametrize("t", ["i32", "i64"])
@pytest.mark.parametrize("op", INT_OPS)
def test_integer_ops(op, t):
    source = f"""func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %r = arith.{op} %a, %b : {t}
  func.return %r : {t}
}}"""
    values = INT_VALUES[t]
    # division by zero is undefined in MLIR; the reference gives some value, and so must we
    check(source, *[(a, b) for a in values for b in values])


@pytest.mark.parametrize("op", ["shli", "shrsi", "shrui"])
def test_shifts(op):
    source = f"""func.func @main(%a: i32, %b: i32) -> i32 {{
  %r = arith.{op} %a, %b : i32
  func.return %r : i32
}}"""
    check(source, *[(a, np.int32(s)) for a in INT_VALUES["i32"] for s in (0, 1, 5, 31)])


@pytest.mark.parametrize("predicate", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])
def test_integer_comparisons(predicate):
    source = f"""func.func @main(%a: i64, %b: i64, %p: i1, %q: i1) -> (i1, i1) {{
  %r = arith.cmpi {predicate}, %a, %b : i64
  %s = arith.cmpi {predicate}, %p, %q : i1
  func.return %r, %s : i1, i1
}}"""
    values = INT_VALUES["i64"]
    check(source, *[(a, b, bool(a & 1), bool(b & 2)) for a in values for b in values])


FLOATS = [np.float32(v) for v in (-np.inf, -2.5, -0.0, 0.0, 1e-40, 0.1, 3.0, np.inf, np.nan)]


@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"])
def test_float_ops(op):
    source = f"""func.func @main(%a: f32, %b: f32) -> f32 {{
  %r = arith.{op} %a, %b : f32
  func.return %r : f32
}}"""
    check(source, *[(a, b) for a in FLOATS for b in FLOATS])


@pytest.mark.parametrize("predicate", ["oeq", "one", "olt", "oge", "ueq", "une", "ult", "uge", "ord", "uno"])
def test_float_comparisons(predicate):
    source = f"""func.func @main(%a: f64, %b: f64) -> i1 {{
  %r = arith.cmpf {predicate}, %a, %b : f64
  func.return %r : i1
}}"""
    values = [np.float64(v) for v in FLOATS]
    check(source, *[(a, b) for a in values for b in values])


CASTS = """func.func @main(%i: i32, %x: f32, %b: i1) -> (i64, i64, f32, f64, i32, i1, index, i32, f32, i32, i64) {
  %1 = arith.extsi %i : i32 to i64
  %2 = arith.extui %i : i32 to i64
  %3 = arith.sitofp %i : i32 to f32
  %4 = arith.extf %x : f32 to f64
  %5 = arith.bitcast %x : f32 to i32
  %6 = arith.trunci %i : i32 to i1
  %7 = arith.index_cast %i : i32 to index
  %8 = arith.fptosi %x : f32 to i32
  %9 = arith.uitofp %i : i32 to f32
  %10 = arith.extui %b : i1 to i32
  %11 = arith.extsi %b : i1 to i64
  func.return %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i64, i64, f32, f64, i32, i1, index, i32, f32, i32, i64
}"""


def test_casts():
    check(CASTS, *[(i, x, b) for i in INT_VALUES["i32"] for x in (np.float32(-2.75), np.float32(0.0), np.float32(1e9)) for b in (True, False)])


@pytest.mark.parametrize("fn", ["sqrt", "exp", "log", "sin", "tanh", "floor", "ceil", "round", "roundeven", "absf", "erf", "rsqrt"])
def test_math(fn):
    source = f"""func.func @main(%x: f32) -> f32 {{
  %r = math.{fn} %x : f32
  func.return %r : f32
}}"""
    check(source, *[(x,) for x in FLOATS + [np.float32(2.5), np.float32(-0.5)]])


def test_math_with_several_operands_and_integers():
    source = """func.func @main(%x: f64, %y: f64, %z: f64, %i: i32) -> (f64, f64, i32, i32, i32) {
  %1 = math.fma %x, %y, %z : f64
  %2 = math.powf %x, %y : f64
  %3 = math.ctpop %i : i32
  %4 = math.ctlz %i : i32
  %5 = math.absi %i : i32
  func.return %1, %2, %3, %4, %5 : f64, f64, i32, i32, i32
}"""
    check(source, *[(np.float64(x), np.float64(0.1), np.float64(-1e-17), i) for x in (0.3, -2.0, 7.5) for i in INT_VALUES["i32"]])


def test_constants_are_exact():
    source = """func.func @main() -> (f32, f64, f32, f32, i32, i1, index) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.1 : f64
  %c = arith.constant 0x7FC00000 : f32
  %d = arith.constant -0.0 : f32
  %e = arith.constant -2147483648 : i32
  %f = arith.constant true
  %g = arith.constant 9223372036854775807 : index
  func.return %a, %b, %c, %d, %e, %f, %g : f32, f64, f32, f32, i32, i1, index
}"""
    check(source, ())


# --------------------------------------------------------------------------------------
# Control flow and calls
# --------------------------------------------------------------------------------------

CONTROL = """
func.func private @step(%x: i64, %k: index) -> (i64, i1) {
  %c3 = arith.constant 3 : i64
  %k64 = arith.index_cast %k : index to i64
  %y = arith.muli %x, %c3 : i64
  %z = arith.addi %y, %k64 : i64
  %c0 = arith.constant 0 : i64
  %neg = arith.cmpi slt, %z, %c0 : i64
  func.return %z, %neg : i64, i1
}
func.func @main(%n: index, %x: i64) -> (i64, index, i64, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s, %anyneg = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %seen = %false) -> (i64, i1) {
    %d, %neg = func.call @step(%acc, %i) : (i64, index) -> (i64, i1)
    %both = arith.ori %seen, %neg : i1
    scf.yield %d, %both : i64, i1
  }
  %k, %steps = scf.while (%v = %n, %t = %x) : (index, i64) -> (index, i64) {
    %more = arith.cmpi ugt, %v, %c1 : index
    scf.condition(%more) %v, %t : index, i64
  } do {
  ^bb0(%w: index, %u: i64):
    %c2 = arith.constant 2 : index
    %h = arith.divui %w, %c2 : index
    %c1_64 = arith.constant 1 : i64
    %u1 = arith.addi %u, %c1_64 : i64
    scf.yield %h, %u1 : index, i64
  }
  %big = arith.cmpi ugt, %k, %c0 : index
  %r = scf.if %big -> (i64) {
    scf.yield %s : i64
  } else {
    %m = arith.subi %steps, %s : i64
    scf.yield %m : i64
  }
  func.return %r, %k, %steps, %anyneg : i64, index, i64, i1
}
""".replace("iter_args(%acc = %x, %seen = %false)", "iter_args(%acc = %x, %seen = %f)").replace(
    "func.func @main(%n: index, %x: i64) -> (i64, index, i64, i1) {\n",
    "func.func @main(%n: index, %x: i64) -> (i64, index, i64, i1) {\n  %f = arith.constant false\n",
)


def test_loops_branches_and_calls():
    check(CONTROL, *[(np.int64(n), np.int64(x)) for n in (0, 1, 2, 5, 40) for x in (-3, 0, 7, 2**62)])


# --------------------------------------------------------------------------------------
# Arrays: views, element reads and writes, copies of every kind
# --------------------------------------------------------------------------------------

VIEWS = """
func.func @main(%a: tensor<?x?xf32>, %i: index, %x: f32) -> (tensor<?x?xf32>, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>) {
  %t = soac.transpose %a [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %c = soac.copy %t : tensor<?x?xf32>
  %u = soac.update %c[%i, %i] = %x : tensor<?x?xf32>, f32
  %s = soac.index %u[%i, %i] : tensor<?x?xf32>
  %row = soac.index %t[%i] : tensor<?x?xf32>
  %cat = soac.concat %a, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %n = soac.size %a[0] : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  %m1 = arith.constant -1 : index
  %back = soac.slice %a[%last:%n:%m1, %i] : tensor<?x?xf32> -> tensor<?xf32>
  func.return %u, %s, %row, %cat, %back : tensor<?x?xf32>, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>
}
"""


@pytest.mark.parametrize("n", [1, 2, 5])
def test_views_and_copies(n):
    a = np.arange(n * n, dtype=np.float32).reshape(n, n) * np.float32(0.5)
    check(VIEWS, *[(a, np.int64(i), np.float32(-9.25)) for i in range(n)])


def test_an_index_out_of_bounds_is_the_reference_executors_error():
    reference, host = executors(VIEWS)
    a = np.zeros((2, 2), np.float32)
    with pytest.raises(soacc.ExecutionError) as expected:
        reference.call("main", [a, np.int64(2), np.float32(1)])
    with pytest.raises(soacc.ExecutionError) as got:
        host.call("main", [a, np.int64(2), np.float32(1)])
    assert str(got.value) == str(expected.value)
    assert "mem.store (of soac.update %u) in @main: index 2 is out of bounds for dimension 0 of size 2 of %c" == str(got.value)


UPDATES = """
func.func @main(%m: tensor<?x?xi32>, %j: index, %o: index, %row: tensor<?xi32>, %col: index) -> (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>) {
  %n = soac.size %row[0] : tensor<?xi32>
  %m2 = soac.update %m[%j, %o:%n] = %row : tensor<?x?xi32>, tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = soac.size %m2[0] : tensor<?x?xi32>
  %column = soac.slice %m2[%c0:%rows, %col] : tensor<?x?xi32> -> tensor<?xi32>
  %mc = soac.copy %m2 : tensor<?x?xi32>
  %m3 = soac.update %mc[%c0:%rows, %c0] = %column : tensor<?x?xi32>, tensor<?xi32>
  %two = arith.constant 2 : index
  %sub = soac.slice %m3[%c1:%two] : tensor<?x?xi32> -> tensor<?x?xi32>
  %m4 = soac.update %m3[%c0:%two] = %sub : tensor<?x?xi32>, tensor<?x?xi32>
  func.return %m2, %m3, %m4 : tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>
}
"""


SCOPES = """
func.func @main(%a: tensor<?xf32>, %n: index, %flag: i1, %x: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %a) -> (tensor<?xf32>) {
    %c = soac.copy %v : tensor<?xf32>
    %d = soac.copy %c : tensor<?xf32>
    %u = soac.update %d[%c0] = %x : tensor<?xf32>, f32
    scf.yield %u : tensor<?xf32>
  }
  %s = scf.if %flag -> (tensor<?xf32>) {
    %e = soac.copy %r : tensor<?xf32>
    %f = soac.concat %e, %r : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %g = soac.slice %f[%c0:%n] : tensor<?xf32> -> tensor<?xf32>
    %h = soac.copy %g : tensor<?xf32>
    scf.yield %h : tensor<?xf32>
  } else {
    scf.yield %r : tensor<?xf32>
  }
  func.return %s : tensor<?xf32>
}
"""


@pytest.mark.parametrize("free_at_last_use", [True, False], ids=["last-use", "scope-end"])
def test_blocks_are_freed_as_the_reference_executor_frees_them(free_at_last_use):
    """Copies in a loop and in a branch: at their last use, or (the study's baseline)
    when the loop's iteration or the branch ends; the same peak as the reference
    executor's in each model (check compares the statistics)."""
    args = [(np.arange(n, dtype=np.float32), np.int64(n), flag, np.float32(7)) for n in (1, 4, 9) for flag in (True, False)]
    check(SCOPES, *args, free_at_last_use=free_at_last_use)
    check(CONTROL, (np.int64(5), np.int64(3)), free_at_last_use=free_at_last_use)
    check(UPDATES, (np.arange(24, dtype=np.int32).reshape(4, 6), np.int64(2), np.int64(1), np.array([1, 2, 3], np.int32), np.int64(2)), free_at_last_use=free_at_last_use)


def test_the_scope_end_model_keeps_more_alive():
    """Without memory block merging (which leaves little to free early here), the loop's
    copies die at their last use in one model and at the iteration's end in the other."""
    module = parse_program(SCOPES)
    apply_pipeline(module, "soacc-pipeline{syncs=false memory=false}")
    peaks = []
    for free in (True, False):
        host = host_code_executor(module, SimulatedDevice(), {}, free_at_last_use=free)
        host.call("main", [np.arange(64, dtype=np.float32), np.int64(64), True, np.float32(7)])
        peaks.append(host.last_statistics.spaces["device"].peak_bytes)
    assert peaks[0] < peaks[1], peaks


def test_updates_write_rows_columns_and_overlapping_slices():
    m = np.arange(4 * 6, dtype=np.int32).reshape(4, 6)
    row = np.array([100, 200, 300], np.int32)
    check(UPDATES, *[(m, np.int64(j), np.int64(o), row, np.int64(c)) for j, o, c in [(0, 0, 5), (3, 3, 0), (2, 1, 2)]])


def test_copies_of_every_element_size_and_rank():
    source = """
func.func @main(%a: tensor<?x?x?xi1>, %b: tensor<?x?x?xi64>, %c: tensor<?x?x?xi32>) -> (tensor<?x?x?xi1>, tensor<?x?x?xi64>, tensor<?x?x?xi32>) {
  %ta = soac.transpose %a [2, 0, 1] : tensor<?x?x?xi1> -> tensor<?x?x?xi1>
  %tb = soac.transpose %b [1, 2, 0] : tensor<?x?x?xi64> -> tensor<?x?x?xi64>
  %tc = soac.transpose %c [0, 2, 1] : tensor<?x?x?xi32> -> tensor<?x?x?xi32>
  %ca = soac.copy %ta : tensor<?x?x?xi1>
  %cb = soac.copy %tb : tensor<?x?x?xi64>
  %cc = soac.copy %tc : tensor<?x?x?xi32>
  func.return %ca, %cb, %cc : tensor<?x?x?xi1>, tensor<?x?x?xi64>, tensor<?x?x?xi32>
}"""
    rng = np.random.default_rng(1)
    sets = []
    for shape in [(0, 3, 2), (1, 1, 1), (2, 3, 4), (3, 1, 5)]:
        sets.append((rng.integers(0, 2, shape).astype(bool), rng.integers(-(2**62), 2**62, shape), rng.integers(-9, 9, shape).astype(np.int32)))
    check(source, *sets)


def test_array_literals_of_scalars_and_rows():
    source = """func.func @main(%x: f32, %y: f32, %r1: tensor<?xi64>, %r2: tensor<?xi64>) -> (tensor<3xf32>, tensor<2x?xi64>, tensor<0xi64>) {
  %c = arith.constant 7.0 : f32
  %a = soac.array [%x, %c, %y] : tensor<3xf32>
  %m = soac.array [%r2, %r1] : tensor<2x?xi64>
  %e = soac.array [] : tensor<0xi64>
  func.return %a, %m, %e : tensor<3xf32>, tensor<2x?xi64>, tensor<0xi64>
}"""
    for n in (0, 1, 4):
        check(source, (np.float32(1.5), np.float32(-2), np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64) * 3))


def test_arrays_of_size_zero_and_one():
    source = """func.func @main(%a: tensor<?xf64>) -> (tensor<?xf64>, index) {
  %c = soac.copy %a : tensor<?xf64>
  %n = soac.size %c[0] : tensor<?xf64>
  func.return %c, %n : tensor<?xf64>, index
}"""
    check(source, (np.zeros(0),), (np.ones(1),), (np.arange(3.0)[::-1].copy(),))


# --------------------------------------------------------------------------------------
# The pieces of the runtime
# --------------------------------------------------------------------------------------


def test_merge_dimensions():
    # a dense 3-d copy is one dimension; a transposed one keeps two
    assert merge_dimensions([2, 3, 4], [12, 4, 1], [12, 4, 1]) == ([24], [1], [1])
    assert merge_dimensions([3, 4], [1, 3], [4, 1]) == ([3, 4], [1, 3], [4, 1])
    # size-1 dimensions go, and rows of a column slice stay strided
    assert merge_dimensions([1, 5, 1], [7, 2, 1], [9, 1, 1]) == ([5], [2], [1])
    assert merge_dimensions([], [], []) == ([], [], [])


def test_strided_copy_arguments_fit_the_kernels_parameters():
    args = strided_copy_arguments(1000, [1, 3], 2000, [4, 1], [3, 4])
    assert len(args) == len(STRIDED_COPY_FORMAT)
    assert struct.calcsize(STRIDED_COPY_FORMAT) == 3 * 8 + (1 + 3 * MAX_COPY_RANK) * 8
    assert args[:4] == (1000, 2000, 12, 2)
    with pytest.raises(soacc.ExecutionError, match="at most 8 are supported"):
        strided_copy_arguments(0, [1] * 9, 0, [1] * 9, [2] * 9)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_the_strided_copy_kernels_compile(tmp_path):
    path = tmp_path / "copy.cu"
    path.write_text(STRIDED_COPY_SOURCE)
    result = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "copy.ptx")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    ptx = (tmp_path / "copy.ptx").read_text()
    for size in (1, 2, 4, 8):
        assert f".entry soacc_copy_strided_{size}(" in ptx
    # the shape struct is one 200-byte parameter after three 8-byte ones: STRIDED_COPY_FORMAT
    assert ".param .align 8 .b8 soacc_copy_strided_4_param_3[200]" in ptx


def test_overlapping_and_strided_copies_in_the_runtime():
    """Copies the lowering may not make yet, on the runtime directly, against NumPy
    doing the same: within one block overlapping both ways, and between non-dense
    views of both spaces."""
    from soacc.runtime.gpu.host_runtime import HostRuntime

    rt = HostRuntime(SimulatedDevice(), {})
    mirror = np.arange(10, dtype=np.int64)
    host = rt.alloc_host(80).view(0, (10,), None, np.int64)
    np.copyto(host.array, mirror)
    dev = rt.alloc_device(80).view(0, (10,), None, np.int64)
    rt.copy(host, dev)

    def device_values():
        out = np.empty(10, np.int64)
        rt._to_host(dev, out)
        return out.tolist()

    rt.copy(dev.slice([(0, 8)]), dev.slice([(2, 8)]))  # forwards over itself
    mirror[2:10] = mirror[0:8].copy()
    assert device_values() == mirror.tolist()
    rt.copy(dev.slice([(9, 5, -2)]), dev.slice([(0, 5, 2)]))  # reversed, strided, overlapping
    mirror[0:10:2] = mirror[9::-2].copy()
    assert device_values() == mirror.tolist()
    rt.copy(host.slice([(1, 3, 3)]), dev.slice([(2, 3, 2)]))  # host -> strided device
    mirror[2:8:2] = np.arange(10)[1:10:3]
    assert device_values() == mirror.tolist()
    strided_host = rt.alloc_host(80).view(0, (10,), None, np.int64)
    np.copyto(strided_host.array, -1)
    rt.copy(dev.slice([(0, 5, 2)]), strided_host.slice([(9, 5, -2)]))  # strided -> strided host
    expected = np.full(10, -1)
    expected[9::-2] = mirror[0:10:2]
    assert strided_host.array.tolist() == expected.tolist()
    assert rt.statistics.copies["device->device"].count == 2 and rt.statistics.copies["host->device"].count == 2


COPY_LOOP = """
func.func @main(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = soac.size %a[0] : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %a) -> (tensor<?xf32>) {
    %f = soac.concat %v, %v : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %g = soac.slice %f[%c1:%m] : tensor<?xf32> -> tensor<?xf32>
    %h = soac.concat %g, %v : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %k = soac.slice %h[%c0:%m] : tensor<?xf32> -> tensor<?xf32>
    %w = soac.copy %k : tensor<?xf32>
    scf.yield %w : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


def test_segment_graphs_replay_a_host_loop_of_device_copies():
    """The loop's device copies repeat from iteration to iteration (the pool-like device
    hands the same blocks out again): check's fifth executor replays them, and every
    result and count is the reference executor's."""
    check(COPY_LOOP, *[(np.arange(m, dtype=np.float32), np.int64(12)) for m in (1, 3, 6)])
    assert SEGMENTS_REPLAYED[-1] > 0
