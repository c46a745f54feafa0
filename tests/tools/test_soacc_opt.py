"""soacc-opt: xdsl-opt with soacc's dialects; bad input gives a located message and an
exit code (1: a bad program, 2: a bad command line or file), never a traceback.

The tool's `main(argv)` runs in-process; the console scripts (soacc-opt, and plain
xdsl-opt seeing the soac dialect) run once each as subprocesses."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from xdsl.xdsl_opt_main import xDSLOptMain

from soacc.program import make_context
from soacc.source import LocatingParser
from soacc.tools.soacc_opt import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# tests/examples round-trips every example; here two, checked as modules too
ROUND_TRIP_EXAMPLES = ["dot_product", "linear_recurrence"]

BAD_PARSE = """\
func.func @main(%a: tensor<?xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32 : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return %s : f32
}
"""  # the missing `)` is at 3:41

UNKNOWN_OP = """\
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.frobnicate %a : tensor<?xf32>
  func.return %b : tensor<?xf32>
}
"""  # at 2:24

BAD_VERIFY = """\
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f64):
    soac.yield %x : f64
  }
  func.return %b : tensor<?xf32>
}
"""  # the soac.map at 2:3
VERIFY_MESSAGE = "soac.map lambda parameters are (f64); expected (f32)"


def soacc_opt(capsys, *argv) -> tuple[int, str, str]:
    """Runs the tool in-process: (exit code, stdout, stderr). Never a traceback."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    assert "internal error" not in err
    return code, out, err


def xdsl_opt(capsys, *argv) -> tuple[int, str, str]:
    """Plain xdsl-opt, in-process."""
    xDSLOptMain(args=[str(a) for a in argv]).run()
    out, err = capsys.readouterr()
    return 0, out, err


@pytest.fixture
def write(tmp_path: Path):
    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


# --------------------------------------------------------------------------------------
# Good input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ROUND_TRIP_EXAMPLES)
def test_round_trip(capsys, tmp_path, name):
    source = EXAMPLES / f"{name}.mlir"
    code, printed, err = soacc_opt(capsys, source)
    assert code == 0 and err == ""
    # printing what was printed gives the same text ...
    again = tmp_path / "again.mlir"
    again.write_text(printed)
    code, reprinted, _ = soacc_opt(capsys, again)
    assert code == 0
    assert reprinted == printed
    # ... and the same module as the source
    original = LocatingParser(make_context(), source.read_text(), str(source)).parse_module()
    round_tripped = LocatingParser(make_context(), printed, "printed").parse_module()
    assert original.is_structurally_equivalent(round_tripped)


def test_same_output_as_xdsl_opt(capsys):
    source = EXAMPLES / "dot_product.mlir"
    _, ours, _ = soacc_opt(capsys, source)
    _, theirs, _ = xdsl_opt(capsys, source)
    assert ours == theirs
    assert "soac.reduce(%prod) neutral(%zero : f32) commutative" in ours


def test_output_file(capsys, tmp_path):
    out = tmp_path / "out.mlir"
    code, printed, _ = soacc_opt(capsys, EXAMPLES / "prefix_sum.mlir", "-o", out)
    assert code == 0 and printed == ""
    _, expected, _ = soacc_opt(capsys, EXAMPLES / "prefix_sum.mlir")
    assert out.read_text() == expected


def test_known_passes_run(capsys):
    code, out, _ = soacc_opt(capsys, "-p", "canonicalize,cse", EXAMPLES / "dot_product.mlir")
    assert code == 0
    assert "soac.map" in out and "soac.reduce" in out


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


def test_unknown_pass(capsys):
    code, out, err = soacc_opt(capsys, "-p", "no-such-pass", EXAMPLES / "dot_product.mlir")
    assert code == 2
    assert out == ""
    assert err.strip() == "soacc-opt: error: Unrecognized passes: ['no-such-pass']"


def test_parse_error_has_location(capsys, write):
    path = write("bad.mlir", BAD_PARSE)
    code, out, err = soacc_opt(capsys, path)
    assert code == 1
    assert out == ""
    assert err.startswith(f"{path}:3:41\n")
    assert "Expected ')'" in err


def test_unknown_op(capsys, write):
    path = write("unknown.mlir", UNKNOWN_OP)
    code, out, err = soacc_opt(capsys, path)
    assert code == 1
    assert out == ""
    assert err.startswith(f"{path}:2:24\n")
    assert "Operation soac.frobnicate is not registered" in err


def test_verifier_error_has_location(capsys, write):
    path = write("invalid.mlir", BAD_VERIFY)
    code, out, err = soacc_opt(capsys, path)
    assert code == 1
    assert out == ""
    first, *notes = err.splitlines()
    assert first == f"{path}:2:3: error: {VERIFY_MESSAGE}"
    # followed by the annotated IR, pointing at the op
    assert any(f"Operation does not verify: {VERIFY_MESSAGE}" in n for n in notes)


def test_locations_in_split_input_count_from_the_file(capsys, write):
    good = (EXAMPLES / "prefix_sum.mlir").read_text()
    text = f"{good}// -----\n{BAD_VERIFY}"
    path = write("split.mlir", text)
    line = text.splitlines().index(BAD_VERIFY.splitlines()[1]) + 1
    code, _, err = soacc_opt(capsys, "--split-input-file", path)
    assert code == 1
    assert err.splitlines()[0] == f"{path}:{line}:3: error: {VERIFY_MESSAGE}"


def test_missing_input_file(capsys, tmp_path):
    missing = tmp_path / "missing.mlir"
    code, out, err = soacc_opt(capsys, missing)
    assert code == 2
    assert out == ""
    assert err.strip() == f"soacc-opt: error: cannot access {missing}: No such file or directory"


@pytest.mark.parametrize(
    "text", [BAD_PARSE, UNKNOWN_OP, BAD_VERIFY], ids=["parse", "unknown-op", "verify"]
)
def test_output_file_not_left_on_failure(capsys, write, tmp_path, text):
    out = tmp_path / "out.mlir"
    code, _, _ = soacc_opt(capsys, write("in.mlir", text), "-o", out)
    assert code == 1
    assert not out.exists()
    code, _, _ = soacc_opt(capsys, write("in.mlir", text), f"--output-file={out}")
    assert code == 1
    assert not out.exists()


def test_output_file_not_left_on_unknown_pass(capsys, tmp_path):
    out = tmp_path / "out.mlir"
    code, _, _ = soacc_opt(capsys, "-p", "no-such-pass", EXAMPLES / "dot_product.mlir", "-o", out)
    assert code == 2
    assert not out.exists()


def test_existing_output_file_kept_on_failure(capsys, write, tmp_path):
    out = write("out.mlir", "// the previous output\n")
    code, _, _ = soacc_opt(capsys, write("in.mlir", BAD_VERIFY), "-o", out)
    assert code == 1
    assert out.read_text() == "// the previous output\n"


def test_attached_output_file_not_left_on_failure(capsys, write, tmp_path):
    out = tmp_path / "out.mlir"
    code, _, _ = soacc_opt(capsys, write("in.mlir", BAD_VERIFY), f"-o{out}")
    assert code == 1
    assert not out.exists()


# --------------------------------------------------------------------------------------
# --verify-diagnostics: as in xdsl-opt
# --------------------------------------------------------------------------------------


def test_verify_diagnostics_like_xdsl_opt(capsys, write):
    path = write("invalid.mlir", BAD_VERIFY)
    code, ours, err = soacc_opt(capsys, "--verify-diagnostics", path)
    assert code == 0
    assert err == ""
    assert ours.splitlines()[0] == VERIFY_MESSAGE
    _, theirs, _ = xdsl_opt(capsys, "--verify-diagnostics", path)
    assert ours == theirs


def test_verify_diagnostics_of_a_valid_program(capsys):
    source = EXAMPLES / "dot_product.mlir"
    code, ours, _ = soacc_opt(capsys, "--verify-diagnostics", source)
    assert code == 0
    _, theirs, _ = xdsl_opt(capsys, "--verify-diagnostics", source)
    assert ours == theirs


# --------------------------------------------------------------------------------------
# The console scripts
# --------------------------------------------------------------------------------------


def console_script(name: str, module: str) -> list[str]:
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    return [found] if found else [sys.executable, "-m", module]


def test_console_script(write):
    cmd = console_script("soacc-opt", "soacc.tools.soacc_opt")
    ok = subprocess.run(
        [*cmd, str(EXAMPLES / "dot_product.mlir")], capture_output=True, text=True, timeout=120
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("builtin.module {\n  func.func @main(")
    path = write("invalid.mlir", BAD_VERIFY)
    bad = subprocess.run([*cmd, str(path)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert bad.stderr.splitlines()[0] == f"{path}:2:3: error: {VERIFY_MESSAGE}"


def test_plain_xdsl_opt_sees_the_soac_dialect():
    cmd = console_script("xdsl-opt", "xdsl.tools.xdsl_opt")
    done = subprocess.run(
        [*cmd, str(EXAMPLES / "dot_product.mlir")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "soac.map(%a, %b)" in done.stdout


def test_dash_reads_standard_input(monkeypatch, capsys):
    import io

    from soacc.tools.soacc_opt import main as opt_main

    text = (ROOT / "examples" / "dot_product.mlir").read_text()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert opt_main(["-"]) == 0
    assert "soac.reduce" in capsys.readouterr().out


# --------------------------------------------------------------------------------------
# -o writes what is at the path the way `>` would: never replacing a link, a mode or a
# special file with a new regular file
# --------------------------------------------------------------------------------------


def expected_output(capsys) -> str:
    _, printed, _ = soacc_opt(capsys, EXAMPLES / "dot_product.mlir")
    return printed


def test_output_through_a_symlink_writes_its_target(capsys, tmp_path):
    target = tmp_path / "real.mlir"
    target.write_text("// old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to("real.mlir")
    code, _, _ = soacc_opt(capsys, EXAMPLES / "dot_product.mlir", "-o", link)
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == "real.mlir"
    assert target.read_text() == expected_output(capsys)


def test_output_keeps_the_file_mode(capsys, tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("// old\n")
    out.chmod(0o640)
    code, _, _ = soacc_opt(capsys, EXAMPLES / "dot_product.mlir", "-o", out)
    assert code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text() == expected_output(capsys)


def test_output_to_a_fifo_writes_into_it(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, _ = soacc_opt(capsys, EXAMPLES / "dot_product.mlir", "-o", fifo)
    reader.join(timeout=60)
    assert code == 0
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received == [expected_output(capsys).encode()]


def test_output_to_dev_null_leaves_it_a_device(capsys, null_device):
    code, _, _ = soacc_opt(capsys, EXAMPLES / "dot_product.mlir", "-o", null_device)
    assert code == 0
    assert stat.S_ISCHR(os.stat(null_device).st_mode)


def test_failed_write_names_the_users_path(capsys, tmp_path):
    out = tmp_path / "no-such-directory" / "out.mlir"
    code, _, err = soacc_opt(capsys, EXAMPLES / "dot_product.mlir", "-o", out)
    assert code == 2
    assert err.strip() == f"soacc-opt: error: cannot access {out}: No such file or directory"
