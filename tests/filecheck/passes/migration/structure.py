"""Prints the structure of each function of the module on stdin (in MLIR's generic
syntax, `soacc-opt --print-op-generic`), as Futhark's `structure gpu { ... }` test
blocks count it: for every block (the function body, and each region nested in it,
named by the path of ops from the body: `/scf.for`, `/scf.if/then`, `/soac.gpu_body`,
...) the number of ops of each kind directly in it, and for the whole function the
number anywhere. Kinds with no op are printed as 0, so that a CHECK line can expect none.

    @main /soac.gpu_body [1]
    @main /soac.gpu_body/soac.index [2]
    @main soac.array [0]

`binop` and `cmpop` count arith's arithmetic and comparison ops (Futhark's BinOp and
CmpOp), `math` the math ops. Used by the ports of Futhark's tests/migration in this
folder. It reads the text itself (no xDSL): it runs once per test, and starting xDSL
would double each test's time."""

import re
import sys
from collections import Counter

KINDS = [
    "soac.gpu_body", "soac.index", "soac.slice", "soac.array", "soac.update", "soac.replicate",
    "soac.iota", "soac.copy", "soac.concat", "soac.map", "soac.reduce", "soac.scan", "soac.hist",
    "scf.if", "scf.for", "scf.while", "func.call", "binop", "cmpop", "math",
]
REGION_NAMES = {"scf.if": ["then", "else"], "scf.while": ["before", "after"]}
OP = re.compile(r'^\s*(?:%[^=]*=\s*)?"([\w.]+)"')
SYM_NAME = re.compile(r'sym_name = "([^"]+)"')
NOT_BINOPS = {"arith.constant", "arith.select", "arith.cmpi", "arith.cmpf"}
UNARY = {"arith.negf", "arith.index_cast", "arith.index_castui", "arith.sitofp", "arith.uitofp",
         "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui", "arith.trunci",
         "arith.extf", "arith.truncf", "arith.bitcast"}


def kind(name: str) -> str:
    if name in ("arith.cmpi", "arith.cmpf"):
        return "cmpop"
    if name.startswith("arith.") and name not in NOT_BINOPS and name not in UNARY:
        return "binop"
    if name.startswith("math."):
        return "math"
    return name


def main() -> None:
    functions: list[tuple[str, dict[str, Counter], Counter]] = []
    # the ops whose regions we are in: [op name, region index, path of the region]
    stack: list[list] = []
    per_path: dict[str, Counter] = {}
    total: Counter = Counter()
    for line in sys.stdin:
        stripped = line.strip()
        if stripped.startswith("}, {"):
            top = stack[-1]
            top[1] += 1
            labels = REGION_NAMES.get(top[0], [])
            top[2] = top[3] + (f"/{labels[top[1]]}" if top[1] < len(labels) else "")
            per_path.setdefault(top[2], Counter())
            continue
        if stripped.startswith("})"):
            stack.pop()
            continue
        match = OP.match(line)
        if not match:
            continue
        name = match.group(1)
        if name == "func.func":
            fname = SYM_NAME.search(line)
            per_path, total = {"": Counter()}, Counter()
            functions.append((f"@{fname.group(1) if fname else '?'}", per_path, total))
            if stripped.endswith("({"):
                stack.append(["func.func", 0, "", ""])
            continue
        if not any(entry[0] == "func.func" for entry in stack):
            if stripped.endswith("({"):
                stack.append([name, 0, None, None])  # the module
            continue
        path = stack[-1][2]
        k = kind(name)
        per_path.setdefault(path, Counter())[k] += 1
        total[k] += 1
        if stripped.endswith("({"):
            base = f"{path}/{name}"
            labels = REGION_NAMES.get(name, [])
            region_path = base + (f"/{labels[0]}" if labels else "")
            per_path.setdefault(region_path, Counter())
            stack.append([name, 0, region_path, base])
    for fname, paths, counts in functions:
        for path in sorted(paths):
            for k in KINDS:
                print(f"{fname} {path}/{k} [{paths[path][k]}]")
        for k in KINDS:
            print(f"{fname} {k} [{counts[k]}]")


if __name__ == "__main__":
    main()
