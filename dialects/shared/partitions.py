"""How a husk splits its m rows over n devices: even partitions in device order
(Larsen, *Multi-GPU Futhark Using Parallel Streams*, §5.2), with the thesis's errors
fixed. Every layer that runs husks asks this one function: the reference executor, the
GPU runtime and the tests.

Device i gets the rows [offset, offset + size) with

    most   = ceil(m / n) = 1 + floor((m - 1) / n)     (0 when m = 0: floor, not truncation)
    offset = min(i * most, m)
    size   = max(0, min(most, m - offset))

The thesis's formula leaves the clamps out, and gives a negative size to a device past
the end (m = 5, n = 4: the fourth device gets (6, -1)); here it gets (5, 0): nothing to
do, and it adds the neutral element to a reduction.
"""

from __future__ import annotations


def even_partition(rows: int, devices: int, device: int) -> tuple[int, int]:
    """(offset, size) of `device`'s rows, of `rows` split over `devices`."""
    if devices < 1:
        raise ValueError(f"a husk runs on at least one device, not {devices}")
    if not 0 <= device < devices:
        raise ValueError(f"device {device} is not one of the {devices} devices")
    if rows < 0:
        raise ValueError(f"a husk's source has {rows} rows")
    most = 1 + (rows - 1) // devices  # Python's // floors, as the thesis's sdiv32
    offset = min(device * most, rows)
    return offset, max(0, min(most, rows - offset))


def even_partitions(rows: int, devices: int) -> list[tuple[int, int]]:
    """(offset, size) of every device's rows, in device order."""
    return [even_partition(rows, devices, i) for i in range(devices)]
