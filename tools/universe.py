"""The `xdsl.universe` entry point: every soacc dialect, pass and target, so that
`soacc-opt` and plain `xdsl-opt` see the same things. Kept import-light: it is
imported by every xdsl-opt start."""

from xdsl.universe import Universe

from soacc.dialects import get_all_dialects
from soacc.passes import get_all_passes

def _get_cuda_target():
    from soacc.lowering.emit_cuda import CudaTarget

    return CudaTarget


def _get_python_target():
    from soacc.lowering.emit_host import PythonTarget

    return PythonTarget


SOACC_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets={"cuda": _get_cuda_target, "python": _get_python_target},
)
