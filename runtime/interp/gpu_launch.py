"""`gpu.launch_func` in the reference executor: the kernel runs on the real GPU.

For checking generated kernels end to end before the GPU backend runs whole programs:
host code runs on the CPU as at level 2, and a launch copies the memory blocks of its
view operands to the device, runs the kernel (compiled from the module's CUDA C), and
copies the blocks back, so that everything a kernel writes through any view lands where
the host code will read it. Slow by design (every launch moves its blocks twice); the
GPU backend keeps data on the device instead.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import gpu
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.dialects.shared.kernel_abi import argument_format, view_arguments
from soacc.runtime.errors import ExecutionError
from soacc.runtime.interp.mem import statistics


def _root(view: np.ndarray) -> np.ndarray:
    """The block buffer a view was made from."""
    root = view
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


@register_impls
class GpuLaunchFunctions(InterpreterFunctions):
    def __init__(self, kernels_source: Callable[[], str] | None = None) -> None:
        self._modules: dict[int, object] = {}
        self.kernels_source = kernels_source
        """A function giving the module's kernels' CUDA C (the executor's owner emits it:
        the runtime does not import the emitters)."""

    def _module(self, interpreter: Interpreter):
        key = id(interpreter.module)
        if key not in self._modules:
            from soacc.runtime.gpu.device import get_device
            from soacc.runtime.gpu.module_cache import ModuleCache

            if self.kernels_source is None:
                raise ExecutionError("the program launches GPU kernels, but its kernels' CUDA C was not given to the executor")
            device = get_device()
            self._modules[key] = (device, ModuleCache(device.arch).load(self.kernels_source(), "the program's kernels"))
        return self._modules[key]

    @impl(gpu.LaunchFuncOp)
    def run_launch_func(self, interpreter: Interpreter, op: gpu.LaunchFuncOp, args):
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            raise ExecutionError(f"the program launches GPU kernels, but there is no GPU here: {why}")
        import pycuda.driver as cuda

        from soacc.runtime.gpu.kernels import Kernel, LaunchCounters

        device, module = self._module(interpreter)
        grid = tuple(int(x) for x in args[0:3])
        block = tuple(int(x) for x in args[3:6])
        operands = op.kernelOperands
        values = args[len(args) - len(operands) :]
        roots: dict[int, tuple[np.ndarray, object]] = {}
        kernel_args: list = []
        for value, operand in zip(values, operands):
            if isinstance(operand.type, MemRefType):
                view = np.asarray(value)
                root = _root(view)
                if id(root) not in roots:
                    buffer = cuda.mem_alloc(max(root.nbytes, 1))
                    if root.nbytes:
                        cuda.memcpy_htod(buffer, np.ascontiguousarray(root))
                    roots[id(root)] = (root, buffer)
                _, buffer = roots[id(root)]
                itemsize = view.dtype.itemsize
                offset = (view.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // itemsize if view.size else 0
                kernel_args += view_arguments(int(buffer), offset, view.shape, [s // itemsize for s in view.strides])
            else:
                kernel_args.append(numpy_dtype(operand.type).type(value))
        name = op.kernel.nested_references.data[-1].data
        kernel = Kernel(module, name, argument_format([o.type for o in operands]), LaunchCounters(), "the program's kernels")
        kernel(grid[:2] if grid[2] == 1 else grid, block, *kernel_args)
        statistics(interpreter).kernel_launches += 1
        try:
            device.synchronize()
        except cuda.Error as error:
            raise ExecutionError(f"kernel {name} failed on the GPU: {error}") from None
        for root, buffer in roots.values():
            if root.nbytes:
                cuda.memcpy_dtoh(root, buffer)
            buffer.free()
        return ()
