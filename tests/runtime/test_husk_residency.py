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
    # (its finalizer only notes the death, taking no lock; the next question forgets)
    assert resident.held(1, Block(), 0, 8) is None
    assert not resident


def recorder():
    sent = []
    return sent, ResidentRows(lambda block, entry: sent.append((entry.device, entry.start, entry.nbytes)))


def test_dirty_pieces_come_back_when_host_code_reads_or_writes_their_block():
    sent, resident = recorder()
    block = Block()
    resident.keep(1, block, 0, 8, "device 1's rows", dirty=True)
    resident.keep(2, block, 8, 8, "device 2's rows", dirty=True)
    resident.reading(block)  # both come back, and stay held (clean)
    assert sent == [(1, 0, 8), (2, 8, 8)]
    assert resident.held(1, block, 0, 8) is not None
    resident.reading(block)
    assert len(sent) == 2  # (clean now: nothing more)
    resident.keep(1, block, 0, 8, "device 1's next rows", dirty=True)
    resident.touched(block)  # back first, then held by no device
    assert sent[-1] == (1, 0, 8) and not resident


def test_a_run_brings_back_what_it_reads_and_what_its_out_only_partly_covers():
    sent, resident = recorder()
    block = Block()
    resident.keep(1, block, 0, 16, "a", dirty=True)
    resident.keep(2, block, 16, 8, "b", dirty=True)
    # an out over [0, 20): "a" lies inside it (overwritten: not sent), "b" reaches past
    resident.send_back(block, 0, 20, outside=True)
    assert sent == [(2, 16, 8)]
    # device 1 needs [16, 24) from device 0: device 2's piece is clean now; device 1's
    # own dirty piece is not sent back for it
    resident.send_back(block, 0, 24, but=1)
    assert sent == [(2, 16, 8)]
    resident.send_back_all()
    assert sent == [(2, 16, 8), (1, 0, 16)]


def test_a_write_of_a_run_supersedes_the_dirty_pieces_inside_it():
    sent, resident = recorder()
    block = Block()
    resident.keep(1, block, 0, 8, "old", dirty=True)
    resident.written(block, 0, 8)
    assert not resident and sent == []


def test_a_piece_made_of_a_dirty_one_takes_it_over_or_sends_it_back_first():
    sent, resident = recorder()
    block = Block()
    resident.keep(1, block, 8, 8, "rows 8-16, computed there", dirty=True)
    # a piece over [0, 24) made of what device 1 held of it: dirty in turn, nothing sent
    resident.keep(1, block, 0, 24, "rows 0-24")
    assert sent == [] and resident.segments(1, block, 0, 24) == [Segment(0, 24, "rows 0-24", 0)]
    resident.reading(block)
    assert sent == [(1, 0, 24)]
    # a piece over [0, 8) of a device whose dirty piece reaches past it: that one first
    resident.keep(2, block, 0, 16, "device 2's", dirty=True)
    resident.keep(2, block, 0, 8, "part of it")
    assert sent[-1] == (2, 0, 16)
