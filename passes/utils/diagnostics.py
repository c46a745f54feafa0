"""A pass's failure at an op, for the lowerings and passes that refuse an op."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import PassFailedException


def located_failure(op: Operation, message: str) -> PassFailedException:
    """The exception a pass raises for `message` at `op`: it carries the IR with the
    message under the op (xDSL's diagnostic), and `op` itself, from which the tools
    print the op's place in the source."""
    exception = PassFailedException(message)
    exception.op = op  # type: ignore[attr-defined]  (for located diagnostics)
    diagnostic = Diagnostic()
    diagnostic.add_message(op, message)
    try:
        diagnostic.raise_exception(op, exception)
    except PassFailedException as annotated:
        return annotated
    return exception
