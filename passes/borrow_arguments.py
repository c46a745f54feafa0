"""borrow-arguments: an entry point may read an argument already in device memory
where it is (issue 19, item 5). It marks each argument upload whose device block
nothing writes afterwards (passes/analysis/read_only_uploads.py) `borrowable`: at run
time, where the caller's array is in GPU memory, dense and of the device array's very
shape, the block stands for the caller's memory and the upload copies nothing
(runtime: HostRuntime.copy_or_borrow); otherwise, and on the reference executor, the
upload is the copy it always was. `report=true` names, per entry point, the uploads
marked and why the others are not.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from soacc.dialects import mem
from soacc.passes.analysis.read_only_uploads import upload_verdicts


@dataclass(frozen=True)
class BorrowArgumentsPass(ModulePass):
    name = "borrow-arguments"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if not isinstance(function, func.FuncOp) or mem.entry_signature(function) is None:
                continue
            verdicts = upload_verdicts(function)  # (read before anything is marked)
            for verdict in verdicts:
                if verdict.read_only:
                    verdict.copy.attributes[mem.BORROWABLE] = UnitAttr()
            if self.report and verdicts:
                marked = [f"%{v.copy.dest.name_hint or '?'}" for v in verdicts if v.read_only]
                left = [f"%{v.copy.dest.name_hint or '?'} ({v.why_not})" for v in verdicts if not v.read_only]
                print(
                    f"borrow-arguments: @{function.sym_name.data}: {len(marked)} of {len(verdicts)} upload(s) borrowable"
                    + (f": {', '.join(marked)}" if marked else "")
                    + (f"; not: {', '.join(left)}" if left else ""),
                    file=sys.stderr,
                )
