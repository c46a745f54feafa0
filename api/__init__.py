"""soacc: an xDSL compiler for second-order array combinators.

    import soacc
    program = soacc.compile(open("examples/dot_product.mlir").read())
    program.main(a, b)      # NumPy arrays in, NumPy arrays out
"""

from soacc.runtime.device_arrays import DeviceArray
from soacc.runtime.errors import ArgumentError, ExecutionError, ProgramError, SoaccError
from soacc.host_arrays import host_array
from soacc.program import Program, available_backends, compile

__all__ = [
    "ArgumentError",
    "DeviceArray",
    "ExecutionError",
    "Program",
    "ProgramError",
    "SoaccError",
    "available_backends",
    "compile",
    "host_array",
]
