"""Differential tests of fuse-iota: with it, every example, the benchmark ports that
read an iota (canny, series), the lit tests' programs and seeded random programs give
bit-identical results to the same pipeline without it, on the reference executor
(which runs level 2 and checks an indexed op's row count against its inputs). The
random programs map over iotas, and after soac-fusion some of those maps are fused
combinators: the census asserts that they are there, so that the indexed fused ops are
run and not only parsed."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.dialects import mem
from soacc.program import apply_pipeline, parse_program
from soacc.tools.examples import load_examples, mismatch

from tests.support.lit import argument
from tests.support.marks import sweep
from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
PORTS = [e for e in load_examples(ROOT / "benchmarks" / "memory") if e.name in ("canny", "series")]
FUSED = "canonicalize,cse,soac-fusion,convert-soac-to-mem"
WITH_IOTA = FUSED + ",fuse-iota"


def copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def check_same(source, args_list) -> None:
    """The same results (or the same rejection) with and without fuse-iota."""
    without = soacc.compile(source, backend="numpy", pipeline=FUSED)
    with_iota = soacc.compile(source, backend="numpy", pipeline=WITH_IOTA)
    for args in args_list:
        try:
            want = without.main(*copies(args))
        except soacc.ExecutionError:
            with pytest.raises(soacc.ExecutionError):
                with_iota.main(*copies(args))
            continue
        got = with_iota.main(*copies(args))
        assert mismatch(got, want, 0.0, 0.0) is None, mismatch(got, want, 0.0, 0.0)


@pytest.mark.parametrize("example", EXAMPLES + PORTS, ids=[e.name for e in EXAMPLES + PORTS])
def test_every_example_and_port_gives_the_same_results(example):
    sizes = (1, 16) if example in PORTS else (0, 1, 7, 40)
    check_same(example.program_path, [example.make_inputs(np.random.default_rng(n), n) for n in sizes])


def test_canny_reads_no_iota_after_it():
    """canny's flat indices feed a scanomap and a scatteromap after soac-fusion: both
    read the row number. Its row and column iotas are read by maps (those over the
    columns nested in the maps over the rows, their output rows as long as the
    iota): no iota is left."""
    (canny,) = [e for e in PORTS if e.name == "canny"]
    module = parse_program(canny.program_path.read_text())
    apply_pipeline(module, WITH_IOTA)
    indexed = [op.name for op in module.walk() if isinstance(op, mem.FUSED_KERNELS) and op.row_count is not None]
    assert sorted(indexed) == ["mem.scanomap", "mem.scatteromap"]
    assert not [op for op in module.walk() if isinstance(op, mem.IotaOp)]


LIT = ROOT / "tests" / "filecheck" / "passes" / "fuse-iota.mlir"


def lit_programs():
    for n, chunk in enumerate(LIT.read_text().split("\n// -----\n")):
        entries = re.findall(r"^func\.func @(\w+)\(", chunk, re.M)
        if entries:
            yield pytest.param(chunk.replace(f"@{entries[-1]}(", "@main("), id=f"{entries[-1]}")


@pytest.mark.parametrize("source", list(lit_programs()))
def test_every_lit_program_gives_the_same_results(source):
    types = soacc.compile(source, backend="numpy", pipeline="").entry("main").param_types
    args_list = []
    for n in (0, 3, 9):
        rng = np.random.default_rng(n)
        args_list.append([n if str(t) == "index" else argument(t, rng, n) for t in types])
    check_same(source, args_list)


N_PROGRAMS = sweep(80, 120)
CHUNK = 20


def random_programs(first: int, last: int):
    """(source, argument tuples) of seeded random programs that read iotas: the fusion
    generator's with unique scatter positions (an iota mapped to positions, fused
    into scatteromaps and histomaps) and the memory generator's (maps over an iota,
    fused into redomaps)."""
    for seed in range(first, last):
        fusion = random_program("fusion", seed, unique_scatters=True)
        yield fusion.source, [fusion.inputs(n, np.random.default_rng(seed * 100 + n)) for n in (1, 6)]
        memory = random_program("memory", seed)
        yield memory.source, [memory.inputs(n) for n in (1, 5)]


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, N_PROGRAMS, CHUNK))
def test_random_programs_give_the_same_results(first):
    for source, args_list in random_programs(first, first + CHUNK):
        check_same(source, args_list)


@pytest.mark.slow
def test_the_random_programs_have_indexed_maps_and_fused_ops():
    """The census of what the random programs make indexed: maps, and fused ops of
    three kinds (the scanomap's case is canny's, tested above). Half the seeds: all four
    kinds appear among the first 33 programs they give (2026-12-07)."""
    made: Counter = Counter()
    for source, _ in random_programs(0, N_PROGRAMS // 2):
        module = parse_program(source)
        apply_pipeline(module, WITH_IOTA)
        made.update(op.name for op in module.walk() if isinstance(op, mem.FUSED_KERNELS) and op.row_count is not None)
        made.update(op.name for op in module.walk() if isinstance(op, mem.MapOp) and op.indexed is not None)
    assert all(made[name] > 0 for name in ("mem.map", "mem.redomap", "mem.scatteromap", "mem.histomap")), made


ALL_FOUR = """
// Each fused combinator over an iota alone (after fuse-iota: indexed, no input array):
// the sum of i*i (a redomap), the prefix sums of i (a scanomap), i mod 8 counted (a
// histomap), and i written to position n-1-i (a scatteromap); then a redomap reading
// the iota beside an array of its size.
func.func @main(%n: index, %xs: tensor<?xi64>) -> (i64, tensor<?xi64>, tensor<8xi64>, tensor<?xi64>, i64) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %eight = arith.constant 8 : i64
  %c8 = arith.constant 8 : index
  %is = soac.iota %n : tensor<?xi64>
  %s = soac.redomap(%is) : (tensor<?xi64>) -> i64 map {
  ^bb0(%i: i64):
    %sq = arith.muli %i, %i : i64
    soac.yield %sq : i64
  } reduce(%zero : i64) commutative {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %p = soac.scanomap(%is) : (tensor<?xi64>) -> tensor<?xi64> map {
  ^bb0(%i: i64):
    soac.yield %i : i64
  } scan(%zero : i64) commutative {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %h0 = soac.replicate %c8, %zero : i64 -> tensor<8xi64>
  %h = soac.histomap %h0(%is) : tensor<8xi64>, (tensor<?xi64>) -> tensor<8xi64> map {
  ^bb0(%i: i64):
    %b = arith.remsi %i, %eight : i64
    soac.yield %b, %one : i64, i64
  } hist(%zero : i64) {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %n64 = arith.index_cast %n : index to i64
  %last = arith.subi %n64, %one : i64
  %d0 = soac.replicate %n, %zero : i64 -> tensor<?xi64>
  %rev = soac.scatteromap %d0(%is) : tensor<?xi64>, (tensor<?xi64>) -> tensor<?xi64> map {
  ^bb0(%i: i64):
    %at = arith.subi %last, %i : i64
    soac.yield %at, %i : i64, i64
  }
  %m = soac.size %xs[0] : tensor<?xi64>
  %js = soac.iota %m : tensor<?xi64>
  %d = soac.redomap(%js, %xs) : (tensor<?xi64>, tensor<?xi64>) -> i64 map {
  ^bb0(%j: i64, %x: i64):
    %jx = arith.muli %j, %x : i64
    soac.yield %jx : i64
  } reduce(%zero : i64) commutative {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  func.return %s, %p, %h, %rev, %d : i64, tensor<?xi64>, tensor<8xi64>, tensor<?xi64>, i64
}
"""
SIZES = (0, 1, 5, 1000, 100_003)


def all_four_args(n: int) -> tuple:
    return n, np.random.default_rng(n).integers(-9, 9, n).astype(np.int64)


def all_four_expected(n: int, xs: np.ndarray) -> tuple:
    i = np.arange(n, dtype=np.int64)
    return np.int64(np.sum(i * i)), np.cumsum(i), np.bincount(i % 8, minlength=8).astype(np.int64), i[::-1].copy(), np.int64(np.sum(i * xs))


def test_all_four_fused_ops_take_the_row_number():
    module = parse_program(ALL_FOUR)
    apply_pipeline(module, WITH_IOTA)
    indexed = sorted(op.name for op in module.walk() if isinstance(op, mem.FUSED_KERNELS) and op.row_count is not None)
    assert indexed == ["mem.histomap", "mem.redomap", "mem.redomap", "mem.scanomap", "mem.scatteromap"]
    assert not [op for op in module.walk() if isinstance(op, mem.IotaOp)]
    program = soacc.compile(ALL_FOUR, backend="numpy", pipeline=WITH_IOTA)
    for n in SIZES:
        args = all_four_args(n)
        assert mismatch(program.main(*args), all_four_expected(*args), 0.0, 0.0) is None


@pytest.mark.gpu
def test_all_four_indexed_fused_ops_on_the_gpu():
    """Their kernels (the redomap's two passes, the scan's look-back, the histogram's,
    the scatter's) with the row number for an input, at sizes of many blocks and tiles."""
    program = soacc.compile(ALL_FOUR, backend="cuda", pipeline="soacc-pipeline")
    for n in SIZES:
        args = all_four_args(n)
        assert mismatch(program.main(*args), all_four_expected(*args), 0.0, 0.0) is None, n
