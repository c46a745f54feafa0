"""The python target (lowering/emit_host.py): the host code of a level-3 module as a
Python module. What it emits is valid Python with one function per func.func, each op
a line calling the runtime; an op it has no rule for is an error naming it. (Running
the emitted code: tests/runtime/test_host_code.py here, tests/runtime/gpu on a GPU.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IndexType, ModuleOp, f32, i1, i32, i64

import soacc
from soacc.dialects.mem import DEVICE, view_type
from soacc.lowering.emit_cuda import EmissionError
from soacc.lowering.emit_host import emit_host, kernel_argument_format
from soacc.program import apply_pipeline, parse_program
from soacc.tools.examples import load_examples
from soacc.tools.soacc_opt import main as soacc_opt

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")


def level3(source: str) -> ModuleOp:
    module = parse_program(source)
    apply_pipeline(module, "soacc-pipeline{syncs=false}")  # the programs as written
    return module


def host_source(source: str) -> str:
    text = emit_host(level3(source)).source
    compile(text, "<emitted>", "exec")  # valid Python, always
    return text


def test_vector_norm_is_one_function_calling_the_runtime():
    text = host_source((ROOT / "examples" / "vector_norm.mlir").read_text())
    assert "def main(rt, a_host_mem, a_host):" in text
    assert '"""@main: (tensor<?xf32>) -> tensor<?xf32>"""' in text
    assert "rt.alloc_device(" in text
    assert re.search(r"a = a_mem.view\(v\d+, \(v\d+,\), None, np.float32\)", text)
    assert "rt.copy(a_host, a)" in text
    # soac-fusion made the squares' map and their sum one redomap: no array of squares
    assert "rt.launch('redomap0_partials', " in text and "zero, *a.kernel_args, *partials.kernel_args" in text
    assert "pow2" not in text
    assert "sum_1 = rt.load(sum_dev, ())" in text  # `sum` is a built-in: renamed
    assert "len_1 = math.sqrt(sum_1)" in text
    assert "return (res_host_mem, res_host)" in text
    # each block and view is deleted after its last use
    assert "    del partials\n" in text and "    del a_mem\n" in text
    # the kernels' argument formats: a view is a pointer, an offset, sizes and strides
    assert "'map1': 'fPqqqPqqqq',  # len, a, res, rows" in text


def _lowers(example) -> ModuleOp:
    try:
        return level3(example.program_path.read_text())
    except soacc.ProgramError as error:
        if "not done yet" in str(error) or "not supported yet" in str(error):
            pytest.skip(f"not lowered to kernels yet: {str(error).splitlines()[0]}")
        raise


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_gives_valid_python(example):
    module = _lowers(example)
    try:
        host = emit_host(module)
    except EmissionError as error:
        if "has not turned into a gpu.launch_func" in str(error):
            pytest.skip(f"a kernel convert-mem-to-gpu does not make yet: {error}")
        raise
    compile(host.source, example.name, "exec")
    assert host.functions["main"] == "main"
    assert all(f"'{name}': '{fmt}'" in host.source for name, fmt in host.kernel_formats.items())
    lines = host.source.splitlines()
    assert all(lines[n - 1].strip() for n in host.op_at_line)  # every op line is a real line


SCALARS = """
func.func @main(%a: i32, %b: i32, %x: f32, %c: i1) -> (i32, i1, i64, f32, f32, i1) {
  %s = arith.addi %a, %b : i32
  %lt = arith.cmpi slt, %a, %b : i32
  %w = arith.extsi %a : i32 to i64
  %inf = arith.constant 0x7F800000 : f32
  %third = arith.constant 0.333333343 : f32
  %m = arith.maximumf %x, %inf : f32
  %q = math.sqrt %x : f32
  %r = arith.select %c, %m, %q : f32
  %t = arith.constant true
  func.return %s, %lt, %w, %r, %third, %t : i32, i1, i64, f32, f32, i1
}
"""


def test_scalar_ops_call_the_reference_semantics():
    text = host_source(SCALARS)
    assert "s = arith.addi(a, b)" in text
    assert "lt = arith.cmpi_slt(a, b)" in text
    assert "w = arith.extsi(a, np.int64)" in text
    assert 'inf = np.float32("inf")' in text
    assert "third = np.float32(0.3333333432674408)" in text  # the f32 value, exactly
    assert "m = arith.maximumf(x, inf)" in text
    assert "q = math.sqrt(x)" in text
    assert "r = m if c else q" in text
    assert "t = np.True_" in text


CONTROL = """
func.func private @twice(%x: i64) -> (i64, i64) {
  %y = arith.addi %x, %x : i64
  func.return %y, %x : i64, i64
}
func.func @main(%n: index, %x: i64) -> (i64, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i64) {
    %d, %e = func.call @twice(%acc) : (i64) -> (i64, i64)
    scf.yield %d : i64
  }
  %k = scf.while (%v = %n) : (index) -> index {
    %more = arith.cmpi ugt, %v, %c1 : index
    scf.condition(%more) %v : index
  } do {
  ^bb0(%w: index):
    %h = arith.divui %w, %c1 : index
    %l = arith.subi %h, %c1 : index
    scf.yield %l : index
  }
  %big = arith.cmpi ugt, %k, %c0 : index
  %r = scf.if %big -> (i64) {
    scf.yield %s : i64
  } else {
    scf.yield %x : i64
  }
  func.return %r, %k : i64, index
}
"""


def test_control_flow_is_python_control_flow():
    text = host_source(CONTROL)
    assert "def twice(rt, x):" in text and "return (y, x)" in text
    assert "s = x\n" in text
    assert "for _ in range(int(c0), int(n), int(c1)):" in text
    assert "acc = s" in text and "d, e = twice(rt, acc)" in text and "s = d" in text
    assert "while True:" in text and "if not more:" in text and "break" in text
    assert "if big:" in text and "r = s" in text and "else:" in text and "r = x" in text


NAMES = """
func.func private @range(%if: i32) -> i32 {
  %len = arith.addi %if, %if : i32
  func.return %len : i32
}
func.func @main(%rt: i32, %np: i32) -> i32 {
  %math = func.call @range(%rt) : (i32) -> i32
  %arith = arith.addi %math, %np : i32
  func.return %arith : i32
}
"""


def test_names_never_shadow_python_or_the_runtime():
    text = host_source(NAMES)
    assert "def range_(rt, if_1):" in text
    assert "len_1 = arith.addi(if_1, if_1)" in text
    assert "def main(rt, rt_1, np_1):" in text
    assert "(math_1,) = range_(rt, rt_1)" in text
    assert "arith_1 = arith.addi(math_1, np_1)" in text


def test_kernel_argument_formats():
    v = view_type(f32, [-1, -1], DEVICE)
    assert kernel_argument_format([v, IndexType(), i32, i64, f32, i1]) == "P" + "q" * 5 + "qiqf?"
    assert kernel_argument_format([view_type(i1, [], DEVICE)]) == "Pq"


LEVEL2_SCAN = """
func.func @main(%a: tensor<?xi32>) -> tensor<?xi32> {
  %z = arith.constant 0 : i32
  %s = soac.scan(%a) neutral(%z : i32) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  }
  func.return %s : tensor<?xi32>
}
"""


def test_a_kernel_op_left_at_host_level_is_an_error_naming_it():
    module = parse_program(LEVEL2_SCAN)
    apply_pipeline(module, "convert-soac-to-mem")  # level 2: the scan is still a mem op
    with pytest.raises(EmissionError, match=r"mem.scan in @main is a kernel that convert-mem-to-gpu has not"):
        emit_host(module)


def test_a_level1_program_is_an_error_naming_the_op():
    with pytest.raises(EmissionError, match=r"soac.scan in @main is a level-1 op: lower the program"):
        emit_host(parse_program(LEVEL2_SCAN))


def test_an_op_without_a_rule_is_an_error_naming_it():
    source = """
func.func @main(%n: index) -> index {
  %m = "test.op"(%n) : (index) -> index
  func.return %m : index
}"""
    with pytest.raises(EmissionError, match=r"test.op in @main has no host code rule"):
        emit_host(parse_program(source))


def test_a_second_device_is_an_error():
    source = """
func.func @main(%n: index) {
  %b = mem.alloc %n : !mem.block<device 1>
  func.return
}"""
    with pytest.raises(EmissionError, match=r"mem.alloc in @main allocates on device 1"):
        emit_host(parse_program(source))


def test_soacc_opt_target_python(tmp_path, capsys):
    path = tmp_path / "p.mlir"
    path.write_text(SCALARS)
    assert soacc_opt([str(path), "-p", "soacc-pipeline", "-t", "python"]) in (0, None)
    out = capsys.readouterr().out
    assert "def main(rt, a, b, x, c):" in out
    path.write_text(LEVEL2_SCAN)
    code = soacc_opt([str(path), "-t", "python"])
    err = capsys.readouterr().err
    assert code == 1
    assert "soac.scan in @main is a level-1 op" in err and "Traceback" not in err


@pytest.mark.slow
def test_the_emitted_host_code_is_the_same_in_every_process():
    """Emission is deterministic: two processes (objects at other addresses, so sets of
    IR values in another order) print the same host code, `del` lines included."""
    import subprocess
    import sys

    program = ROOT / "benchmarks" / "memory" / "locvolcalib.mlir"  # many arrays dying together
    command = [sys.executable, "-m", "soacc.tools.soacc_opt", str(program), "-p", "soacc-pipeline", "-t", "python"]
    outputs = {subprocess.run(command, capture_output=True, text=True, check=True).stdout for _ in range(3)}
    assert len(outputs) == 1
