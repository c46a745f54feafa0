"""The husks' cost model (docs/soac-to-husk.md#the-cost-model): how many of the devices
a husk run uses, decided when it runs, where the sizes are known; and the checks of a
run's arrays. Shared by the reference executor and the GPU runtime, so both split and
refuse alike.

Using k devices costs, in seconds, the work of the largest partition (rows / k rows,
each `work_per_row` scalar operations, the compiler's estimate, at `ops_per_second`),
plus what the split moves between devices (each other device's rows of the sources
and of the outs, and every broadcast array whole, at `peer_bytes_per_second`, plus
`copy_seconds` per copy), plus the issue of its work (`issue_seconds` per device). The
run uses the k with the least cost (the fewest on a tie): one device where splitting
would be slower, which the thesis's husks always did (its CFD ran at 0.22x on two GPUs).
A device past the k-th gets no rows, no copy and no work. The cuda backend measures
the peer bandwidth of its devices when it sets them up (`measured_model`); the other
numbers are assumptions.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from soacc.dialects.shared.partitions import even_partitions
from soacc.runtime.errors import ExecutionError

ALWAYS = "always"
MODEL = "model"
SPLIT_ENVIRONMENT = "SOACC_HUSK_SPLIT"
"""`always`: every husk run splits over every device, whatever it costs (the thesis's
husks; the tests of the copies between devices); `model` (the default): the cost
model decides."""


@dataclass(frozen=True)
class DeviceModel:
    """What the cost model assumes of a device and the link between two."""

    ops_per_second: float = 1e12
    """Scalar operations a device does per second over a husk's rows (an H100 or H200
    runs a simple map's at several 10^12; a body's loads and branches make it less)."""
    peer_bytes_per_second: float = 2.5e10
    """Bytes per second of a copy between two devices (PCIe 4 x16 and one NVLink
    bridge's direction are about this; an NVSwitch machine's peers are faster)."""
    copy_seconds: float = 1e-5
    """The startup of one copy between devices."""
    issue_seconds: float = 2e-5
    """The host's cost to issue one device's share of a husk (its copies, events and
    launches from Python)."""


@dataclass(frozen=True)
class Split:
    """A run's choice: its partition table over every device (those past `used` get
    no rows) and why."""

    used: int
    partitions: list[tuple[int, int]]
    reason: str


DEVICE_MODEL = DeviceModel()
"""The model both runtimes split by (tests may give a slower device, so that splitting
pays at their sizes)."""


def measured_model(home, base: DeviceModel | None = None, nbytes: int = 32 << 20, repeat: int = 3) -> DeviceModel:
    """`base` (the default model) with the peer bandwidth measured between device 0 and
    device 1 of `home` (a HostRuntime with peers): `repeat` copies of `nbytes`, timed
    from their issue to the device's end."""
    import time
    from dataclasses import replace

    base = base or DEVICE_MODEL
    if len(home.peers) < 2:
        return base
    peer = home.peers[1]
    source = home.memory.allocate(nbytes)
    with peer.memory.current():
        destination = peer.memory.allocate(nbytes)
    home.memory.peer_copy(peer.memory, destination.ptr, home.memory, source.ptr, nbytes)  # (the first sets up)
    home.memory.synchronize()
    started = time.perf_counter()
    for _ in range(repeat):
        home.memory.peer_copy(peer.memory, destination.ptr, home.memory, source.ptr, nbytes)
    home.memory.synchronize()
    seconds = time.perf_counter() - started
    return replace(base, peer_bytes_per_second=repeat * nbytes / seconds) if seconds > 0 else base


def split_mode() -> str:
    mode = os.environ.get(SPLIT_ENVIRONMENT, MODEL)
    return mode if mode in (ALWAYS, MODEL) else MODEL


def choose_split(
    rows: int,
    devices: int,
    work_per_row: int,
    moved: Callable[[list[tuple[int, int]]], tuple[int, int]],
    model: DeviceModel | None = None,
    mode: str | None = None,
) -> Split:
    """The devices a run of `rows` rows uses, of `devices`. `moved(table)` gives the
    bytes and the number of copies that a partition table sends between devices."""
    model = model or DEVICE_MODEL
    if devices == 1 or (mode or split_mode()) == ALWAYS:
        return Split(devices, even_partitions(rows, devices), "every device" if devices > 1 else "one device")
    costs = []
    for k in range(1, devices + 1):
        table = even_partitions(rows, k) + [(rows, 0)] * (devices - k)
        most = max(size for _, size in table)
        nbytes, copies = moved(table)
        seconds = most * work_per_row / model.ops_per_second + nbytes / model.peer_bytes_per_second
        seconds += copies * model.copy_seconds + k * model.issue_seconds
        costs.append((seconds, k, table, nbytes))
    best = min(costs, key=lambda c: (c[0], c[1]))
    seconds, k, table, nbytes = best
    one = costs[0][0]
    if k == 1:
        reason = (
            f"one device: splitting {rows} rows of ~{work_per_row} ops would move "
            f"{costs[-1][3]} bytes, estimated {costs[-1][0] * 1e6:.0f} us against {one * 1e6:.0f} us on one"
        )
    else:
        reason = f"{k} devices: estimated {seconds * 1e6:.0f} us against {one * 1e6:.0f} us on one, moving {nbytes} bytes"
    return Split(k, table, reason)


def continued_split(rows: int, devices: int, used: int) -> Split:
    """The split of a run that continues another over the same rows (`husk.run
    devices(%k)`, `used` the other's busy devices): the first `used` devices (one
    where it had none), whatever the cost. Even partitions over the busy devices of a
    split are that split's own (dialects/shared/partitions.py), so each device gets
    the rows it had, which it may still hold."""
    if not 0 <= used <= devices:
        raise ExecutionError(f"husk.run continues a run on {used} device(s), but there are {devices}")
    k = max(used, 1)
    table = even_partitions(rows, k) + [(rows, 0)] * (devices - k)
    return Split(k, table, f"{k} device(s): as the run it continues" if devices > 1 else "one device")


def bytes_moved(
    table: list[tuple[int, int]],
    source_row_bytes: list[int],
    out_row_bytes: list[int],
    broadcast_bytes: list[int],
    slot_bytes: list[int],
    held: Callable[[int, int, int], tuple[int, int]] | None = None,
) -> tuple[int, int]:
    """The bytes and copies a partition table sends between devices: to each device
    past the first that has rows, its rows of every source and every broadcast array
    whole, but for what `held(device, offset, size)` says (bytes, copies) the device
    holds of them from earlier runs (runtime/husk_residency.py); from it, its rows of
    every out and its slots."""
    nbytes = copies = 0
    for device, (offset, size) in enumerate(table):
        if device == 0 or size == 0:
            continue
        nbytes += size * (sum(source_row_bytes) + sum(out_row_bytes)) + sum(broadcast_bytes) + sum(slot_bytes)
        copies += len(source_row_bytes) + len(out_row_bytes) + len(broadcast_bytes) + len(slot_bytes)
        if held is not None:
            kept_bytes, kept_copies = held(device, offset, size)
            nbytes -= kept_bytes
            copies -= kept_copies
    return nbytes, copies


def check_rows(rows: int, devices: int, sources: list[int], outs: list[int], slots: list[int]) -> None:
    """A run of `rows` rows over `devices` devices is given sources and outs of that
    many rows, and slot arrays of one row per device (the lists: their outer sizes)."""
    if rows < 0:
        raise ExecutionError(f"husk.run splits {rows} rows")
    for group, sizes, expected in (("source", sources, rows), ("out", outs, rows), ("slot array", slots, devices)):
        for j, size in enumerate(sizes):
            if size != expected:
                raise ExecutionError(
                    f"husk.run {group} {j} has {size} rows; expected {expected}"
                    + (" (one per device)" if group == "slot array" else "")
                )
