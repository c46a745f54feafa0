"""soacc: an xDSL compiler for second-order array combinators.

    import soacc
    program = soacc.compile(open("examples/dot_product.mlir").read())
    program.main(a, b)      # NumPy arrays in, NumPy arrays out
"""

from soacc.runtime.errors import ArgumentError, ExecutionError, ProgramError, SoaccError
from soacc.program import Program, available_backends, compile

__all__ = [
    "ArgumentError",
    "ExecutionError",
    "Program",
    "ProgramError",
    "SoaccError",
    "available_backends",
    "compile",
]
