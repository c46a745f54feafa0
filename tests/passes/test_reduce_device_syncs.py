"""reduce-device-syncs and merge-gpu-bodies on whole programs.

Differential: every example, every program of the lit tests (the digest's cases and the
ports of Futhark's tests/migration) and randomly generated programs give exactly the
same results before and after the passes, on the reference executor as written (level
1) and bufferised (level 2). And the promise: the synchronous reads a run makes after
the passes (counted by the level-2 executor) are exactly the cut's reads over that run
(tests/support/sync_bound.py), and, with the study's cut alone (no device loops), never
more than before on the examples. Also the pipeline switch,
the DOT option, the CUDA C of every example through the passes, and that the analysis
leaves the IR alone."""

from __future__ import annotations

import io
import re
import shutil
import signal
import subprocess
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, TensorType

import soacc
from soacc.dialects import mem, soac
from soacc.passes.analysis.migration_table import analyse_module
from soacc.pipeline import SoaccPipelinePass
from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.program import apply_pipeline, parse_program
from soacc.runtime.errors import ExecutionError, ProgramError
from soacc.tools.examples import load_examples, mismatch

from tests.support.nvcc import compile_ptx
from tests.support.marks import params, sample
from tests.support.random_programs import random_program
from tests.support.scripts import benchmark_programs, load_benchmark
from tests.support.sync_bound import cut_bound


ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = load_examples(ROOT / "examples")
BENCHMARK_PROGRAMS = benchmark_programs("device_syncs")
SYNCS = "reduce-device-syncs,merge-gpu-bodies"
STUDY_SYNCS = "reduce-device-syncs{device-loops=false},merge-gpu-bodies"
"""The study's cut alone, without the device loops (which may read a few values more
per call, eagerly, so that a task graph can run a loop whole)."""
LIT = ROOT / "tests" / "filecheck" / "passes"
LIT_PROGRAMS = sorted((LIT / "migration").glob("*.mlir")) + [LIT / "reduce-device-syncs.mlir"]
# half of Futhark's ported programs by default in the slower sweeps (the lit tests check
# each one's structure); all with SOACC_TESTS=deep
SAMPLED_LIT_PROGRAMS = sample(LIT_PROGRAMS, 2, keep=[LIT / "reduce-device-syncs.mlir"])


def compiled(source, pipeline: str) -> soacc.Program:
    return soacc.compile(source, backend="numpy", pipeline=pipeline)


def check_same(before, after) -> None:
    assert mismatch(after, before, 0.0, 0.0) is None, f"{after} != {before}"


class Runs:
    """One program before and after the passes, at level 1 and level 2."""

    def __init__(self, source, prefix: str = "", syncs: str = SYNCS):
        self.source = source
        self.before1 = compiled(source, prefix.rstrip(","))
        self.after1 = compiled(source, prefix + syncs)
        self.before2 = compiled(source, prefix + "convert-soac-to-mem")
        self.after2 = compiled(source, prefix + syncs + ",convert-soac-to-mem")

    def run(self, entry: str, args, limit: float | None = None) -> tuple | None:
        """Runs all four on copies of `args`; they agree exactly, or all fail. Gives the
        reads (before, after) at level 2, or None when the program fails (or, with a
        `limit`, runs longer than that many seconds as written: a while loop that
        random inputs never end)."""
        if limit is not None:
            try:
                with _time_limit(limit):
                    self.before1.entry(entry)(*[_copy(a) for a in args])
            except (TimeoutError, soacc.ExecutionError):
                return None
        outcomes = []
        for program in (self.before1, self.after1, self.before2, self.after2):
            try:
                outcomes.append(program.entry(entry)(*[_copy(a) for a in args]))
            except soacc.ExecutionError as error:
                outcomes.append(error)
        failed = [isinstance(o, soacc.ExecutionError) for o in outcomes]
        assert all(failed) or not any(failed), f"only some runs fail: {outcomes}"
        if all(failed):
            return None
        for o in outcomes[1:]:
            check_same(outcomes[0], o)
        return self.before2.statistics.sync_reads, self.after2.statistics.sync_reads


def _copy(a):
    return np.array(a, copy=True) if isinstance(a, np.ndarray) else a


@contextmanager
def _time_limit(seconds: float):
    def expired(signum, frame):
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------------------
# Examples
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_examples_same_results_and_reads_at_the_bound(example):
    """With device loops (the default) the reads are their bound; with the study's cut
    alone they are its bound too, and never more than without the pass."""
    runs = Runs(example.program_path)
    study = Runs(example.program_path, syncs=STUDY_SYNCS)
    source = example.program_path.read_text()
    for size in (0, 1, 6, 40):
        args = example.make_inputs(np.random.default_rng(size), size)
        reads = runs.run("main", args)
        assert reads is not None
        assert reads[1] == cut_bound(source, args), f"size {size}"
        before, after = study.run("main", args)
        assert after == cut_bound(source, args, device_loops=False), f"size {size}"
        assert after <= before
        assert study.after2.statistics.scalar_writes <= study.before2.statistics.scalar_writes


@pytest.mark.parametrize("program", BENCHMARK_PROGRAMS, ids=[p.name for p in BENCHMARK_PROGRAMS])
def test_benchmark_programs_match_numpy_and_read_at_the_bound(program):
    runs = Runs(program.program_path)
    args = program.make_inputs(np.random.default_rng(0), program.definition.SMALL_SIZE)
    reads = runs.run("main", args)
    assert reads is not None
    expected = program.reference(*args)
    assert mismatch(runs.after2.main(*args), expected, program.rtol, program.atol) is None
    assert reads[1] == cut_bound(program.program_path.read_text(), args)
    assert reads[1] <= reads[0]


def test_benchmark_script_runs_on_the_cpu(capsys):
    module = load_benchmark("device_syncs.py")
    assert module.main(["--backend", "numpy", "--small", "--repeat", "1", "vector_norm", "keys"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("vector_norm", "keys"))]
    assert len(rows) == 2 and all(row.endswith("ok") for row in rows), rows


def test_benchmark_script_names_an_unknown_program(capsys):
    module = load_benchmark("device_syncs.py")
    with pytest.raises(SystemExit) as exit:
        module.main(["--backend", "numpy", "--small", "vector_nrom"])
    assert exit.value.code == 2
    assert "no program named vector_nrom (there are " in capsys.readouterr().err


@pytest.mark.gpu
@pytest.mark.parametrize(
    "program", EXAMPLES + BENCHMARK_PROGRAMS, ids=[p.name for p in EXAMPLES] + [f"bench-{p.name}" for p in BENCHMARK_PROGRAMS]
)
def test_on_the_gpu_the_same_results_and_reads(program):
    """The cuda backend with the passes (soacc-pipeline) and without: the NumPy
    definition's results, and on the GPU as many reads as the reference executor counts."""
    size = getattr(program.definition, "SMALL_SIZE", 7)
    args = program.make_inputs(np.random.default_rng(1), size)
    expected = program.reference(*args)
    cpu = compiled(program.program_path, SoaccPipelinePass().level2_stages())
    cpu.main(*args)
    for pipeline in ("soacc-pipeline", "soacc-pipeline{syncs=false}"):
        gpu = soacc.compile(program.program_path, backend="cuda", pipeline=pipeline)
        assert mismatch(gpu.main(*args), expected, program.rtol, program.atol) is None, pipeline
        if pipeline == "soacc-pipeline":
            assert gpu.statistics.sync_reads == cpu.statistics.sync_reads


def before_the_passes(path) -> str:
    """The program as soacc-pipeline hands it to reduce-device-syncs (fused), as text."""
    stages = SoaccPipelinePass().stages().split(",")
    return str(compiled(path, ",".join(stages[: stages.index("reduce-device-syncs")])).module)


@pytest.mark.parametrize(
    "program", EXAMPLES + BENCHMARK_PROGRAMS, ids=[p.name for p in EXAMPLES] + [f"bench-{p.name}" for p in BENCHMARK_PROGRAMS]
)
def test_fused_programs_same_results_and_reads_at_the_bound(program):
    """After soac-fusion (redomap and the other fused forms): the same results before and
    after, the NumPy definition's, and reads at the bound."""
    source = before_the_passes(program.program_path)
    runs = Runs(source)
    args = program.make_inputs(np.random.default_rng(2), getattr(program.definition, "SMALL_SIZE", 6))
    reads = runs.run("main", args)
    assert reads is not None
    assert mismatch(runs.after2.main(*args), program.reference(*args), program.rtol, program.atol) is None
    assert reads[1] == cut_bound(source, args)
    assert reads[1] <= reads[0] or with_device_loop(runs.after2.module)


def with_device_loop(module) -> bool:
    """The program has a device loop (its while reads its condition from the device at
    the top of each iteration), which may read a few values more per call than the cut
    alone (test_examples_same_results_and_reads_at_the_bound checks the cut's promise)."""
    return any(
        isinstance(op, scf.WhileOp) and any(isinstance(o, mem.LoadOp) for o in op.before_region.block.ops)
        for op in module.walk()
    )


def test_the_examples_lose_reads_where_the_study_says():
    """Listing 1's read goes; Gauss-Jordan reads nothing per step (the pivot's value
    stays on the device, and so does its index: only the row copy and the row swap use
    it, and copy kernels read it there); the convergence loop's literal is built on the
    device (no transfer per iteration)."""
    by_name = {e.name: e for e in EXAMPLES}
    counts = {}
    for name in ("vector_norm", "gauss_jordan", "convergence_loop", "linear_recurrence"):
        example = by_name[name]
        runs = Runs(example.program_path)
        args = example.make_inputs(np.random.default_rng(0), 16)
        counts[name] = runs.run("main", args), runs
    assert counts["vector_norm"][0] == (1, 0)
    n = 16
    assert counts["gauss_jordan"][0] == (2 * n, 0)
    assert counts["linear_recurrence"][0] == (2, 1)
    before, after = counts["convergence_loop"][1].before2, counts["convergence_loop"][1].after2
    assert after.statistics.copies["host->device"].count < before.statistics.copies["host->device"].count


# --------------------------------------------------------------------------------------
# The lit tests' programs, on random inputs
# --------------------------------------------------------------------------------------


def random_argument(t, rng: np.random.Generator):
    """Small values, so that most indices fall inside the small arrays."""
    dtype = numpy_dtype(t.element_type if isinstance(t, TensorType) else t)
    shape = tuple(5 if d == DYNAMIC_INDEX else d for d in t.get_shape()) if isinstance(t, TensorType) else ()
    if dtype.kind == "b":
        values = rng.integers(0, 2, size=shape).astype(bool)
    elif dtype.kind in "iu":
        values = rng.integers(0, 4, size=shape).astype(dtype)
    else:
        values = rng.uniform(-2.0, 2.0, size=shape).astype(dtype)
    return values if shape or isinstance(t, TensorType) else values[()]


@pytest.mark.parametrize("path", params(SAMPLED_LIT_PROGRAMS, [p.stem for p in SAMPLED_LIT_PROGRAMS], slow=["reduce-device-syncs"]))
def test_lit_programs_same_results_and_reads_at_the_bound(path):
    source = path.read_text()
    module = parse_program(source)
    runs = Runs(source, "cse,")
    cse_source = str(runs.before1.module)
    rng = np.random.default_rng(len(source))
    for f in module.ops:
        if not isinstance(f, func.FuncOp) or f.sym_visibility is not None:
            continue
        for _ in range(3):
            args = [random_argument(t, rng) for t in f.function_type.inputs.data]
            reads = runs.run(f.sym_name.data, args, limit=1.0)
            if reads is not None:
                assert reads[1] == cut_bound(cse_source, args, f.sym_name.data), f.sym_name.data


# --------------------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------------------

RANDOM_SEEDS = range(60)


@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_random_programs_same_results_and_reads_at_the_bound(seed):
    program = random_program("host", seed)
    source = program.source
    runs = Runs(source)
    rng = np.random.default_rng(1000 + seed)
    ran = 0
    for size in (1, 3, 8):
        args = list(program.inputs(size, rng))
        reads = runs.run("main", args)
        if reads is not None:
            ran += 1
            assert reads[1] == cut_bound(source, args), source
    assert ran, f"the generated program failed on every input:\n{source}"


FUSED_SEEDS = range(40)


@pytest.mark.parametrize("seed", FUSED_SEEDS)
def test_random_fused_programs_same_results_and_reads_at_the_bound(seed):
    """soac-fusion's random programs (host element reads and scalar arithmetic on
    reduction results between combinators), fused as the pipeline does it."""
    program = random_program("fusion", seed)
    source = str(compiled(program.source, "canonicalize,cse,soac-fusion").module)
    runs = Runs(source)
    for n in (1, 5):
        args = program.inputs(n, np.random.default_rng(seed + n))
        reads = runs.run("main", args)
        assert reads is not None, source
        assert reads[1] == cut_bound(source, args), source
        assert reads[1] <= reads[0]


# --------------------------------------------------------------------------------------
# The pipeline, the tools, the GPU code
# --------------------------------------------------------------------------------------


def test_pipeline_runs_the_passes_unless_switched_off():
    source = (ROOT / "examples" / "vector_norm.mlir").read_text()
    # (the function alone: a forked copy beside it would read what it reads)
    on = compiled(source, "soacc-pipeline{forked-copies=false}").module
    off = compiled(source, "soacc-pipeline{syncs=false forked-copies=false}").module
    # on: the norm's square root is taken on the device (in a gpu_body, which runs on
    # the reduction's final kernel), and the host reads nothing (mem.load); off: the
    # host reads the sum
    host_reads = lambda m: len(re.findall(r"= mem\.load ", str(m)))  # noqa: E731
    assert host_reads(on) == 0 and host_reads(off) == 1
    level2 = SoaccPipelinePass().level2_stages()
    gpu_bodies = lambda p: sum(isinstance(op, mem.GpuBodyOp) for op in compiled(source, p).module.walk())  # noqa: E731
    assert gpu_bodies(level2) == 1
    assert gpu_bodies(SoaccPipelinePass(syncs=False).level2_stages()) == 0


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_cuda_of_every_example_compiles_after_the_passes(example, tmp_path):
    from soacc.lowering.emit_cuda import emit_cuda

    program = compiled(example.program_path, "soacc-pipeline")
    text = io.StringIO()
    emit_cuda(program.module, text)
    result = compile_ptx(text.getvalue(), tmp_path, example.name)
    assert result.returncode == 0, result.stderr[-3000:]


LOCATED_REFUSAL = re.compile(r"^<input>:\d+:\d+: error: convert-(soac-to-mem|mem-to-gpu): ")


@pytest.mark.parametrize("path", SAMPLED_LIT_PROGRAMS, ids=[p.stem for p in SAMPLED_LIT_PROGRAMS])
def test_every_lit_program_goes_through_the_whole_pipeline(path, tmp_path):
    """What the device-sync passes leave, lowered to kernels (issue 21, item 5): each
    program compiles, or is refused with a located message of a lowering that names
    what it cannot do yet; never an internal error. Every nineteenth through nvcc
    (test_cuda_of_every_example_compiles_after_the_passes takes the examples)."""
    from soacc.lowering.emit_cuda import emit_cuda

    try:
        program = compiled(path.read_text(), SoaccPipelinePass().stages())
    except ProgramError as error:
        assert LOCATED_REFUSAL.match(str(error)), str(error)
        return
    if LIT_PROGRAMS.index(path) % 19 == 0 and shutil.which("nvcc"):
        text = io.StringIO()
        emit_cuda(program.module, text)
        result = compile_ptx(text.getvalue(), tmp_path, path.stem)
        assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.gpu
@pytest.mark.parametrize("path", LIT_PROGRAMS, ids=[p.stem for p in LIT_PROGRAMS])
def test_on_the_gpu_every_lit_program_gives_the_reference_results(path):
    """The programs the whole pipeline takes, on the GPU with random arguments: the
    reference executor's results for the program as written (a run-time error, an
    index out of bounds among them, where it gives one)."""
    source = path.read_text()
    try:
        gpu = soacc.compile(source, backend="cuda")
    except ProgramError as error:
        assert LOCATED_REFUSAL.match(str(error)), str(error)
        return
    reference = compiled(source, "canonicalize")
    rng = np.random.default_rng(len(source))
    for f in parse_program(source).ops:
        if not isinstance(f, func.FuncOp) or f.sym_visibility is not None:
            continue
        for _ in range(3):
            args = [random_argument(t, rng) for t in f.function_type.inputs.data]
            try:
                with _time_limit(1.0):  # (a while loop random inputs never end)
                    want = reference.entry(f.sym_name.data)(*[_copy(a) for a in args])
            except (TimeoutError, ExecutionError):
                continue  # (the GPU's run-time checks are tested apart)
            got = gpu.entry(f.sym_name.data)(*[_copy(a) for a in args])
            assert mismatch(got, want, 1e-5, 1e-6) is None, f"{f.sym_name.data}: {mismatch(got, want, 1e-5, 1e-6)}"


def test_dot_option_writes_the_graph_and_the_cut(tmp_path):
    out = tmp_path / "g.dot"
    compiled(ROOT / "examples" / "gauss_jordan.mlir", f'reduce-device-syncs{{dot="{out}"}}')
    text = out.read_text()
    assert text.startswith('digraph "@main" {')
    assert "// @main: device {best, best, p, pv} cut {} reads 0" in text
    assert "color=red penwidth=2" not in text  # no read is forced
    compiled(ROOT / "examples" / "linear_recurrence.mlir", f'reduce-device-syncs{{dot="{out}"}}')
    text = out.read_text()
    assert "// @main: device {ta, tb, tx, last} cut {last} reads 1" in text
    assert "color=red penwidth=2" in text  # the route that forces the last value's read


def test_dot_option_to_an_unwritable_file_is_one_error(tmp_path):
    with pytest.raises(soacc.ProgramError, match="reduce-device-syncs: cannot write"):
        compiled(ROOT / "examples" / "vector_norm.mlir", f'reduce-device-syncs{{dot="{tmp_path}/no/such/dir"}}')


def test_malformed_option_is_one_error():
    result = subprocess.run(
        ["soacc-opt", str(ROOT / "examples" / "vector_norm.mlir"), "-p", "reduce-device-syncs{dot=/tmp/x}"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "malformed pass pipeline" in result.stderr


def test_the_analysis_leaves_the_ir_alone():
    for example in EXAMPLES:
        module = parse_program(example.program_path.read_text())
        before = str(module)
        analyse_module(module)
        assert str(module) == before


def test_host_only_functions():
    from soacc.passes.analysis.migration_table import host_only_functions

    module = parse_program(
        """
        func.func private @scalar(%x: i64) -> i64 {
          %y = arith.muli %x, %x : i64
          func.return %y : i64
        }
        func.func private @calls_scalar(%x: i64) -> i64 {
          %y = func.call @scalar(%x) : (i64) -> i64
          func.return %y : i64
        }
        func.func private @arrays(%x: i64) -> i64 {
          %a = soac.array [%x] : tensor<1xi64>
          %c0 = arith.constant 0 : index
          %y = soac.index %a[%c0] : tensor<1xi64>
          func.return %y : i64
        }
        func.func private @calls_arrays(%x: i64) -> i64 {
          %y = func.call @arrays(%x) : (i64) -> i64
          func.return %y : i64
        }
        func.func private @recursive(%x: i64) -> i64 {
          %y = func.call @recursive(%x) : (i64) -> i64
          func.return %y : i64
        }
        """
    )
    assert host_only_functions(module) == {"arrays", "calls_arrays", "recursive"}


def test_types_of_random_arguments_cover_the_lit_programs():
    """The lit programs use only types random_argument can make."""
    for path in LIT_PROGRAMS:
        module = parse_program(path.read_text())
        for f in module.ops:
            if isinstance(f, func.FuncOp):
                for t in f.function_type.inputs.data:
                    element = t.element_type if isinstance(t, TensorType) else t
                    assert isinstance(element, IntegerType | IndexType) or numpy_dtype(element).kind == "f", (path, t)


FUSED_SCATTER_AFTER_A_READ = """
func.func @main(%a: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>, %us: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %x = soac.index %a[%c0] : tensor<?xf32>
  %two = arith.constant 2.0 : f32
  %y = arith.mulf %x, %two : f32
  %is2 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.subi %i, %c1 : index
    soac.yield %j : index
  }
  %b = soac.scatter %a[%is2] = %vs : tensor<?xf32>, tensor<?xindex>, tensor<?xf32>
  %r = soac.map(%us) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %w = arith.addf %v, %y : f32
    soac.yield %w : f32
  }
  func.return %b, %r : tensor<?xf32>, tensor<?xf32>
}
"""


def test_merging_keeps_a_fused_scatter_after_the_gpu_body_that_reads_its_destination():
    """soac-fusion makes the scatter a scatteromap, which consumes %a as the scatter did
    (the ConsumesOperand trait). merge-gpu-bodies once knew only the unfused consumers,
    moved the scatteromap above the gpu_body reading a[0], and the scatter could no
    longer write in place: a whole copy of %a at level 2."""
    args = (np.array([1, 2, 3, 4], np.float32), np.array([1, 2], np.int64), np.array([10, 20], np.float32), np.array([0, 1], np.float32))
    pipeline = "soac-fusion,reduce-device-syncs,merge-gpu-bodies,convert-soac-to-mem"
    program = soacc.compile(FUSED_SCATTER_AFTER_A_READ, backend="numpy", pipeline=pipeline)
    b, r = program.main(*(a.copy() for a in args))
    assert b.tolist() == [10.0, 20.0, 3.0, 4.0] and r.tolist() == [2.0, 3.0]
    assert program.statistics.copies["device->device"].count == 0


def test_an_index_of_a_slice_is_read_on_the_device():
    """Issue 22, class 1: `A[j:][k]` with j from a reduction on the device, in a loop.
    Canonicalized to an index of A, nothing is read (5 reads without); a k outside the
    slice still fails."""
    source = (LIT / "migration" / "index_of_slice.mlir").read_text()
    a = np.zeros(100, np.int64)
    xs = np.array([1, 0, 0, 0, 0], np.int64)
    # (reads without reduce-device-syncs, with it): each step reads the reduction's
    # value, and the element at it; the cut alone leaves one read a step
    unsimplified = Runs(source, "cse,")
    assert unsimplified.run("main", [a, xs, 3, 5]) == (10, 5)
    simplified = Runs(source, "canonicalize,cse,")
    assert simplified.run("main", [a, xs, 3, 5]) == (10, 0)
    for k in (98, 99, 1000):  # at j = 1, the slice has 99 elements; k = 99 is outside it
        outcome = simplified.run("main", [a, xs, k, 5])
        assert (outcome is None) == (k >= 99)


def test_futharks_hoisted1_reads_nothing_once_its_slice_is_an_index():
    """Futhark's tests/migration/hoisted1: an inner loop over `A[j:]`, j computed from
    elements of A. With the slice's elements indexes of A, the whole inner loop moves
    to the device; without, j comes to the host every step."""
    source = (LIT / "migration" / "hoisted1.mlir").read_text()
    args = [np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int64), 5]
    unsimplified = Runs(source, "cse,")
    simplified = Runs(source, "canonicalize,cse,")
    before, after = unsimplified.run("main", args)
    assert after == 7  # one read of j per step
    assert simplified.run("main", args) == (before, 0)


SINKABLE = """
func.func @main(%A: tensor<?xi64>, %i: index, %p: i1) -> i64 {
  %zero = arith.constant 0 : i64
  %v = soac.index %A[%i] : tensor<?xi64>
  %r = scf.if %p -> (i64) {
    %w = arith.muli %v, %v : i64
    scf.yield %w : i64
  } else {
    scf.yield %zero : i64
  }
  func.return %r : i64
}
"""


@pytest.mark.parametrize(("i", "p"), [(1, True), (1, False), (9, True), (9, False)])
def test_a_read_sunk_into_its_branch_keeps_its_bounds_check(i, p):
    """The read moves into the branch that uses it (read only when the branch runs);
    an index out of bounds still fails where it did, the branch taken or not."""
    module = parse_program(SINKABLE)
    apply_pipeline(module, "reduce-device-syncs{sink=true}")
    (if_op,) = [op for op in module.walk() if isinstance(op, scf.IfOp)]
    assert any(isinstance(op, soac.IndexOp) for op in if_op.true_region.walk())
    a = np.arange(4, dtype=np.int64)
    programs = [compiled(SINKABLE, "convert-soac-to-mem"), compiled(SINKABLE, "reduce-device-syncs,convert-soac-to-mem")]
    outcomes = []
    for program in programs:
        try:
            outcomes.append(int(program.main(a, i, p)))
        except soacc.ExecutionError:
            outcomes.append("error")
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0] == "error") == (i >= 4)
    reads = [program.statistics.sync_reads for program in programs]
    if i < 4:
        assert reads == [1, 1 if p else 0]  # read only where the branch runs
