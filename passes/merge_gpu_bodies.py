"""merge-gpu-bodies: fewer and larger `soac.gpu_body` kernels (digest §6.3–6.5;
Futhark's MergeGPUBodies).

Each host-level block is reordered by Algorithm 4 of the study: its ops are placed in
alternating groups, host ops in even groups and gpu_bodies in odd ones, each op as early
as its operands allow (and never before an op that uses what it consumes). A gpu_body
may join the gpu group just before the host group that blocks it when all it needs from
that host group are the host reads of that gpu group's results. The greedy placement
gives the fewest gpu groups under these rules. Each gpu group then becomes one
gpu_body, simplified:

1. a read of an earlier kernel's result (`soac.index %x_dev[%c0]`, on the host or in
   the kernel) becomes the value itself, so values stay in registers;
2. results nobody uses any more are dropped (fewer allocations and stores);
3. duplicate computations are merged (CSE) and dead ones removed;
4. a result whose one use is a host-level replicate of one row (`replicate 1 r`) is
   replicated in the gpu_body instead (Futhark's tests/migration/replicate1).

It also removes the wasteful copies the study notes (§6.5): a gpu_body result that is
only read by device code and that is just a captured value, or an element `%a[%i]` of an
array no op consumes, is read by that device code directly, and the copy goes. A
gpu_body left without results is removed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce

from soacc.dialects import soac
from soacc.dialects.shared.traits import consumed_operand, runs_on_device
from soacc.passes.utils.memory_motion import move
from soacc.dialects.soac import index_of_row_zero
from soacc.dialects.shared.utils import defined_inside, used_values

_STRUCTURED = (scf.IfOp, scf.ForOp, scf.WhileOp)


# --------------------------------------------------------------------------------------
# What an op depends on and what it consumes
# --------------------------------------------------------------------------------------


def root_aliases(value: SSAValue) -> set[SSAValue]:
    """The arrays `value` is a view of (through slices, partial indexing and
    transposes), itself included: consuming one invalidates the others."""
    roots = {value}
    while True:
        owner = value.owner
        if isinstance(owner, soac.SliceOp):
            value = owner.source
        elif isinstance(owner, soac.IndexOp) and isinstance(owner.result.type, TensorType):
            value = owner.array
        elif isinstance(owner, soac.TransposeOp):
            value = owner.input
        else:
            return roots
        roots.add(value)


def consumed_values(op: Operation) -> set[SSAValue]:
    """The root aliases of the arrays `op` consumes (updates in place), in it or in its
    regions, that are defined outside it."""
    consumed: set[SSAValue] = set()
    for inner in [op, *[o for r in op.regions for o in r.walk()]]:
        value = consumed_operand(inner)
        if value is None:
            continue
        if inner is op or not defined_inside(value, op):
            consumed |= root_aliases(value)
    return consumed


def is_consumed(value: SSAValue) -> bool:
    """Some op updates `value` (or an array it views) in place."""
    roots = root_aliases(value)
    for root in roots:
        for use in root.uses:
            if consumed_operand(use.operation) is root:
                return True
    return False


# --------------------------------------------------------------------------------------
# Algorithm 4: reordering into alternating host and gpu groups
# --------------------------------------------------------------------------------------


@dataclass
class _Group:
    ops: list[Operation] = field(default_factory=list)
    bound: set[SSAValue] = field(default_factory=set)
    """B_i: the values the group's ops bind."""
    used: set[SSAValue] = field(default_factory=set)
    """F_i: the values they use, with the root aliases of the arrays among them."""
    rebound: set[SSAValue] = field(default_factory=set)
    """R_i: host reads of results of the gpu group just before."""


def place(ops: Iterable[Operation]) -> list[_Group]:
    """The groups of Algorithm 4 (even: host ops, odd: gpu_bodies)."""
    groups = [_Group()]
    gpu_group_of: dict[SSAValue, int] = {}
    for op in ops:
        uses = used_values(op)
        consumes = consumed_values(op)
        is_gpu = isinstance(op, soac.GpuBodyOp)

        def blocks(g: _Group) -> bool:
            return bool(g.bound & uses) or bool(g.used & consumes)

        i = len(groups)
        blocked = False
        while i > 0 and not blocked:
            i -= 1
            blocked = blocks(groups[i])
        if is_gpu:
            if i % 2 == 0:
                g = groups[i]
                if (
                    i != 0
                    and (g.bound & uses) <= g.rebound
                    and not (g.used & consumes)
                    and not ((groups[i - 1].used | groups[i - 1].bound) & consumes)
                ):
                    i -= 1  # only needs reads of the previous gpu group: join it
                else:
                    i += 1
            elif groups[i].bound & consumes:
                # never consume a result of the kernel it would merge into; one that
                # only reads what this consumes may: the merged body reads, then updates
                i += 2
        else:
            i = 2 * ((i + 1) // 2)
        while len(groups) <= i:
            groups.append(_Group())
        g = groups[i]
        g.ops.append(op)
        g.bound.update(op.results)
        g.used |= uses
        for v in uses:
            g.used |= root_aliases(v)
        if is_gpu:
            for r in op.results:
                gpu_group_of[r] = i
        else:
            source = index_of_row_zero(op)
            if source is not None and gpu_group_of.get(source) == i - 1:
                g.rebound.add(op.results[0])
    return groups


# --------------------------------------------------------------------------------------
# Merging a gpu group
# --------------------------------------------------------------------------------------


def merge_group(gpus: list[soac.GpuBodyOp], reads: dict[SSAValue, SSAValue], rewriter: PatternRewriter) -> soac.GpuBodyOp:
    """One gpu_body doing what `gpus` do in order. `reads` maps host reads of their
    results (`%x = soac.index %x_dev[%c0]`) to the results they read."""
    block = Block()
    value_of: dict[SSAValue, SSAValue] = {}
    """A merged kernel's result -> the value it yields."""
    for gpu in gpus:
        body = gpu.body.block
        term = body.last_op
        for inner in list(body.walk()):
            source = index_of_row_zero(inner)
            if source is not None and source in value_of:
                rewriter.replace(inner, [], [value_of[source]])
                continue
            for i, v in enumerate(inner.operands):
                if v in reads and reads[v] in value_of:
                    inner.operands[i] = value_of[reads[v]]
                elif v in value_of:
                    # any other use of an earlier result: its one-row array, made here
                    literal = soac.ArrayOp([value_of[v]], v.type)
                    rewriter.insert(literal, InsertPoint.before(inner))
                    inner.operands[i] = literal.result
        for op in list(body.ops):
            if op is term:
                break
            move(op, InsertPoint.at_end(block))
        for result, value in zip(gpu.outputs, term.operands):
            value_of[result] = value
    results = [r for g in gpus for r in g.outputs]
    rewriter.insert(soac.YieldOp(*[value_of[r] for r in results]), InsertPoint.at_end(block))
    merged = soac.GpuBodyOp([r.type for r in results], Region(block))
    rewriter.insert(merged, InsertPoint.before(gpus[0]))
    for old, new in zip(results, merged.outputs):
        new.name_hint = old.name_hint
        rewriter.replace_all_uses_with(old, new)
    for g in gpus:
        rewriter.erase(g)
    return merged


# --------------------------------------------------------------------------------------
# Simplifying a gpu_body
# --------------------------------------------------------------------------------------


def drop_wasteful_copies(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> None:
    """A result that merely copies a value from outside (a captured value, or an
    element `%a[%i]` of an array no op consumes, at indices known outside) and that is
    only read back (`soac.index %r[%c0]`) is read at the source instead: device code
    uses the original, and the host reads the element itself rather than a copy made by
    a kernel (the same one read, one launch fewer) (§6.5)."""
    term = gpu.body.block.last_op
    for result, value in zip(gpu.outputs, term.operands):
        readers = [u.operation for u in result.uses]
        if not readers or not all(index_of_row_zero(r) is result for r in readers):
            continue
        if not defined_inside(value, gpu):
            if all(runs_on_device(r) for r in readers):
                for reader in readers:
                    rewriter.replace_all_uses_with(reader.results[0], value)
                    _erase_read(reader, rewriter)
            continue
        element = value.owner
        if not (
            isinstance(element, soac.IndexOp)
            and element.parent is gpu.body.block
            and not defined_inside(element.array, gpu)
            and all(not defined_inside(i, gpu) or isinstance(i.owner, arith.ConstantOp) for i in element.indices)
            and not is_consumed(element.array)
        ):
            continue
        for reader in readers:
            mapping: dict[SSAValue, SSAValue] = {}
            for i in element.indices:
                if defined_inside(i, gpu):
                    constant = i.owner.clone()
                    rewriter.insert(constant, InsertPoint.before(reader))
                    mapping[i] = constant.results[0]
            copy = element.clone(value_mapper=mapping)
            rewriter.insert(copy, InsertPoint.before(reader))
            copy.result.name_hint = reader.results[0].name_hint
            rewriter.replace_all_uses_with(reader.results[0], copy.result)
            _erase_read(reader, rewriter)


def _erase_read(read: Operation, rewriter: PatternRewriter) -> None:
    """Erases a read of row 0, and its constant 0 when nothing else uses it."""
    zero = read.operands[1]
    rewriter.erase(read)
    if not zero.uses and isinstance(zero.owner, arith.ConstantOp) and zero.owner.parent is not None:
        rewriter.erase(zero.owner)


def drop_unused_results(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> soac.GpuBodyOp | None:
    """The gpu_body without results nobody uses (None when none is left)."""
    term = gpu.body.block.last_op
    keep = [i for i, r in enumerate(gpu.outputs) if r.uses]
    if len(keep) == len(gpu.outputs):
        return gpu
    if not keep:
        rewriter.erase(gpu)
        return None
    values = [term.operands[i] for i in keep]
    rewriter.replace(term, soac.YieldOp(*values))
    new = soac.GpuBodyOp([gpu.outputs[i].type for i in keep], rewriter.move_region_contents_to_new_regions(gpu.body))
    for i, n in zip(keep, new.outputs):
        n.name_hint = gpu.outputs[i].name_hint
    kept = dict(zip(keep, new.outputs))
    rewriter.replace(gpu, new, [kept.get(i) for i in range(len(gpu.outputs))])
    return new


def absorb_single_replicates(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> soac.GpuBodyOp:
    """A result whose one use is a host-level replicate of one row (`replicate 1 r`,
    issue 22's class 4; Futhark's replicate1) is made in the gpu_body instead: it
    yields the replicate of its value, so no kernel copies the row afterwards. (A
    replicate of more rows stays a parallel kernel outside, as Futhark's does.)"""
    block = gpu.parent_block()
    absorbed = [
        (i, use.operation)
        for i, r in enumerate(gpu.outputs)
        if r.has_one_use()
        for use in r.uses
        if isinstance(use.operation, soac.ReplicateOp)
        and use.operation.parent_block() is block
        and use.operation.value is r
        and const_evaluate_operand(use.operation.count) == 1
    ]
    if not absorbed:
        return gpu
    term = gpu.body.block.last_op
    values = list(term.operands)
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    rewriter.insert(one, InsertPoint.before(term))
    for i, _ in absorbed:
        rows = soac.ReplicateOp(one.result, term.operands[i], 1)
        rewriter.insert(rows, InsertPoint.before(term))
        values.append(rows.result)
    rewriter.replace(term, soac.YieldOp(*values))
    types = [r.type for r in gpu.outputs] + [rep.result.type for _, rep in absorbed]
    new = soac.GpuBodyOp(types, rewriter.move_region_contents_to_new_regions(gpu.body))
    for old, fresh in zip(gpu.outputs, new.outputs):
        fresh.name_hint = old.name_hint
    rewriter.replace(gpu, new, list(new.outputs[: len(gpu.outputs)]))
    for (_, rep), made in zip(absorbed, new.outputs[len(gpu.outputs) :]):
        made.name_hint = rep.result.name_hint
        rewriter.replace(rep, [], [made])
    return new


def simplify(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> None:
    gpu = absorb_single_replicates(gpu, rewriter)
    drop_wasteful_copies(gpu, rewriter)
    kept = drop_unused_results(gpu, rewriter)
    if kept is not None:
        cse(kept.body)
        region_dce(kept.body)


def sink_constants(gpu: soac.GpuBodyOp, rewriter: PatternRewriter) -> None:
    """Constants a gpu_body uses are made inside it: they need not be kernel arguments,
    and they do not tie the kernel to where the host made them."""
    body = gpu.body.block
    made: dict[SSAValue, SSAValue] = {}
    for inner in list(gpu.walk()):
        for i, v in enumerate(inner.operands):
            if isinstance(v.owner, arith.ConstantOp) and not defined_inside(v, gpu):
                if v not in made:
                    clone = v.owner.clone()
                    rewriter.insert(clone, InsertPoint.at_start(body))
                    made[v] = clone.result
                inner.operands[i] = made[v]
    for v in made:
        if not v.uses:
            rewriter.erase(v.owner)


# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------


def merge_block(block: Block, rewriter: PatternRewriter) -> None:
    """Reorders and merges the gpu_bodies of a host-level block and of the host-level
    blocks nested in it."""
    for op in block.ops:
        if isinstance(op, _STRUCTURED):
            for region in op.regions:
                for b in region.blocks:
                    merge_block(b, rewriter)
    for op in list(block.ops):
        if isinstance(op, soac.GpuBodyOp):
            sink_constants(op, rewriter)
    term = block.last_op
    ops = [op for op in block.ops if op is not term or not _is_terminator(op)]
    groups = place(ops)
    # the block's ops in the groups' order, before its terminator
    end = InsertPoint.before(term) if term is not None and term not in ops else InsertPoint.at_end(block)
    for op in [op for g in groups for op in g.ops]:
        move(op, end)
    reads = {
        op.results[0]: index_of_row_zero(op)
        for g in groups[::2]
        for op in g.ops
        if index_of_row_zero(op) is not None
    }
    gpus = []
    for g in groups[1::2]:
        members = [op for op in g.ops if isinstance(op, soac.GpuBodyOp)]
        if len(members) >= 2:
            gpus.append(merge_group(members, reads, rewriter))
        else:
            gpus.extend(members)
    for gpu in [op for op in block.ops if isinstance(op, soac.GpuBodyOp)]:
        simplify(gpu, rewriter)


def _is_terminator(op: Operation) -> bool:
    from xdsl.traits import IsTerminator

    return op.has_trait(IsTerminator)


@dataclass(frozen=True)
class MergeGpuBodiesPass(ModulePass):
    """Reorders host code so that gpu_bodies meet, merges them, and simplifies them."""

    name = "merge-gpu-bodies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.ops:
            if isinstance(f, func.FuncOp) and f.body.blocks:
                merge_block(f.body.block, PatternRewriter(f))
