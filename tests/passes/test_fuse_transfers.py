"""fuse-transfers (passes/fuse_transfers.py): argument uploads in the messages the
transfer-layout analysis chooses. Differential: every example and benchmark program
at level 2 with and without the pass, in both modes, on the reference executor: the
same results, and no more host-to-device messages than before (the copies the
statistics count). Then the cases: what fuses, what is left alone and why, and the
run-time choice above `max-bytes`."""

from __future__ import annotations


import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import as_tuple

from tests.support.scripts import every_program

PROGRAMS = every_program("device_syncs", "memory")
LEVEL2 = SoaccPipelinePass().level2_stages()


def _messages(program) -> int:
    return program.statistics.copies["host->device"].count


@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_every_program_means_the_same_with_fused_uploads(example):
    """Both modes, against one run without the pass."""
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(3), size)
    before = soacc.compile(example.program_path, backend="numpy", pipeline=LEVEL2)
    want = as_tuple(before.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args]))
    for mode in ("greedy", "tight"):
        after = soacc.compile(example.program_path, backend="numpy", pipeline=f"{LEVEL2},fuse-transfers{{mode={mode}}}")
        got = as_tuple(after.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args]))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
        assert _messages(after) <= _messages(before), mode


THREE = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xi32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = soac.map(%a, %b, %c) : (tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %i: i32, %y: f32):
    %f = arith.sitofp %i : i32 to f32
    %z = arith.addf %x, %f : f32
    %w = arith.mulf %z, %y : f32
    soac.yield %w : f32
  }
  func.return %s : tensor<?xf32>
}
"""


def _three(n: int):
    rng = np.random.default_rng(n)
    return rng.random(n, dtype=np.float32), rng.integers(-5, 5, n).astype(np.int32), rng.random(n, dtype=np.float32)


@pytest.mark.parametrize("n", [0, 1, 3, 100])
def test_three_arguments_go_in_one_message(n):
    before = soacc.compile(THREE, backend="numpy", pipeline=LEVEL2)
    after = soacc.compile(THREE, backend="numpy", pipeline=f"{LEVEL2},fuse-transfers")
    args = _three(n)
    np.testing.assert_array_equal(after.main(*args), before.main(*args))
    assert (_messages(before), _messages(after)) == (3, 1)
    assert after.statistics.copies["host->host"].count == 3  # packed on the host


def test_above_max_bytes_the_members_go_one_by_one_into_the_arena():
    after = soacc.compile(THREE, backend="numpy", pipeline=f"{LEVEL2},fuse-transfers{{max-bytes=1024}}")
    small, large = _three(10), _three(1000)
    after.main(*small)
    assert _messages(after) == 1
    np.testing.assert_array_equal(after.main(*large), (large[0] + large[1].astype(np.float32)) * large[2])
    assert _messages(after) == 3 and after.statistics.copies["host->host"].count == 0


# Level 2 with the second argument uploaded after the first kernel, where only the
# second kernel reads it: the message goes before the first kernel, before the second
# upload's own views were made.
STAGGERED = """builtin.module {
  func.func @main(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %b_host_mem: !mem.block<host>, %b_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>} {
    %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %1 = arith.constant 4 : index
    %2 = arith.muli %0, %1 overflow<nsw> : index
    %a_mem = mem.alloc %2 : !mem.block<device>
    %3 = arith.constant 0 : index
    %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %8 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %9 = arith.constant 4 : index
    %10 = arith.muli %8, %9 overflow<nsw> : index
    %s_mem = mem.alloc %10 : !mem.block<device>
    %11 = arith.constant 0 : index
    %s = mem.view %s_mem[%11] sizes(%8) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %z = arith.addf %x, %x : f32
      mem.yield %z : f32
    }
    %4 = mem.size %b_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %5 = arith.constant 4 : index
    %6 = arith.muli %4, %5 overflow<nsw> : index
    %b_mem = mem.alloc %6 : !mem.block<device>
    %7 = arith.constant 0 : index
    %b = mem.view %b_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %b_host, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %12 = mem.size %s[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %13 = arith.constant 4 : index
    %14 = arith.muli %12, %13 overflow<nsw> : index
    %t_mem = mem.alloc %14 : !mem.block<device>
    %15 = arith.constant 0 : index
    %t = mem.view %t_mem[%15] sizes(%12) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%s, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%t : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x_1: f32, %y: f32):
      %z_1 = arith.mulf %x_1, %y : f32
      mem.yield %z_1 : f32
    }
    %16 = mem.size %t[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %17 = arith.constant 4 : index
    %18 = arith.muli %16, %17 overflow<nsw> : index
    %t_host_mem = mem.alloc %18 : !mem.block<host>
    %19 = arith.constant 0 : index
    %t_host = mem.view %t_host_mem[%19] sizes(%16) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %t, %t_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    func.return %t_host_mem, %t_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  }
}

"""


@pytest.mark.parametrize("max_bytes", [0, 1 << 20])
def test_an_upload_made_after_the_messages_time_is_fused_on_both_paths(max_bytes):
    args = (np.arange(5, dtype=np.float32), np.full(5, 3, np.float32))
    before = soacc.compile(STAGGERED, backend="numpy", pipeline="")
    after = soacc.compile(STAGGERED, backend="numpy", pipeline=f"fuse-transfers{{max-bytes={max_bytes}}}")
    np.testing.assert_array_equal(after.main(*args), before.main(*args))
    assert _messages(after) == (2 if max_bytes == 0 else 1)


def test_the_report_says_what_was_fused_and_what_was_left(capsys):
    from soacc.program import apply_pipeline, parse_program

    module = parse_program(THREE)
    apply_pipeline(module, f"{LEVEL2},fuse-transfers{{report=true}}")
    assert "fuse-transfers: @main: 3 upload(s) in 1 message(s), 2 startup(s) saved" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options, message",
    [("mode=bad", "mode must be greedy or tight, got 'bad'"), ("attempts=0", "attempts must be at least 1")],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(soacc.ProgramError, match=message):
        soacc.compile(THREE, backend="numpy", pipeline=f"{LEVEL2},fuse-transfers{{{options}}}")


@pytest.mark.gpu
@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_on_the_gpu_fused_uploads_give_the_same_results(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(5), size)
    reference = soacc.compile(example.program_path, backend="numpy", pipeline=LEVEL2)
    program = soacc.compile(example.program_path, backend="cuda", pipeline="soacc-pipeline{transfers=true}")
    plain = soacc.compile(example.program_path, backend="cuda")
    want = as_tuple(reference.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args]))
    for _ in range(4):  # eager, captured, replayed (a forked copy's contest may take a call more)
        plain.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        got = as_tuple(program.main(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args]))
        for g, w in zip(got, want, strict=True):
            if g.dtype.kind in "iub":
                np.testing.assert_array_equal(g, w)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    # packed arguments are remade per replay: a call that is a graph without the pass is one with it
    if plain.statistics.task_graph == "replayed":
        assert program.statistics.task_graph == "replayed", program.executor.task_graphs.unsupported


LOOP = """
func.func @main(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<?xf32>) {
    %a, %b = soac.map(%v) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
    ^bb0(%e: f32):
      %s = arith.addf %e, %e : f32
      %t = arith.mulf %e, %e : f32
      soac.yield %s, %t : f32, f32
    }
    %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%p: f32, %q: f32):
      %u = arith.subf %p, %q : f32
      soac.yield %u : f32
    }
    scf.yield %c : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize("iterations", [0, 1, 3])
def test_a_loop_body_is_a_region_of_its_own(iterations):
    """The host kernel's two outputs go up in one message per iteration: x once, then
    one message an iteration instead of two."""
    placed = SoaccPipelinePass(fusion=False, host_kernels=("a",))
    before = soacc.compile(LOOP, backend="numpy", pipeline=placed.level2_stages())
    after = soacc.compile(LOOP, backend="numpy", pipeline=SoaccPipelinePass(fusion=False, host_kernels=("a",), transfers=True).level2_stages())
    x = np.linspace(-1, 1, 9, dtype=np.float32)
    np.testing.assert_array_equal(after.main(x, iterations), before.main(x, iterations))
    assert (_messages(before), _messages(after)) == (1 + 2 * iterations, 1 + iterations)
