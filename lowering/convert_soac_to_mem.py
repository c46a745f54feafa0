"""convert-soac-to-mem: bufferisation, from level 1 (soac on tensors) to level 2 (mem).

Every array gets a memory block and a view of it:

- arrays live in device memory; an entry point's array arguments arrive in host memory
  (a (block, view) pair each) and are copied to the device where used; its array
  results are copied back into host memory;
- allocations are explicit, sized from the program's own sizes. A map whose rows are
  arrays needs its rows' size before it runs: the size is derived symbolically and
  computed outside the lambda, from row 0 when it depends on the row (such rows are
  copied into their output rows, which checks that they fit; a diagnostic says when
  not even row 0's size can be computed ahead);
- combinators write into their outputs (destination passing); an array a lambda
  returns is built directly in its output row when it is made there;
- `update`, `scatter` and `hist` write in place when their source owns its memory and
  has no other use, and into a copy otherwise;
- `slice`, `transpose` and partial `index` are views of their source, not copies;
- a host-level `soac.index`, and a reduction result used by host code, become
  `mem.load`s: synchronous device-to-host reads;
- `scf.if`, `scf.for` and `scf.while` carry arrays as (block, view) pairs: their blocks
  are existential, and no copy is made where none is needed.

Inside lambdas arrays are rows or per-row allocations and are carried as views alone.

The conversion is in parts: soac_to_mem_base (values, scope, allocations, sizes),
soac_to_mem_arrays, soac_to_mem_combinators and soac_to_mem_control; the sizes it
derives are passes/analysis/sizes.py's, and whether a write may take its source's
memory is passes/analysis/ownership.py's.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException, VerifyException

from soacc.dialects import husk, soac
from soacc.dialects.shared.structural_checks import check_constant_sizes
from soacc.dialects.shared.utils import enclosing_function, located_failure
from soacc.lowering.soac_to_mem_arrays import ArrayConversion
from soacc.lowering.soac_to_mem_base import DEVICE, ENTRY, CannotBufferise
from soacc.lowering.soac_to_mem_combinators import CombinatorConversion
from soacc.lowering.soac_to_mem_control import ControlFlowConversion
from soacc.lowering.soac_to_mem_husks import HuskConversion
from soacc.passes.analysis.ownership import loop_starts_to_copy

__all__ = ["ConvertSoacToMemPass", "CannotBufferise"]


class CopyLoopStart(RewritePattern):
    """A loop that updates a carried array in place in every iteration, but starts from
    an array it may not overwrite, gets a copy of that start before it: then the loop
    owns its array and updates it in place, where otherwise every iteration would copy
    it whole. (Futhark's uniqueness rules make its programmer write this copy.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        f = enclosing_function(loop)
        entry = f is not None and (f.sym_visibility is None or f.sym_visibility.data != "private")
        k = 0
        while starts := [s for s in loop_starts_to_copy(loop, entry) if s >= k]:
            # in order, each decided with the copies before it in place
            k = starts[0]
            start = loop.iter_args[k]
            copy = soac.CopyOp(start)
            copy.result.name_hint = start.name_hint
            rewriter.insert(copy, InsertPoint.before(loop))
            position = 3 + k  # after the bounds and the step
            rewriter.replace_uses_with_if(
                start, copy.result, lambda use: use.operation is loop and use.index == position
            )
            k += 1


class FunctionConverter(ArrayConversion, CombinatorConversion, ControlFlowConversion, HuskConversion):
    """Converts one function to level 2 under one convention."""


FunctionConverter.HANDLERS = {
    arith.ConstantOp: FunctionConverter.convert_constant,
    arith.SelectOp: FunctionConverter.convert_select,
    soac.MapOp: FunctionConverter.convert_map,
    soac.ReduceOp: FunctionConverter.convert_reduce,
    soac.ScanOp: FunctionConverter.convert_scan,
    soac.ScatterOp: FunctionConverter.convert_scatter,
    soac.HistOp: FunctionConverter.convert_hist,
    soac.RedomapOp: FunctionConverter.convert_redomap,
    soac.ScanomapOp: FunctionConverter.convert_scanomap,
    soac.ScatteromapOp: FunctionConverter.convert_scatteromap,
    soac.HistomapOp: FunctionConverter.convert_histomap,
    soac.GpuBodyOp: FunctionConverter.convert_gpu_body,
    husk.HuskOp: FunctionConverter.convert_husk,
    soac.IotaOp: FunctionConverter.convert_iota,
    soac.ReplicateOp: FunctionConverter.convert_replicate,
    soac.ArrayOp: FunctionConverter.convert_array,
    soac.CopyOp: FunctionConverter.convert_copy,
    soac.ConcatOp: FunctionConverter.convert_concat,
    soac.IndexOp: FunctionConverter.convert_index,
    soac.SliceOp: FunctionConverter.convert_slice,
    soac.TransposeOp: FunctionConverter.convert_transpose,
    soac.UpdateOp: FunctionConverter.convert_update,
    soac.DeviceIndexOp: FunctionConverter.convert_device_index,
    soac.DeviceUpdateOp: FunctionConverter.convert_device_update,
    soac.SizeOp: FunctionConverter.convert_size,
    scf.IfOp: FunctionConverter.convert_if,
    scf.ForOp: FunctionConverter.convert_for,
    scf.WhileOp: FunctionConverter.convert_while,
    func.CallOp: FunctionConverter.convert_call,
    func.ReturnOp: FunctionConverter.convert_return,
    cf.AssertOp: FunctionConverter.insert_clone,  # a check of scalars (a pass's, kept)
}


class ModuleConverter:
    """Converts every function, making the variants calls need on demand."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.old_functions = {
            f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks
        }
        self.converted: dict[tuple[str, str], str] = {}
        self.new_functions: list[func.FuncOp] = []

    def function(self, name: str, convention: str, caller: Operation | None = None) -> str:
        """The name of `name` converted under `convention`, converting it if needed."""
        key = (name, convention)
        if key in self.converted:
            return self.converted[key]
        old = self.old_functions.get(name)
        if old is None:
            raise CannotBufferise(caller or self.module, f"@{name} has no body to bufferise")
        public = old.sym_visibility is None or old.sym_visibility.data != "private"
        new_name = name if (convention == ENTRY or (not public and convention == DEVICE)) else f"{name}.{convention}"
        self.converted[key] = new_name
        self.new_functions.append(FunctionConverter(self, old, convention).convert(new_name))
        return new_name

    def convert(self) -> None:
        for name, f in self.old_functions.items():
            if f.sym_visibility is None or f.sym_visibility.data != "private":
                self.function(name, ENTRY)
        # private functions nobody calls still get their (device) conversion
        for name in self.old_functions:
            if not any(key[0] == name for key in self.converted):
                self.function(name, DEVICE)


def _fail(error: CannotBufferise) -> PassFailedException:
    return located_failure(error.op, f"convert-soac-to-mem: cannot bufferise {error.op.name}: {error}")


class ConvertSoacToMemPass(ModulePass):
    """Bufferisation: level 1 (soac on tensors) to level 2 (mem on explicit memory)."""

    name = "convert-soac-to-mem"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(CopyLoopStart(), apply_recursively=False).rewrite_module(op)
        converter = ModuleConverter(op)
        try:
            converter.convert()
        except CannotBufferise as error:
            raise _fail(error) from None
        for f in list(op.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                Rewriter.erase_op(f, safe_erase=False)
        for f in converter.new_functions:
            Rewriter.insert_op(f, InsertPoint.at_end(op.body.block))
        try:
            check_constant_sizes(op)  # before anything folds them to wrapped constants
        except VerifyException as error:
            raise located_failure(error.op, f"convert-soac-to-mem: {error}") from None
