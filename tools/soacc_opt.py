"""soacc-opt: xdsl-opt with soacc's dialects, passes and targets (found through the
`xdsl.universe` entry point, so plain xdsl-opt sees the same), reporting bad input as
located diagnostics rather than tracebacks."""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from soacc.runtime.errors import ArgumentError
from soacc.runtime.files import write_file
from soacc.source import LocatingParser, located_message
from soacc.tools.cli import diagnostic_text, run_tool


class SoaccOptMain(xDSLOptMain):
    """xdsl-opt whose parser remembers op locations, for verifier errors."""

    last_parse: tuple[LocatingParser, ModuleOp] | None = None
    _chunk_line: int = 0

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read()
            text = text.decode() if isinstance(text, bytes) else text
            parser = LocatingParser(self.ctx, text, self.get_input_name(), self._chunk_line)
            module = parser.parse_module(not self.args.no_implicit_module)
            self.last_parse = (parser, module)
            return module

        self.available_frontends["mlir"] = parse_mlir

    def parse_chunk(self, chunk, file_extension: str, start_offset: int = 0):
        self._chunk_line = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    pending_output: _PendingOutput | None = None

    def prepare_output(self) -> IO[str]:
        # `-o FILE` is written only once everything succeeded (xdsl-opt would truncate
        # FILE first and leave it half-written on failure).
        if self.args.output_file is None:
            return sys.stdout
        self.pending_output = _PendingOutput()
        return self.pending_output

    def commit_output(self) -> None:
        if self.pending_output is None:
            return
        write_file(self.args.output_file, self.pending_output.text)


class _PendingOutput(io.StringIO):
    """Output kept in memory; xdsl-opt closes its stream when done, so keep the text."""

    text = ""

    def close(self) -> None:
        self.text = self.getvalue()
        super().close()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    argv = [a for a in argv if a != "-"]  # `-` is standard input, as no file name is

    def body() -> int | None:
        try:
            opt = SoaccOptMain(
                description="soacc optimiser: parse, transform and print soac programs",
                args=argv,
            )
        except ValueError as error:  # the pass pipeline named something unknown
            raise ArgumentError(str(error)) from None
        try:
            opt.run()
        except DiagnosticException as error:
            if opt.last_parse is None:
                raise
            parser, module = opt.last_parse
            notes = diagnostic_text(error).split("\n", 1)[1:]
            print("\n".join([located_message(parser, module, error), *notes]), file=sys.stderr)
            return 1
        opt.commit_output()
        return None

    return run_tool("soacc-opt", body)


if __name__ == "__main__":
    sys.exit(main())
