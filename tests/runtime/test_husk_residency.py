"""The directory of what husk devices hold of device 0's arrays
(runtime/husk_residency.py): ranges held whole or in part, replaced, written, touched,
paused while a husk runs, and forgotten with their block."""

from __future__ import annotations

import gc

import numpy as np

from soacc.runtime.husk_residency import ResidentRows, Segment


class Block:
    """Any object with an identity and weak references stands for a block."""


def test_a_range_is_held_whole_or_in_parts():
    resident, block = ResidentRows(), Block()
    resident.keep(1, block, 100, 50, "rows 100-150")
    assert resident.held(1, block, 110, 20) == Segment(0, 20, "rows 100-150", 10)
    assert resident.held(1, block, 90, 20) is None
    assert resident.held(2, block, 110, 20) is None  # another device's
    # [80, 200): a gap, the piece, a gap
    assert resident.segments(1, block, 80, 120) == [
        Segment(0, 20), Segment(20, 50, "rows 100-150", 0), Segment(70, 50),
    ]
    assert resident.missing(1, block, 80, 120) == (70, 2)
    assert resident.missing(1, Block(), 0, 8) == (8, 1)
    assert resident.held_bytes(1, [(block, 80, 120), (None, 0, 64)]) == (50, -1)


def test_pieces_side_by_side_cover_a_range():
    resident, block = ResidentRows(), Block()
    resident.keep(1, block, 0, 40, "a")
    resident.keep(1, block, 40, 40, "b")
    assert resident.segments(1, block, 20, 40) == [Segment(0, 20, "a", 20), Segment(20, 20, "b", 0)]
    assert resident.missing(1, block, 0, 80) == (0, 0)


def test_a_new_piece_replaces_what_it_overlaps_on_its_device_only():
    resident, block = ResidentRows(), Block()
    resident.keep(1, block, 0, 100, "old")
    resident.keep(2, block, 0, 100, "other device")
    resident.keep(1, block, 50, 10, "new")
    assert resident.held(1, block, 0, 10) is None
    assert resident.held(1, block, 50, 10).piece == "new"
    assert resident.held(2, block, 0, 100).piece == "other device"
    resident.keep(0, block, 0, 10, "device 0 holds the array itself")
    assert resident.held(0, block, 0, 10) is None


def test_written_bytes_are_held_by_no_device():
    resident, block = ResidentRows(), Block()
    resident.keep(1, block, 0, 50, "a")
    resident.keep(2, block, 50, 50, "b")
    resident.written(block, 40, 5)
    assert resident.held(1, block, 0, 10) is None and resident.held(2, block, 50, 50).piece == "b"
    resident.written(block)
    assert not resident


def test_host_code_touching_a_block_ends_it_but_not_while_a_husk_runs():
    resident, a, b = ResidentRows(), Block(), Block()
    resident.keep(1, a, 0, 8, "a")
    resident.keep(1, b, 0, 8, "b")
    with resident.in_husk():
        resident.touched(a)
    assert resident.held(1, a, 0, 8) is not None
    resident.touched(a)
    assert resident.held(1, a, 0, 8) is None and resident.held(1, b, 0, 8) is not None
    resident.clear()
    assert not resident


def test_a_block_that_dies_takes_its_pieces_along():
    resident = ResidentRows()
    block = np.zeros(16, np.uint8)  # (the reference executor's blocks)
    piece = np.ones(8, np.uint8)
    resident.keep(1, block, 0, 8, piece)
    assert resident
    del block
    gc.collect()
    assert not resident
