"""fuse-scalar-reads (passes/fuse_scalar_reads.py): reads of device scalars side by side
as one copy. Differential: programs whose host reads several device values at one
point (a reduction of several results; in a host loop; of different element types),
and every example and benchmark program, at level 2 with and without the pass on the
reference executor: the same results, fewer synchronous reads where it fused, never
more. On the GPU (marker `gpu`): the same programs eager, captured and replayed."""

from __future__ import annotations


import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import as_tuple

from tests.support.scripts import every_program

PROGRAMS = every_program("device_syncs", "memory")
WITHOUT = SoaccPipelinePass(reads=False).level2_stages()

MIN_AND_MAX = """func.func @main(%a: tensor<?xf32>) -> (f32, f32) {
  %lo0 = arith.constant 0x7F800000 : f32
  %hi0 = arith.constant 0xFF800000 : f32
  %lo, %hi = soac.reduce(%a, %a) neutral(%lo0, %hi0 : f32, f32) commutative : (tensor<?xf32>, tensor<?xf32>) -> (f32, f32) {
  ^bb1(%l1: f32, %h1: f32, %l2: f32, %h2: f32):
    %l = arith.minimumf %l1, %l2 : f32
    %h = arith.maximumf %h1, %h2 : f32
    soac.yield %l, %h : f32, f32
  }
  func.return %lo, %hi : f32, f32
}"""

ARGMAX = """func.func @main(%a: tensor<?xf32>) -> (f32, index) {
  %n = soac.size %a[0] : tensor<?xf32>
  %ids = soac.iota %n : tensor<?xindex>
  %none = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %best:2 = soac.reduce(%a, %ids) neutral(%none, %c0 : f32, index) : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
  ^bb1(%va: f32, %ia: index, %vb: f32, %ib: index):
    %gt = arith.cmpf oge, %va, %vb : f32
    %v = arith.select %gt, %va, %vb : f32
    %i = arith.select %gt, %ia, %ib : index
    soac.yield %v, %i : f32, index
  }
  func.return %best#0, %best#1 : f32, index
}"""

IN_A_LOOP = """func.func @main(%a: tensor<?xf64>, %ids: tensor<?xindex>, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000 : index
  %zero = arith.constant 0.0 : f64
  %total = scf.for %k = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f64) {
    %shifted = soac.map(%ids) : (tensor<?xindex>) -> tensor<?xindex> {
    ^bb0(%i: index):
      %j = arith.addi %i, %k : index
      soac.yield %j : index
    }
    %lo, %hi = soac.reduce(%shifted, %shifted) neutral(%big, %c0 : index, index) commutative : (tensor<?xindex>, tensor<?xindex>) -> (index, index) {
    ^bb1(%l1: index, %h1: index, %l2: index, %h2: index):
      %l = arith.minui %l1, %l2 : index
      %h = arith.maxui %h1, %h2 : index
      soac.yield %l, %h : index, index
    }
    %low = soac.slice %a[%c0:%lo] : tensor<?xf64> -> tensor<?xf64>
    %high = soac.slice %a[%c0:%hi] : tensor<?xf64> -> tensor<?xf64>
    %both = soac.concat %low, %high : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
    %s = soac.reduce(%both) neutral(%zero : f64) commutative : (tensor<?xf64>) -> f64 {
    ^bb1(%x: f64, %y: f64):
      %z = arith.addf %x, %y : f64
      soac.yield %z : f64
    }
    %next = arith.addf %acc, %s : f64
    scf.yield %next : f64
  }
  func.return %total : f64
}"""
"""The host needs both bounds of each iteration (the sizes of two slices are host values)."""

SYNTHETIC = {
    "min_and_max": (MIN_AND_MAX, lambda rng: (rng.standard_normal(37).astype(np.float32),)),
    "argmax": (ARGMAX, lambda rng: (rng.standard_normal(50).astype(np.float32),)),
    "in_a_loop": (IN_A_LOOP, lambda rng: (rng.standard_normal(30), rng.integers(2, 20, 9).astype(np.int64), 3)),
}


@pytest.mark.parametrize("name", SYNTHETIC)
def test_reads_side_by_side_become_one_copy(name):
    source, inputs = SYNTHETIC[name]
    args = inputs(np.random.default_rng(1))
    before = soacc.compile(source, backend="numpy", pipeline=WITHOUT)
    after = soacc.compile(source, backend="numpy", pipeline=f"{WITHOUT},fuse-scalar-reads")
    want, got = as_tuple(before.main(*args)), as_tuple(after.main(*args))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
        assert type(g) is type(w)
    assert after.statistics.sync_reads < before.statistics.sync_reads
    fused = before.statistics.sync_reads - after.statistics.sync_reads
    assert after.statistics.copies["device->host"].count - before.statistics.copies["device->host"].count == fused // 2


@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_every_program_means_the_same_with_fused_reads(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(3), size)
    copies = lambda: [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]  # noqa: E731
    before = soacc.compile(example.program_path, backend="numpy", pipeline=WITHOUT)
    after = soacc.compile(example.program_path, backend="numpy", pipeline=f"{WITHOUT},fuse-scalar-reads")
    for g, w in zip(as_tuple(after.main(*copies())), as_tuple(before.main(*copies())), strict=True):
        np.testing.assert_array_equal(g, w)
    assert after.statistics.sync_reads <= before.statistics.sync_reads


@pytest.mark.gpu
@pytest.mark.parametrize("name", SYNTHETIC)
def test_on_the_gpu_fused_reads_give_the_same_results(name):
    source, inputs = SYNTHETIC[name]
    args = inputs(np.random.default_rng(2))
    want = as_tuple(soacc.compile(source, backend="numpy", pipeline=WITHOUT).main(*args))
    program = soacc.compile(source, backend="cuda")
    for _ in range(3):  # eager, captured, replayed
        got = as_tuple(program.main(*args))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-6)
