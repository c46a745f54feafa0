"""The reference executor's implementations, one module per dialect."""

from xdsl.interpreter import Interpreter


def register_implementations(interpreter: Interpreter) -> None:
    """Every op the reference executor runs: func, arith, math, scf, soac and mem, and
gpu.launch_func (on the real GPU)."""
    from soacc.runtime.interp.arith import ArithFunctions
    from soacc.runtime.interp.gpu_launch import GpuLaunchFunctions
    from soacc.runtime.interp.math import MathFunctions
    from soacc.runtime.interp.mem import MemFunctions
    from soacc.runtime.interp.scf import FuncFunctions, ScfFunctions
    from soacc.runtime.interp.soac import SoacFunctions

    for functions in (ArithFunctions(), MathFunctions(), ScfFunctions(), FuncFunctions(), SoacFunctions(), MemFunctions(), GpuLaunchFunctions()):
        interpreter.register_implementations(functions)
