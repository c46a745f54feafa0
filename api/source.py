"""Parsing that remembers where each op came from, so that a verifier error can name
`file:line:column` (xDSL 0.74 keeps no source locations on ops)."""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from soacc.dialects.shared.provenance import origins, source_op
from soacc.dialects.shared.utils import enclosing_function

# xDSL 0.74 lexes a string literal with `"(?:[^"\\\n\v\f]+|<escape>)*"`: a `+` nested in
# a `*`, which backtracks exponentially when the literal is not closed (24 characters
# take 2.4 s, and each more doubles it). The same language without the nested
# quantifier fails in linear time. Every soacc tool parses through this module.
MLIRLexer._unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


MAX_SOURCE_BYTES = 256 * 2**20
"""The largest program text soacc reads (a device such as /dev/zero never ends)."""


def decode_source(data: bytes, name: str) -> str:
    """Program text from bytes: UTF-8, or a ValueError that says where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name} is not UTF-8 text: byte 0x{data[error.start]:02x} at offset {error.start}") from None


def read_source(path) -> str:
    """The text of a program file, of any name (read as MLIR); a ValueError for text
    that is not UTF-8 or larger than MAX_SOURCE_BYTES, an OSError for a file that
    cannot be read."""
    with open(path, "rb") as f:
        data = f.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise ValueError(f"{path} is larger than {MAX_SOURCE_BYTES // 2**20} MiB; soacc reads programs up to that size")
    return decode_source(data, str(path))


TOO_DEEP = "the program nests regions too deeply for soacc (Python's recursion limit)"
"""What a RecursionError while parsing, verifying or compiling means: nesting far past
any real program's (about 150 levels)."""


class LocatingParser(Parser):
    """A Parser that records the source offset of every op it parses."""

    def __init__(self, ctx: Context, text: str, name: str = "<input>", line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.source_text = text
        self.source_name = name
        self.line_offset = line_offset
        self.op_offsets: dict[Operation, int] = {}
        self.named_ops: dict[tuple[str, str], Operation] = {}
        self.first_forward_use: dict[str, Span] = {}
        """Where each value used before its definition is first used: xDSL reports a
        value never defined at the end of the file, soacc at its first use."""

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as error:
            undefined = list(self.forward_ssa_references)
            # (xDSL 0.74's own message, raised once everything parsed, at the end)
            if not undefined or "values used but not defined" not in str(error):
                raise
            names = ", ".join(f"%{name}" for name in undefined)
            self.raise_error(f"{names} {'is' if len(undefined) == 1 else 'are'} used but never defined", self.first_forward_use[undefined[0]])
        # the ops the text names, by function and result name: a pass that makes an op
        # without recording where it came from (a fusion keeps the fused ops' names)
        for op in module.walk():
            where = enclosing_function(op)
            for r in op.results:
                if r.name_hint and where is not None:
                    self.named_ops.setdefault((where.sym_name.data, r.name_hint), op)
        return module

    def resolve_operand(self, operand, type):
        if operand.operand_name not in self.ssa_values:
            self.first_forward_use.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def _parse_block(self):
        # xDSL 0.74 fails with a KeyError on a second definition of a label that was
        # used before its first (`cf.br ^bb1` ... `^bb1:` ... `^bb1:`)
        token = self._current_token
        if token.kind == MLIRTokenKind.CARET_IDENT:
            name = token.text[1:]
            if name in self.blocks and name not in self.forward_block_references:
                self.raise_error(f"block {token.text} is defined twice", token.span)
        # xDSL 0.74 says only " in block definition" where it expected a label
        elif token.kind == MLIRTokenKind.EOF:
            self.raise_error("the text ends inside a region: a '}' is missing", token.span)
        else:
            self.raise_error(f"expected an op, a block label (^bb1:) or '}}' here, found '{token.text}'", token.span)
        return super()._parse_block()

    def parse_operation(self) -> Operation:
        start = self.pos
        try:
            op = super().parse_operation()
        except VerifyException as error:
            # a type constraint of the op's syntax failed while parsing it: say where
            line_end = self.source_text.find("\n", start)
            self.raise_error(str(error), start, line_end if line_end > start else self.pos)
        except OverflowError as error:
            # xDSL converts literals (0x7FF0000000000000 : f32, huge integers) unchecked
            self.raise_error(f"a literal is out of range for its type ({error})", start, self.pos)
        self.op_offsets[op] = start
        return op

    def location(self, op: Operation) -> str | None:
        """`file:line:col` of the op of the text that `op` is or was made from."""
        source = source_op(op, self.op_offsets.__contains__) or self._named_like(op)
        if source is None:
            return None
        offset = self.op_offsets[source]
        line = self.source_text.count("\n", 0, offset) + 1 + self.line_offset
        column = offset - (self.source_text.rfind("\n", 0, offset) + 1) + 1
        return f"{self.source_name}:{line}:{column}"

    def _named_like(self, op: Operation) -> Operation | None:
        """The op of the text whose result has the name of one of `op`'s, in the same
        function (what a pass that records no origin keeps), or None."""
        for made in origins(op):
            where = enclosing_function(made)
            for r in made.results if where is not None else ():
                found = self.named_ops.get((where.sym_name.data, r.name_hint or ""))
                if found is not None:
                    return found
        return None


def failing_op(module: ModuleOp, error: DiagnosticException) -> Operation | None:
    """The op whose own verifier raises `error`'s message (the verifier reports the
    innermost failing op; so do we, by checking each op alone, innermost first)."""
    message = str(error)
    for op in module.walk(region_first=True):
        if op is module:
            continue
        try:
            op.verify_()
        except DiagnosticException as own:
            if str(own) == message:
                return op
    return None


def located_message(parser: LocatingParser, module: ModuleOp, error: DiagnosticException) -> str:
    """`file:line:col: error: message` when the failing op is known, else the message.
    A pass failure may name its op (`error.op`); a verifier error is traced to its op."""
    op = getattr(error, "op", None) or failing_op(module, error)
    where = parser.location(op) if op is not None else None
    return f"{where}: error: {error}" if where else f"error: {error}"
