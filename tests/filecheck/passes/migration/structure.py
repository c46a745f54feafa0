"""Prints the structure of each function of the module on stdin, as Futhark's
`structure gpu { ... }` test blocks count it: for every block (the function body, and
each region nested in it, named by the path of ops from the body: `/scf.for`,
`/scf.if/then`, `/soac.gpu_body`, ...) the number of ops of each kind directly in it,
and for the whole function the number anywhere. Kinds with no op are printed as 0, so
that a CHECK line can expect none.

    @main /soac.gpu_body [1]
    @main /soac.gpu_body/soac.index [2]
    @main soac.array [0]

`binop` and `cmpop` count arith's arithmetic and comparison ops (Futhark's BinOp and
CmpOp). Used by the ports of Futhark's tests/migration in this folder."""

import sys
from collections import Counter

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Operation
from xdsl.parser import Parser

from soacc.tools.universe import SOACC_UNIVERSE

KINDS = [
    "soac.gpu_body", "soac.index", "soac.slice", "soac.array", "soac.update", "soac.replicate",
    "soac.iota", "soac.copy", "soac.concat", "soac.map", "soac.reduce", "soac.scan", "soac.hist",
    "scf.if", "scf.for", "scf.while", "func.call", "binop", "cmpop", "math",
]
REGION_NAMES = {"scf.if": ["then", "else"], "scf.while": ["before", "after"]}


def kind(op: Operation) -> str:
    if op.name in ("arith.cmpi", "arith.cmpf"):
        return "cmpop"
    if op.dialect_name() == "arith" and op.name not in ("arith.constant", "arith.select") and len(op.operands) == 2:
        return "binop"
    if op.dialect_name() == "math":
        return "math"
    return op.name


def count(block, path: str, per_path: dict[str, Counter], total: Counter) -> None:
    here = per_path.setdefault(path, Counter())
    for op in block.ops:
        k = kind(op)
        here[k] += 1
        total[k] += 1
        labels = REGION_NAMES.get(op.name, [])
        for i, region in enumerate(op.regions):
            label = f"/{labels[i]}" if i < len(labels) else ""
            for b in region.blocks:
                count(b, f"{path}/{op.name}{label}", per_path, total)


def main() -> None:
    ctx = Context()
    for name, dialect in SOACC_UNIVERSE.all_dialects.items():
        ctx.register_dialect(name, dialect)
    from xdsl.dialects import get_all_dialects

    for name, dialect in get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, dialect)
    module = Parser(ctx, sys.stdin.read()).parse_module()
    for f in module.ops:
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        name = f"@{f.sym_name.data}"
        per_path: dict[str, Counter] = {}
        total: Counter = Counter()
        count(f.body.block, "", per_path, total)
        for path in sorted(per_path):
            for k in KINDS:
                print(f"{name} {path}/{k} [{per_path[path][k]}]")
        for k in KINDS:
            print(f"{name} {k} [{total[k]}]")


if __name__ == "__main__":
    main()
