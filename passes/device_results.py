"""device-results: an entry point's array results stay in device memory (issue 19,
item 5: `soacc.compile(..., results="device")`, for callers that go on computing on
the GPU with CuPy, PyTorch or soacc itself).

At level 2 an entry point returns each array in host memory: it allocates a host
block, views it and copies the device array into it (`mem.copy %r, %r_host`) just
before `func.return`. This pass returns the device array instead (its view, and the
block it is a view of) and drops the download, the host view and the host block: one
device-to-host message fewer per result, and no host memory. The function's type
changes accordingly; its entry signature (what callers see) does not, and the runtime
hands such a result out as a `soacc.DeviceArray`.

A result stays where it is only where that is sound and the block is known:
- the download is a statement of the function's body (not inside a loop or a branch),
  its destination the whole of a host block made for it and used only by it and the
  return;
- nothing between the download and the return can write device memory: only pure
  arithmetic, allocations, views, sizes and other downloads lie between them;
- the device array's block is known: the block of the `mem.view` it is a slice or
  transpose of, or the block beside the array it is a slice or transpose of (or is) in
  the (block, view) pair a call, a branch or a loop returns (a double-buffered loop's
  result is in either of its two blocks).
Results left in host memory are named by `report=true`; the runtime copies them to the
device, so a caller asking for device results always gets them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from soacc.dialects import mem
from soacc.passes.analysis.memory_aliases import array_of_slices, root_view
from soacc.passes.utils.memory_motion import is_pure


def block_of(view: SSAValue) -> SSAValue | None:
    """The block `view` is an array of: the block of the `mem.view` it is made from, or
    the block beside it in a (block, view) pair of results; None if not known."""
    made = root_view(view)
    if made is not None:
        return made.block
    view = array_of_slices(view)  # (a slice of a loop's result, say)
    if isinstance(view, OpResult) and view.index > 0:
        beside = view.op.results[view.index - 1]
        if isinstance(beside.type, mem.BlockType):
            return beside
    return None


def _between_is_harmless(op: Operation) -> bool:
    """Whether `op`, between a download and the return, leaves device memory as it is."""
    if isinstance(op, mem.AllocOp | mem.ViewOp | mem.SizeOp):
        return True
    if isinstance(op, mem.CopyOp):
        return not mem.space_of(op.dest.type).is_device
    return op.dialect_name() == "arith" and is_pure(op)


@dataclass
class _Kept:
    position: int
    """Of the host block among the return's operands (its view is next)."""
    download: mem.CopyOp
    block: SSAValue


def _kept_results(function: func.FuncOp, ret: func.ReturnOp) -> tuple[list[_Kept], list[str]]:
    """The array results in host memory that can stay on the device, and why each
    other one cannot."""
    kept: list[_Kept] = []
    left: list[str] = []
    operands = list(ret.operands)
    position = 0
    while position < len(operands):
        block = operands[position]
        if not isinstance(block.type, mem.BlockType) or position + 1 == len(operands):
            position += 1  # a scalar
            continue
        view = operands[position + 1]
        if not block.type.space.is_device:
            found = _keep(block, view, function, ret, operands)
            if isinstance(found, str):
                left.append(f"%{view.name_hint or f'result {position}'}: {found}")
            else:
                found.position = position
                kept.append(found)
        position += 2
    return kept, left


def _keep(block: SSAValue, view: SSAValue, function: func.FuncOp, ret: func.ReturnOp, operands: list) -> _Kept | str:
    """A result in host memory kept on the device, or why it cannot be."""
    if not isinstance(block, OpResult) or not isinstance(block.op, mem.AllocOp):
        return "its host block is not one the function made"
    made = view.op if isinstance(view, OpResult) else None
    if not isinstance(made, mem.ViewOp) or made.block is not block:
        return "it is not a view of its block"
    if operands.count(block) != 1 or operands.count(view) != 1:
        return "it is returned twice"
    if {use.operation for use in block.uses} != {made, ret}:
        return "its host block has other uses"
    downloads = [use.operation for use in view.uses if use.operation is not ret]
    if len(downloads) != 1 or not isinstance(downloads[0], mem.CopyOp) or downloads[0].dest is not view:
        return "its host view is used other than by one download"
    download = downloads[0]
    if download.parent_block() is not function.body.block:
        return "its download is inside a loop or a branch"
    if not mem.space_of(download.source.type).is_device:
        return "it is copied from host memory"
    device_block = block_of(download.source)
    if device_block is None:
        return "the block of its device array is not known"
    op = download.next_op
    while op is not None and op is not ret:
        if not _between_is_harmless(op):
            return f"{op.name} between its download and the return may write device memory"
        op = op.next_op
    return _Kept(0, download, device_block)


def _erase_if_dead(op: Operation | None) -> None:
    """Erases `op` and then the pure ops only it used, recursively."""
    if op is None or any(r.uses for r in op.results) or not (isinstance(op, mem.AllocOp | mem.ViewOp | mem.SizeOp) or is_pure(op)):
        return
    producers = [v.op for v in op.operands if isinstance(v, OpResult)]
    Rewriter.erase_op(op)
    for producer in producers:
        _erase_if_dead(producer)


@dataclass(frozen=True)
class DeviceResultsPass(ModulePass):
    """Entry points' array results in device memory (module docstring)."""

    name = "device-results"

    report: bool = False
    """Print, per entry point, the results kept on the device and those left (why)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(op.ops):
            if not isinstance(function, func.FuncOp) or mem.entry_signature(function) is None or not function.body.blocks:
                continue
            ret = function.body.block.last_op
            if not isinstance(ret, func.ReturnOp):
                continue
            kept, left = _kept_results(function, ret)
            for k in kept:
                host_block, host_view = ret.operands[k.position], ret.operands[k.position + 1]
                ret.operands[k.position] = k.block
                ret.operands[k.position + 1] = k.download.source
                Rewriter.erase_op(k.download)
                _erase_if_dead(host_view.op)
                _erase_if_dead(host_block.op)
            if kept:
                inputs = function.function_type.inputs.data
                function.function_type = FunctionType.from_lists(list(inputs), [v.type for v in ret.operands])
            if self.report:
                name = function.sym_name.data
                print(f"device-results: @{name}: {len(kept)} result(s) kept on the device" + "".join(f"; left {why}" for why in left), file=sys.stderr)

