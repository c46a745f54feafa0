"""Every example program: its results equal its NumPy definition (through the library
and through soacc-run), and it round-trips through soacc-opt and plain xdsl-opt."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.printer import Printer

import soacc
from soacc.program import parse_program
from soacc.tools import soacc_run
from soacc.tools.examples import as_tuple, load_examples, mismatch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
IDS = [e.name for e in EXAMPLES]


def test_there_are_enough_examples():
    assert len(EXAMPLES) >= 8


LEVELS = {
    "level1": "",
    "level2": "convert-soac-to-mem",
    # xDSL's generic clean-ups must not break level 2 (kernels declare their effects)
    "level2-cleaned": "convert-soac-to-mem,canonicalize,cse",
    # with soac-fusion (soacc-pipeline{fusion=true} runs it there, before bufferisation)
    "level1-fused": "canonicalize,cse,soac-fusion",
    "level2-fused": "canonicalize,cse,soac-fusion,convert-soac-to-mem",
}


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("size", [0, 1, 2, 7, 100])
@pytest.mark.parametrize("level", LEVELS)
def test_example_matches_numpy(example, size, level):
    program = soacc.compile(example.program_path, backend="numpy", pipeline=LEVELS[level])
    for seed in (0, 1):
        args = example.make_inputs(np.random.default_rng(seed), size)
        got = program.main(*args)
        assert mismatch(got, example.reference(*args), example.rtol, example.atol) is None


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_bufferisation_keeps_every_example_exactly(example):
    """Differential: the program as written (level 1) and bufferised (level 2, with real
    aliasing) give bit-identical results."""
    level1 = soacc.compile(example.program_path, backend="numpy", pipeline="")
    level2 = soacc.compile(example.program_path, backend="numpy", pipeline="convert-soac-to-mem")
    for size in (0, 3, 50):
        args = example.make_inputs(np.random.default_rng(size), size)
        assert mismatch(level2.main(*args), level1.main(*args), 0.0, 0.0) is None


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_at_default_size(example):
    args = example.make_inputs(np.random.default_rng(7), example.default_size)
    got = example.compile("numpy").main(*args)
    assert mismatch(got, example.reference(*args), example.rtol, example.atol) is None


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_under_soacc_run(example, tmp_path, capsys):
    args = example.make_inputs(np.random.default_rng(3), 50)
    arg_files = []
    for i, a in enumerate(args):
        path = tmp_path / f"arg{i}.npy"
        np.save(path, np.asarray(a))
        arg_files += ["--arg", str(path)]
    out = tmp_path / "out"
    status = soacc_run.main([str(example.program_path), *arg_files, "--out", str(out), "--quiet"])
    assert status == 0, capsys.readouterr().err
    expected = as_tuple(example.reference(*args))
    got = tuple(
        (lambda v: v[()] if v.ndim == 0 else v)(np.load(out / f"result{i}.npy"))
        for i in range(len(expected))
    )
    assert mismatch(got, expected, example.rtol, example.atol) is None


def _print(module, generic: bool) -> str:
    from io import StringIO

    stream = StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_round_trips(example):
    text = example.program_path.read_text()
    module = parse_program(text)
    custom = _print(module, generic=False)
    assert _print(parse_program(custom), generic=False) == custom
    generic = _print(module, generic=True)
    assert _print(parse_program(generic), generic=False) == custom


def _tool(name: str) -> list[str]:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed next to this Python")
    return [found]


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["soacc-opt", "xdsl-opt"])
def test_opt_tools_round_trip_every_example(tool, tmp_path):
    """custom -> generic -> custom gives what custom -> custom gives, for all examples
    at once (one process per step: the tools take a second to start)."""
    joined = tmp_path / "all.mlir"
    joined.write_text("\n// -----\n".join(e.program_path.read_text() for e in EXAMPLES))

    def run(*args: str, stdin: str | None = None) -> str:
        return subprocess.run(
            [*_tool(tool), *args, "--split-input-file"],
            input=stdin, capture_output=True, text=True, check=True,
        ).stdout

    generic = run(str(joined), "--print-op-generic")
    assert generic.count('"func.func"') >= len(EXAMPLES)
    assert run(stdin=generic) == run(str(joined))


def test_a_definition_may_name_a_program_elsewhere_and_helpers_are_not_examples(tmp_path):
    """load_examples: a .py that sets PROGRAM (relative to itself) and has no .mlir
    beside it runs that program; a .py with neither is a helper, not an example."""
    (tmp_path / "programs").mkdir()
    (tmp_path / "programs" / "twice.mlir").write_text(
        "func.func @main(%a: tensor<?xi64>) -> tensor<?xi64> {\n"
        "  %b = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {\n"
        "  ^bb0(%x: i64):\n    %y = arith.addi %x, %x : i64\n    soac.yield %y : i64\n  }\n"
        "  func.return %b : tensor<?xi64>\n}\n"
    )
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "big.py").write_text(
        'import numpy as np\nPROGRAM = "../programs/twice.mlir"\nDEFAULT_SIZE = 5\n'
        "def make_inputs(rng, size):\n    return (np.arange(size, dtype=np.int64),)\n"
        "def reference(a):\n    return 2 * a\n"
    )
    (bench / "helper.py").write_text("raise AssertionError('a helper module is not loaded as an example')\n")
    (found,) = load_examples(bench)
    assert found.name == "big"
    assert found.program_path == (tmp_path / "programs" / "twice.mlir").resolve()
    args = found.make_inputs(np.random.default_rng(0), 4)
    assert mismatch(found.compile("numpy").main(*args), found.reference(*args), 0, 0) is None
