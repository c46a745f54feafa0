"""The work a husk's body does per row of its partition, estimated at compile time: the
cost model's half that sizes cannot give (docs/soac-to-husk.md#the-cost-model). The
runtime weighs it, times the rows, against the bytes a split moves between devices.

A row's work is the number of scalar operations its lambdas run for it: every op of a
combinator's lambda counts 1, a combinator nested in a lambda counts its own lambda's
ops times its rows (a static size, else `UNKNOWN_ROWS`), an `scf.for` its body's ops
times its trip count (constant bounds, else `UNKNOWN_TRIPS`), an `scf.while` its
regions' ops times `UNKNOWN_TRIPS` (Mandelbrot's escape loop). An estimate: its unit
is an op, and it only has to order "little work per row" (a map of an addition) below
"much" (an iteration). Never changes IR.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation, Region

from soacc.dialects import husk
from soacc.dialects.shared.traits import is_kernel

UNKNOWN_ROWS = 16
"""The rows assumed of an array of a size only the run knows, inside a lambda."""

UNKNOWN_TRIPS = 32
"""The iterations assumed of a loop whose trip count only the run knows."""


def work_per_row(op: husk.HuskOp) -> int:
    """The scalar operations the body's combinators run per row of the partition (at
    least 1)."""
    total = 0
    for inner in op.body.block.ops:
        if is_kernel(inner):
            total += sum(_region_work(r) for r in inner.regions)
    return max(1, total)


def _region_work(region: Region) -> int:
    return sum(_op_work(op) for block in region.blocks for op in block.ops)


def _op_work(op: Operation) -> int:
    if isinstance(op, scf.ForOp):
        return _trips(op) * _region_work(op.body)
    if isinstance(op, scf.WhileOp):
        return UNKNOWN_TRIPS * (_region_work(op.before_region) + _region_work(op.after_region))
    if is_kernel(op):
        return _rows(op) * sum(_region_work(r) for r in op.regions)
    return 1 + sum(_region_work(r) for r in op.regions)


def _trips(loop: scf.ForOp) -> int:
    bounds = [v.owner for v in (loop.lb, loop.ub, loop.step)]
    if all(isinstance(b, arith.ConstantOp) for b in bounds):
        lb, ub, step = (b.value.value.data for b in bounds)  # type: ignore[union-attr]
        if step > 0:
            return max(0, -(-(ub - lb) // step))
    return UNKNOWN_TRIPS


def _rows(kernel: Operation) -> int:
    """A nested combinator's rows: its first array operand's outer size."""
    for v in kernel.operands:
        if isinstance(v.type, TensorType) and v.type.get_num_dims():
            d = v.type.get_shape()[0]
            return UNKNOWN_ROWS if d == DYNAMIC_INDEX else d
    return 1
