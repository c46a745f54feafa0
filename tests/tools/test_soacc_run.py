"""soacc-run: results on good input, and one clear message with the right exit code on
bad input (exit 2), bad programs and failed runs (exit 1) -- never a traceback.

The tool's `main(argv)` runs in-process (fast); one test runs the installed console
script to prove the entry point works."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from soacc.tools.soacc_run import main

from tests.support.scripts import load_example_definition

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# --------------------------------------------------------------------------------------
# Small programs of our own
# --------------------------------------------------------------------------------------

PROGRAMS = {
    # @main reads one element (out of bounds -> execution error); @twice is a second
    # public function with an i32 parameter.
    "entries.mlir": """\
func.func @main(%a: tensor<?xf32>, %i: index) -> f32 {
  %x = soac.index %a[%i] : tensor<?xf32>
  func.return %x : f32
}
func.func @twice(%n: i32) -> i32 {
  %y = arith.addi %n, %n : i32
  func.return %y : i32
}
""",
    # a static shape, for the wrong-dimension check
    "static.mlir": """\
func.func @main(%a: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %b = soac.map(%a) : (tensor<3x?xf32>) -> tensor<3x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    soac.yield %row : tensor<?xf32>
  }
  func.return %b : tensor<3x?xf32>
}
""",
    # a parse error at line 3, column 41 (the missing `)`)
    "bad_parse.mlir": """\
func.func @main(%a: tensor<?xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32 : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return %s : f32
}
""",
    # an op the soac dialect does not have, at line 2
    "unknown_op.mlir": """\
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.frobnicate %a : tensor<?xf32>
  func.return %b : tensor<?xf32>
}
""",
    # parses, but the map's lambda takes f64 rows of an f32 array (line 2, column 3)
    "bad_verify.mlir": """\
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f64):
    soac.yield %x : f64
  }
  func.return %b : tensor<?xf32>
}
""",
}


@pytest.fixture
def prog(tmp_path: Path):
    """prog(name) -> the path of one of PROGRAMS, written to a temporary folder."""

    def write(name: str) -> str:
        path = tmp_path / name
        path.write_text(PROGRAMS[name])
        return str(path)

    return write


def example(name: str) -> str:
    return str(EXAMPLES / f"{name}.mlir")


def soacc_run(capsys, *argv: str) -> tuple[int, str, str]:
    """Runs the tool in-process: (exit code, stdout, stderr). Never a traceback."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    assert "internal error" not in err
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    assert lines[0].startswith("soacc-run: ") and lines[0].count("error: ") == 1  # said once, located or not
    return lines[0]


def save(tmp_path: Path, name: str, array) -> str:
    path = tmp_path / name
    np.save(path, array)
    return str(path)


# --------------------------------------------------------------------------------------
# Happy paths
# --------------------------------------------------------------------------------------


def test_npy_arguments(capsys, tmp_path):
    a = save(tmp_path, "a.npy", np.arange(5, dtype=np.float32))
    b = save(tmp_path, "b.npy", np.full(5, 2, dtype=np.float32))
    code, out, err = soacc_run(capsys, example("dot_product"), "--arg", a, "--arg", b)
    assert code == 0
    assert out == "result 0: f32 = 20.0\n"
    assert "running @main on the CPU reference executor" in err


def test_scalar_literals(capsys):
    code, out, _ = soacc_run(capsys, example("mandelbrot"), "--arg", "4", "--arg", "3")
    assert code == 0
    expected = load_example_definition("mandelbrot").reference(np.int64(4), np.int64(3))
    assert out.startswith("result 0: tensor<?xi32> of shape [12] =\n")
    printed = [int(v) for v in re.findall(r"-?\d+", out.split("=\n", 1)[1])]
    assert printed == expected.tolist()


def test_json_list_literals_and_multiple_results(capsys):
    code, out, _ = soacc_run(capsys, example("prefix_sum"), "--arg", "[1, 2, 3, 4]")
    assert code == 0
    assert out == (
        "result 0: tensor<?xi32> of shape [4] =\n[ 1,  3,  6, 10]\n"
        "result 1: tensor<?xi32> of shape [4] =\n[0, 1, 3, 6]\n"
    )


def test_two_dimensional_list_and_float_scalar(capsys):
    code, out, _ = soacc_run(capsys, example("row_sums"), "--arg", "[[1, 2.5], [3, 4]]")
    assert code == 0
    assert "result 0: tensor<?xf32> of shape [2] =\n[3.5, 7. ]" in out
    assert "result 1: tensor<?xf32> of shape [2] =\n[2.5, 4. ]" in out
    code, out, _ = soacc_run(
        capsys, example("linear_recurrence"),
        "--arg", "[0.5, 0.5]", "--arg", "[1, 1]", "--arg", "1.5",
    )
    assert code == 0
    assert out.splitlines()[-1] == "result 1: f64 = 1.875"


def test_large_result_is_summarised(capsys):
    code, out, _ = soacc_run(capsys, example("mandelbrot"), "--arg", "100", "--arg", "100")
    assert code == 0
    assert out.startswith("result 0: tensor<?xi32> of shape [10000] =\n")
    assert "..." in out
    assert "(10000 elements; --out DIR writes them all)" in out
    assert len(out.splitlines()) <= 4


def test_out_writes_every_result_with_its_dtype(capsys, tmp_path):
    ex = load_example_definition("filter")
    x, t, above = ex.make_inputs(np.random.default_rng(0), 50)
    xs = save(tmp_path, "x.npy", x)
    out_dir = tmp_path / "results"  # does not exist yet: created
    code, out, _ = soacc_run(
        capsys,
        example("filter"),
        "--arg", xs, "--arg", str(float(t)), "--arg", "true" if above else "false",
        "--out", out_dir,
    )
    assert code == 0
    expected = ex.reference(x, t, above)
    assert out.splitlines() == [str(out_dir / f"result{i}.npy") for i in range(len(expected))]
    assert sorted(p.name for p in out_dir.iterdir()) == [f"result{i}.npy" for i in range(5)]
    dtypes = [np.float32, np.int64, np.bool_, np.int64, np.bool_]
    for i, (want, dtype) in enumerate(zip(expected, dtypes)):
        got = np.load(out_dir / f"result{i}.npy")
        assert got.dtype == dtype, f"result{i}"
        assert got.shape == np.shape(want), f"result{i}"
        np.testing.assert_array_equal(got, want)


def test_quiet_prints_only_results(capsys):
    code, out, err = soacc_run(capsys, example("prefix_sum"), "--arg", "[5]", "--quiet")
    assert code == 0
    assert err == ""
    assert out.startswith("result 0: tensor<?xi32> of shape [1] =\n[5]\n")


def test_entry_runs_another_function(capsys, prog):
    code, out, err = soacc_run(capsys, prog("entries.mlir"), "--entry", "twice", "--arg", "21")
    assert code == 0
    assert out == "result 0: i32 = 42\n"
    assert "running @twice" in err


def test_backend_numpy(capsys):
    code, out, err = soacc_run(
        capsys, example("dot_product"), "--backend", "numpy", "--arg", "[1, 2]", "--arg", "[3, 4]"
    )
    assert code == 0
    assert out == "result 0: f32 = 11.0\n"
    assert "the CPU reference executor (NumPy)" in err


def test_profile_needs_the_gpu(capsys):
    code, out, err = soacc_run(
        capsys, example("dot_product"), "--backend", "numpy", "--profile", "--arg", "[1, 2]", "--arg", "[3, 4]"
    )
    assert code == 2 and out == ""
    assert "profiling times kernels on the GPU; this program runs on the CPU reference executor" in one_error_line(err)


# --------------------------------------------------------------------------------------
# Bad input: exit 2, one line that names the argument
# --------------------------------------------------------------------------------------


def test_wrong_number_of_arguments(capsys):
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", "[1]")
    assert code == 2
    line = one_error_line(err)
    assert "@main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (f32)" in line
    assert "takes 2 argument(s), 1 given with --arg" in line


def test_wrong_dtype_in_npy(capsys, tmp_path):
    a = save(tmp_path, "a.npy", np.zeros(3, dtype=np.float64))
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", a, "--arg", "[1, 2, 3]")
    assert code == 2
    line = one_error_line(err)
    assert "argument 0 (%a)" in line
    assert "expected float32 array" in line and "got float64 array" in line


def test_wrong_rank(capsys, tmp_path):
    b = save(tmp_path, "b.npy", np.zeros((3, 3), dtype=np.float32))
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", "[1, 2, 3]", "--arg", b)
    assert code == 2
    line = one_error_line(err)
    assert "argument 1 (%b)" in line
    assert "shape [?]" in line and "shape [3, 3]" in line


def test_wrong_static_dimension(capsys, prog, tmp_path):
    a = save(tmp_path, "a.npy", np.zeros((4, 2), dtype=np.float32))
    code, _, err = soacc_run(capsys, prog("static.mlir"), "--arg", a)
    assert code == 2
    line = one_error_line(err)
    assert "argument 0 (%a)" in line
    assert "dimension 0 must be 3" in line


def test_missing_npy(capsys, tmp_path):
    missing = tmp_path / "missing.npy"
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", missing, "--arg", "[1]")
    assert code == 2
    line = one_error_line(err)
    assert "argument 0 (%a)" in line
    assert f"cannot read {missing}" in line and "No such file or directory" in line


def test_junk_npy(capsys, tmp_path):
    junk = tmp_path / "junk.npy"
    junk.write_bytes(b"this is not an array file")
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", "[1]", "--arg", junk)
    assert code == 2
    line = one_error_line(err)
    assert "argument 1 (%b)" in line
    assert "is not a NumPy .npy array file" in line


def test_list_for_a_scalar(capsys):
    code, _, err = soacc_run(capsys, example("mandelbrot"), "--arg", "[4]", "--arg", "3")
    assert code == 2
    line = one_error_line(err)
    assert "argument 0 (%width)" in line
    assert "expected a scalar (index), got a list" in line


def test_scalar_for_a_tensor(capsys):
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", "[1]", "--arg", "3")
    assert code == 2
    line = one_error_line(err)
    assert "argument 1 (%b)" in line
    assert "expected an array (tensor<?xf32>)" in line


def test_float_literal_for_an_index(capsys):
    code, _, err = soacc_run(capsys, example("mandelbrot"), "--arg", "4", "--arg", "2.5")
    assert code == 2
    line = one_error_line(err)
    assert "argument 1 (%height)" in line
    assert "got float 2.5" in line


def test_int_literal_out_of_range_for_i32(capsys, prog):
    code, _, err = soacc_run(
        capsys, prog("entries.mlir"), "--entry", "twice", "--arg", "3000000000"
    )
    assert code == 2
    line = one_error_line(err)
    assert "argument 0 (%n)" in line
    assert "3000000000 does not fit int32 scalar (i32)" in line


def test_list_elements_that_do_not_fit(capsys):
    for bad in ("[1.5]", "[3000000000]", '["x"]'):
        code, _, err = soacc_run(capsys, example("prefix_sum"), "--arg", bad)
        assert code == 2, bad
        line = one_error_line(err)
        assert "argument 0 (%a)" in line and "do not fit tensor<?xi32>" in line


def test_non_literal_text(capsys):
    code, _, err = soacc_run(capsys, example("dot_product"), "--arg", "[1]", "--arg", "b.txt")
    assert code == 2
    line = one_error_line(err)
    assert "argument 1 (%b)" in line
    assert "'b.txt' is neither a .npy file nor a literal" in line


def test_unknown_entry(capsys):
    code, _, err = soacc_run(capsys, example("dot_product"), "--entry", "nope")
    assert code == 2
    assert one_error_line(err) == (
        "soacc-run: error: no public function @nope; the program has @main"
    )


def test_unknown_backend(capsys):
    code, out, err = soacc_run(capsys, example("dot_product"), "--backend", "cuda9")
    assert code == 2
    assert out == ""
    assert "argument --backend: invalid choice: 'cuda9'" in err


def test_missing_program_file(capsys, tmp_path):
    missing = tmp_path / "nope.mlir"
    code, _, err = soacc_run(capsys, missing)
    assert code == 2
    line = one_error_line(err)
    assert str(missing) in line and "No such file or directory" in line


def test_ragged_list(capsys):
    code, _, err = soacc_run(capsys, example("row_sums"), "--arg", "[[1], [2, 3]]")
    assert code == 2
    assert "argument 0 (%a)" in one_error_line(err)


# --------------------------------------------------------------------------------------
# Bad programs and failed runs: exit 1
# --------------------------------------------------------------------------------------


def test_parse_error_has_location(capsys, prog):
    path = prog("bad_parse.mlir")
    code, out, err = soacc_run(capsys, path, "--arg", "[1]")
    assert code == 1
    assert out == ""
    assert err.startswith(f"soacc-run: error: {path}:3:41\n")
    assert "Expected ')'" in err


def test_unknown_op(capsys, prog):
    path = prog("unknown_op.mlir")
    code, _, err = soacc_run(capsys, path, "--arg", "[1]")
    assert code == 1
    assert err.startswith(f"soacc-run: error: {path}:2:24\n")
    assert "Operation soac.frobnicate is not registered" in err


def test_verifier_error_has_location(capsys, prog):
    path = prog("bad_verify.mlir")
    code, _, err = soacc_run(capsys, path, "--arg", "[1]")
    assert code == 1
    line = one_error_line(err)
    assert line == (
        f"soacc-run: {path}:2:3: error: soac.map lambda parameters are (f64); "
        "expected (f32)"
    )


def test_execution_error_names_the_op(capsys, prog):
    code, out, err = soacc_run(capsys, prog("entries.mlir"), "--arg", "[1, 2, 3]", "--arg", "5")
    assert code == 1
    assert out == ""
    assert err.splitlines()[-1] == (
        "soacc-run: error: mem.load %x in @main: index 5 is out of bounds for dimension 0 "
        "of size 3 of %a"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--arg", "[1, 2, 3]", "--arg", "5"],  # fails while running
        ["--arg", "[1, 2, 3]", "--arg", "2.5"],  # a bad argument
    ],
    ids=["execution-error", "bad-argument"],
)
def test_out_writes_nothing_on_failure(capsys, prog, tmp_path, args):
    fresh = tmp_path / "fresh"
    code, out, _ = soacc_run(capsys, prog("entries.mlir"), *args, "--out", fresh)
    assert code != 0 and out == ""
    assert not fresh.exists() or not any(fresh.iterdir())
    # an earlier run's results are left as they were
    old = tmp_path / "old"
    old.mkdir()
    np.save(old / "result0.npy", np.float32(-1))
    code, _, _ = soacc_run(capsys, prog("entries.mlir"), *args, "--out", old)
    assert code != 0
    assert [p.name for p in old.iterdir()] == ["result0.npy"]
    assert np.load(old / "result0.npy") == np.float32(-1)


def test_out_files_have_ordinary_permissions(capsys, prog, tmp_path):
    code, _, _ = soacc_run(
        capsys, prog("entries.mlir"), "--arg", "[1]", "--arg", "0", "--out", tmp_path
    )
    assert code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "result0.npy").stat().st_mode & 0o777 == 0o666 & ~umask


# --------------------------------------------------------------------------------------
# The installed console script
# --------------------------------------------------------------------------------------


def console_script(name: str, module: str) -> list[str]:
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    return [found] if found else [sys.executable, "-m", module]


def test_console_script(tmp_path):
    cmd = console_script("soacc-run", "soacc.tools.soacc_run")
    ok = subprocess.run(
        [*cmd, example("prefix_sum"), "--arg", "[1, 2]", "--quiet"],
        capture_output=True, text=True, timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("result 0: tensor<?xi32> of shape [2] =\n[1, 3]\n")
    bad = subprocess.run(
        [*cmd, example("prefix_sum"), "--arg", "[1.5]"], capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert bad.stderr.strip() == (
        "soacc-run: error: argument 0 (%a): the list's elements do not fit tensor<?xi32>"
    )


def test_big_endian_npy_is_read_in_native_order(capsys, tmp_path):
    a = save(tmp_path, "a.npy", np.array([1.0, 2.0, 3.0], dtype=">f4"))
    b = save(tmp_path, "b.npy", np.array([1.0, 1.0, 2.0], dtype="<f4"))
    status, out, err = soacc_run(capsys, example("dot_product"), "--arg", a, "--arg", b, "--quiet")
    assert status == 0, err
    assert "= 9.0" in out


def test_bool_literal_for_an_integer_parameter_is_rejected(capsys, prog):
    status, _, err = soacc_run(capsys, prog("entries.mlir"), "--entry", "twice", "--arg", "true")
    assert status == 2
    assert "argument 0 (%n)" in one_error_line(err)
