"""fuse-scalar-reads: synchronous reads of device scalars at one program point become one
read (issue 19, item 4; Christoph Kessler, *Global optimization of operand transfer
fusion in heterogeneous computing*: transfers adjacent in memory and in time are one
message).

reduce-device-syncs leaves the host reading a value from device memory only where it
must (`mem.load` from a device view: the host waits for the device, then one small
copy). A reduction of several results (an argmax's value and index, a linear
recurrence's two coefficients) leaves as many reads side by side, each a round trip.
This pass finds, in each block, runs of such reads with nothing but pure arithmetic
between them, and where each reads a small block of its own (a `mem.alloc` of a
constant size, at most SLOT_LIMIT bytes, used only through views), lays those blocks out in one device **arena** (at the first block's
allocation, each at an 8-byte aligned offset: every view of each block is pointed
into its part, and the blocks go), copies the arena to a host block of the same size in **one** copy at the
first read, and reads each value from the host copy. Nothing between the first and
the last read can write device memory, so the values are those the reads would have
read. `report=true` prints per function the reads before and after.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, OpResult
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from soacc.dialects import mem
from soacc.dialects.shared.traits import is_kernel, runs_on_device
from soacc.passes.utils.memory_motion import is_pure

SLOT_LIMIT = 64
"""The largest block (in bytes) a read may be fused from: scalars and small vectors."""

SLOT_ALIGNMENT = 8


@dataclass
class _Read:
    load: mem.LoadOp
    view: mem.ViewOp
    alloc: mem.AllocOp
    size: int


@dataclass
class _Report:
    function: str
    before: int = 0
    after: int = 0
    groups: list[str] = field(default_factory=list)


def _constant_index(value) -> int | None:
    op = value.owner if isinstance(value, OpResult) else None
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _candidate(op: Operation) -> _Read | None:
    """A synchronous read of a small device block of its own, or None."""
    if not isinstance(op, mem.LoadOp):
        return None
    view = op.view.owner if isinstance(op.view, OpResult) else None
    if not isinstance(view, mem.ViewOp) or not mem.space_of(view.result.type).is_device:
        return None
    if view.sizes or view.strides:
        return None  # (static shapes only: the host copy's view is made alike)
    alloc = view.block.owner if isinstance(view.block, OpResult) else None
    if not isinstance(alloc, mem.AllocOp):
        return None
    size = _constant_index(alloc.bytes)
    if size is None or not 0 < size <= SLOT_LIMIT:
        return None
    if not all(isinstance(use.operation, mem.ViewOp) and use.operation.block is alloc.block for use in alloc.block.uses):
        return None  # (every use a view, which the arena's part can stand for at the same offset)
    return _Read(op, view, alloc, size)


def _runs(block: Block) -> list[list[_Read]]:
    """Runs of reads of distinct small device blocks, with only pure ops between them,
    whose blocks are allocated in one block: at least two blocks each."""
    runs: list[list[_Read]] = []
    current: list[_Read] = []

    def close() -> None:
        if len({id(r.alloc) for r in current}) >= 2:
            runs.append(list(current))
        current.clear()

    for op in block.ops:
        read = _candidate(op)
        if read is not None:
            if current and read.alloc.parent_block() is not current[0].alloc.parent_block():
                close()
            current.append(read)
        elif not (is_pure(op) and not op.regions):
            close()
    close()
    return runs


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _fuse(run: list[_Read]) -> None:
    allocs: list[mem.AllocOp] = []
    for read in run:
        if read.alloc not in allocs:
            allocs.append(read.alloc)
    home = allocs[0].parent_block()
    allocs.sort(key=lambda a: home.get_operation_index(a))
    offsets: dict[int, int] = {}
    total = 0
    sizes = {id(r.alloc): r.size for r in run}
    for alloc in allocs:
        offsets[id(alloc)] = total
        total += -(-sizes[id(alloc)] // SLOT_ALIGNMENT) * SLOT_ALIGNMENT
    # the arena, where the first block was allocated
    first = allocs[0]
    total_op = _index(total)
    arena = mem.AllocOp(total_op.result, mem.DEVICE)
    arena.block.name_hint = "reads"
    Rewriter.insert_op([total_op, arena], InsertPoint.before(first))
    views = [use.operation for alloc in allocs for use in list(alloc.block.uses)]
    for view in views:
        alloc = view.block.owner
        shift = _index(offsets[id(alloc)])
        moved = arith.AddiOp(view.byte_offset, shift.result)
        Rewriter.insert_op([shift, moved], InsertPoint.before(view))
        view.operands[0] = arena.block
        view.operands[1] = moved.result
    for alloc in allocs:
        Rewriter.erase_op(alloc)
    # one copy of the arena at the first read; each read from the host copy
    loads = run[0].load
    size = _index(total)
    zero = _index(0)
    host = mem.AllocOp(size.result, mem.HOST)
    host.block.name_hint = "reads_host"
    byte = IntegerType(1)
    device_bytes = mem.ViewOp(arena.block, zero.result, [size.result], mem.view_type(byte, [DYNAMIC_INDEX], mem.DEVICE))
    host_bytes = mem.ViewOp(host.block, zero.result, [size.result], mem.view_type(byte, [DYNAMIC_INDEX], mem.HOST))
    copy = mem.CopyOp(device_bytes.result, host_bytes.result)
    Rewriter.insert_op([size, zero, host, device_bytes, host_bytes, copy], InsertPoint.before(loads))
    for read in run:
        view = read.view
        t = view.result.type
        assert isinstance(t, MemRefType)
        host_type = mem.view_type(t.element_type, t.get_shape(), mem.HOST)
        host_view = mem.ViewOp(host.block, view.byte_offset, [], host_type)
        load = mem.LoadOp(host_view.result, read.load.indices)
        Rewriter.insert_op([host_view, load], InsertPoint.before(read.load))
        load.result.name_hint = read.load.result.name_hint
        read.load.result.replace_all_uses_with(load.result)
        Rewriter.erase_op(read.load)


@dataclass(frozen=True)
class FuseScalarReadsPass(ModulePass):
    """Reads of device scalars side by side as one copy (module docstring)."""

    name = "fuse-scalar-reads"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if not isinstance(function, func.FuncOp) or not function.body.blocks:
                continue
            report = _Report(function.sym_name.data)
            blocks = [b for o in function.walk() for r in o.regions for b in r.blocks]
            for block in blocks:
                owner = block.parent_op()
                if owner is not None and (is_kernel(owner) or runs_on_device(owner)):
                    continue  # (a lambda's or gpu_body's loads run on the device: not reads)
                # one run at a time: fusing one may move blocks another's reads view
                # (memory-reuse gives small blocks to several reductions)
                while runs := _runs(block):
                    run = runs[0]
                    report.before += len(run)
                    report.after += 1
                    report.groups.append(", ".join(f"%{r.load.result.name_hint or '?'}" for r in run))
                    _fuse(run)
            if self.report and report.groups:
                print(
                    f"fuse-scalar-reads: @{report.function}: {report.before} read(s) in {report.after} copy(ies): "
                    + "; ".join(report.groups),
                    file=sys.stderr,
                )
