"""Loops in fork programs on the reference executor's seeded scheduler: introduce-forks'
While rule (`loops=true`, the default: an iteration starts once its guard is known,
its threads wait for the state and the locks the earlier iteration hands over) and
the iterations-in-turn version (`loops=false`) give the program's results, bit for bit,
under every interleaving tried, with no deadlock; and with the rule, threads of several
iterations do run at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from soacc.program import apply_pipeline, parse_program
from soacc.runtime.interp import fork as fork_runtime
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import load_examples
from tests.support.fork_checks import check_interleavings, copies
from tests.support.marks import params, sweep
from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
LEVEL2 = "canonicalize,cse,convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse,fuse-iota"
OPTIONS = ["", "trivial=true", "combine=true", "fork-returns=true", "trivial=true combine=true fork-returns=true"]
INTERLEAVINGS = sweep(20, 40)

# scf.for carrying two arrays and a sum: the map of y in iteration k and the map of x
# in iteration k + 1 need only x of iteration k
FOR_TWO_ARRAYS = """
func.func @main(%a0: tensor<?xf32>, %b0: tensor<?xf32>, %steps: index) -> (tensor<?xf32>, tensor<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fzero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %a, %b, %t = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %a0, %y = %b0, %acc = %fzero) -> (tensor<?xf32>, tensor<?xf32>, f32) {
    %x2 = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %p = arith.addf %m, %half : f32
      soac.yield %p : f32
    }
    %y2 = soac.map(%y, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32, %f: f32):
      %s = arith.addf %e, %f : f32
      soac.yield %s : f32
    }
    %s = soac.reduce(%y2) neutral(%fzero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %m = arith.addf %l, %r : f32
      soac.yield %m : f32
    }
    %acc2 = arith.addf %acc, %s : f32
    scf.yield %x2, %y2, %acc2 : tensor<?xf32>, tensor<?xf32>, f32
  }
  func.return %a, %b, %t : tensor<?xf32>, tensor<?xf32>, f32
}
"""

# B13 with work: `while i < ten do (i + 1, map f v)`; the guard needs only i
WHILE_COUNTER = """
func.func @main(%v0: tensor<?xf32>, %ten: index) -> (index, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %r, %v = scf.while (%i = %c0, %w = %v0) : (index, tensor<?xf32>) -> (index, tensor<?xf32>) {
    %go = arith.cmpi ult, %i, %ten : index
    scf.condition(%go) %i, %w : index, tensor<?xf32>
  } do {
  ^bb0(%j: index, %u: tensor<?xf32>):
    %k = arith.addi %j, %c1 : index
    %u2 = soac.map(%u) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %p = arith.addf %m, %half : f32
      soac.yield %p : f32
    }
    scf.yield %k, %u2 : index, tensor<?xf32>
  }
  func.return %r, %v : index, tensor<?xf32>
}
"""

# a while whose guard reads a reduction of the state (the exit takes the state the
# guard saw), with an element read at host level in the body
WHILE_REDUCTION = """
func.func @main(%v0: tensor<?xf32>, %limit: f32) -> (tensor<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %fzero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %v, %first = scf.while (%w = %v0, %f = %fzero) : (tensor<?xf32>, f32) -> (tensor<?xf32>, f32) {
    %s = soac.reduce(%w) neutral(%fzero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %m = arith.addf %l, %r : f32
      soac.yield %m : f32
    }
    %go = arith.cmpf olt, %s, %limit : f32
    scf.condition(%go) %w, %f : tensor<?xf32>, f32
  } do {
  ^bb0(%u: tensor<?xf32>, %g: f32):
    %u2 = soac.map(%u) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %p = arith.addf %e, %two : f32
      soac.yield %p : f32
    }
    %e0 = soac.index %u2[%c0] : tensor<?xf32>
    scf.yield %u2, %e0 : tensor<?xf32>, f32
  }
  func.return %v, %first : tensor<?xf32>, f32
}
"""


def _args(name: str):
    rng = np.random.default_rng(3)
    if name == "for_two_arrays":
        return [rng.random(6, dtype=np.float32), rng.random(6, dtype=np.float32), 5]
    if name == "while_counter":
        return [rng.random(6, dtype=np.float32), 7]
    return [rng.random(6, dtype=np.float32), np.float32(40.0)]


PROGRAMS = {"for_two_arrays": FOR_TWO_ARRAYS, "while_counter": WHILE_COUNTER, "while_reduction": WHILE_REDUCTION}
RANDOM = [("memory", s) for s in (15, 22, 29, 31)] + [("host", s) for s in (4, 7, 9, 13, 22, 39)]
"""Random programs whose level-2 form has loops (scf.for carrying arrays; scf.for and
scf.while carrying scalars, nested)."""


_copies = copies


def _forked(source: str, options: str):
    base = parse_program(source)
    apply_pipeline(base, LEVEL2)
    forked = parse_program(source)
    apply_pipeline(forked, LEVEL2 + f",introduce-forks{{{options}}}")
    assert any(op.name == "fork.fork" for op in forked.walk())
    assert any(op.name in ("scf.for", "scf.while") for op in base.walk())
    return base, forked


def _check_interleavings(base, forked, args, options: str, interleavings: int = INTERLEAVINGS):
    check_interleavings(base, forked, args, options, interleavings)


@pytest.mark.parametrize("loops", ["true", "false"])
@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_loops_give_the_program_results_under_every_interleaving(name, options, loops):
    options = f"{options} loops={loops}".strip()
    base, forked = _forked(PROGRAMS[name], options)
    _check_interleavings(base, forked, _args(name), options, interleavings=20)


@pytest.mark.parametrize(("family", "seed"), RANDOM, ids=[f"{f}-{s}" for f, s in RANDOM])
def test_random_programs_with_loops_give_their_results_under_every_interleaving(family, seed):
    program = random_program(family, seed)
    options = OPTIONS[seed % len(OPTIONS)]
    base, forked = _forked(program.source, options)
    _check_interleavings(base, forked, program.inputs(5), options)


LOOP_EXAMPLES = [e for e in load_examples(ROOT / "examples") if e.name in ("convergence_loop", "gauss_jordan", "kmeans")]


@pytest.mark.parametrize("example", params(LOOP_EXAMPLES, [e.name for e in LOOP_EXAMPLES]))
def test_examples_with_loops_give_their_results_under_the_while_rule(example):
    source = Path(example.program_path).read_text()
    base, forked = _forked(source, "loops=true")
    args = example.make_inputs(np.random.default_rng(7), 7)
    _check_interleavings(base, forked, args, "loops=true", interleavings=8)


def _most_threads_alive(module, args, seeds) -> int:
    """The most threads alive (started, not ended) at any fork, over the interleavings."""
    most = 0
    spawn = fork_runtime.Scheduler.spawn

    def counting(self, op):
        nonlocal most
        most = max(most, sum(1 for t in self.threads if not t.done))
        spawn(self, op)

    fork_runtime.Scheduler.spawn = counting  # type: ignore[method-assign]
    try:
        for seed in seeds:
            ReferenceExecutor(module, fork_seed=seed).call("main", _copies(args))
    finally:
        fork_runtime.Scheduler.spawn = spawn  # type: ignore[method-assign]
    return most


def test_with_the_while_rule_iterations_overlap():
    # 7 iterations of (i + 1, map f v): in turn, an iteration's threads end before the
    # next starts; with the rule, the loop's thread starts iteration k + 1 once i < ten
    # is known, while the maps of the earlier iterations still wait or run
    args = _args("while_counter")
    _, in_turn = _forked(WHILE_COUNTER, "loops=false")
    _, overlapping = _forked(WHILE_COUNTER, "loops=true")
    seeds = range(20)
    alone = _most_threads_alive(in_turn, args, seeds)
    together = _most_threads_alive(overlapping, args, seeds)
    assert together > alone + 3, (alone, together)
