"""Bad input to soacc-opt and soacc-run, one case per class of the reliability review:
each is a clear message and a non-zero exit (1 for a bad program, 2 for a bad call),
never an internal error or a traceback, and never a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from soacc.tools import soacc_opt, soacc_run

DEEP = "func.func @main() {" + '"test.op"() ({' * 400 + "}) : () -> ()" * 400 + " func.return }"

CASES: dict[str, tuple[str, bytes, list[str], str]] = {
    # name: (tool, file content, extra arguments, a part of the expected message)
    "not utf-8": ("opt", b"\xff\xfe bad", [], "is not UTF-8 text: byte 0xff at offset 0"),
    "not utf-8 (run)": ("run", b"\xff\xfe bad", [], "is not UTF-8 text"),
    "nested past the recursion limit": ("opt", DEEP.encode(), [], "nests regions too deeply"),
    "nested past the recursion limit (run)": ("run", DEEP.encode(), [], "nests regions too deeply"),
    "unclosed string literal": ("opt", b'"' + b"x" * 80, [], "closing string literal"),
    "float literal out of range": (
        "opt",
        b"func.func @main() -> f32 {\n  %a = arith.constant 0x7FF0000000000000 : f32\n  func.return %a : f32\n}\n",
        [],
        "a literal is out of range for its type",
    ),
    "index literal beyond 64 bits": (
        "run",
        b"func.func @main() -> index {\n  %a = arith.constant 99999999999999999999999 : index\n  func.return %a : index\n}\n",
        [],
        "does not fit index (64 bits)",
    ),
    "branches between blocks": (
        "run",
        b"func.func @main(%c: i1) -> i32 {\n  cf.cond_br %c, ^a, ^b\n^a:\n  %x = arith.constant 1 : i32\n  func.return %x : i32\n"
        b"^b:\n  %y = arith.constant 2 : i32\n  func.return %y : i32\n}\n",
        ["--arg", "true"],
        "soacc compiles structured control flow",
    ),
    "branches between blocks (passes)": (
        "opt",
        b"func.func @main(%c: i1) {\n  cf.cond_br %c, ^a, ^a\n^a:\n  func.return\n}\n",
        ["-p", "soacc-pipeline"],
        "soacc compiles structured control flow",
    ),
    "a target xDSL has but soacc cannot print": ("opt", b"func.func @main() {\n  func.return\n}\n", ["-t", "llvm"], "invalid choice: 'llvm'"),
    "the cuda target on level 1": (
        "opt",
        Path("examples/dot_product.mlir").read_bytes() if Path("examples/dot_product.mlir").exists() else b"",
        ["-t", "cuda"],
        "run -p soacc-pipeline",
    ),
}


def _run(tool: str, path: Path, extra: list[str], capsys) -> tuple[int, str]:
    try:
        if tool == "opt":
            code = soacc_opt.main([str(path), *extra])
        else:
            code = soacc_run.main([str(path), "--quiet", *extra])
    except SystemExit as exit:  # argparse's usage errors
        code = exit.code
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_a_clear_error(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    tool, content, extra, message = CASES[name]
    path = tmp_path / "program.txt"  # any name is read as MLIR
    path.write_bytes(content)
    code, output = _run(tool, path, extra, capsys)
    assert code in (1, 2), output
    assert "internal error" not in output and "Traceback" not in output, output
    assert message in output


def test_any_file_name_is_read_as_mlir(tmp_path, capsys):
    path = tmp_path / "program.txt"
    path.write_text("func.func @main() {\n  func.return\n}\n")
    assert soacc_opt.main([str(path)]) == 0
    assert "func.func @main" in capsys.readouterr().out


@pytest.mark.parametrize("tool", ["opt", "run"])
def test_an_endless_device_is_refused_not_read_forever(tool, capsys):
    code, output = _run(tool, Path("/dev/zero"), [], capsys)
    assert code in (1, 2) and "larger than 256 MiB" in output


def _bad_npy_files(folder: Path) -> dict[str, Path]:
    import io
    import zipfile

    import numpy as np

    good = io.BytesIO()
    np.save(good, np.arange(3, dtype=np.float32))
    files = {
        "empty": b"",
        "truncated": good.getvalue()[:-4],
        "a malformed header": b"\x93NUMPY\x01\x00\xff\xff" + b" " * 100,
    }
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a.npy", good.getvalue())
    files["an .npz renamed"] = archive.getvalue()
    paths = {}
    for name, content in files.items():
        paths[name] = folder / f"{name.replace(' ', '_')}.npy"
        paths[name].write_bytes(content)
    return paths


@pytest.mark.parametrize("name", ["empty", "truncated", "a malformed header", "an .npz renamed"])
def test_a_bad_npy_argument_is_a_usage_error(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    path = _bad_npy_files(tmp_path)[name]
    code = soacc_run.main(["examples/vector_norm.mlir", "--quiet", "--arg", str(path)])
    output = capsys.readouterr().err
    assert code == 2 and "is not a NumPy .npy array file" in output, output


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "-3"], "must be at least 1"),
        (["--seed", "-1"], "must be from 0 to 2**64 - 1"),
        (["--size", "99999999999999", "dot_product"], "do not fit in this machine's memory"),
    ],
)
def test_soacc_examples_refuses_bad_arguments(argv, message, capsys, monkeypatch):
    from soacc.tools import examples

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    try:
        code = examples.main(argv)
    except SystemExit as exit:
        code = exit.code
    output = capsys.readouterr().err
    assert code == 2 and message in output, output


def test_soacc_examples_on_broken_examples(tmp_path, capsys):
    from soacc.tools import examples

    (tmp_path / "a.mlir").write_text("func.func @other() {\n  func.return\n}\n")
    (tmp_path / "a.py").write_text("def make_inputs(rng, n):\n    return ()\n\ndef reference():\n    return ()\n")
    assert examples.main(["--dir", str(tmp_path)]) == 1
    assert "a.mlir has no public function @main" in capsys.readouterr().out
    (tmp_path / "a.py").write_text('raise RuntimeError("boom")\n')
    assert examples.main(["--dir", str(tmp_path)]) == 1
    assert "the example's definition fails to load: RuntimeError: boom" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("func.func @main(%a: index) -> index {\n  %x = arith.addi %a, %a : index\n}\n", ":2:3: error: arith.addi ends a block of func.func but is not a terminator"),
        ("func.func @main(%a: index) -> index {\n}\n", ":1:1: error: func.func has an empty block"),
        ("func.func @main(%a: index) -> index {\n  %x = arith.addi %a, %a : index\n  %x = arith.addi %a, %a : index\n  func.return %x : index\n}\n", ":3:3"),
        ("func.func @main(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32\n  func.return %y : f32\n}\n", ":3:15"),
        ("func.func @main() {\n  func.return\n}\nfunc.func @main() {\n  func.return\n}\n", ":4:1: error: func.func @main is defined twice"),
        ("func.func @main(%c: i1) {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n^bb1:\n  func.return\n}\n", ":5:1"),
        ("func.func @main() {\n  func.return", ":2:14"),
        ("func.func @main() -> f32 {\n  %x = arith.constant 1.0 : f32 {foo = 1}\n  func.return %x : f32\n}\n", ":2:33"),
    ],
    ids=["not a terminator", "empty block", "redefinition", "undefined value", "symbol defined twice", "block defined twice", "text ends in a region", "a stray token"],
)
def test_every_diagnostic_about_the_text_is_located_and_says_error_once(content, message, tmp_path, capsys):
    path = tmp_path / "p.mlir"
    path.write_text(content)
    for main in (soacc_opt.main, soacc_run.main):
        code = main([str(path)])
        err = capsys.readouterr().err
        assert code == 1 and message in err, err
        assert err.count("error:") <= 1 or "SSA value" in err, err


def test_a_pass_on_a_program_of_another_level_warns(capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    assert soacc_opt.main(["examples/dot_product.mlir", "-p", "convert-soac-to-mem,soac-fusion,memory-reuse"]) == 0
    err = capsys.readouterr().err
    assert "warning: soac-fusion works on soac ops; the program has none" in err
    assert "memory-reuse" not in err  # level 2 is memory-reuse's level


@pytest.mark.parametrize("command", ["soacc-run examples/vector_norm.mlir --arg '[1,2]' --quiet", "soacc-opt examples/vector_norm.mlir"])
def test_a_closed_standard_output_is_an_error_not_lost_output(command):
    import os
    import subprocess
    import sys

    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        ["bash", "-c", f"{command} >&-"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        timeout=120,
    )
    assert done.returncode == 2 and "standard output is closed" in done.stderr, done.stderr


def test_out_naming_a_file_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    taken = tmp_path / "results"
    taken.write_text("not a directory")
    code = soacc_run.main(["examples/vector_norm.mlir", "--quiet", "--arg", "[3, 4]", "--out", str(taken)])
    err = capsys.readouterr().err
    assert code == 2 and "is a file; --out names a directory" in err, err
    assert taken.read_text() == "not a directory"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("func.func @main() {\n  func.return", "the text ends inside a region: a '}' is missing"),
        ("func.func @main() -> f32 {\n  %x = arith.constant 1.0 : f32 {foo = 1}\n  func.return %x : f32\n}\n", "found '{'"),
        ("func.func @main(%a: f32) -> f32 {\n  func.return %y : f32\n}\n", "%y is used but never defined"),
    ],
    ids=["text ends in a region", "a stray token", "undefined value"],
)
def test_parse_errors_say_what_is_wrong(content, message, tmp_path, capsys):
    # (xDSL 0.74 said " in block definition" for the first two, and named the end of
    # the file for the third)
    path = tmp_path / "p.mlir"
    path.write_text(content)
    assert soacc_opt.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err, err
