"""soacc's parsing path guards xDSL's lexer: an unclosed string literal is a located
error at once, not a parse that takes exponential time."""

from __future__ import annotations

import subprocess
import sys

import pytest

import soacc
from soacc.source import LocatingParser
from soacc.program import make_context


@pytest.mark.parametrize("length", [10, 60, 400])
def test_an_unclosed_string_literal_is_an_error_not_a_hang(length):
    # before the guard, 24 characters took 2.4 s and each more doubled it: 60 would
    # not finish; the child process makes a regression fail (timeout) instead of hang
    text = 'func.func @main() {\n  %0 = "test.op"() {a = "' + "x" * length
    code = f"import soacc\ntry:\n    soacc.compile({text!r})\nexcept soacc.ProgramError as e:\n    print(e)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "<input>:2:" in done.stdout and "closing string literal" in done.stdout


def test_string_literals_still_lex_as_before():
    """The guard's pattern is the same language: escapes, hex bytes, empty strings."""
    text = 'func.func @main() {\n  "test.op"() {a = "", b = "q\\"\\n\\t\\\\", c = "\\ff\\00"} : () -> ()\n  func.return\n}\n'
    module = LocatingParser(make_context(), text).parse_module()
    op = next(o for o in module.walk() if o.name == "test.op")
    assert op.attributes["a"].data == ""
    assert op.attributes["b"].data == 'q"\n\t\\'


def test_soacc_compile_reports_where_the_literal_starts():
    with pytest.raises(soacc.ProgramError, match=r"<input>:1:\d+"):
        soacc.compile('"' + "y" * 50)
