"""place-kernels: chosen kernels run on the host, on host copies of their arrays (issue
19, item 1; Christoph Kessler, *Global optimization of operand transfer fusion in
heterogeneous computing*, whose programs map some kernels to the CPU and the others to
the GPU, so that arrays cross between the two memories in between).

A level-2 kernel runs where its arrays are (the KernelOp trait: all in one space). This
pass moves the kernels it is asked to into host memory:

- `host=a,b`: the kernels that write an array of one of these names (the name of a
  level-1 result: `%c = soac.map ...` writes `%c`, a reduction's `%s` writes `%s_dev`
  at level 2; either is accepted), or `host=all`; names of which no kernel of the
  module writes any are an error (a typo), naming those there are;
- `max-elements=N`: the kernels whose arrays all have static shapes of at most N
  elements each (sizes known when the program is compiled; -1: none).

For each such kernel, each device array it uses (operands and captured arrays) gets a
*mirror*: a dense host view of its shape. An array the kernel reads is downloaded into
its mirror before it (one `mem.copy`, device to host); the kernel then uses the
mirrors, and each array it writes is uploaded from its mirror after it. Within a
block, the pass remembers which host view holds the same elements as a device array
(a mirror, or the host array an upload came from) until something may write either
(memory effects of the ops, through the alias analysis): a later host kernel reads
that host view instead of downloading again, and a host read (`mem.load`) or download
of the device array reads it on the host instead. Uploads nothing then reads (the
device array is only sized or uploaded into) are dropped with their device blocks. So
a chain of host kernels keeps its arrays on the host, and only arrays that cross
between a host kernel and a device kernel (or a result) move: the study's transfers,
which fuse-transfers then groups into messages.

Kernels nested in another kernel's lambda run in that kernel; those are never placed
on their own. Nothing is placed by default (soacc-pipeline's `host-kernels` and
`host-max-elements` options). `report=true` prints the kernels placed per function and
the copies added, to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects import mem
from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.dialects.shared.traits import OperandEffects, enclosing_kernel, is_kernel, kernel_space
from soacc.dialects.shared.utils import used_values
from soacc.passes.analysis.memory_access import access_of
from soacc.passes.analysis.memory_aliases import MemoryAliases


def kernel_names(kernel: Operation) -> set[str]:
    """The names `host=` matches a kernel by: those of the arrays it writes, each also
    without the `_dev` a reduction's level-2 output adds."""
    effects = kernel.get_trait(OperandEffects)
    written = effects.views(kernel, effects.writes + effects.creates) if effects is not None else ()
    names = set()
    for view in written:
        if view.name_hint:
            names.add(view.name_hint)
            if view.name_hint.endswith("_dev"):
                names.add(view.name_hint[: -len("_dev")])
    return names


def _static_elements(t: MemRefType) -> int | None:
    shape = t.get_shape()
    return None if DYNAMIC_INDEX in shape else prod(shape)


def _arrays(kernel: Operation) -> list[SSAValue]:
    """The arrays a kernel uses: its view operands, then the views its lambdas capture."""
    return [v for v in used_values(kernel) if isinstance(v.type, MemRefType)]


def _host_type(t: Attribute) -> Attribute:
    if isinstance(t, MemRefType) and isinstance(t.memory_space, mem.MemorySpaceAttr) and t.memory_space.is_device:
        return MemRefType(t.element_type, t.get_shape(), t.layout, mem.HOST)
    if isinstance(t, mem.BlockType) and t.space.is_device:
        return mem.BlockType(mem.HOST)
    return t


@dataclass
class PlacementReport:
    function: str
    placed: list[str] = field(default_factory=list)
    downloads: int = 0
    uploads: int = 0
    forwarded: int = 0
    dropped: int = 0

    def line(self) -> str:
        if not self.placed:
            return f"place-kernels: @{self.function}: no kernel placed on the host"
        return (
            f"place-kernels: @{self.function}: {len(self.placed)} kernel(s) on the host ({', '.join(self.placed)}); "
            f"{self.downloads} download(s) and {self.uploads} upload(s) added, {self.forwarded} device read(s) "
            f"served from the host, {self.dropped} upload(s) nothing read dropped"
        )


class _Placer:
    def __init__(self, function: func.FuncOp, chosen: set[Operation], report: PlacementReport):
        self.function = function
        self.chosen = chosen
        self.report = report
        self.aliases = MemoryAliases(function)
        self.own_mirrors: set[SSAValue] = set()
        """The host views this pass made (a kernel may write into them)."""

    # --- what may share memory -------------------------------------------------------------

    def memories(self, value: SSAValue) -> frozenset:
        """The memories `value` may be in; a value this pass made (a mirror) is a
        memory of its own."""
        return self.aliases.memories(value) or frozenset((value,))

    def forget_written(self, mirrors: dict[SSAValue, SSAValue], written: Iterable[SSAValue]) -> None:
        touched: frozenset = frozenset().union(*(self.memories(w) for w in written))
        if not touched:
            return
        for device, host in list(mirrors.items()):
            if self.memories(device) & touched or self.memories(host) & touched:
                del mirrors[device]

    @staticmethod
    def written_by_ops(ops: Iterable[Operation]) -> list[SSAValue]:
        """Every view or block these ops may write."""
        written: list[SSAValue] = []
        for inner in ops:
            access = access_of(inner)
            written += access.writes + access.opaque
        return written

    def written_by(self, op: Operation) -> list[SSAValue]:
        """Every view or block `op` (and anything in its regions) may write."""
        return self.written_by_ops(op.walk())

    # --- the walk --------------------------------------------------------------------------

    def run_block(self, block: Block) -> None:
        mirrors: dict[SSAValue, SSAValue] = {}
        """Device view -> a host view with the same elements, until either is written."""
        for op in list(block.ops):
            if op in self.chosen:
                self.place(op, mirrors)
                continue
            if isinstance(op, mem.CopyOp) and self.copy_rule(op, mirrors):
                continue
            if isinstance(op, mem.LoadOp):
                host = mirrors.get(op.view)
                if host is not None and mem.space_of(op.view.type).is_device:
                    op.operands[0] = host  # a host read, no synchronisation
                    self.report.forwarded += 1
                continue
            for region in op.regions:
                if is_kernel(op):
                    break  # a device kernel's lambdas run in it
                for inner in region.blocks:
                    self.run_block(inner)
            self.forget_written(mirrors, self.written_by(op))

    def copy_rule(self, copy: mem.CopyOp, mirrors: dict[SSAValue, SSAValue]) -> bool:
        """Uploads make mirrors; downloads of a mirrored array read its mirror."""
        source_on_device = mem.space_of(copy.source.type).is_device
        dest_on_device = mem.space_of(copy.dest.type).is_device
        if source_on_device and not dest_on_device and copy.source in mirrors:
            copy.operands[0] = mirrors[copy.source]  # host to host
            self.report.forwarded += 1
            self.forget_written(mirrors, [copy.dest])
            return True
        if not source_on_device and dest_on_device:
            self.forget_written(mirrors, [copy.dest])
            if copy.source.type.get_shape() == copy.dest.type.get_shape():
                mirrors[copy.dest] = copy.source
            return True
        return False

    def place(self, kernel: Operation, mirrors: dict[SSAValue, SSAValue]) -> None:
        effects = kernel.get_trait(OperandEffects)
        assert effects is not None  # every kernel declares its effects
        name = min(kernel_names(kernel), default=kernel.name)
        written = set(effects.views(kernel, effects.writes + effects.creates))
        # arrays the lambdas write through (a store into a captured array)
        inner = frozenset().union(*(self.memories(w) for region in kernel.regions for w in self.written_by_ops(region.walk())))
        written |= {v for v in _arrays(kernel) if self.memories(v) & inner}
        created_only = set(effects.views(kernel, effects.creates)) - set(effects.views(kernel, effects.reads + effects.writes))
        before = Builder(InsertPoint.before(kernel))
        pairs: list[tuple[SSAValue, SSAValue]] = []
        for device in dict.fromkeys(_arrays(kernel)):
            if not mem.space_of(device.type).is_device:
                continue
            host = mirrors.get(device)
            if host is not None and device in written and host not in self.own_mirrors:
                host = None  # never write into a host array of the program's own (an argument)
            if host is None:
                host = self.new_mirror(device, before)
                if device not in created_only:
                    before.insert(mem.CopyOp(device, host))
                    self.report.downloads += 1
            for use in list(device.uses):
                if use.operation is kernel or kernel.is_ancestor(use.operation):
                    use.operation.operands[use.index] = host
            pairs.append((device, host))
        uploads = [mem.CopyOp(host, device) for device, host in pairs if device in written]
        Rewriter.insert_op(uploads, InsertPoint.after(kernel))
        self.report.uploads += len(uploads)
        _retype_to_host(kernel)
        self.forget_written(mirrors, [u.dest for u in uploads])
        mirrors.update(pairs)
        self.report.placed.append(name)

    def new_mirror(self, device: SSAValue, b: Builder) -> SSAValue:
        """A dense host view of `device`'s shape, in a host block of its own."""
        t = device.type
        assert isinstance(t, MemRefType)
        shape = t.get_shape()
        sizes = [b.insert(mem.SizeOp(device, axis)).result for axis, d in enumerate(shape) if d == DYNAMIC_INDEX]
        static = prod(d for d in shape if d != DYNAMIC_INDEX)
        nbytes = b.insert(arith.ConstantOp(IntegerAttr(numpy_dtype(t.element_type).itemsize * static, IndexType()))).result
        for size in sizes:
            nbytes = b.insert(arith.MuliOp(nbytes, size)).result
        block = b.insert(mem.AllocOp(nbytes, mem.HOST)).results[0]
        if device.name_hint:
            block.name_hint = f"{device.name_hint}_host_mem"
        zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
        view = b.insert(mem.ViewOp(block, zero, sizes, mem.view_type(t.element_type, t.get_shape(), mem.HOST))).result
        if device.name_hint:
            view.name_hint = f"{device.name_hint}_host"
        self.own_mirrors.add(view)
        return view

    # --- uploads nothing reads ----------------------------------------------------------

    def drop_unread_uploads(self) -> None:
        """Drops each host-to-device copy into a block of the function's own that is
        then only copied into from the host (every reader now reads a mirror), with the
        block and its views. (Sizes of views are first read from the views' own size
        operands, as canonicalization would.)"""
        PatternRewriteWalker(mem.SizeOfView()).rewrite_region(self.function.body)
        for alloc in [op for op in self.function.walk() if isinstance(op, mem.AllocOp)]:
            if not alloc.block.type.space.is_device:
                continue
            views = [u.operation for u in alloc.block.uses]
            if not views or not all(isinstance(v, mem.ViewOp) and v.block is alloc.block for v in views):
                continue
            users = [use for view in views for use in view.result.uses]
            if not users or not all(
                isinstance(use.operation, mem.CopyOp) and use.index == 1 and not mem.space_of(use.operation.source.type).is_device
                for use in users
            ):
                continue
            for use in users:
                Rewriter.erase_op(use.operation)
            self.report.dropped += len(users)
            for view in views:
                Rewriter.erase_op(view)
            Rewriter.erase_op(alloc)


def _retype_to_host(kernel: Operation) -> None:
    """The values inside a kernel placed on the host are in host memory: its lambdas'
    rows and private arrays take host types."""
    for region in kernel.regions:
        for op in region.walk():
            for block_region in op.regions:
                for block in block_region.blocks:
                    _retype_args(block)
            for result in list(op.results):
                if _host_type(result.type) != result.type:
                    Rewriter.replace_value_with_new_type(result, _host_type(result.type))
        for block in region.blocks:
            _retype_args(block)


def _retype_args(block: Block) -> None:
    for arg in list(block.args):
        if _host_type(arg.type) != arg.type:
            Rewriter.replace_value_with_new_type(arg, _host_type(arg.type))


def chosen_kernels(function: func.FuncOp, names: tuple[str, ...], max_elements: int) -> list[Operation]:
    """The kernels launched from host code that `host=` names or `max-elements` admits,
    in program order, that run on the device now."""
    chosen = []
    for op in function.walk():
        if not is_kernel(op) or enclosing_kernel(op) is not None:
            continue
        space = kernel_space(op)
        if space is not None and not space.is_device:
            continue
        if "all" in names or kernel_names(op) & set(names):
            chosen.append(op)
            continue
        if max_elements >= 0:
            arrays = _arrays(op)
            counts = [_static_elements(v.type) for v in arrays]
            if arrays and all(c is not None and c <= max_elements for c in counts):
                chosen.append(op)
    return chosen


@dataclass(frozen=True)
class PlaceKernelsPass(ModulePass):
    """Puts chosen kernels on the host (see the module's docstring)."""

    name = "place-kernels"

    host: tuple[str, ...] = ()
    """Kernels by the names of the arrays they write, or `all`."""
    max_elements: int = -1
    """Kernels whose arrays all have static shapes of at most this many elements."""
    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_elements < -1:
            raise PassFailedException(f"place-kernels: max-elements must be -1 (none) or more, got {self.max_elements}")
        named = set(self.host) - {"all"}
        known: set[str] = set()
        for function in op.ops:
            if isinstance(function, func.FuncOp):
                known |= {n for k in function.walk() if is_kernel(k) and enclosing_kernel(k) is None for n in kernel_names(k)}
        if named and not named & known:  # (a file of several modules may name each one's own)
            raise PassFailedException(
                f"place-kernels: no kernel writes an array named {', '.join(sorted(named - known))} "
                f"(the kernels write: {', '.join(sorted(known)) or 'nothing named'})"
            )
        for function in op.ops:
            if not isinstance(function, func.FuncOp) or not function.body.blocks:
                continue
            chosen = chosen_kernels(function, self.host, self.max_elements)
            report = PlacementReport(function.sym_name.data)
            if chosen:
                placer = _Placer(function, set(chosen), report)
                placer.run_block(function.body.block)
                placer.drop_unread_uploads()
            if self.report:
                print(report.line(), file=sys.stderr)
