"""place-kernels (passes/place_kernels.py) and kernels on the host (runtime/
host_kernels.py). Differential: every example and benchmark program, and seeded random
programs, with kernels placed on the host (all of them, and a seeded random subset, with
forks and with fuse-transfers too) give the results of the program without placement
on the reference executor. With every kernel on the host a program has no device
kernel left, so its level-3 host code runs here, against a simulated device: its host
kernels run on the CPU and must give the reference executor's results and counters.
Then what the pass does to transfers, its options, and the verifier's rule. The GPU
runs the placed programs in tests/runtime/gpu/test_host_kernels_gpu.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from xdsl.dialects import func

import soacc
from soacc.backends import host_code_executor
from soacc.passes.place_kernels import chosen_kernels, kernel_names
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.errors import SoaccError
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import as_tuple

from tests.support.marks import sweep
from tests.support.random_programs import random_program
from tests.support.scripts import every_program
from tests.support.simulated_device import SimulatedDevice

PROGRAMS = every_program("device_syncs", "memory")
IDS = [f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS]
BEFORE_PLACEMENT = "canonicalize,cse,soac-fusion,reduce-device-syncs,merge-gpu-bodies,convert-soac-to-mem,fuse-iota"


def copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def kernel_names_of(source: str) -> list[str]:
    """The names place-kernels knows the program's kernels by (one per kernel)."""
    module = parse_program(source)
    apply_pipeline(module, BEFORE_PLACEMENT)
    return sorted(
        {
            min(kernel_names(k))
            for f in module.ops
            if isinstance(f, func.FuncOp)
            for k in chosen_kernels(f, ("all",), -1)
            if kernel_names(k)
        }
    )


def random_placement(names: list[str], seed) -> tuple[str, ...]:
    rng = random.Random(seed)
    return tuple(n for n in names if rng.random() < 0.5) or ("all",)


def same(got, want) -> None:
    for g, w in zip(as_tuple(got), as_tuple(want), strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def level2(**options) -> str:
    return SoaccPipelinePass(**options).level2_stages()


@pytest.mark.parametrize("example", PROGRAMS, ids=IDS)
def test_every_program_means_the_same_with_kernels_on_the_host(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(3), size)
    want = soacc.compile(example.program_path, backend="numpy", pipeline=level2()).main(*copies(args))
    source = example.program_path.read_text()
    # every kernel on the host, and a random part of them: only the second has arrays
    # crossing between the two sides (for fuse-transfers) and threads of either (forks)
    # (forks and fused transfers in one compile: the sweep's time is its compiles)
    placements = [(("all",), [{}]), (random_placement(kernel_names_of(source), example.name), [{}, {"forks": True, "transfers": True}])]
    for host, variants in placements:
        for extra in variants:
            program = soacc.compile(example.program_path, backend="numpy", pipeline=level2(host_kernels=host, **extra))
            same(program.main(*copies(args)), want)
            if host == ("all",):
                assert program.statistics.kernel_launches == 0
                assert program.statistics.host_kernels > 0


@pytest.mark.parametrize("example", PROGRAMS, ids=IDS)
def test_host_code_runs_host_kernels_on_the_cpu(example):
    """Every kernel on the host: the emitted host code's results and counters are the
    reference executor's, on the same level-3 module."""
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(5), size)
    module = parse_program(example.program_path.read_text())
    apply_pipeline(module, "soacc-pipeline{host-kernels=all forked-copies=false}")
    assert not any(op.name == "gpu.module" for op in module.ops)
    reference = ReferenceExecutor(module)
    host = host_code_executor(module, SimulatedDevice(), {})
    want = reference.call("main", copies(args))
    got = host.call("main", copies(args))
    same(got, want)
    ref, run = reference.last_statistics, host.last_statistics
    assert (run.host_kernels, run.kernel_launches, run.sync_reads) == (ref.host_kernels, ref.kernel_launches, ref.sync_reads)
    assert {d: c.count for d, c in run.copies.items()} == {d: c.count for d, c in ref.copies.items()}


@pytest.mark.parametrize("family", ["memory", "fusion", "nested", "host"])
def test_random_programs_with_random_placements(family):
    """Seeded random programs, a random subset of their kernels on the host, with and
    without fuse-transfers (before memory planning, as soacc-pipeline runs it; greedy,
    and tight with early downloads); and,
    with no kernel placed, fuse-transfers after memory planning (where memory-reuse
    has given vectors shared blocks, which it must leave alone)."""
    for seed in range(sweep(5, 8)):
        program = random_program(family, seed)
        if program.info.get("error"):
            continue  # (a deliberate run-time error)
        args = program.inputs(5)
        want = soacc.compile(program.source, backend="numpy", pipeline=level2()).main(*copies(args))
        host = random_placement(kernel_names_of(program.source), f"{family}-{seed}")
        early = level2(host_kernels=host, transfers=True).replace("fuse-transfers", "fuse-transfers{mode=tight early-downloads=true}")
        for pipeline in (level2(host_kernels=host), level2(host_kernels=host, transfers=True), early, level2() + ",fuse-transfers"):
            same(soacc.compile(program.source, backend="numpy", pipeline=pipeline).main(*copies(args)), want)


CHAIN = """
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32>, f32) {
  %a = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %w = arith.mulf %v, %v : f32
    soac.yield %w : f32
  }
  %b = soac.map(%a, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32, %u: f32):
    %w = arith.addf %v, %u : f32
    soac.yield %w : f32
  }
  %zero = arith.constant 0.0 : f32
  %s = soac.reduce(%b) neutral(%zero : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %b, %s : tensor<?xf32>, f32
}
"""

def _chain(host: str) -> soacc.Program:
    placed = tuple(host.split(",")) if host else ()
    return soacc.compile(CHAIN, backend="numpy", pipeline=level2(fusion=False, syncs=False, host_kernels=placed))


@pytest.mark.parametrize(
    "host, launches, host_kernels, uploads, downloads, reads",
    [
        ("", 3, 0, 1, 1, 1),  # x up; b down (the result); the sum read from the device
        ("a", 2, 1, 2, 1, 1),  # a reads x's host array; x and a up for b; b down
        ("b", 2, 1, 2, 1, 1),  # x up for a; a down for b; b up for the reduce; the result is b's mirror
        ("s", 2, 1, 1, 1, 0),  # b down once: for the reduce and the result; the sum read on the host
        ("b,s", 1, 2, 1, 1, 0),  # x up, a down; b never goes up
        ("all", 0, 3, 0, 0, 0),
    ],
)
def test_transfers_follow_the_placement(host, launches, host_kernels, uploads, downloads, reads):
    """Each array crosses between the memories once, where a kernel on the other side
    reads it (or a result, or a host read, needs it), and never back."""
    program = _chain(host)
    x = np.arange(6, dtype=np.float32)
    b, s = program.main(x)
    np.testing.assert_array_equal(b, x * x + x)
    assert s == np.float32((x * x + x).sum())
    st = program.statistics
    assert (st.kernel_launches, st.host_kernels, st.sync_reads) == (launches, host_kernels, reads)
    assert (st.copies["host->device"].count, st.copies["device->host"].count) == (uploads, downloads)


def test_options_are_checked():
    with pytest.raises(SoaccError, match="max-elements must be -1"):
        soacc.compile(CHAIN, backend="numpy", pipeline="convert-soac-to-mem,place-kernels{max-elements=-2}")
    # names no kernel writes (a typo) are an error naming the ones there are
    with pytest.raises(SoaccError, match=r"no kernel writes an array named q, r \(the kernels write: a, b, s, s_dev\)"):
        soacc.compile(CHAIN, backend="numpy", pipeline="convert-soac-to-mem,place-kernels{host=q,r}")


def test_max_elements_places_only_static_small_kernels():
    source = """
func.func @main(%x: tensor<4xf32>, %y: tensor<?xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %a = soac.map(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: f32):
    %w = arith.mulf %v, %v : f32
    soac.yield %w : f32
  }
  %b = soac.map(%y) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %w = arith.addf %v, %v : f32
    soac.yield %w : f32
  }
  func.return %a, %b : tensor<4xf32>, tensor<?xf32>
}
"""
    for limit, launches, host_kernels in ((3, 2, 0), (4, 1, 1)):
        program = soacc.compile(source, backend="numpy", pipeline=level2(host_max_elements=limit))
        a, b = program.main(np.arange(4, dtype=np.float32), np.arange(9, dtype=np.float32))
        np.testing.assert_array_equal(a, np.arange(4, dtype=np.float32) ** 2)
        np.testing.assert_array_equal(b, 2 * np.arange(9, dtype=np.float32))
        assert (program.statistics.kernel_launches, program.statistics.host_kernels) == (launches, host_kernels)


def test_a_host_kernel_never_writes_into_an_argument():
    """A scatter in place on the host: its destination's mirror is a copy of its own,
    not the caller's array the upload came from."""
    source = """
func.func @main(%d: tensor<?xf32>, %i: tensor<?xi32>, %v: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.scatter %d[%i] = %v : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}
"""
    program = soacc.compile(source, backend="numpy", pipeline=level2(host_kernels=("all",)))
    d = np.zeros(5, np.float32)
    r = program.main(d, np.array([1, 3], np.int32), np.array([7, 8], np.float32))
    np.testing.assert_array_equal(r, [0, 7, 0, 8, 0])
    np.testing.assert_array_equal(d, np.zeros(5, np.float32))
    assert program.statistics.host_kernels == 1
