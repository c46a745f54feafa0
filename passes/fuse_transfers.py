"""fuse-transfers: a function's uploads and downloads in as few messages as the
study's layout allows (Christoph Kessler, *Global optimization of operand transfer
fusion in heterogeneous computing*; the analysis is passes/analysis/transfer_layout.py).

At level 2 every array crosses between the memories on its own: an entry point copies
each array argument to the device (`mem.copy %a_host, %a` into a fresh device block),
each result back, and place-kernels adds the copies around kernels it put on the host.
Each is one message, one startup. The pass reads each straight-line region of a
function (its body, and each body of its loops and branches in host code) as the
study's region. Its vectors: uploads of arguments (live on entry) and of host arrays
one statement of the region made (a host kernel's output); downloads of device arrays
one statement wrote, into host blocks made for them (results, live on exit, and the
arrays host kernels read). Its kernels: the region's statements that touch them, in
program order, on the device or the host. The analysis chooses the memory order (a
heaviest Hamiltonian path per component of the affinity graph) and the time of each
message (`greedy`: the earliest slot the members share, the fewest messages; `tight`:
uploads as late as a memory neighbour allows; `early-downloads=true` adds the study's
unbuilt half, downloads written together placed together and, with `tight`, each as
early as a memory neighbour allows). For each message of two or more
vectors the pass

- allocates one device **arena** where the first member's block was allocated, each
  member a part of it at a 256-byte aligned offset in path order (the members' views
  keep their own offsets within their part), and drops the members' own blocks;
- at the message's time, up to `max-bytes` (1 MiB; decided at run time, since sizes
  are run-time values), moves the arena's used bytes in one copy through one host
  staging arena: an upload's members packed into it first, a download's unpacked from
  it into each member's own host block after (host-to-host copies, which move no
  message); above it the members go one by one, since the host copies would cost more
  than the startups save.

What the pass leaves alone (the statistics say so): uploads whose device block is used
other than through views, or written before the upload, or whose host array is neither
an argument nor made once by a statement of the region; downloads whose device block
is not written once before them (memory-reuse's shared blocks: soacc-pipeline runs the
pass before memory planning), whose host block is written otherwise, of an upload's
own array, or of an array downloaded already. The sizes a message needs are moved up
(pure index arithmetic only); a member whose size cannot be is left out of its message.

`report=true` prints per function the transfers considered, the messages made and the
startups saved, to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from soacc.dialects import mem
from soacc.dialects.shared.traits import runs_on_device
from soacc.passes.analysis.memory_access import access_of
from soacc.passes.analysis.transfer_layout import DEVICE, HOST, Kernel, KernelGraph, TransferLayout, analyse
from soacc.passes.analysis.memory_aliases import root_view, visit_once
from soacc.passes.utils.memory_motion import dependencies_after, dominates, is_pure, move_before, statement_of

ALIGNMENT = 256
"""Bytes each member's part of an arena starts at a multiple of (what cudaMalloc gives
a block of its own, so that kernels' accesses stay as aligned as before)."""


@dataclass
class Upload:
    """One argument upload the pass may fuse: `copy` sends `source` (a view of an
    argument's host block) into `view`, the root view of the fresh device block
    `alloc`, which is used only through views."""

    copy: mem.CopyOp
    alloc: mem.AllocOp
    view: mem.ViewOp
    producer: Operation | None = None
    """The statement that wrote the host array (a kernel place-kernels put on the
    host); None for an argument, which is live on entry."""

    @property
    def source(self) -> SSAValue:
        return self.copy.source


@dataclass
class Download:
    """One download the pass may fuse: `copy` sends `view` (the root view of the device
    block `alloc`, which one statement, `producer`, wrote) into `host_view`, the root
    view of the host block `host_alloc` made for it (a result's, or a host kernel's
    mirror), which nothing else writes."""

    copy: mem.CopyOp
    alloc: mem.AllocOp
    view: mem.ViewOp
    host_alloc: mem.AllocOp
    host_view: mem.ViewOp
    producer: Operation


@dataclass
class FusionReport:
    function: str
    uploads: int = 0
    downloads: int = 0
    messages: int = 0
    left: list[str] = field(default_factory=list)

    def line(self) -> str:
        saved = self.uploads + self.downloads - self.messages
        moved = f"{self.uploads} upload(s)"
        if self.downloads:
            moved += f" and {self.downloads} download(s)"
        text = f"fuse-transfers: @{self.function}: {moved} in {self.messages} message(s), {saved} startup(s) saved"
        return text + (f"; left alone: {', '.join(self.left)}" if self.left else "")


def _argument_view(value: SSAValue, function: func.FuncOp) -> bool:
    """A view of the function's host arguments: an argument itself (level 2 passes an
    array as its block and its view), or a view of an argument block. Live on entry
    of every region of the function: nothing writes an argument."""
    if isinstance(value, BlockArgument):
        return value.block is function.body.block
    owner = value.owner
    return isinstance(owner, mem.ViewOp) and isinstance(owner.block, BlockArgument) and owner.block.block is function.body.block


def _copy_between(op: Operation, source: mem.MemorySpaceAttr, dest: mem.MemorySpaceAttr) -> bool:
    """`op` is a `mem.copy` from `source` memory to `dest` memory."""
    if not isinstance(op, mem.CopyOp):
        return False
    s, d = op.source.type, op.dest.type
    return isinstance(s, MemRefType) and isinstance(d, MemRefType) and mem.space_of(s) == source and mem.space_of(d) == dest


def _upload(op: Operation, function: func.FuncOp, report: FusionReport) -> Upload | None:
    if not _copy_between(op, mem.HOST, mem.DEVICE):
        return None
    assert isinstance(op, mem.CopyOp)
    name = op.dest.name_hint or "?"
    view = op.dest.owner
    if not isinstance(view, mem.ViewOp) or view.strides:
        report.left.append(f"%{name} (not a row-major view of a block)")
        return None
    alloc = view.block.owner
    block = op.parent_block()
    if not isinstance(alloc, mem.AllocOp) or alloc.parent_block() is not block:
        report.left.append(f"%{name} (its device block is not allocated here)")
        return None
    producer = None
    if not _argument_view(op.source, function):
        producer = _host_producer(op, block)
        if producer is None:
            report.left.append(f"%{name} (its host array is neither an argument nor made once by a statement here)")
            return None
    uses = [u.operation for u in alloc.block.uses]
    if not all(isinstance(u, mem.ViewOp) and u.block is alloc.block for u in uses):
        report.left.append(f"%{name} (its device block is used other than through views)")
        return None
    # the upload must be the first statement to touch the block (it is fresh)
    if first_user(alloc, block, after=alloc) is not op:
        report.left.append(f"%{name} (its device block is used before the upload)")
        return None
    return Upload(op, alloc, view, producer)


def _root_of_fresh_block(value: SSAValue, block: Block) -> tuple[mem.AllocOp, mem.ViewOp] | None:
    """`value` is a row-major `mem.view` at byte 0 of a block allocated in `block` and
    used only through views (and, a result's, by the function's return): that
    allocation and view."""
    view = value.owner
    if not isinstance(view, mem.ViewOp) or view.strides or not isinstance(view.block.owner, mem.AllocOp):
        return None
    offset = view.byte_offset.owner
    if not (isinstance(offset, arith.ConstantOp) and isinstance(offset.value, IntegerAttr) and offset.value.value.data == 0):
        return None
    alloc = view.block.owner
    if alloc.parent_block() is not block:
        return None
    for use in alloc.block.uses:
        user = use.operation
        if not (isinstance(user, mem.ViewOp) and user.block is alloc.block) and not (
            isinstance(user, func.ReturnOp) and user.parent_block() is block
        ):
            return None
    return alloc, view


def _download(op: Operation, block: Block, report: FusionReport) -> Download | None:
    if not _copy_between(op, mem.DEVICE, mem.HOST) or op.parent_block() is not block:
        return None
    assert isinstance(op, mem.CopyOp)
    name = op.source.name_hint or "?"
    device = _root_of_fresh_block(op.source, block)
    host = _root_of_fresh_block(op.dest, block)
    if device is None or host is None:
        report.left.append(f"%{name} (not a download between blocks made here, used through views)")
        return None
    writers = _writers(device[0], block)
    if len(writers) != 1 or block.get_operation_index(writers[0]) > block.get_operation_index(op):
        report.left.append(f"%{name} (its device block is not written once, before the download)")
        return None
    if isinstance(writers[0], mem.CopyOp) and not mem.space_of(writers[0].source.type).is_device:
        report.left.append(f"%{name} (its device array is an upload's, sent back as it came)")
        return None
    host_writers = _writers(host[0], block)
    if host_writers != [op]:
        report.left.append(f"%{name} (its host block is written other than by the download)")
        return None
    return Download(op, device[0], device[1], host[0], host[1], writers[0])


def _host_producer(copy: mem.CopyOp, block: Block) -> Operation | None:
    """The statement of `block` that made the host array `copy` uploads (a host
    kernel): the array is a view of a host block allocated in `block`, used only
    through views, and written by that one statement, before the copy. None otherwise
    (its content could change before a later message)."""
    view = copy.source.owner
    if not isinstance(view, mem.ViewOp) or not isinstance(view.block.owner, mem.AllocOp):
        return None
    alloc = view.block.owner
    if alloc.parent_block() is not block:
        return None
    writers = _writers(alloc, block)
    if len(writers) != 1 or block.get_operation_index(writers[0]) > block.get_operation_index(copy):
        return None
    return writers[0]


def _writers(alloc: mem.AllocOp, block: Block) -> list[Operation]:
    """The statements of `block` that may write the block `alloc` makes."""
    return [user for user in _block_users(alloc, block) if _writes_block(user, alloc.block)]


def _writes_block(statement: Operation, block_value: SSAValue) -> bool:
    """`statement` (or an op in it) may write the memory of `block_value`, through a
    view made of it."""
    for op in statement.walk():
        access = access_of(op)
        for written in access.writes + access.opaque:
            if written is block_value or ((view := root_view(written)) is not None and view.block is block_value):
                return True
    return False


def _block_users(alloc: mem.AllocOp, block: Block) -> list[Operation]:
    """The statements of `block` that use the block `alloc` makes, through its views
    (and views of views, slices, ...: every use of a value derived from them)."""
    found: dict[Operation, None] = {}
    pending: list[SSAValue] = [alloc.block]
    for value in visit_once(pending):
        for use in value.uses:
            user = use.operation
            statement = statement_of(user, block)
            if statement is None:
                continue
            if isinstance(user, mem.ViewOp | mem.SliceOp | mem.TransposeOp) and user.parent_block() is block:
                pending.extend(user.results)
                continue
            if isinstance(user, mem.SizeOp):
                continue  # reads no memory
            found[statement] = None
    return sorted(found, key=block.get_operation_index)


def first_user(alloc: mem.AllocOp, block: Block, after: Operation) -> Operation | None:
    """The first statement after `after` that uses the block `alloc` makes (not counting
    the views that only name it)."""
    at = block.get_operation_index(after)
    for user in _block_users(alloc, block):
        if block.get_operation_index(user) > at:
            return user
    return None


def region_graph(
    block: Block, uploads: list[Upload], downloads: list[Download] = ()
) -> tuple[KernelGraph, list[Operation]]:
    """The study's kernel–vector graph of the block. Vectors: upload i is vector i,
    download j is vector len(uploads) + j. Kernels, in program order: each statement
    that first reads an upload's device block after the upload or wrote a download's
    device block (on the device), and each statement that made an uploaded host array
    or first reads a download's host block after the download (on the host); an
    argument's upload is live on entry, a download nothing here reads (a result) live
    on exit. Returns the graph and the statement of each kernel slot."""
    reads: dict[Operation, list[int]] = {}
    writes: dict[Operation, list[int]] = {}
    on_host: set[Operation] = set()
    exits = []
    for i, upload in enumerate(uploads):
        reader = first_user(upload.alloc, block, after=upload.copy)
        if reader is not None:
            reads.setdefault(reader, []).append(i)
        if upload.producer is not None:
            writes.setdefault(upload.producer, []).append(i)
            on_host.add(upload.producer)
    for j, download in enumerate(downloads, start=len(uploads)):
        writes.setdefault(download.producer, []).append(j)
        reader = first_user(download.host_alloc, block, after=download.copy)
        if reader is None or isinstance(reader, func.ReturnOp):
            exits.append(j)
        else:
            reads.setdefault(reader, []).append(j)
            on_host.add(reader)
    slots = sorted({*reads, *writes}, key=block.get_operation_index)
    kernels = [
        Kernel(tuple(reads.get(s, ())), tuple(writes.get(s, ())), HOST if s in on_host else DEVICE, name=s.name) for s in slots
    ]
    return KernelGraph.build(kernels, live_on_exit=exits), slots


def straight_line_regions(function: func.FuncOp) -> list[Block]:
    """The function's body and the bodies of its loops and branches in host code: each
    a straight-line region of its own (the study's), whose transfers the pass fuses
    among themselves."""
    blocks = [function.body.block]
    for op in function.walk():
        if isinstance(op, scf.ForOp | scf.WhileOp | scf.IfOp) and not runs_on_device(op):
            blocks += [block for region in op.regions for block in region.blocks]
    return blocks


class _Fuser:
    def __init__(
        self,
        function: func.FuncOp,
        block: Block,
        mode: str,
        attempts: int,
        seed: int,
        max_bytes: int,
        report: FusionReport,
        early_downloads: bool = False,
    ):
        self.function = function
        self.early_downloads = early_downloads
        self.max_bytes = max_bytes
        self.block = block
        self.mode = mode
        self.attempts = attempts
        self.seed = seed
        self.report = report

    def run(self) -> FusionReport:
        uploads = [u for op in list(self.block.ops) if (u := _upload(op, self.function, self.report)) is not None]
        self.report.uploads += len(uploads)
        downloads: list[Download] = []
        for op in list(self.block.ops):
            download = _download(op, self.block, self.report)
            if download is None:
                continue
            if any(d.alloc is download.alloc for d in downloads):
                # (one vector, one download: a second copy of it stays as it is)
                self.report.left.append(f"%{op.source.name_hint or '?'} (downloaded again)")
                continue
            downloads.append(download)
        self.report.downloads += len(downloads)
        self.report.messages += len(uploads) + len(downloads)
        if len(uploads) + len(downloads) < 2:
            return self.report
        try:
            graph, slots = region_graph(self.block, uploads, downloads)
        except ValueError as error:  # (not single assignment: a statement both reads and writes a vector)
            self.report.left.append(f"the region ({error})")
            return self.report
        if not slots:
            return self.report
        layout: TransferLayout = analyse(
            graph, mode=self.mode, attempts=self.attempts, seed=self.seed, early_downloads=self.early_downloads
        )
        for message in layout.messages:
            if len(message.vectors) < 2:
                continue
            if message.direction != "upload":
                fused = self.fuse_downloads([downloads[j - len(uploads)] for j in message.vectors], slots[message.time])
                self.report.messages -= max(fused - 1, 0)
                continue
            members = [uploads[i] for i in message.vectors]
            time = slots[message.time]
            marker = None
            if self.mode == "greedy" and all(m.producer is None for m in members):
                # as early as the slot allows: arguments are live on entry, so where the
                # first member was uploaded (before any kernel the program runs first:
                # a task graph then uploads them before its launch, not through
                # page-locked staging refilled per call). A marker holds the place: the
                # member's copy itself moves into the message.
                first = min([time, *(m.copy for m in members)], key=self.block.get_operation_index)
                if first is not time:
                    marker = arith.ConstantOp(IntegerAttr(0, IndexType()))
                    Rewriter.insert_op(marker, InsertPoint.before(first))
                    time = marker
            fused = self.fuse(members, time)
            if marker is not None:
                Rewriter.erase_op(marker)
            if fused:
                self.report.messages -= fused - 1
        return self.report

    # --- the rewrite ---------------------------------------------------------------

    def available_before(self, value: SSAValue, anchor: Operation) -> bool:
        """Makes `value` usable just before `anchor`, moving the pure statements it
        depends on up to there; False where one cannot move."""
        if dominates(value, anchor):
            return True
        definer = value.owner
        if not isinstance(definer, Operation) or definer.parent_block() is not self.block or not is_pure(definer):
            return False
        needed = dependencies_after(definer, anchor, movable=is_pure)
        if needed is None:
            return False
        move_before([*needed, definer], anchor)
        return True

    def fuse(self, members: list[Upload], time: Operation) -> int:
        """One arena and one message for `members` (in memory order), sent just before
        `time`. Returns how many uploads it fused (0: none, the members left alone)."""
        # the arena is made where the first member's block was, or at the message's
        # time if that comes first
        anchor = min([*(m.alloc for m in members), time], key=self.block.get_operation_index)
        kept = [
            m
            for m in members
            if self.available_before(m.alloc.bytes, anchor)
            and all(self.available_before(s, anchor) for s in m.view.sizes)
            and self.available_before(m.source, time)
        ]
        if len(kept) < 2:
            return 0
        arena, offsets, total = self.arena(kept, anchor, "uploads")
        for member in kept:
            # the one-by-one path copies into the member's own view, which a member
            # uploaded after the message's time makes later: it moves up (views and
            # their offsets are pure, and their operands are ready before the anchor)
            moved = self.available_before(member.view.result, time)
            assert moved, "a view of the arena could not move before the message"
        self.message(kept, offsets, arena, total, time, upload=True)
        return len(kept)

    def fuse_downloads(self, members: list[Download], time: Operation) -> int:
        """One device arena and one message for `members` (in memory order), sent
        just after `time`: the members' device blocks become parts of one device arena
        (allocated where the first was), whose used bytes go in one copy into a host
        staging arena, from which each member's part is copied into its own host block
        (host-to-host copies, which move no message: each result, each host kernel's
        array keeps a block of its own, so the caller never holds a large arena, nor
        a fresh unpooled one). Above `max-bytes` (decided at run time) each member
        goes on its own from its part, as without the pass. Returns how many
        downloads it fused (0: none, the members left alone)."""
        # a marker holds the message's place (the op after `time` may itself move up)
        after = arith.ConstantOp(IntegerAttr(0, IndexType()))
        Rewriter.insert_op(after, InsertPoint.after(time))
        anchor = min([m.alloc for m in members], key=self.block.get_operation_index)
        kept = [
            m
            for m in members
            if self.available_before(m.alloc.bytes, anchor)
            and all(self.available_before(s, anchor) for s in m.view.sizes)
            and self.made_before(m.copy.dest, after)
        ]
        if len(kept) < 2:
            Rewriter.erase_op(after)
            return 0
        arena, offsets, total = self.arena(kept, anchor, "downloads")
        self.message(kept, offsets, arena, total, after, upload=False)
        Rewriter.erase_op(after)
        return len(kept)

    def arena(self, kept: list[Upload] | list[Download], anchor: Operation, name: str) -> tuple[SSAValue, list[SSAValue], SSAValue]:
        """One device block for the members, allocated just before `anchor`, each
        member's block a part of it (its views pointed there): the arena, the parts'
        offsets and the arena's size."""
        offsets, total = self.offsets([m.alloc.bytes for m in kept], anchor)
        arena = mem.AllocOp(total, mem.DEVICE)
        arena.block.name_hint = name
        Rewriter.insert_op(arena, InsertPoint.before(anchor))
        for member, offset in zip(kept, offsets):
            _repoint(member.alloc, arena.block, offset)
        return arena.block, offsets, total

    def message(
        self, kept: list[Upload] | list[Download], offsets: list[SSAValue], arena: SSAValue, total: SSAValue, point: Operation, upload: bool
    ) -> None:
        """The members' transfers, just before `point`: up to `max_bytes` (a run-time
        test: sizes are run-time values), one copy of the arena's bytes through a host
        staging arena, packed into it before an upload or unpacked from it after a
        download (host-to-host copies, which move no message); above it each member's
        own copy, into or out of its part, since the host copies would then cost more
        than the startups they save."""
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        limit = arith.ConstantOp(IntegerAttr(self.max_bytes, IndexType()))
        small = arith.CmpiOp(total, limit.result, "ule")
        stage = mem.AllocOp(total, mem.HOST)
        stage.block.name_hint = "uploads_host" if upload else "downloads_host"
        # the arena's bytes as one array of one-byte elements (i1 is a byte in memory)
        byte = IntegerType(1)
        host_bytes = mem.ViewOp(stage.block, zero.result, [total], mem.view_type(byte, [DYNAMIC_INDEX], mem.HOST))
        device_bytes = mem.ViewOp(arena, zero.result, [total], mem.view_type(byte, [DYNAMIC_INDEX], mem.DEVICE))
        unpack: list[Operation] = []
        fused = Block([stage])
        for member, offset in zip(kept, offsets):
            part = mem.ViewOp(stage.block, offset, list(member.view.sizes), _host_type(member.view.result.type))
            if upload:
                fused.add_ops([part, mem.CopyOp(member.source, part.result)])
            else:
                unpack += [part, mem.CopyOp(part.result, member.copy.dest)]
        bytes_copy = mem.CopyOp(host_bytes.result, device_bytes.result) if upload else mem.CopyOp(device_bytes.result, host_bytes.result)
        fused.add_ops([host_bytes, device_bytes, bytes_copy, *unpack, scf.YieldOp()])
        apart = Block()
        for member in kept:
            member.copy.detach()
            apart.add_op(member.copy)
        apart.add_op(scf.YieldOp())
        choice = scf.IfOp(small.result, [], Region(fused), Region(apart))
        for op in (zero, limit, small, choice):
            Rewriter.insert_op(op, InsertPoint.before(point))

    def made_before(self, value: SSAValue, point: Operation) -> bool:
        """Makes `value` (a host block's view) defined before `point`, moving up its
        definition and what it depends on (pure ops and allocations: a block made
        earlier only lives longer); False where something cannot move."""
        if dominates(value, point):
            return True
        definer = value.owner
        if not isinstance(definer, Operation) or definer.parent_block() is not self.block:
            return False
        needed = dependencies_after(definer, point)
        if needed is None:
            return False
        move_before([*needed, definer], point)
        return True

    def offsets(self, sizes: list[SSAValue], anchor: Operation) -> tuple[list[SSAValue], SSAValue]:
        """Each part's byte offset (aligned) and the arena's size, computed just before
        `anchor`."""
        def constant(n: int) -> SSAValue:
            op = arith.ConstantOp(IntegerAttr(n, IndexType()))
            Rewriter.insert_op(op, InsertPoint.before(anchor))
            return op.result

        def emit(op: Operation) -> SSAValue:
            Rewriter.insert_op(op, InsertPoint.before(anchor))
            return op.results[0]

        below, step = constant(ALIGNMENT - 1), constant(ALIGNMENT)
        offsets = [constant(0)]
        end = offsets[0]
        for i, size in enumerate(sizes):
            end = emit(arith.AddiOp(offsets[i], size))
            if i + 1 < len(sizes):
                rounded = emit(arith.AddiOp(end, below))
                offsets.append(emit(arith.MuliOp(emit(arith.DivUIOp(rounded, step)), step)))
        return offsets, end


def _repoint(alloc: mem.AllocOp, arena: SSAValue, offset: SSAValue) -> None:
    """Every view of `alloc`'s block becomes the same view of `arena` at `offset`
    further; the block goes."""
    for use in list(alloc.block.uses):
        view = use.operation
        if isinstance(view, func.ReturnOp):
            view.operands[use.index] = arena  # a result: its view is in the arena
            continue
        assert isinstance(view, mem.ViewOp)
        shifted = arith.AddiOp(view.byte_offset, offset)
        Rewriter.insert_op(shifted, InsertPoint.before(view))
        operands = list(view.operands)
        operands[0], operands[1] = arena, shifted.result
        view.operands = operands
    Rewriter.erase_op(alloc)


def _host_type(t: MemRefType) -> MemRefType:
    return mem.view_type(t.element_type, t.get_shape(), mem.HOST)


@dataclass(frozen=True)
class FuseTransfersPass(ModulePass):
    """Fuses each function's argument uploads into the messages the transfer-layout
    analysis chooses (see the module's docstring)."""

    name = "fuse-transfers"

    mode: str = "greedy"
    attempts: int = 4
    seed: int = 0
    max_bytes: int = 1 << 20
    """Above this many bytes in a message, its members go one by one (into the same
    arena): packing them on the host would cost more than the startups saved."""
    report: bool = False
    early_downloads: bool = False
    """The study's unbuilt half of ε and of tight: downloads written by one kernel
    placed together, and in `tight` mode each download as early as a memory
    neighbour allows."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.mode not in ("greedy", "tight"):
            raise PassFailedException(f"fuse-transfers: mode must be greedy or tight, got {self.mode!r}")
        if self.attempts < 1 or self.max_bytes < 0:
            raise PassFailedException(
                f"fuse-transfers: attempts must be at least 1 and max-bytes not negative, got {self.attempts} and {self.max_bytes}"
            )
        # sizes of views read from the views' own size operands (as canonicalization
        # would): a message's sizes then depend on the sizes the views were made with,
        # not on the views, so they can be computed where its arena is allocated
        PatternRewriteWalker(mem.SizeOfView()).rewrite_module(op)
        for function in op.ops:
            if not isinstance(function, func.FuncOp) or not function.body.blocks:
                continue
            result = FusionReport(function.sym_name.data)
            for block in straight_line_regions(function):
                _Fuser(function, block, self.mode, self.attempts, self.seed, self.max_bytes, result, self.early_downloads).run()
            if self.report:
                print(result.line(), file=sys.stderr)
