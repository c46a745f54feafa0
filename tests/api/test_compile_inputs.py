"""soacc.compile and entry points on bad and unusual input: clear SoaccErrors, never a
Python exception from inside soacc; keyword arguments name parameters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import soacc

ADD = """func.func @main(%a: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %s : f32
    soac.yield %y : f32
  }
  func.return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize(
    ("source", "kwargs", "error", "message"),
    [
        (None, {}, soacc.ArgumentError, "not NoneType"),
        (42, {}, soacc.ArgumentError, "not int"),
        (ADD, {"pipeline": 42}, soacc.ArgumentError, "pipeline must be"),
        (ADD, {"backend": None}, soacc.ArgumentError, "backend must be"),
        ("examples/dot_product.mlir", {}, soacc.ArgumentError, "pass pathlib.Path"),
        (Path("/nonexistent/x.mlir"), {}, soacc.ProgramError, "cannot read"),
        (ADD, {"filename": 3}, soacc.ArgumentError, "filename must be"),
        (Path("examples/dot_product.mlir"), {"filename": "x.mlir"}, soacc.ArgumentError, "filename names source text"),
    ],
)
def test_bad_input_to_compile(source, kwargs, error, message):
    with pytest.raises(error, match=message):
        soacc.compile(source, **kwargs)


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        (ADD.replace("%y = arith.addf %x, %s : f32", "%y = arith.addf %x, %q : f32"), "kernels.mlir:4:25"),
        (ADD.replace("f32) -> tensor<?xf32> {", "f32) -> tensor<?xf64> {"), "kernels.mlir:7:3: error:"),
    ],
    ids=["parse error", "verifier error"],
)
def test_source_text_is_named_by_its_filename(bad, where):
    with pytest.raises(soacc.ProgramError) as error:
        soacc.compile(bad, filename="kernels.mlir")
    assert str(error.value).startswith(where), error.value


@pytest.mark.parametrize("value", [1e300, -1e39, 2**200])
def test_a_python_number_too_large_for_a_float_parameter_is_refused_not_made_inf(value):
    program = soacc.compile(ADD, backend="numpy", pipeline="")
    with pytest.raises(soacc.ArgumentError, match="does not fit float32 scalar"):
        program.main(np.zeros(2, np.float32), value)
    assert program.main(np.zeros(1, np.float32), float("inf"))[0] == np.inf


def test_keyword_arguments_name_parameters():
    program = soacc.compile(ADD, backend="numpy")
    a = np.arange(3, dtype=np.float32)
    assert program.main(a=a, s=np.float32(1)).tolist() == [1.0, 2.0, 3.0]
    assert program.main(a, s=np.float32(2)).tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(soacc.ArgumentError, match="has no parameter %t"):
        program.main(a, t=np.float32(1))
    with pytest.raises(soacc.ArgumentError, match="given %a twice"):
        program.main(a, a=a, s=np.float32(1))
    with pytest.raises(soacc.ArgumentError, match="not given %s"):
        program.main(a=a)


@pytest.mark.parametrize("t", ["i7", "bf16", "complex<f32>"])
def test_a_type_without_a_numpy_equivalent_is_an_argument_error(t):
    program = soacc.compile(f"func.func @main(%a: {t}) -> {t} {{\n  func.return %a : {t}\n}}\n", backend="numpy", pipeline="")
    with pytest.raises(soacc.ArgumentError, match=f"type {t}, which has no NumPy equivalent"):
        program.main(1)


TWO = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    soac.yield %z : f32
  }
  func.return %r : tensor<?xf32>
}
"""
COUNT = """func.func @main(%n: index) -> tensor<?xindex> {
  %r = soac.iota %n : tensor<?xindex>
  func.return %r : tensor<?xindex>
}
"""


@pytest.mark.parametrize("pipeline", [None, "", "convert-soac-to-mem"])
def test_argument_sizes_are_checked_in_terms_of_the_parameters(pipeline):
    """Not `mem.map ... different outer sizes` or `negative allocation size`, whatever
    level the program runs at."""
    two = soacc.compile(TWO, backend="numpy", pipeline=pipeline)
    with pytest.raises(soacc.ArgumentError, match=r"the arrays soac.map at <input>:2:3 takes together must have one outer size; given %a 3, %b 4"):
        two.main(np.zeros(3, np.float32), np.zeros(4, np.float32))
    count = soacc.compile(COUNT, backend="numpy", pipeline=pipeline)
    with pytest.raises(soacc.ArgumentError, match=r"%n is -4, a count soac.iota at <input>:2:3 takes, which must not be negative"):
        count.main(-4)
    assert count.main(3).tolist() == [0, 1, 2]


def test_an_emitters_refusal_is_located_in_the_text(monkeypatch):
    # the cuda backend emits host code when a Program is made: its refusal names the op
    # of the text (here on any machine: the numpy backend stands in for it)
    from soacc import program as program_module
    from soacc.backends import emit_host_code

    monkeypatch.setitem(program_module.BACKENDS, "numpy", emit_host_code)
    text = "func.func @main(%n: index) {\n  %b = mem.alloc %n : !mem.block<device 1>\n  func.return\n}\n"
    with pytest.raises(soacc.ProgramError, match=r"^two.mlir:2:3: error: the cuda backend cannot run this program: python target: mem.alloc"):
        soacc.compile(text, backend="numpy", pipeline="", filename="two.mlir")


REDUCE_OF_ROWS = """func.func @main(%a: tensor<?x?xf32>, %z: tensor<?xf32>, %c: index) -> tensor<?xf32> {
  %r = soac.reduce(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %x0 = soac.index %x[%c] : tensor<?xf32>
    %y0 = soac.index %y[%c] : tensor<?xf32>
    %gt = arith.cmpf ogt, %x0, %y0 : f32
    %s = arith.select %gt, %x, %y : tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""
"""(Its operator picks whole rows: interchange-reductions leaves it, and no kernel takes
rows as elements.)"""


def test_what_the_gpu_lowering_refuses_is_located_at_the_op_the_user_wrote():
    # (the level-2 mem.reduce the refusal names was made by convert-soac-to-mem)
    with pytest.raises(soacc.ProgramError) as error:
        soacc.compile(REDUCE_OF_ROWS, backend="numpy", pipeline="soacc-pipeline", filename="rows.mlir")
    message = str(error.value)
    assert message.startswith("rows.mlir:2:3: error: convert-mem-to-gpu: mem.reduce reduces arrays of rows"), message
    assert "\n" not in message
