"""Helpers of the memory-pass tests: level-2 functions from soac source, and finding
their values by name."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue

from soacc.program import apply_pipeline, parse_program


def level2(source: str, pipeline: str = "convert-soac-to-mem", name: str = "main") -> func.FuncOp:
    module = parse_program(source)
    apply_pipeline(module, pipeline)
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise KeyError(name)


def value(root: Operation, name: str) -> SSAValue:
    """The value named %name (an op result or a block argument) in root."""
    for op in root.walk():
        for r in op.results:
            if r.name_hint == name:
                return r
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    if a.name_hint == name:
                        return a
    raise KeyError(name)


def op_named(root: Operation, op_name: str, index: int = 0) -> Operation:
    """The index-th op called op_name in root, in walk order."""
    return [o for o in root.walk() if o.name == op_name][index]
