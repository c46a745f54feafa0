"""The number of synchronous reads reduce-device-syncs promises for one run: the cut's
read points (MigrationTable.read_points) counted over a run of the analysed program on
the reference executor (runtime/execution_counts.py). A test checks that the program
the passes make reads exactly that many times (program.statistics.sync_reads at
level 2)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

from soacc.passes.analysis.device_loops import with_device_loops
from soacc.passes.analysis.migration_table import analyse_module
from soacc.passes.reduce_device_syncs import rotate_host_loops
from soacc.passes.utils.read_sinking import sink_reads
from soacc.runtime.execution_counts import count_executions
from soacc.program import parse_program


@functools.lru_cache(maxsize=8)
def analysed(source: str, device_loops: bool = True) -> tuple[ModuleOp, list[Operation | Block]]:
    """The program as the pass analyses it (its reads sunk into the branches that use
    them, its while loops rotated) and its read points
    (cached: running a module does not change it); with the device loops' reads
    (passes/analysis/device_loops.py) unless `device_loops` is off, as the pass's option."""
    module = parse_program(source)
    for f in module.ops:
        if isinstance(f, func.FuncOp) and f.body.blocks:
            sink_reads(f)
            rotate_host_loops(f)
    tables = analyse_module(module).values()
    if device_loops:
        tables = [with_device_loops(t) for t in tables]
    points = [p for table in tables for p in table.read_points()]
    return module, points


def cut_bound(source: str, args: Sequence, entry: str = "main", device_loops: bool = True) -> int:
    """The reads of one call of `entry`, as the analysis counts them."""
    module, points = analysed(source, device_loops)
    return count_executions(module, entry, args, points)
