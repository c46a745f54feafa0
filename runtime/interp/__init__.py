"""The reference executor's implementations, one module per dialect."""

from collections.abc import Callable

from xdsl.interpreter import Interpreter


def register_implementations(interpreter: Interpreter, kernels_source: Callable[[], str] | None = None) -> None:
    """Every op the reference executor runs: func, arith, math, scf, cf.assert, soac,
mem, fork and husk, and gpu.launch_func (on the real GPU, with the kernels' CUDA C from `kernels_source`)."""
    from soacc.runtime.interp.arith import ArithFunctions
    from soacc.runtime.interp.cf import CfFunctions
    from soacc.runtime.interp.fork import ForkFunctions
    from soacc.runtime.interp.gpu_launch import GpuLaunchFunctions
    from soacc.runtime.interp.husk import HuskFunctions
    from soacc.runtime.interp.math import MathFunctions
    from soacc.runtime.interp.mem import MemFunctions
    from soacc.runtime.interp.scf import FuncFunctions, ScfFunctions
    from soacc.runtime.interp.soac import SoacFunctions

    for functions in (
        ArithFunctions(), MathFunctions(), ScfFunctions(), CfFunctions(), FuncFunctions(), SoacFunctions(),
        MemFunctions(), ForkFunctions(), HuskFunctions(), GpuLaunchFunctions(kernels_source),
    ):
        interpreter.register_implementations(functions)


def new_interpreter(
    module,
    statistics,
    listeners: tuple = (),
    captured_cache: dict | None = None,
    kernels_source: Callable[[], str] | None = None,
    devices: int = 1,
    resident: bool = True,
) -> Interpreter:
    """An interpreter of `module` as the reference executor runs it: 64-bit `index`,
    every implementation registered, run counters in `statistics`, the values each
    lambda captures cached in `captured_cache` (per region, reusable across calls), husks
    run on `devices` devices (keeping what each device holds between runs: `resident`)."""
    from soacc.runtime.interp.lanes import LaneState
    from soacc.runtime.interp.mem import MemFunctions

    interpreter = Interpreter(module, index_bitwidth=64)
    interpreter.listeners = listeners
    register_implementations(interpreter, kernels_source)
    interpreter.set_data(LaneState, "captured", {} if captured_cache is None else captured_cache)  # type: ignore[arg-type]
    interpreter.set_data(MemFunctions, "statistics", statistics)
    if devices != 1:
        from soacc.runtime.interp.husk import set_devices

        set_devices(interpreter, devices, resident)
    return interpreter
