"""soacc-opt: xdsl-opt with soacc's dialects, passes and targets (found through the
`xdsl.universe` entry point, so plain xdsl-opt sees the same), reporting bad input as
located diagnostics rather than tracebacks."""

from __future__ import annotations

import dataclasses
import io
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from soacc.dialects.shared.structural_checks import check_structure, check_structured_control_flow
from soacc.dialects.shared.traits import is_kernel
from soacc.registry import INPUT_DIALECT, get_all_passes
from soacc.runtime.errors import ArgumentError, ProgramError
from soacc.runtime.files import write_file
from soacc.source import MAX_SOURCE_BYTES, TOO_DEEP, LocatingParser, decode_source, located_message
from soacc.tools.cli import diagnostic_text, run_tool


class SoaccOptMain(xDSLOptMain):
    """xdsl-opt whose parser remembers op locations, for verifier errors."""

    last_parse: tuple[LocatingParser, ModuleOp] | None = None
    _chunk_line: int = 0

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read()
            if isinstance(text, bytes):
                try:
                    text = decode_source(text, self.get_input_name())
                except ValueError as error:
                    raise ProgramError(str(error)) from None
            parser = LocatingParser(self.ctx, text, self.get_input_name(), self._chunk_line)
            module = parser.parse_module(not self.args.no_implicit_module)
            self.last_parse = (parser, module)
            # xDSL's verifiers and the rules they miss, before any pass runs
            check_structure(module)
            module.verify()
            return module

        self.available_frontends["mlir"] = parse_mlir

    def register_all_targets(self) -> None:
        # only the targets that print soacc's levels: xDSL's others (llvm, mps, the
        # assembly targets) fail on soacc's dialects
        super().register_all_targets()
        self.available_targets = {name: self.available_targets[name] for name in TARGETS if name in self.available_targets}

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        # any file name is read as MLIR, as soacc-run reads it; at most MAX_SOURCE_BYTES
        # (a device such as /dev/zero never ends)
        stream, _ = super().get_input_stream()
        with stream:
            data = stream.read(MAX_SOURCE_BYTES + 1)
        if len(data) > MAX_SOURCE_BYTES:
            raise ArgumentError(f"{self.get_input_name()} is larger than {MAX_SOURCE_BYTES // 2**20} MiB; soacc reads programs up to that size")
        return io.BytesIO(data), "mlir"

    def apply_passes(self, prog: ModuleOp) -> None:
        if any(p.name in SOACC_PASSES for p in self.pipeline.passes):
            check_structured_control_flow(prog)
        callback = self.pipeline.callback

        def warn_off_level(previous, module: ModuleOp, next_pass) -> None:
            if callback is not None:
                callback(previous, module, next_pass)
            dialect = INPUT_DIALECT.get(next_pass.name) if next_pass is not None else None
            if dialect is not None and not any(op.dialect_name() == dialect for op in module.walk()):
                print(
                    f"soacc-opt: warning: {next_pass.name} works on {dialect} ops; the program has none "
                    f"(it is at another level), so the pass does nothing",
                    file=sys.stderr,
                )

        dataclasses.replace(self.pipeline, callback=warn_off_level).apply(self.ctx, prog)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        target = self.args.target.split("{", 1)[0]
        # the python target names the first op it cannot emit; the cuda target prints only
        # the kernels, so a program without them would give a preamble and exit 0
        if target == "cuda" and not any(op.name == "gpu.module" for op in prog.walk()) and _has_kernels(prog):
            raise ProgramError(
                "the cuda target prints level 3's kernels; this program still has combinators: "
                "run -p soacc-pipeline (or convert-soac-to-mem,convert-mem-to-gpu) first"
            )
        return super().output_resulting_program(prog)

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


TARGETS = ("mlir", "cuda", "python")
"""The targets soacc-opt offers: the IR itself, and level 3's kernels and host code."""

SOACC_PASSES = frozenset(get_all_passes())


def _has_kernels(module: ModuleOp) -> bool:
    return any(is_kernel(op) for op in module.walk())


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
        except RecursionError:
            raise ProgramError(TOO_DEEP) from None
        except DiagnosticException as error:
            if opt.last_parse is None:
                raise
            parser, module = opt.last_parse
            # the IR with the op marked, unless the op is one a lowering made: the user
            # never wrote that module, and the location names the op they wrote
            failing = getattr(error, "op", None)
            lowered = failing is not None and failing not in parser.op_offsets and parser.location(failing) is not None
            notes = [] if lowered else diagnostic_text(error).split("\n", 1)[1:]
            print("\n".join([located_message(parser, module, error), *notes]), file=sys.stderr)
            return 1
        opt.commit_output()
        return None

    return run_tool("soacc-opt", body)


if __name__ == "__main__":
    sys.exit(main())
