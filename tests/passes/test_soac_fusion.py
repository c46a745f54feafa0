"""soac-fusion (passes/soac_fusion.py): differential tests (every example and a few
hundred random programs give the same results, bit for bit, before and after fusion, at
level 1 and after bufferisation), the number of SOACs and of kernel launches per example
before and after, and the soacc-pipeline switch. The rules themselves, one case each,
are in tests/filecheck/passes/soac-fusion.mlir."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import soacc
from soacc.dialects import soac
from soacc.program import apply_pipeline, parse_program
from soacc.tools.examples import as_tuple, load_examples

from tests.support.random_programs import random_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
IDS = [e.name for e in EXAMPLES]

PIPELINES = {
    "level1": ("", "soac-fusion"),
    "level2": ("convert-soac-to-mem", "soac-fusion,convert-soac-to-mem"),
}
"""Each level: the program as it is, and fused (before bufferisation, as in the pipeline)."""

COMBINATORS = (soac.MapOp, soac.ReduceOp, soac.ScanOp, soac.ScatterOp, soac.HistOp, *soac.FUSED_OPS)


def assert_same_bits(got, expected) -> None:
    """Same results, to the last bit (floats compared as their bit patterns)."""
    got, expected = as_tuple(got), as_tuple(expected)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        g, e = np.asarray(g), np.asarray(e)
        assert (g.dtype, g.shape) == (e.dtype, e.shape), f"result {i}: {g.dtype}{g.shape} vs {e.dtype}{e.shape}"
        if e.dtype.kind == "f":
            g, e = g.view(f"u{e.dtype.itemsize}"), e.view(f"u{e.dtype.itemsize}")
        assert np.array_equal(g, e), f"result {i} differs:\n{g}\n{e}"


def count_combinators(module, host_only: bool = False) -> int:
    """SOACs in the module; `host_only`: those not inside a lambda (each a kernel)."""

    def in_lambda(op) -> bool:
        parent = op.parent_op()
        while parent is not None:
            if isinstance(parent, COMBINATORS):
                return True
            parent = parent.parent_op()
        return False

    return sum(1 for op in module.walk() if isinstance(op, COMBINATORS) and not (host_only and in_lambda(op)))


# --------------------------------------------------------------------------------------
# Every example
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", PIPELINES)
@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_fusion_keeps_every_example_exactly(example, level):
    unfused, fused = (soacc.compile(example.program_path, backend="numpy", pipeline=p) for p in PIPELINES[level])
    for size in (0, 1, 3, 50):
        args = example.make_inputs(np.random.default_rng(size), size)
        assert_same_bits(fused.main(*args), unfused.main(*args))


# (SOACs at host level, all SOACs, level-2 kernel launches at size 20): before, after.
EXPECTED_COUNTS = {
    "convergence_loop": ((3, 2), (3, 2), (502, 452)),
    "dot_product": ((2, 1), (2, 1), (2, 1)),
    "filter": ((7, 4), (7, 4), (10, 7)),
    "gauss_jordan": ((5, 4), (6, 5), (121, 101)),
    "histogram": ((3, 2), (3, 2), (7, 5)),
    "kmeans": ((4, 4), (10, 8), (47, 42)),
    "linear_recurrence": ((3, 2), (3, 2), (3, 2)),
    "mandelbrot": ((1, 1), (1, 1), (2, 2)),
    "nbody": ((3, 1), (7, 3), (15, 5)),
    "clean": ((3, 2), (3, 2), (165, 124)),
    "prefix_sum": ((1, 1), (1, 1), (1, 1)),
    "row_sums": ((1, 1), (3, 2), (1, 1)),
    "scatter": ((3, 2), (3, 2), (6, 5)),
    "transpose_concat": ((4, 4), (7, 7), (8, 7)),
    "vector_norm": ((3, 2), (3, 2), (3, 2)),
}


def test_every_example_has_expected_counts():
    assert set(EXPECTED_COUNTS) == set(IDS)


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_combinators_and_kernels_before_and_after_fusion(example):
    """The counts per example, written down: fusion makes fewer kernels and never more."""
    host, total, launches = EXPECTED_COUNTS[example.name]
    text = example.program_path.read_text()
    before, after = parse_program(text), parse_program(text)
    apply_pipeline(before, "canonicalize,cse")
    apply_pipeline(after, "canonicalize,cse,soac-fusion")
    assert (count_combinators(before, True), count_combinators(after, True)) == host
    assert (count_combinators(before), count_combinators(after)) == total
    args = example.make_inputs(np.random.default_rng(1), 20)
    counted = []
    for pipeline in ("canonicalize,cse,convert-soac-to-mem", "canonicalize,cse,soac-fusion,convert-soac-to-mem"):
        program = soacc.compile(example.program_path, backend="numpy", pipeline=pipeline)
        program.main(*args)
        counted.append(program.statistics.kernel_launches)
    assert tuple(counted) == launches


# --------------------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------------------

N_PROGRAMS = 300
CHUNK = 10
RUN_SIZES = (1, 5, 33)


@pytest.mark.parametrize("first", range(0, N_PROGRAMS, CHUNK))
def test_fusion_keeps_random_programs_exactly(first):
    """Seeded random programs (the fusion family of tests/support/random_programs): the same results, bit for
    bit, before and after fusion, as written and bufferised (the fused module is
    bufferised as the pipeline does it: fusion first)."""
    for seed in range(first, first + CHUNK):
        program = random_program("fusion", seed)
        written = parse_program(program.source)
        fused = written.clone()
        apply_pipeline(fused, "soac-fusion")
        programs = [
            soacc.compile(module, backend="numpy", pipeline=pipeline)
            for pipeline in ("", "convert-soac-to-mem")
            for module in (written, fused)
        ]
        for n in RUN_SIZES:
            args = program.inputs(n, np.random.default_rng(seed * 100 + n))
            reference, *others = (p.main(*args) for p in programs)
            for other in others:
                assert_same_bits(other, reference)


CENSUS = 100


def random_program_census() -> tuple[int, int, int, Counter]:
    """(programs fused, SOACs before, after, fused ops made) over the first random programs."""
    fused_programs = before = after = 0
    made: Counter = Counter()
    for seed in range(CENSUS):
        module = parse_program(random_program("fusion", seed).source)
        b = count_combinators(module)
        apply_pipeline(module, "soac-fusion")
        a = count_combinators(module)
        made.update(op.name for op in module.walk() if isinstance(op, soac.FUSED_OPS))
        made.update("soac.scanomap post" for op in module.walk() if isinstance(op, soac.ScanomapOp) and op.post)
        fused_programs += a < b
        before, after = before + b, after + a
    return fused_programs, before, after, made


@pytest.mark.slow
def test_random_programs_exercise_every_rule():
    """The differential test above is not vacuous: nearly every program fuses, by every
    fused form, and more than half the SOACs go."""
    fused_programs, before, after, made = random_program_census()
    assert fused_programs >= 0.9 * CENSUS
    assert after < 0.6 * before
    for name in ("soac.redomap", "soac.scanomap", "soac.scanomap post", "soac.scatteromap", "soac.histomap"):
        assert made[name] >= 10, made


@pytest.mark.parametrize("source", ["examples", pytest.param("random", marks=pytest.mark.slow)])
def test_fusion_reaches_a_fixed_point(source):
    """A second run fuses nothing more."""
    texts = [e.program_path.read_text() for e in EXAMPLES] if source == "examples" else [random_program("fusion", s).source for s in range(40)]
    for text in texts:
        once = parse_program(text)
        apply_pipeline(once, "soac-fusion")
        twice = once.clone()
        apply_pipeline(twice, "soac-fusion")
        assert twice.is_structurally_equivalent(once)


# --------------------------------------------------------------------------------------
# The pipeline switch
# --------------------------------------------------------------------------------------


def test_pipeline_runs_fusion_after_canonicalize_and_cse_and_fuse_iota_after_bufferisation_unless_switched_off():
    from soacc.pipeline import SoaccPipelinePass

    stages = SoaccPipelinePass().stages().split(",")
    assert stages[:4] == ["canonicalize", "cse", "interchange-reductions", "soac-fusion"]
    assert "soac-fusion" not in SoaccPipelinePass(fusion=False).stages()
    # fusion=false leaves fuse-iota (level 2) out too
    assert [s for s in stages if s not in ("soac-fusion", "fuse-iota")] == SoaccPipelinePass(fusion=False).stages().split(",")
    assert stages.index("fuse-iota") == stages.index("convert-soac-to-mem") + 1


def _kernels(pipeline: str) -> list[str]:
    program = soacc.compile(ROOT / "examples" / "dot_product.mlir", backend="numpy", pipeline=pipeline)
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]


def test_the_pipeline_lowers_the_fused_kernels():
    assert _kernels("soacc-pipeline") == ["redomap0_partials", "redomap0_final"]
    assert _kernels("soacc-pipeline{fusion=false}") == ["map0", "reduce1_partials", "reduce1_final"]
