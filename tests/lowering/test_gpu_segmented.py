"""Segmented reductions and scans (a map whose lambda reduces its row, or scans it into
its output row) on the GPU against the CPU reference executor, on every strategy: a
thread per row for rows shorter than WARP_PER_ROW_FROM, a warp per row up to
BLOCK_PER_ROW_FROM, a block per row from there on. Marker gpu."""

from __future__ import annotations

import numpy as np
import pytest

import soacc
from soacc.lowering import gpu_segmented
from soacc.lowering.gpu_segmented import BLOCK_PER_ROW_FROM, WARP_PER_ROW_FROM

GPU = "convert-soac-to-mem,convert-mem-to-gpu"
CPU = "convert-soac-to-mem"

SHAPES = [
    (0, 5), (3, 0), (1, 1),
    (7, WARP_PER_ROW_FROM - 1), (7, WARP_PER_ROW_FROM), (9, 33), (1000, 70),
    (5, BLOCK_PER_ROW_FROM - 1), (5, BLOCK_PER_ROW_FROM), (300, 1000), (3, 100_003), (70_000, 130),
]

ROW_SUMS_SCALED = """
func.func @main(%m: tensor<?x?xi64>, %s: i64) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?xi64> {
  ^bb0(%row: tensor<?xi64>):
    %t = soac.reduce(%row) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      soac.yield %c : i64
    }
    %u = arith.muli %t, %s : i64
    soac.yield %u : i64
  }
  func.return %r : tensor<?xi64>
}
"""

# the composition of affine maps x -> a*x + b per row: ordered, tuple-valued
ROW_AFFINE = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ra, %rb = soac.map(%a, %b) : (tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%ar: tensor<?xi32>, %br: tensor<?xi32>):
    %p, %q = soac.reduce(%ar, %br) neutral(%one, %zero : i32, i32) : (tensor<?xi32>, tensor<?xi32>) -> (i32, i32) {
    ^bb0(%x1: i32, %y1: i32, %x2: i32, %y2: i32):
      %m = arith.muli %x1, %x2 : i32
      %n = arith.muli %y1, %x2 : i32
      %o = arith.addi %n, %y2 : i32
      soac.yield %m, %o : i32, i32
    }
    soac.yield %p, %q : i32, i32
  }
  func.return %ra, %rb : tensor<?xi32>, tensor<?xi32>
}
"""


def _both(source, *args):
    gpu = soacc.compile(source, backend="numpy", pipeline=GPU).main(*args)
    cpu = soacc.compile(source, backend="numpy", pipeline=CPU).main(*args)
    return gpu, cpu


ROW_SCANS = """
func.func @main(%m: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %zero = arith.constant 0 : i64
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?xi64>):
    %s = soac.scan(%row) neutral(%zero : i64) commutative : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      soac.yield %c : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
"""

# per row, the running composition of affine maps: an ordered tuple-valued scan
ROW_AFFINE_SCANS = """
func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xf64>) -> (tensor<?x?xi32>, tensor<?x?xf64>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %ra, %rb = soac.map(%a, %b) : (tensor<?x?xi32>, tensor<?x?xf64>) -> (tensor<?x?xi32>, tensor<?x?xf64>) {
  ^bb0(%ar: tensor<?xi32>, %br: tensor<?xf64>):
    %p, %q = soac.scan(%ar, %br) neutral(%one, %zero : i32, f64) : (tensor<?xi32>, tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
    ^bb0(%x1: i32, %y1: f64, %x2: i32, %y2: f64):
      %m = arith.muli %x1, %x2 : i32
      %f = arith.sitofp %x2 : i32 to f64
      %n = arith.mulf %y1, %f : f64
      %o = arith.addf %n, %y2 : f64
      soac.yield %m, %o : i32, f64
    }
    soac.yield %p, %q : tensor<?xi32>, tensor<?xf64>
  }
  func.return %ra, %rb : tensor<?x?xi32>, tensor<?x?xf64>
}
"""


@pytest.mark.parametrize("source", [ROW_SUMS_SCALED, ROW_AFFINE, ROW_SCANS, ROW_AFFINE_SCANS])
def test_the_map_gets_every_strategy(source):
    program = soacc.compile(source, backend="numpy", pipeline=GPU)
    names = [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"]
    assert names == ["map0", "map0_block_per_row", "map0_warp_per_row"]


def test_a_scan_that_is_not_the_whole_lambda_keeps_a_thread_per_row():
    source = ROW_SCANS.replace("soac.yield %s : tensor<?xi64>", "%t = soac.copy %s : tensor<?xi64>\n    soac.yield %t : tensor<?xi64>")
    program = soacc.compile(source, backend="numpy", pipeline=GPU)
    assert [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func"] == ["map0"]


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_sums_scaled(shape):
    m = np.random.default_rng(shape[1]).integers(-(1 << 40), 1 << 40, shape).astype(np.int64)
    gpu, cpu = _both(ROW_SUMS_SCALED, m, np.int64(3))
    np.testing.assert_array_equal(gpu, cpu)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_affine_compositions_keep_their_order(shape):
    rng = np.random.default_rng(shape[0])
    a = rng.integers(-3, 4, shape).astype(np.int32)
    b = rng.integers(-100, 100, shape).astype(np.int32)
    gpu, cpu = _both(ROW_AFFINE, a, b)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_scans(shape):
    m = np.random.default_rng(shape[1]).integers(-(1 << 40), 1 << 40, shape).astype(np.int64)
    gpu, cpu = _both(ROW_SCANS, m)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, np.cumsum(m, axis=1))


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_row_affine_scans_keep_their_order(shape):
    rng = np.random.default_rng(shape[0] + 1)
    a = rng.choice(np.array([1, 1, 1, -1, 0], np.int32), shape)
    b = rng.integers(-8, 9, shape).astype(np.float64)  # sums of small integers: exact
    gpu, cpu = _both(ROW_AFFINE_SCANS, a, b)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


# --- maps of maps -----------------------------------------------------------------------------

# a stencil: each element from its neighbours in a captured matrix (clamped at the
# edges), after scalar code per row; one nested map writes both output rows
ROW_STENCIL = """
func.func @main(%m: tensor<?x?xf32>, %w: f32) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %cols = soac.size %m[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %ir = soac.iota %rows : tensor<?xindex>
  %ic = soac.iota %cols : tensor<?xindex>
  %d, %s = soac.map(%ir) : (tensor<?xindex>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  ^bb0(%i: index):
    %ibot = arith.cmpi eq, %i, %rlast : index
    %ip1 = arith.addi %i, %c1 : index
    %iS = arith.select %ibot, %i, %ip1 : index
    %rd, %rs = soac.map(%ic) : (tensor<?xindex>) -> (tensor<?xf32>, tensor<?xf32>) {
    ^bb1(%j: index):
      %jr = arith.cmpi eq, %j, %clast : index
      %jp1 = arith.addi %j, %c1 : index
      %jE = arith.select %jr, %j, %jp1 : index
      %x = soac.index %m[%i, %j] : tensor<?x?xf32>
      %xs = soac.index %m[%iS, %j] : tensor<?x?xf32>
      %xe = soac.index %m[%i, %jE] : tensor<?x?xf32>
      %a = arith.subf %xs, %x : f32
      %b = arith.subf %xe, %x : f32
      %c = arith.mulf %b, %w : f32
      %t = arith.addf %a, %c : f32
      soac.yield %t, %a : f32, f32
    }
    soac.yield %rd, %rs : tensor<?xf32>, tensor<?xf32>
  }
  func.return %d, %s : tensor<?x?xf32>, tensor<?x?xf32>
}
"""


def row_stencil(m, w):
    south = np.concatenate([m[1:], m[-1:]], axis=0)
    east = np.concatenate([m[:, 1:], m[:, -1:]], axis=1)
    a = south - m
    return a + (east - m) * w, a


# each row scaled by the square of its own factor, and shifted, by two nested maps
ROW_SCALE_AND_SHIFT = """
func.func @main(%m: tensor<?x?xi64>, %f: tensor<?xi64>) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  %one = arith.constant 1 : i64
  %p, %q = soac.map(%m, %f) : (tensor<?x?xi64>, tensor<?xi64>) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  ^bb0(%row: tensor<?xi64>, %k: i64):
    %kk = arith.muli %k, %k : i64
    %scaled = soac.map(%row) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64):
      %y = arith.muli %x, %kk : i64
      soac.yield %y : i64
    }
    %shifted = soac.map(%row) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64):
      %y = arith.addi %x, %one : i64
      soac.yield %y : i64
    }
    soac.yield %scaled, %shifted : tensor<?xi64>, tensor<?xi64>
  }
  func.return %p, %q : tensor<?x?xi64>, tensor<?x?xi64>
}
"""

FUSE_IOTA = "convert-soac-to-mem,fuse-iota,convert-mem-to-gpu"


def _kernel_names(source: str, pipeline: str = GPU) -> list[str]:
    program = soacc.compile(source, backend="numpy", pipeline=pipeline)
    return [op.sym_name.data for op in program.module.walk() if op.name == "gpu.func" and "map" in op.sym_name.data]


@pytest.mark.parametrize("source, name", [(ROW_STENCIL, "map2"), (ROW_SCALE_AND_SHIFT, "map0")])
def test_a_map_of_maps_gets_every_strategy(source, name):
    # (the stencil's two iotas are kernels 0 and 1)
    assert _kernel_names(source) == [name, f"{name}_block_per_row", f"{name}_warp_per_row"]


def test_an_indexed_map_of_indexed_maps_gets_every_strategy():
    # fuse-iota makes both maps read their row numbers instead of the iotas
    assert _kernel_names(ROW_STENCIL, FUSE_IOTA) == ["map0", "map0_block_per_row", "map0_warp_per_row"]


def test_a_nested_map_that_reads_another_ones_output_keeps_a_thread_per_row():
    # the second map reads the row the first writes: its group's threads would need a
    # barrier between them, so the map keeps a thread per row
    source = ROW_SCALE_AND_SHIFT.replace("%shifted = soac.map(%row)", "%shifted = soac.map(%scaled)")
    assert _kernel_names(source) == ["map0"]


def test_a_nested_map_whose_row_is_used_after_it_keeps_a_thread_per_row():
    source = ROW_SCALE_AND_SHIFT.replace(
        "soac.yield %scaled, %shifted : tensor<?xi64>, tensor<?xi64>",
        "%again = soac.copy %scaled : tensor<?xi64>\n    soac.yield %again, %shifted : tensor<?xi64>, tensor<?xi64>",
    )
    assert _kernel_names(source) == ["map0"]


@pytest.mark.gpu
@pytest.mark.parametrize("pipeline", [GPU, FUSE_IOTA])
@pytest.mark.parametrize("shape", SHAPES)
def test_row_stencils(shape, pipeline):
    m = np.random.default_rng(shape[1]).uniform(-1.0, 1.0, shape).astype(np.float32)
    gpu = soacc.compile(ROW_STENCIL, backend="numpy", pipeline=pipeline).main(m, np.float32(0.5))
    cpu = soacc.compile(ROW_STENCIL, backend="numpy", pipeline=CPU).main(m, np.float32(0.5))
    for got, expected, exact in zip(gpu, cpu, row_stencil(m, np.float32(0.5))):
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_allclose(got, exact, rtol=1e-6, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
def test_rows_scaled_and_shifted(shape):
    rng = np.random.default_rng(shape[0] + 2)
    m = rng.integers(-(1 << 20), 1 << 20, shape).astype(np.int64)
    f = rng.integers(-50, 50, shape[0]).astype(np.int64)
    gpu, cpu = _both(ROW_SCALE_AND_SHIFT, m, f)
    np.testing.assert_array_equal(gpu[0], m * (f * f)[:, None])
    np.testing.assert_array_equal(gpu[1], m + 1)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


# Gauss-Jordan's elimination step: the pivot row k as it is, every other row reduced by
# it; short-circuit makes the `if` build each row in place (a copy, or a nested map)
PIVOT_STEP = """
func.func @main(%m: tensor<?x?xf32>, %p: tensor<?xf32>, %k: index) -> tensor<?x?xf32> {
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %ir = soac.iota %rows : tensor<?xindex>
  %r = soac.map(%m, %ir) : (tensor<?x?xf32>, tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>, %i: index):
    %isk = arith.cmpi eq, %i, %k : index
    %new = scf.if %isk -> (tensor<?xf32>) {
      scf.yield %p : tensor<?xf32>
    } else {
      %f = soac.index %row[%k] : tensor<?xf32>
      %red = soac.map(%row, %p) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32, %y: f32):
        %fy = arith.mulf %f, %y : f32
        %d = arith.subf %x, %fy : f32
        soac.yield %d : f32
      }
      scf.yield %red : tensor<?xf32>
    }
    soac.yield %new : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
"""

SHORT_CIRCUIT = "convert-soac-to-mem,hoist-allocations,short-circuit,convert-mem-to-gpu"


def test_a_map_of_ifs_of_copies_and_maps_gets_every_strategy():
    assert _kernel_names(PIVOT_STEP, SHORT_CIRCUIT) == ["map1", "map1_block_per_row", "map1_warp_per_row"]
    # without short-circuit the lambda builds a row in scratch memory and copies it:
    # a thread per row
    assert _kernel_names(PIVOT_STEP) == ["map1"]


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [s for s in SHAPES if s[1] > 0])
def test_pivot_steps(shape):
    rng = np.random.default_rng(shape[0] + 3)
    m = rng.integers(-8, 9, shape).astype(np.float32)  # small integers: exact
    k = min(shape) // 2  # a row, and a column every row has
    p = rng.integers(-8, 9, shape[1]).astype(np.float32)
    got = soacc.compile(PIVOT_STEP, backend="numpy", pipeline=SHORT_CIRCUIT).main(m, p, np.int64(k))
    expected = m - m[:, [k]] * p
    if shape[0]:
        expected[k] = p
    np.testing.assert_array_equal(got, expected)


# each row minus its first element: memory-reuse builds the result in the argument's
# memory (each lane reads its row before writing it), and the lambda reads the row's
# first element before the nested map overwrites it: the group waits after that read
ROW_MINUS_FIRST = """
func.func @main(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %first = soac.index %row[%c0] : tensor<?xf32>
    %d = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.subf %x, %first : f32
      soac.yield %y : f32
    }
    soac.yield %d : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
"""

IN_PLACE = "convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse,convert-mem-to-gpu"


def test_an_in_place_map_of_maps_waits_after_the_reads_its_writes_overwrite():
    program = soacc.compile(ROW_MINUS_FIRST, backend="numpy", pipeline=IN_PLACE)
    kernels = {op.sym_name.data: op for op in program.module.walk() if op.name == "gpu.func"}
    assert sorted(kernels) == ["map0", "map0_block_per_row", "map0_warp_per_row"]
    names = lambda k: [op.name for op in kernels[k].walk()]  # noqa: E731
    assert "gpu.barrier" in names("map0_block_per_row")
    assert "soacc_gpu.sync_warp" in names("map0_warp_per_row")
    # the read before the barrier is volatile (the views are __restrict__ in CUDA C)
    assert "soacc_gpu.load_volatile" in names("map0_block_per_row")
    assert "gpu.barrier" not in names("map0") and "soacc_gpu.sync_warp" not in names("map0")
    # the result is in the argument's block: one device allocation for both
    level2 = soacc.compile(ROW_MINUS_FIRST, backend="numpy", pipeline=IN_PLACE.rsplit(",", 1)[0])
    device_allocs = [op for op in level2.module.walk() if op.name == "mem.alloc" and "device" in str(op.results[0].type)]
    assert len(device_allocs) == 1


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [s for s in SHAPES if s[1] > 0])
def test_rows_minus_their_first_element_in_place(shape):
    # several calls: when the first element was read with a plain load, one warp of
    # one row in ~70,000 saw the element already overwritten, in about half the calls
    m = np.random.default_rng(shape[1] + 5).integers(-100, 100, shape).astype(np.float32)
    program = soacc.compile(ROW_MINUS_FIRST, backend="numpy", pipeline=IN_PLACE)
    for _ in range(5):
        np.testing.assert_array_equal(program.main(m), m - m[:, :1])


# --- maps whose lambda folds captured arrays and writes its rows ----------------------------

# each body's pull from every body (nbody's shape, in exact integers): a reduction over
# the captured positions and masses, its sums built into an array literal of the
# lambda's own, which a nested map adds to the body's velocity row
PULLS = """
func.func @main(%pos: tensor<?x2xi64>, %vel: tensor<?x2xi64>, %mass: tensor<?xi64>) -> tensor<?x2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %r = soac.map(%pos, %vel) : (tensor<?x2xi64>, tensor<?x2xi64>) -> tensor<?x2xi64> {
  ^bb0(%pi: tensor<2xi64>, %vi: tensor<2xi64>):
    %xi = soac.index %pi[%c0] : tensor<2xi64>
    %yi = soac.index %pi[%c1] : tensor<2xi64>
    %fx, %fy = soac.map(%pos, %mass) : (tensor<?x2xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
    ^bb1(%pj: tensor<2xi64>, %mj: i64):
      %xj = soac.index %pj[%c0] : tensor<2xi64>
      %yj = soac.index %pj[%c1] : tensor<2xi64>
      %dx = arith.subi %xj, %xi : i64
      %dy = arith.subi %yj, %yi : i64
      %gx = arith.muli %dx, %mj : i64
      %gy = arith.muli %dy, %mj : i64
      soac.yield %gx, %gy : i64, i64
    }
    %sx, %sy = soac.reduce(%fx, %fy) neutral(%zero, %zero : i64, i64) commutative
        : (tensor<?xi64>, tensor<?xi64>) -> (i64, i64) {
    ^bb1(%a1: i64, %b1: i64, %a2: i64, %b2: i64):
      %a = arith.addi %a1, %a2 : i64
      %b = arith.addi %b1, %b2 : i64
      soac.yield %a, %b : i64, i64
    }
    %pull = soac.array [%sx, %sy] : tensor<2xi64>
    %nv = soac.map(%vi, %pull) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64> {
    ^bb1(%v: i64, %q: i64):
      %e = arith.addi %v, %q : i64
      soac.yield %e : i64
    }
    soac.yield %nv : tensor<2xi64>
  }
  func.return %r : tensor<?x2xi64>
}
"""


# a nested map over rows (of a captured matrix, or of the outer map's row) whose lambda
# reduces each: the group's threads take an output element each and fold its row alone
MATMUL_BT = """
func.func @main(%a: tensor<?x?xf32>, %bt: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%bt) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%bcol: tensor<?xf32>):
      %p = soac.map(%arow, %bcol) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32, %y: f32):
        %m = arith.mulf %x, %y : f32
        soac.yield %m : f32
      }
      %d = soac.reduce(%p) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb3(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}
"""

PLANE_ROW_MAXIMA = """
func.func @main(%v: tensor<?x?x?xi32>, %s: tensor<?xi32>) -> tensor<?x?xi32> {
  %low = arith.constant -2147483648 : i32
  %r = soac.map(%v, %s) : (tensor<?x?x?xi32>, tensor<?xi32>) -> tensor<?x?xi32> {
  ^bb0(%plane: tensor<?x?xi32>, %k: i32):
    %m = soac.map(%plane) : (tensor<?x?xi32>) -> tensor<?xi32> {
    ^bb1(%row: tensor<?xi32>):
      %x = soac.reduce(%row) neutral(%low : i32) commutative : (tensor<?xi32>) -> i32 {
      ^bb2(%l: i32, %q: i32):
        %g = arith.maxsi %l, %q : i32
        soac.yield %g : i32
      }
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    soac.yield %m : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
"""


@pytest.mark.parametrize("source", [MATMUL_BT, PLANE_ROW_MAXIMA])
def test_a_map_of_maps_over_rows_gets_every_strategy(source):
    assert _kernel_names(source) == ["map0", "map0_block_per_row", "map0_warp_per_row"]


@pytest.mark.gpu
@pytest.mark.parametrize("n, k, m", [(0, 3, 4), (3, 0, 4), (2, 5, 0), (1, 1, 1), (7, 9, 31), (33, 17, 32), (5, 64, 127), (9, 40, 128), (130, 300, 257), (2, 3, 5000)])
def test_matrix_products(n, k, m):
    rng = np.random.default_rng(n * 1000 + m)
    a = rng.integers(-8, 9, (n, k)).astype(np.float32)  # sums of small integers: exact
    bt = rng.integers(-8, 9, (m, k)).astype(np.float32)
    gpu, cpu = _both(MATMUL_BT, a, bt)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu, a @ bt.T)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(0, 2, 3), (2, 0, 3), (2, 3, 0), (3, 31, 5), (4, 32, 40), (2, 128, 3), (3, 300, 70), (70_000, 2, 2)])
def test_plane_row_maxima(shape):
    rng = np.random.default_rng(shape[1])
    v = rng.integers(-1000, 1000, shape).astype(np.int32)
    s = rng.integers(-5, 5, shape[0]).astype(np.int32)
    gpu, cpu = _both(PLANE_ROW_MAXIMA, v, s)
    np.testing.assert_array_equal(gpu, cpu)
    if shape[2]:
        np.testing.assert_array_equal(gpu, v.max(axis=2) + s[:, None])


FUSED = "soac-fusion,convert-soac-to-mem,convert-mem-to-gpu"


def pulls(pos, vel, mass):
    return vel + ((pos[None, :, :] - pos[:, None, :]) * mass[None, :, None]).sum(axis=1)


def test_a_map_that_folds_captured_arrays_into_an_array_of_its_own_gets_every_strategy():
    assert _kernel_names(PULLS, FUSED) == ["map0", "map0_block_per_row", "map0_warp_per_row"]


def test_a_lambda_whose_own_arrays_are_not_small_keeps_a_thread_per_row(monkeypatch):
    # every thread of a group would build the array: only small ones are shared so
    monkeypatch.setattr(gpu_segmented, "LOCAL_ARRAY_BYTES", 8)
    assert _kernel_names(PULLS, FUSED) == ["map0"]


def test_the_group_is_chosen_by_the_longest_of_the_rows_and_the_folded_arrays():
    program = soacc.compile(PULLS, backend="numpy", pipeline=FUSED)
    (choice,) = [
        op for op in program.module.walk()
        if op.name == "arith.cmpi" and op.rhs.owner.name == "mem.threshold" and op.rhs.owner.default.value.data == BLOCK_PER_ROW_FROM
    ]
    longest = choice.lhs.owner
    assert longest.name == "arith.maxui"  # of the rows written (2) and the bodies folded (n)
    lengths = {o.owner.name for o in longest.operands}
    assert lengths == {"arith.constant", "mem.size"}


def test_the_pulls_program_means_what_its_definition_says():
    rng = np.random.default_rng(5)
    pos, vel = rng.integers(-1000, 1000, (2, 40, 2)).astype(np.int64)
    mass = rng.integers(1, 100, 40).astype(np.int64)
    got = soacc.compile(PULLS, backend="numpy", pipeline="soac-fusion,convert-soac-to-mem").main(pos, vel, mass)
    np.testing.assert_array_equal(got, pulls(pos, vel, mass))


@pytest.mark.gpu
@pytest.mark.parametrize("bodies", [0, 1, 5, WARP_PER_ROW_FROM, 70, BLOCK_PER_ROW_FROM, 1000, 3000])
def test_pulls(bodies):
    rng = np.random.default_rng(bodies)
    pos = rng.integers(-1000, 1000, (bodies, 2)).astype(np.int64)
    vel = rng.integers(-1000, 1000, (bodies, 2)).astype(np.int64)
    mass = rng.integers(1, 100, bodies).astype(np.int64)
    got = soacc.compile(PULLS, backend="numpy", pipeline=FUSED).main(pos, vel, mass)
    np.testing.assert_array_equal(got, pulls(pos, vel, mass))


SEGMENTED_HIST = """
func.func @main(%xss: tensor<?x?xi32>, %vss: tensor<?x?xi32>) -> tensor<?x8xi32> {
  %zero = arith.constant 0 : i32
  %c8 = arith.constant 8 : index
  %hs = soac.map(%xss, %vss) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x8xi32> {
  ^bb0(%row: tensor<?xi32>, %vals: tensor<?xi32>):
    %bins = soac.replicate %c8, %zero : i32 -> tensor<8xi32>
    %h = soac.hist %bins[%row], %vals neutral(%zero : i32) : tensor<8xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %b: i32):
      %m = arith.maxsi %a, %b : i32
      soac.yield %m : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(0, 5), (3, 0), (1, 1), (9, 33), (1000, 70), (3, 100_003)])
def test_segmented_histograms(shape):
    """A map of hists: each row's hist in a thread, bins out of range (negative ones
    too) skipped, as on the CPU."""
    rng = np.random.default_rng(shape[1])
    bins = rng.integers(-2, 10, shape).astype(np.int32)
    values = rng.integers(-50, 50, shape).astype(np.int32)
    gpu, cpu = _both(SEGMENTED_HIST, bins, values)
    np.testing.assert_array_equal(gpu, cpu)
