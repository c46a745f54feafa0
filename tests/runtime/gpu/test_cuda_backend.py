"""The cuda backend (marker gpu): whole programs on the GPU, compared with the reference
executor. Integers must be equal bit for bit, floats close (the GPU reduces in another
order); statistics must equal those of the reference executor running the same level-3
module (host code on the CPU, the same kernels launched on the GPU), and the copies,
reads and writes those of level 2 (convert-mem-to-gpu moves no data)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import as_tuple, load_examples, mismatch

from tests.support.checked_programs import ROW_IN_A_LAMBDA

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = load_examples(ROOT / "examples")
LEVEL3 = "soacc-pipeline"  # what the cuda backend runs
LEVEL2 = SoaccPipelinePass().level2_stages()  # the same program before kernels


def counters(program: soacc.Program) -> dict:
    """The statistics of the last call, without the compile time and the launches of
    few threads that run nested combinators (which only the cuda backend has) and the
    host bytes still live after it: the cuda backend hands the caller its results in
    the call's own host blocks (no copy), which then live as long as the caller keeps
    them, where the reference executor's results are copies."""
    out = program.statistics.as_dict()
    del out["gpu_compile_seconds"]
    del out["sequential_inside"]
    out["spaces"].get("host", {}).pop("live_bytes", None)
    return out


def data_movement(program: soacc.Program) -> dict:
    stats = program.statistics.as_dict()
    return {key: stats[key] for key in ("copies", "sync_reads", "scalar_writes")}


def assert_results_agree(got, want, rtol: float, atol: float) -> None:
    got, want = as_tuple(got), as_tuple(want)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=f"result {i}")
        else:
            assert np.array_equal(g, w), f"result {i}: {g} vs {w}"


def run_both(source, args, rtol=1e-6, atol=0.0):
    """Runs `source` on the cuda backend and on the reference executor at level 3 and
    at level 2; checks results and statistics; returns the cuda results."""
    cuda = soacc.compile(source, backend="cuda")
    level3 = soacc.compile(source, backend="numpy", pipeline=LEVEL3)
    level2 = soacc.compile(source, backend="numpy", pipeline=LEVEL2)
    got = cuda.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    want3 = level3.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    want2 = level2.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    assert_results_agree(got, want3, rtol, atol)
    assert_results_agree(got, want2, rtol, atol)
    assert counters(cuda) == counters(level3)
    assert data_movement(cuda) == data_movement(level2)
    return got


# --------------------------------------------------------------------------------------
# Every example
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 7, 300])
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_examples_on_the_gpu(example, size):
    args = example.make_inputs(np.random.default_rng(size), size)
    got = run_both(example.program_path, args, example.rtol, example.atol)
    assert mismatch(got, example.reference(*args), example.rtol, example.atol) is None


def test_the_examples_run_through_auto_on_the_gpu():
    example = next(e for e in EXAMPLES if e.name == "vector_norm")
    program = example.compile()  # auto
    assert program.backend == "cuda"
    assert program.runs_on.startswith("the GPU (")
    args = example.make_inputs(np.random.default_rng(0), 1000)
    assert mismatch(program.main(*args), example.reference(*args), example.rtol, example.atol) is None
    # reduce-device-syncs computes the root on the device: Listing 1 reads nothing
    assert program.statistics.kernel_launches >= 3 and program.statistics.sync_reads == 0


# --------------------------------------------------------------------------------------
# Data movement on the device: views, copies of every kind, element reads and writes
# --------------------------------------------------------------------------------------

VIEWS = """
func.func @main(%a: tensor<?x?xf32>, %i: index, %x: f32) -> (tensor<?x?xf32>, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>) {
  %t = soac.transpose %a [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %c = soac.copy %t : tensor<?x?xf32>
  %u = soac.update %c[%i, %i] = %x : tensor<?x?xf32>, f32
  %s = soac.index %u[%i, %i] : tensor<?x?xf32>
  %row = soac.index %t[%i] : tensor<?x?xf32>
  %cat = soac.concat %a, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %n = soac.size %a[0] : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  %m1 = arith.constant -1 : index
  %back = soac.slice %a[%last:%n:%m1, %i] : tensor<?x?xf32> -> tensor<?xf32>
  func.return %u, %s, %row, %cat, %back : tensor<?x?xf32>, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>
}
"""


@pytest.mark.parametrize("n", [1, 2, 5, 33])
def test_views_transposes_concats_and_element_access(n):
    a = np.random.default_rng(n).standard_normal((n, n)).astype(np.float32)
    for i in {0, n // 2, n - 1}:
        u, s, row, cat, back = run_both(VIEWS, (a, np.int64(i), np.float32(-9.25)), rtol=0.0)
        expected = a.T.copy()
        expected[i, i] = -9.25
        assert np.array_equal(u, expected) and s == np.float32(-9.25)
        assert np.array_equal(row, a.T[i]) and np.array_equal(back, a[::-1, i])
        assert np.array_equal(cat, np.concatenate([a, a.T]))


TRANSPOSES = """
func.func @main(%a: tensor<?x?x?xi1>, %b: tensor<?x?x?xi64>, %c: tensor<?x?x?xi32>, %d: tensor<?x?xf64>)
    -> (tensor<?x?x?xi1>, tensor<?x?x?xi64>, tensor<?x?x?xi32>, tensor<?x?xf64>) {
  %ta = soac.transpose %a [2, 0, 1] : tensor<?x?x?xi1> -> tensor<?x?x?xi1>
  %tb = soac.transpose %b [1, 2, 0] : tensor<?x?x?xi64> -> tensor<?x?x?xi64>
  %tc = soac.transpose %c [0, 2, 1] : tensor<?x?x?xi32> -> tensor<?x?x?xi32>
  %td = soac.transpose %d [1, 0] : tensor<?x?xf64> -> tensor<?x?xf64>
  %ca = soac.copy %ta : tensor<?x?x?xi1>
  %cb = soac.copy %tb : tensor<?x?x?xi64>
  %cc = soac.copy %tc : tensor<?x?x?xi32>
  %cd = soac.copy %td : tensor<?x?xf64>
  func.return %ca, %cb, %cc, %cd : tensor<?x?x?xi1>, tensor<?x?x?xi64>, tensor<?x?x?xi32>, tensor<?x?xf64>
}
"""


@pytest.mark.parametrize("shape", [(0, 3, 2), (1, 1, 1), (2, 3, 4), (3, 1, 5), (17, 9, 31)])
def test_strided_copies_of_every_element_size(shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.integers(0, 2, shape).astype(bool)
    b = rng.integers(-(2**62), 2**62, shape)
    c = rng.integers(-9, 9, shape).astype(np.int32)
    d = rng.standard_normal(shape[:2])
    ta, tb, tc, td = run_both(TRANSPOSES, (a, b, c, d), rtol=0.0)
    assert np.array_equal(ta, a.transpose(2, 0, 1)) and np.array_equal(tb, b.transpose(1, 2, 0))
    assert np.array_equal(tc, c.transpose(0, 2, 1)) and np.array_equal(td, d.T)


UPDATES = """
func.func @main(%m: tensor<?x?xi32>, %j: index, %o: index, %row: tensor<?xi32>, %col: index)
    -> (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>) {
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


def test_updates_of_rows_columns_and_slices():
    m = np.arange(4 * 6, dtype=np.int32).reshape(4, 6)
    row = np.array([100, 200, 300], np.int32)
    for j, o, col in [(0, 0, 5), (3, 3, 0), (2, 1, 2)]:
        m2, m3, m4 = run_both(UPDATES, (m, np.int64(j), np.int64(o), row, np.int64(col)))
        w2 = m.copy()
        w2[j, o : o + 3] = row
        w3 = w2.copy()
        w3[:, 0] = w2[:, col]
        w4 = w3.copy()
        w4[0:2] = w3[1:3]
        assert np.array_equal(m2, w2) and np.array_equal(m3, w3) and np.array_equal(m4, w4)


LITERALS = """
func.func @main(%x: f32, %y: f32, %r1: tensor<?xi64>, %r2: tensor<?xi64>) -> (tensor<3xf32>, tensor<2x?xi64>, f32) {
  %c = arith.constant 7.0 : f32
  %a = soac.array [%x, %c, %y] : tensor<3xf32>
  %m = soac.array [%r2, %r1] : tensor<2x?xi64>
  %c2 = arith.constant 2 : index
  %e = soac.index %a[%c2] : tensor<3xf32>
  func.return %a, %m, %e : tensor<3xf32>, tensor<2x?xi64>, f32
}
"""


@pytest.mark.parametrize("n", [0, 1, 1000])
def test_array_literals(n):
    r1, r2 = np.arange(n, dtype=np.int64), -np.arange(n, dtype=np.int64)
    a, m, e = run_both(LITERALS, (np.float32(1.5), np.float32(-2.0), r1, r2))
    assert a.tolist() == [1.5, 7.0, -2.0] and np.array_equal(m, np.stack([r2, r1])) and e == np.float32(-2.0)


MIGRATION = Path(__file__).parents[2] / "filecheck" / "passes" / "migration"


@pytest.mark.parametrize("taken", [True, False])
def test_ifs_whose_arrays_move_into_a_gpu_body(taken):
    """Futhark's blocking7_exception and merge6: an `if` moved whole into a gpu_body
    yields a one-element copy made in the kernel, or its input (the kernel's `if`
    drops the blocks it would yield), both branches taken."""
    a = np.array([42 if taken else 7], np.int64)
    assert np.array_equal(run_both((MIGRATION / "blocking7_exception.mlir").read_text(), (a,)), a)
    A = np.array([0 if taken else 3, 1, 2, 3, 4], np.int64)
    x = np.int64(0 if taken else 5)
    got = run_both((MIGRATION / "merge6.mlir").read_text(), (A, x, np.int64(1)))
    z = A[2:5].sum() if x == 0 else A[0] + A[1]
    assert got.tolist() == ([z] if A[0] == 0 else [A[1]])


def test_an_index_out_of_bounds_is_the_reference_executors_error():
    a = np.zeros((2, 2), np.float32)
    with pytest.raises(soacc.ExecutionError) as expected:
        soacc.compile(VIEWS, backend="numpy", pipeline=LEVEL3).main(a, 2, np.float32(1))
    with pytest.raises(soacc.ExecutionError) as got:
        soacc.compile(VIEWS, backend="cuda").main(a, 2, np.float32(1))
    assert str(got.value) == str(expected.value)


# --------------------------------------------------------------------------------------
# Compilation, and the tools
# --------------------------------------------------------------------------------------


def test_a_second_compile_takes_the_kernels_from_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SOACC_CACHE_DIR", str(tmp_path))
    source = (ROOT / "examples" / "dot_product.mlir").read_text()
    a = np.arange(10, dtype=np.float32)
    first = soacc.compile(source, backend="cuda")
    assert first.main(a, a) == np.float32(285.0)
    assert first.statistics.gpu_compile_seconds > 0  # an empty cache: compiled
    second = soacc.compile(source, backend="cuda")
    assert second.main(a, a) == np.float32(285.0)
    assert second.statistics.gpu_compile_seconds == 0.0
    assert "CUDA C compiled in: 0.00 s" in second.statistics.table()


def test_soacc_run_says_it_runs_on_the_gpu(capsys):
    from soacc.tools.soacc_run import main

    assert main([str(ROOT / "examples" / "dot_product.mlir"), "--arg", "[1, 2]", "--arg", "[3, 4]", "--stats"]) == 0
    captured = capsys.readouterr()
    assert "running @main on the GPU (" in captured.err
    assert captured.out.startswith("result 0: f32 = 11.0\n")
    assert "kernel launches: " in captured.out and "CUDA C compiled in: " in captured.out


def test_results_are_the_callers_own_numpy_values():
    source = """func.func @main(%a: tensor<?xf64>, %k: i32) -> (tensor<?xf64>, i32, index) {
  %b = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = arith.addf %x, %x : f64
    soac.yield %y : f64
  }
  %n = soac.size %b[0] : tensor<?xf64>
  func.return %b, %k, %n : tensor<?xf64>, i32, index
}"""
    program = soacc.compile(source, backend="cuda")
    for n in (0, 1, 5):
        a = np.arange(n, dtype=np.float64)
        b, k, size = program.main(a, 3)
        assert isinstance(b, np.ndarray) and b.flags.writeable and b.dtype == np.float64
        assert np.array_equal(b, 2 * a) and not np.shares_memory(a, b)
        assert isinstance(k, np.int32) and k == 3 and isinstance(size, np.int64) and size == n


@pytest.mark.parametrize("n", [(12 << 20) // 8 - 1, (12 << 20) // 8, 1_834_567, 9_000_003])
def test_large_arguments_and_results_through_the_staging_chunks(n):
    """Arrays of 12 MB and more go through page-locked chunks (runtime/gpu/staged_copies.py):
    every byte arrives, either side of the threshold and of a chunk's end, and a
    program calls on them like the driver's own copies do."""
    source = """func.func @main(%a: tensor<?xf64>) -> (tensor<?xf64>, f64) {
  %zero = arith.constant 0.0 : f64
  %b = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = arith.addf %x, %x : f64
    soac.yield %y : f64
  }
  %s = soac.reduce(%a) neutral(%zero : f64) : (tensor<?xf64>) -> f64 {
  ^bb0(%l: f64, %r: f64):
    %t = arith.maximumf %l, %r : f64
    soac.yield %t : f64
  }
  func.return %b, %s : tensor<?xf64>, f64
}"""
    program = soacc.compile(source, backend="cuda")
    a = np.random.default_rng(n).standard_normal(n)
    b, top = program.main(a)
    np.testing.assert_array_equal(b, 2 * a)
    assert top == a.max()
    program.executor.memory.staging_on = False
    b_direct, _ = program.main(a)
    np.testing.assert_array_equal(b_direct, b)


def test_profiling_times_every_kernel_on_the_device(capsys):
    program = soacc.compile(ROOT / "examples" / "dot_product.mlir", backend="cuda")
    a = np.ones(1 << 20, np.float32)
    program.main(a, a)
    assert program.statistics.kernel_time_s is None  # not profiled unless asked
    program.profiling = True
    assert program.main(a, a) == np.float32(1 << 20)
    times = program.statistics.kernel_time_s
    launched = program.statistics.kernel_launches
    assert times and len(times) <= launched
    assert all(seconds > 0 for seconds in times.values())
    assert any(name.startswith(("reduce", "redomap")) for name in times)
    counts = program.statistics.kernel_launch_counts
    assert set(counts) == set(times) and all(n >= 1 for n in counts.values())
    program.profiling = False
    program.main(a, a)
    assert program.statistics.kernel_time_s is None and program.statistics.kernel_launch_counts is None

    from soacc.tools.soacc_run import main

    assert main([str(ROOT / "examples" / "dot_product.mlir"), "--arg", "[1, 2]", "--arg", "[3, 4]", "--profile"]) == 0
    out = capsys.readouterr().out
    assert "kernel           device time  launches" in out and " ms" in out


BIG = """
func.func @main(%a: tensor<?xi32>) -> (tensor<?xi32>, i32, tensor<?xi32>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %b = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %s = soac.reduce(%b) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
  ^bb0(%x: i32, %y: i32):
    %r = arith.addi %x, %y : i32
    soac.yield %r : i32
  }
  %p = soac.scan(%a) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %r = arith.addi %x, %y : i32
    soac.yield %r : i32
  }
  func.return %b, %s, %p : tensor<?xi32>, i32, tensor<?xi32>
}
"""


def test_arrays_above_2_to_the_31_bytes():
    n = (1 << 29) + 77  # 2 GiB + 308 bytes of i32: byte offsets need 64 bits
    a = np.random.default_rng(5).integers(-3, 4, n, dtype=np.int32)
    program = soacc.compile(BIG, backend="cuda")
    b, s, p = program.main(a)
    assert np.array_equal(b, a + 1)
    assert s == np.sum(b, dtype=np.int32)  # wraps as i32 does
    assert np.array_equal(p, np.cumsum(a, dtype=np.int32))
    del a, b, p


def test_out_of_device_memory_names_the_op_and_the_pool_stays_usable():
    source = """func.func @main(%n: index) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %r = soac.replicate %n, %z : f64 -> tensor<?xf64>
  func.return %r : tensor<?xf64>
}"""
    program = soacc.compile(source, backend="cuda")
    with pytest.raises(soacc.ExecutionError, match=r"mem.alloc %r_mem in @main: out of device memory allocating 8000000000000 bytes"):
        program.main(1_000_000_000_000)
    assert np.array_equal(program.main(1000), np.zeros(1000))


def test_a_kernel_that_faults_is_an_error_naming_it(tmp_path):
    """An index far out of bounds inside a kernel (kernels do not check indices) is
    the GPU's error, reported by the call that launched it with the kernel's name; it
    runs in a process of its own, since CUDA keeps such an error for the process."""
    import subprocess
    import sys

    program = tmp_path / "fault.mlir"
    program.write_text("""func.func @main(%a: tensor<?xf32>, %far: index) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = soac.index %a[%far] : tensor<?xf32>
    soac.yield %y : f32
  }
  func.return %r : tensor<?xf32>
}""")
    script = (
        "import numpy as np, soacc, sys\n"
        f"p = soacc.compile(open({str(program)!r}).read(), backend='cuda')\n"
        "try:\n"
        "    p.main(np.ones(1000, np.float32), 1 << 40)\n"
        "except soacc.ExecutionError as e:\n"
        "    print(e)\n"
        "    sys.exit(3)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr[-2000:]
    message = result.stdout
    assert "the GPU reported an error" in message and "the last: map0" in message
    assert "cannot use the GPU again" in message


def test_a_check_that_fails_in_a_kernel_is_an_error_and_so_is_every_later_load(tmp_path):
    """A size check short-circuit leaves inside a lambda (a cf.assert) traps in the
    kernel: the call that launched it says the GPU's error and why the process cannot
    use the GPU again, and a later compile in the same process is an ExecutionError too
    (PyCUDA's own LaunchError reached the caller). Its own process, as above."""
    import subprocess
    import sys

    program = tmp_path / "rows.mlir"
    program.write_text(ROW_IN_A_LAMBDA)
    dot_product = ROOT / "examples" / "dot_product.mlir"
    script = (
        "import numpy as np, soacc, sys\n"
        f"p = soacc.compile(open({str(program)!r}).read(), backend='cuda')\n"
        "m, q = np.zeros((2, 2), np.int64), np.full(2, 3, np.int64)\n"
        "assert p.main(m, q, 0, 2).tolist() == [[3, 3], [7, 7]]\n"
        "for attempt in ('check', 'load'):\n"
        "    try:\n"
        "        if attempt == 'check':\n"
        "            p.main(m, q, 0, 3)\n"
        "        else:\n"
        f"            soacc.compile(open({str(dot_product)!r}).read(), backend='cuda').main(np.ones(4, np.float32), np.ones(4, np.float32))\n"
        "    except soacc.ExecutionError as e:\n"
        "        print(attempt, e)\n"
        "sys.exit(3)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr[-2000:]
    check, load = result.stdout.splitlines()[:2]
    assert check.startswith("check ") and "the last: map" in check and "cannot use the GPU again" in check
    assert load.startswith("load ") and "the GPU cannot load the kernels" in load
