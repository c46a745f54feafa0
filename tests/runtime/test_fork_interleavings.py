"""Fork programs on the reference executor (runtime/interp/fork.py) under its seeded
random scheduler: introduce-forks applied to random level-2 programs (the `memory`
and `host` families, bufferised and memory-planned as the default pipeline does) gives
bit-identical results under thousands of interleavings in all, with every check on
(no deadlock, no read before its write, each signal resolved once); and the scheduler
does find what the checks are for, in programs made wrong on purpose."""

from __future__ import annotations

import numpy as np
import pytest

from soacc.program import apply_pipeline, parse_program
from soacc.runtime.errors import ExecutionError
from soacc.runtime.reference import ReferenceExecutor
from soacc.tools.examples import mismatch

from pathlib import Path

from soacc.tools.examples import load_examples
from tests.support.fork_checks import check_interleavings, copies
from tests.support.marks import params, sweep
from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")

LEVEL2 = "canonicalize,cse,convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse,fuse-iota"
OPTIONS = ["", "trivial=true", "combine=true", "fork-returns=true", "trivial=true combine=true fork-returns=true"]
PROGRAMS = [("memory", seed) for seed in range(sweep(6, 12))] + [("host", seed) for seed in range(sweep(4, 8))]
INTERLEAVINGS = 100
"""Per program: 20 programs, 2,000 interleavings in all (58 s on the shared two-core
development machine, 2026-11-27; a fork costs a thread start and its handovers)."""


_copies = copies


@pytest.mark.parametrize(("family", "seed"), PROGRAMS, ids=[f"{f}-{s}" for f, s in PROGRAMS])
def test_random_fork_programs_give_the_program_results_under_every_interleaving(family, seed):
    program = random_program(family, seed)
    options = OPTIONS[seed % len(OPTIONS)]
    base = parse_program(program.source)
    apply_pipeline(base, LEVEL2)
    forked = parse_program(program.source)
    apply_pipeline(forked, LEVEL2 + f",introduce-forks{{{options}}}")
    assert any(op.name == "fork.fork" for op in forked.walk())
    check_interleavings(base, forked, program.inputs(5), options, INTERLEAVINGS)


@pytest.mark.parametrize("example", params(EXAMPLES, [e.name for e in EXAMPLES]))
def test_every_example_with_forks_gives_its_results(example):
    source = Path(example.program_path).read_text()
    base = parse_program(source)
    apply_pipeline(base, LEVEL2)
    forked = parse_program(source)
    apply_pipeline(forked, LEVEL2 + ",introduce-forks{trivial=true combine=true fork-returns=true}")
    args = example.make_inputs(np.random.default_rng(7), 7)
    want = ReferenceExecutor(base).call("main", _copies(args))
    for interleaving in range(10):
        got = ReferenceExecutor(forked, fork_seed=interleaving).call("main", _copies(args))
        assert mismatch(got, want, 0.0, 0.0) is None, f"interleaving {interleaving}: {mismatch(got, want, 0.0, 0.0)}"


V = "memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>"


def _run_all(source: str, args, seeds=range(60)):
    """What each interleaving gives: a result, or an ExecutionError's message."""
    module = parse_program(source)
    outcomes = []
    for seed in seeds:
        try:
            outcomes.append(ReferenceExecutor(module, fork_seed=seed).call("main", _copies(args)))
        except ExecutionError as error:
            outcomes.append(str(error))
    return outcomes


def test_a_read_that_does_not_wait_is_found():
    # the reference is read without waiting for its signal: some interleavings read it
    # before the write
    source = """
    func.func @main(%n: index) -> index {
      %s = fork.signal
      %r = fork.ref : !fork.ref<index>
      fork.fork {
        fork.write %r, %n : !fork.ref<index>
        fork.resolve %s
        fork.end
      }
      %v = fork.read %r : !fork.ref<index>
      fork.wait %s
      func.return %v : index
    }
    """
    outcomes = _run_all(source, [3])
    assert (3,) in outcomes
    assert any(isinstance(o, str) and "read before its write" in o for o in outcomes)


def test_a_wait_for_itself_is_a_deadlock():
    source = """
    func.func @main(%n: index) -> index {
      %s = fork.signal
      fork.wait %s
      fork.resolve %s
      func.return %n : index
    }
    """
    (outcome,) = _run_all(source, [3], seeds=[0])
    assert "deadlock" in outcome


def test_an_unsynchronised_write_gives_another_result_in_some_interleaving():
    # a thread fills the block the function returns; the function waits only for the
    # reference to its view, not for the fill (a missing content lock)
    source = f"""
    func.func @main(%a_mem: !mem.block<host>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> f32 attributes {{soacc.entry_signature = (tensor<?xf32>) -> f32}} {{
      %zero = arith.constant 0 : index
      %bytes = arith.constant 4 : index
      %blk = mem.alloc %bytes : !mem.block<device>
      %c1 = arith.constant 1 : index
      %x = mem.view %blk[%zero] sizes(%c1) : !mem.block<device> -> {V}
      %z = arith.constant 0.0 : f32
      mem.fill %z, %x : f32, {V}
      %s = fork.signal
      fork.fork {{
        %one = arith.constant 1.0 : f32
        fork.resolve %s
        mem.fill %one, %x : f32, {V}
        fork.end
      }}
      fork.wait %s
      %v = mem.load %x[%zero] : {V}
      func.return %v : f32
    }}
    """
    outcomes = _run_all(source, [np.zeros(1, np.float32)])
    values = {float(o[0]) for o in outcomes}
    assert values == {0.0, 1.0}


def test_an_error_in_a_thread_is_the_call_s_error():
    source = f"""
    func.func @main(%a_mem: !mem.block<host>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> f32 attributes {{soacc.entry_signature = (tensor<?xf32>) -> f32}} {{
      %s = fork.signal
      fork.fork {{
        %i = arith.constant 7 : index
        %v = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
        fork.resolve %s
        fork.end
      }}
      %z = arith.constant 0.0 : f32
      func.return %z : f32
    }}
    """
    outcomes = _run_all(source, [np.zeros(2, np.float32)], seeds=range(5))
    assert all(isinstance(o, str) and "mem.load" in o for o in outcomes), outcomes


def test_writes_of_an_argument_s_memory_stay_in_order():
    # the arguments' contents are ready at the call (no signal to wait for), but two
    # writes of them still get the split's signals between them (Write-write)
    source = """
    func.func @main(%a_mem: !mem.block<host>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> f32 attributes {soacc.entry_signature = (tensor<?xf32>) -> f32} {
      %i = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      %y = arith.constant 2.0 : f32
      mem.store %x, %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
      mem.store %y, %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
      %v = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
      func.return %v : f32
    }
    """
    module = parse_program(source)
    apply_pipeline(module, "introduce-forks{trivial=true}")
    outcomes = [ReferenceExecutor(module, fork_seed=seed).call("main", [np.zeros(1, np.float32)]) for seed in range(40)]
    assert {float(o[0]) for o in outcomes} == {2.0}


def test_a_failed_call_leaves_no_thread_behind():
    # the function's own thread fails while another waits for a signal: the call's
    # error ends every thread it started
    import _thread
    import time

    source = """
    func.func @main(%a_mem: !mem.block<host>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> f32 attributes {soacc.entry_signature = (tensor<?xf32>) -> f32} {
      %s = fork.signal
      fork.fork {
        fork.wait %s
        fork.end
      }
      %i = arith.constant 7 : index
      %v = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
      fork.resolve %s
      func.return %v : f32
    }
    """
    before = _thread._count()
    outcomes = _run_all(source, [np.zeros(2, np.float32)], seeds=range(10))
    assert all(isinstance(o, str) and "mem.load" in o for o in outcomes), outcomes
    for _ in range(100):
        if _thread._count() == before:
            break
        time.sleep(0.01)
    assert _thread._count() == before


def test_a_call_returns_once_its_threads_have_ended():
    # the callee writes its argument in a thread and returns without waiting; its caller
    # reads the argument after the call
    source = """
    func.func @store(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) {
      %i = arith.constant 0 : index
      %x = arith.constant 5.0 : f32
      fork.fork {
        mem.store %x, %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
        fork.end
      }
      func.return
    }
    func.func @main(%a_mem: !mem.block<host>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> f32 attributes {soacc.entry_signature = (tensor<?xf32>) -> f32} {
      func.call @store(%a) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> ()
      %i = arith.constant 0 : index
      %v = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
      func.return %v : f32
    }
    """
    outcomes = _run_all(source, [np.zeros(1, np.float32)], seeds=range(30))
    assert {float(o[0]) for o in outcomes} == {5.0}, outcomes
