"""Host-level hist kernels (lowering/gpu_hist.py): which strategy each operator, type
and bin count gets; their CUDA C compiles (nvcc, where installed); and (marker gpu) on
the GPU they give what the CPU reference executor gives: sizes 0 to 10^6, 1 to 5000
bins (static, or dynamic), out-of-bounds and negative indices of every index type,
atomic operators, compare-and-swap ones (a multiply, maximumf with NaNs, one using a
captured value), into a destination with contents of its own."""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.dialects import gpu

import soacc
from soacc.lowering.emit_cuda import emit_cuda

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

SIZES = [0, 1, 257, 10**6]
BINS = [1, 256, 5000, "?1", "?3000"]
"""Static bin counts, and "?n": a dynamic destination type given n bins."""

INDEX_DTYPES = {"index": np.int64, "i32": np.int32, "i64": np.int64}


@dataclass(frozen=True)
class Operator:
    name: str
    t: str  # element type
    body: str  # the lambda's ops on %l and %r, giving %res
    neutral: str
    index: str  # the index type of the test programs
    make: str  # how values are drawn (see _values)

    @property
    def dtype(self):
        return {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64, "index": np.int64}[self.t]


def _binary(op: str, t: str) -> str:
    return f"%res = {op} %l, %r : {t}"


OPERATORS = [
    Operator("add_i32", "i32", _binary("arith.addi", "i32"), "0", "i32", "small"),
    Operator("add_i64", "i64", _binary("arith.addi", "i64"), "0", "i64", "small"),
    Operator("add_index", "index", _binary("arith.addi", "index"), "0", "index", "small"),
    # quarters below 2^22 in magnitude: every partial sum is exact, so any order of the
    # additions gives the same floats and a lost or doubled update shows
    Operator("add_f32_exact", "f32", _binary("arith.addf", "f32"), "0.0", "i32", "quarters"),
    Operator("add_f64_exact", "f64", _binary("arith.addf", "f64"), "0.0", "index", "quarters"),
    Operator("max_i32", "i32", _binary("arith.maxsi", "i32"), "-2147483648", "i64", "any"),
    Operator("min_i64", "i64", _binary("arith.minsi", "i64"), "9223372036854775807", "i32", "any"),
    Operator("maxu_i32", "i32", _binary("arith.maxui", "i32"), "0", "i32", "any"),
    Operator("minu_i64", "i64", _binary("arith.minui", "i64"), "-1", "i64", "any"),
    Operator("and_i32", "i32", _binary("arith.andi", "i32"), "-1", "i32", "dense_bits"),
    Operator("or_i64", "i64", _binary("arith.ori", "i64"), "0", "i64", "sparse_bits"),
    Operator("xor_i32", "i32", _binary("arith.xori", "i32"), "0", "index", "any"),
    # compare-and-swap operators: odd factors never reach zero, so every update counts
    Operator("mul_i32", "i32", _binary("arith.muli", "i32"), "1", "i32", "odd"),
    Operator("mul_i64", "i64", _binary("arith.muli", "i64"), "1", "i64", "odd"),
    Operator("maximumf_f32", "f32", _binary("arith.maximumf", "f32"), "0xFF800000", "i32", "floats_with_nan"),
    Operator("minimumf_f64", "f64", _binary("arith.minimumf", "f64"), "0x7FF0000000000000", "i64", "floats_with_nan"),
]
OPERATOR_IDS = [o.name for o in OPERATORS]
BY_NAME = {o.name: o for o in OPERATORS}


def hist_program(op: Operator, bins: int | str) -> str:
    dest = f"tensor<{'?' if isinstance(bins, str) else bins}x{op.t}>"
    return f"""
func.func @main(%dest: {dest}, %is: tensor<?x{op.index}>, %vs: tensor<?x{op.t}>) -> {dest} {{
  %z = arith.constant {op.neutral} : {op.t}
  %h = soac.hist %dest[%is], %vs neutral(%z : {op.t}) : {dest}, tensor<?x{op.index}>, tensor<?x{op.t}> {{
  ^bb0(%l: {op.t}, %r: {op.t}):
    {op.body}
    soac.yield %res : {op.t}
  }}
  func.return %h : {dest}
}}
"""


# saturating addition of non-negative numbers, min(l + r, cap): associative and
# commutative there; cap is captured from outside the operator
CAPPED_SUM = """
func.func @main(%dest: tensor<BINSxi32>, %is: tensor<?xi32>, %vs: tensor<?xi32>, %cap: i32) -> tensor<BINSxi32> {
  %z = arith.constant 0 : i32
  %h = soac.hist %dest[%is], %vs neutral(%z : i32) : tensor<BINSxi32>, tensor<?xi32>, tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    %res = arith.minsi %s, %cap : i32
    soac.yield %res : i32
  }
  func.return %h : tensor<BINSxi32>
}
"""


def _bin_count(bins: int | str) -> int:
    return int(bins[1:]) if isinstance(bins, str) else bins


def _static_key(bins: int | str) -> int | str:
    """Programs with dynamic bins are one program whatever the count."""
    return "?" if isinstance(bins, str) else bins


@functools.cache
def _programs(source: str):
    return soacc.compile(source, backend="numpy", pipeline=GPU), soacc.compile(source, backend="numpy", pipeline=CPU)


def _kernel_names(source: str) -> list[str]:
    module = soacc.compile(source, backend="numpy", pipeline=GPU).module
    return [f.sym_name.data for f in module.walk() if isinstance(f, gpu.FuncOp)]


def _values(op: Operator, n: int, rng: np.random.Generator) -> np.ndarray:
    dtype = op.dtype
    info = np.iinfo(dtype) if np.dtype(dtype).kind == "i" else None
    match op.make:
        case "small":
            return rng.integers(-1000, 1001, n).astype(dtype)
        case "quarters":
            return (rng.integers(-8, 9, n) / 4).astype(dtype)
        case "any":
            return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        case "dense_bits":  # all ones but about 64 values, each without one bit
            bit = np.int64(1) << rng.integers(0, np.dtype(dtype).itemsize * 8 - 1, n)
            return np.where(_rare(rng, n, 64), ~bit, -1).astype(dtype)
        case "sparse_bits":  # zeros but about 64 values, each with one bit
            bit = np.int64(1) << rng.integers(0, np.dtype(dtype).itemsize * 8 - 1, n)
            return np.where(_rare(rng, n, 64), bit, 0).astype(dtype)
        case "odd":
            return (rng.integers(-3, 4, n) * 2 + 1).astype(dtype)
        case "floats_with_nan":  # about 5 NaNs, and zeros of both signs
            x = rng.standard_normal(n).astype(dtype)
            x[_rare(rng, n, 5)] = np.nan
            x[_rare(rng, n, 50)] = -0.0
            x[_rare(rng, n, 50)] = 0.0
            return x
    raise AssertionError(op.make)


def _rare(rng: np.random.Generator, n: int, expected: int) -> np.ndarray:
    """About `expected` of n positions, so that an operator that saturates (and, or,
    a NaN) still leaves most bins depending on few updates."""
    return rng.random(n) < expected / max(n, 1)


def _indices(index: str, n: int, bins: int, rng: np.random.Generator) -> np.ndarray:
    """Mostly in [0, bins), some just outside on either side, some at the extremes of
    the index type (negative ones must not wrap into range)."""
    dtype = INDEX_DTYPES[index]
    margin = max(2, bins // 8)
    k = rng.integers(-margin, bins + margin, n).astype(dtype)
    info = np.iinfo(dtype)
    extremes = np.array([info.min, info.min + 1, -1, info.max, bins, bins + 1], dtype=dtype)
    where = rng.random(n) < 0.01
    k[where] = rng.choice(extremes, int(where.sum()))
    return k


def _same(gpu, cpu) -> None:
    gpu, cpu = np.asarray(gpu), np.asarray(cpu)
    assert gpu.dtype == cpu.dtype and gpu.shape == cpu.shape
    if gpu.dtype.kind == "f":
        # NaN where NaN; elsewhere equal, signs of zeros included
        np.testing.assert_array_equal(np.isnan(gpu), np.isnan(cpu))
        finite = ~np.isnan(cpu)
        np.testing.assert_array_equal(gpu[finite], cpu[finite])
        np.testing.assert_array_equal(np.signbit(gpu[finite]), np.signbit(cpu[finite]))
    else:
        np.testing.assert_array_equal(gpu, cpu)


# --- strategy choice and compilation (no GPU needed) ---------------------------------------


@pytest.mark.parametrize(
    "name,bins,kernel",
    [
        ("add_i32", 256, "shared_atomic"),
        ("add_i32", 8192, "shared_atomic"),  # 32 KiB: the whole budget
        ("add_i32", 8193, "global_atomic"),
        ("add_i64", 5000, "global_atomic"),  # 40 000 bytes
        ("add_f32_exact", "?", "global_atomic"),
        ("add_f64_exact", 256, "shared_atomic"),
        ("add_index", 256, "shared_atomic"),
        ("max_i32", 1, "shared_atomic"),
        ("minu_i64", "?", "global_atomic"),
        ("xor_i32", 5000, "shared_atomic"),
        ("mul_i32", 5000, "shared_cas"),
        ("mul_i64", 5000, "global_cas"),
        ("maximumf_f32", 256, "shared_cas"),
        ("minimumf_f64", "?", "global_cas"),
    ],
)
def test_strategy(name, bins, kernel):
    assert _kernel_names(hist_program(BY_NAME[name], bins)) == [f"hist0_{kernel}"]


def test_an_operator_with_its_operands_swapped_is_still_atomic():
    swapped = Operator("add_swapped", "i32", "%res = arith.addi %r, %l : i32", "0", "i32", "small")
    assert _kernel_names(hist_program(swapped, 256)) == ["hist0_shared_atomic"]


@pytest.mark.parametrize(
    "body",
    [
        "%res = arith.addi %l, %l : i32",  # not the operator on both parameters
        "%c = arith.constant 0 : i32\n    %s = arith.addi %l, %r : i32\n    %res = arith.maxsi %s, %c : i32",
    ],
)
def test_other_operators_take_the_compare_and_swap_loop(body):
    other = Operator("other", "i32", body, "0", "i32", "small")
    assert _kernel_names(hist_program(other, "?")) == ["hist0_global_cas"]


def test_captured_values_are_kernel_parameters():
    module = soacc.compile(CAPPED_SUM.replace("BINS", "256"), backend="numpy", pipeline=GPU).module
    (kernel,) = [f for f in module.walk() if isinstance(f, gpu.FuncOp)]
    assert kernel.sym_name.data == "hist0_shared_cas"
    assert [a.name_hint for a in kernel.body.block.args][:2] == ["cap", "z"]


@pytest.mark.parametrize(
    "source,message",
    [
        (
            """
func.func @main(%d: tensor<4x?xf32>, %is: tensor<?xi32>, %vs: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<4x?xf32> {
  %h = soac.hist %d[%is], %vs neutral(%z : tensor<?xf32>) : tensor<4x?xf32>, tensor<?xi32>, tensor<?x?xf32> {
  ^bb0(%l: tensor<?xf32>, %r: tensor<?xf32>):
    soac.yield %r : tensor<?xf32>
  }
  func.return %h : tensor<4x?xf32>
}
""",
            "mem.hist combines rows",
        ),
        (
            """
func.func @main(%d: tensor<?xi1>, %is: tensor<?xi32>, %vs: tensor<?xi1>) -> tensor<?xi1> {
  %f = arith.constant false
  %h = soac.hist %d[%is], %vs neutral(%f : i1) : tensor<?xi1>, tensor<?xi32>, tensor<?xi1> {
  ^bb0(%l: i1, %r: i1):
    %s = arith.ori %l, %r : i1
    soac.yield %s : i1
  }
  func.return %h : tensor<?xi1>
}
""",
            "mem.hist combines i1 values",
        ),
    ],
)
def test_what_needs_a_lock_per_bin_is_reported(source, message):
    with pytest.raises(soacc.ProgramError, match=f"{message}.*needs a lock per bin, which is not supported yet"):
        soacc.compile(source, backend="numpy", pipeline=GPU)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_every_kernel_compiles_with_nvcc(tmp_path):
    """Every operator with each placement (shared and global), in one nvcc run."""
    sources = [hist_program(op, bins) for op in OPERATORS for bins in (256, "?")]
    sources += [CAPPED_SUM.replace("BINS", "256")]
    units = []
    for i, source in enumerate(sources):
        out = io.StringIO()
        emit_cuda(soacc.compile(source, backend="numpy", pipeline=GPU).module, out)
        # one translation unit: kernel names made unique, the prelude kept once
        units.append(out.getvalue().replace("void hist0_", f"void hist{i}_"))
    prelude = units[0][: units[0].index('extern "C"')]
    path = tmp_path / "hist.cu"
    path.write_text(prelude + "".join(u.replace(prelude, "") for u in units))
    result = subprocess.run(
        ["nvcc", "--ptx", "-arch=sm_90", "-O3", "--fmad=false", str(path), "-o", str(tmp_path / "hist.ptx")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    ptx = (tmp_path / "hist.ptx").read_text()
    assert ptx.count(".entry hist") == len(sources)


# --- on the GPU, against the CPU reference executor ---------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("bins", BINS, ids=[str(b) for b in BINS])
@pytest.mark.parametrize("name", OPERATOR_IDS)
def test_gpu_gives_the_reference_results(name, bins, n):
    op = BY_NAME[name]
    count = _bin_count(bins)
    rng = np.random.default_rng([n, count, OPERATOR_IDS.index(name)])
    dest = _values(op, count, rng)  # contents of its own, combined with the updates
    indices = _indices(op.index, n, count, rng)
    values = _values(op, n, rng)
    gpu_program, cpu_program = _programs(hist_program(op, _static_key(bins)))
    expected = cpu_program.main(dest.copy(), indices, values)
    got = gpu_program.main(dest.copy(), indices, values)
    _same(got, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("bins", BINS, ids=[str(b) for b in BINS])
def test_f32_sums_of_any_floats_agree_within_rounding(bins, n):
    op = Operator("add_f32", "f32", _binary("arith.addf", "f32"), "0.0", "i64", "normal")
    count = _bin_count(bins)
    rng = np.random.default_rng([n, count])
    dest = rng.standard_normal(count).astype(np.float32)
    indices = _indices(op.index, n, count, rng)
    values = rng.standard_normal(n).astype(np.float32)
    gpu_program, cpu_program = _programs(hist_program(op, _static_key(bins)))
    got = gpu_program.main(dest.copy(), indices, values)
    expected = cpu_program.main(dest.copy(), indices, values)
    # per bin: the sums differ only by rounding, which is small against the sum of the
    # magnitudes added into the bin (a lost or doubled value is not, unless tiny)
    inside = (indices >= 0) & (indices < count)
    magnitude = np.abs(dest.astype(np.float64))
    np.add.at(magnitude, indices[inside], np.abs(values[inside].astype(np.float64)))
    bound = 1e-4 * magnitude + 1e-6
    assert np.all(np.abs(got.astype(np.float64) - expected.astype(np.float64)) <= bound)


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("bins", [1, 256, 5000])
def test_a_compare_and_swap_operator_using_a_captured_value(bins, n):
    rng = np.random.default_rng([n, bins, 7])
    cap = np.int32(50_000)
    dest = rng.integers(0, 1000, bins).astype(np.int32)
    indices = _indices("i32", n, bins, rng)
    values = rng.integers(0, 10, n).astype(np.int32)
    gpu_program, cpu_program = _programs(CAPPED_SUM.replace("BINS", str(bins)))
    _same(gpu_program.main(dest.copy(), indices, values, cap), cpu_program.main(dest.copy(), indices, values, cap))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["add_i32", "mul_i64", "maximumf_f32", "add_f32_exact"])
@pytest.mark.parametrize("bins", [256, "?256"])
def test_every_element_into_one_bin(name, bins):
    """The worst contention: 10^6 updates of bin 7 (shared and global placements)."""
    op = BY_NAME[name]
    rng = np.random.default_rng(11)
    dest = _values(op, 256, rng)
    n = 10**6
    indices = np.full(n, 7, dtype=INDEX_DTYPES[op.index])
    values = _values(op, n, rng)
    gpu_program, cpu_program = _programs(hist_program(op, _static_key(bins)))
    _same(gpu_program.main(dest.copy(), indices, values), cpu_program.main(dest.copy(), indices, values))


ROW_HIST = """
func.func @main(%d: tensor<?x?xOUT>, %is: tensor<?xi32>, %vs: tensor<?x?xOUT>, %z: tensor<?xOUT>) -> tensor<?x?xOUT> {
  %h = soac.hist %d[%is], %vs neutral(%z : tensor<?xOUT>) : tensor<?x?xOUT>, tensor<?xi32>, tensor<?x?xOUT> {
  ^bb0(%l: tensor<?xOUT>, %r: tensor<?xOUT>):
    %s = soac.map(%r, %l) : (tensor<?xOUT>, tensor<?xOUT>) -> tensor<?xOUT> {
    ^bb0(%a: OUT, %b: OUT):
      %c = arith.OP %a, %b : OUT
      soac.yield %c : OUT
    }
    soac.yield %s : tensor<?xOUT>
  }
  func.return %h : tensor<?x?xOUT>
}
"""
ROW_OPERATORS = {"addi_i32": ("addi", "i32", "rows_global_atomic"), "muli_i64": ("muli", "i64", "rows_global_cas"), "maximumf_f32": ("maximumf", "f32", "rows_global_cas")}


@pytest.mark.parametrize("name", list(ROW_OPERATORS))
def test_rows_combined_element_by_element_are_a_hist_of_elements(name):
    op, t, strategy = ROW_OPERATORS[name]
    source = ROW_HIST.replace("OUT", t).replace("OP", op)
    assert _kernel_names(source) == [f"hist0_{strategy}"]


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(0, 3), (5, 0), (1, 1), (1000, 3), (300, 70)])
@pytest.mark.parametrize("name", list(ROW_OPERATORS))
def test_rows_combined_element_by_element_give_the_reference_results(name, shape):
    op, t, _ = ROW_OPERATORS[name]
    source = ROW_HIST.replace("OUT", t).replace("OP", op)
    rng = np.random.default_rng(shape[0])
    dtype = np.dtype({"i32": np.int32, "i64": np.int64, "f32": np.float32}[t])
    bins = 7
    d = rng.integers(-3, 4, (bins, shape[1])).astype(dtype)
    vs = rng.integers(-3, 4, shape).astype(dtype)
    is_ = rng.integers(-2, bins + 2, shape[0]).astype(np.int32)
    identity = {"addi": 0, "muli": 1, "maximumf": -np.inf}[op]  # (the operator's neutral element)
    z = np.full(shape[1], identity, dtype)
    gpu = soacc.compile(source, backend="cuda").main(d, is_, vs, z)
    cpu = soacc.compile(source, backend="numpy").main(d, is_, vs, z)
    np.testing.assert_array_equal(gpu, cpu)
