"""soacc: an xDSL compiler for second-order array combinators.

    import soacc
    program = soacc.compile(open("examples/dot_product.mlir").read())
    program.main(a, b)      # NumPy arrays in, NumPy arrays out

The names below are imported on first use (PEP 562), so that the command-line tools,
which import `soacc.tools...` and so this package first, start without loading the
runtime and the whole pipeline: lit runs soacc-opt once per RUN line.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from soacc.host_arrays import host_array
    from soacc.program import Program, available_backends, compile
    from soacc.runtime.device_arrays import DeviceArray
    from soacc.runtime.errors import ArgumentError, ExecutionError, ProgramError, SoaccError

_HOMES = {
    "ArgumentError": "soacc.runtime.errors",
    "DeviceArray": "soacc.runtime.device_arrays",
    "ExecutionError": "soacc.runtime.errors",
    "Program": "soacc.program",
    "ProgramError": "soacc.runtime.errors",
    "SoaccError": "soacc.runtime.errors",
    "available_backends": "soacc.program",
    "compile": "soacc.program",
    "host_array": "soacc.host_arrays",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'soacc' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
