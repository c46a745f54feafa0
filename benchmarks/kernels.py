"""Kernel performance on the GPU, side by side with the device's copy bandwidth and CuPy,
all measured in the same run (issue 4's table).

For each operation (the fused map-reduce, a soac.redomap, is compared with CuPy's plain
`sum`: the issue's target for it), at 2^28 f32 elements (a 16384 x 16384 matrix for row sums): the
device time of soacc's kernels for it (CUDA events around each launch: the backend's
profiling mode; host<->device copies of arguments and results are not kernels and are
not counted), the bytes the operation must move at least, the achieved GB/s, the ratio
to a device-to-device copy's bandwidth (read + write) and the ratio of CuPy's time for
the same work to soacc's (above 1: soacc is faster). Then the host time of one kernel
launch, soacc's against a CuPy elementwise kernel's.

    python benchmarks/kernels.py [--log2n 28] [--repeat 5]

Needs a GPU, PyCUDA and CuPy. Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

MAP_ADD = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    soac.yield %s : f32
  }
  func.return %c : tensor<?xf32>
}
"""

SUM = """
func.func @main(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    soac.yield %r : f32
  }
  func.return %s : f32
}
"""

SUM_SQUARES_PLUS_ONE = """
func.func @main(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    %z = arith.addf %y, %one : f32
    soac.yield %z : f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : f32
}
"""

MAX_BY_KEY = """
func.func @main(%k: tensor<?xf32>, %v: tensor<?xi32>) -> (f32, i32) {
  %ninf = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i32
  %bk, %bv = soac.reduce(%k, %v) neutral(%ninf, %none : f32, i32) commutative : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
  ^bb0(%k1: f32, %v1: i32, %k2: f32, %v2: i32):
    %gt = arith.cmpf ogt, %k1, %k2 : f32
    %eq = arith.cmpf oeq, %k1, %k2 : f32
    %lt = arith.cmpi slt, %v1, %v2 : i32
    %tie = arith.andi %eq, %lt : i1
    %first = arith.ori %gt, %tie : i1
    %km = arith.select %first, %k1, %k2 : f32
    %vm = arith.select %first, %v1, %v2 : i32
    soac.yield %km, %vm : f32, i32
  }
  func.return %bk, %bv : f32, i32
}
"""

SCAN = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %p = soac.scan(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    soac.yield %r : f32
  }
  func.return %p : tensor<?xf32>
}
"""

ROW_SUMS = """
func.func @main(%m: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %r = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %r : tensor<?xf32>
}
"""

# a map of maps: each element plus its neighbours below and to the right (clamped at the
# edges), as in srad's and canny's stencils; fuse-iota makes both maps read their row
# numbers, and convert-mem-to-gpu shares each row among a block of threads
STENCIL = """
func.func @main(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %cols = soac.size %m[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %ir = soac.iota %rows : tensor<?xindex>
  %ic = soac.iota %cols : tensor<?xindex>
  %r = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %ibot = arith.cmpi eq, %i, %rlast : index
    %ip1 = arith.addi %i, %c1 : index
    %iS = arith.select %ibot, %i, %ip1 : index
    %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%j: index):
      %jr = arith.cmpi eq, %j, %clast : index
      %jp1 = arith.addi %j, %c1 : index
      %jE = arith.select %jr, %j, %jp1 : index
      %x = soac.index %m[%i, %j] : tensor<?x?xf32>
      %xs = soac.index %m[%iS, %j] : tensor<?x?xf32>
      %xe = soac.index %m[%i, %jE] : tensor<?x?xf32>
      %t = arith.addf %x, %xs : f32
      %u = arith.addf %t, %xe : f32
      soac.yield %u : f32
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
"""

HIST = """
func.func @main(%is: tensor<?xi32>, %vs: tensor<?xi32>) -> tensor<256xi32> {
  %zero = arith.constant 0 : i32
  %c256 = arith.constant 256 : index
  %bins = soac.replicate %c256, %zero : i32 -> tensor<256xi32>
  %h = soac.hist %bins[%is], %vs neutral(%zero : i32) : tensor<256xi32>, tensor<?xi32>, tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    soac.yield %s : i32
  }
  func.return %h : tensor<256xi32>
}
"""

SCATTER = """
func.func @main(%dest: tensor<?xf32>, %is: tensor<?xi32>, %vs: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.scatter %dest[%is] = %vs : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}
"""


def _median_event_time(cp, fn, repeat: int) -> float:
    """Median device time of fn() in seconds (CUDA events around it)."""
    fn()
    times = []
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3)
    return statistics.median(times)


def _soacc_kernel_time(program, args, kernels_of_interest, repeat: int) -> float:
    """Median over `repeat` calls of the device time of the kernels whose names start
    with one of `kernels_of_interest` (all kernels when empty)."""
    program.main(*args)  # compile, warm the pool
    program.profiling = True
    times = []
    for _ in range(repeat):
        program.main(*args)
        per_kernel = program.statistics.kernel_time_s
        times.append(
            sum(t for name, t in per_kernel.items() if not kernels_of_interest or name.startswith(tuple(kernels_of_interest)))
        )
    program.profiling = False
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log2n", type=int, default=28)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args(argv)
    try:
        import cupy as cp
    except ImportError:
        print("benchmarks/kernels.py needs CuPy", file=sys.stderr)
        return 2
    import soacc
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"benchmarks/kernels.py needs a GPU: {why}", file=sys.stderr)
        return 2
    n = 1 << options.log2n
    side = 1 << (options.log2n // 2)
    rng = np.random.default_rng(0)
    f4 = 4
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    keys = rng.standard_normal(n, dtype=np.float32)
    vals = np.arange(n, dtype=np.int32)
    matrix = a[: side * side].reshape(side, side)
    bins = rng.integers(0, 256, n, dtype=np.int32)
    ones = np.ones(n, dtype=np.int32)
    perm = rng.permutation(n).astype(np.int32)
    dest = np.zeros(n, dtype=np.float32)

    da, db = cp.asarray(a), cp.asarray(b)
    dkeys, dvals, dm = cp.asarray(keys), cp.asarray(vals), cp.asarray(matrix)
    dbins, dperm, ddest = cp.asarray(bins), cp.asarray(perm), cp.asarray(dest)
    out = cp.empty_like(da)

    out2d = cp.empty_like(dm)
    # CuPy's best for the stencil: one hand-written elementwise kernel (its array
    # expressions would make a temporary per shifted operand)
    stencil = cp.ElementwiseKernel(
        "raw float32 m, int64 rows, int64 cols",
        "float32 out",
        """
        long long r = i / cols, c = i % cols;
        long long s = r + 1 < rows ? r + 1 : r, e = c + 1 < cols ? c + 1 : c;
        out = m[r * cols + c] + m[s * cols + c] + m[r * cols + e];
        """,
        "stencil",
    )

    copy_time = _median_event_time(cp, lambda: cp.copyto(out, da), options.repeat)
    copy_bw = 2 * f4 * n / copy_time
    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, n = 2^{options.log2n}")
    print(f"device-to-device copy: {copy_time * 1e3:.3f} ms, {copy_bw / 1e9:.0f} GB/s (read + write)\n")

    cases = [
        # name, program, args, soacc kernels timed, bytes moved, CuPy doing the same
        ("map c = a + b", MAP_ADD, (a, b), ["map"], 3 * f4 * n, lambda: cp.add(da, db, out=out)),
        ("sum reduce", SUM, (a,), ["reduce"], f4 * n, lambda: da.sum()),
        # the fused map-reduce against CuPy's plain sum (issue 4's target for it)
        ("fused sum(x*x+1)", SUM_SQUARES_PLUS_ONE, (a,), ["redomap"], f4 * n, lambda: da.sum()),
        ("max-by-key reduce", MAX_BY_KEY, (keys, vals), ["reduce"], 2 * f4 * n, lambda: dvals[dkeys.argmax()]),
        ("scan (+)", SCAN, (a,), ["scan"], 2 * f4 * n, lambda: cp.cumsum(da)),
        (f"row sums {side}x{side}", ROW_SUMS, (matrix,), ["map"], f4 * side * side, lambda: dm.sum(axis=1)),
        (f"stencil {side}x{side}", STENCIL, (matrix,), ["map"], 2 * f4 * side * side, lambda: stencil(dm, side, side, out2d)),
        ("hist (256 bins)", HIST, (bins, ones), ["hist"], 2 * f4 * n, lambda: cp.bincount(dbins, minlength=256)),
        ("scatter (permutation)", SCATTER, (dest, perm, a), ["scatter"], 3 * f4 * n, lambda: ddest.__setitem__(dperm, da)),
    ]
    header = f"{'operation':24} {'soacc ms':>9} {'GB/s':>7} {'/copy':>6} {'CuPy ms':>9} {'CuPy/soacc':>10}"
    print(header)
    print("-" * len(header))
    for name, source, args, kernels, nbytes, cupy_fn in cases:
        try:
            program = soacc.compile(source, backend="cuda")
            ours = _soacc_kernel_time(program, args, kernels, options.repeat)
        except soacc.SoaccError as error:
            print(f"{name:24} failed: {error}")
            continue
        theirs = _median_event_time(cp, cupy_fn, options.repeat)
        print(f"{name:24} {ours * 1e3:9.3f} {nbytes / ours / 1e9:7.0f} {nbytes / ours / copy_bw:6.2f} {theirs * 1e3:9.3f} {theirs / ours:10.2f}")
        del program

    print()
    _launch_overhead(cp, soacc)
    return 0


def _launch_overhead(cp, soacc) -> None:
    """Host time per launch of a tiny kernel: soacc's prepared launch through the cuda
    backend's launcher, and a CuPy elementwise kernel (both asynchronous, no sync)."""
    from soacc.runtime.gpu.device import get_device
    from soacc.runtime.gpu.kernels import Kernel, LaunchCounters
    from soacc.runtime.gpu.module_cache import ModuleCache

    source = 'extern "C" __global__ void tiny(float* x, long long n) { long long i = blockIdx.x * 256 + threadIdx.x; if (i < n) x[i] += 1.0f; }'
    device = get_device()
    module = ModuleCache(device.arch).load(source, "launch overhead")
    kernel = Kernel(module, "tiny", "Pq", LaunchCounters(), "launch overhead")
    x = cp.zeros(256, dtype=cp.float32)
    add_one = cp.ElementwiseKernel("", "float32 x", "x += 1.0f", "add_one")
    reps = 20000

    def per_launch(fn) -> float:
        for _ in range(1000):
            fn()
        cp.cuda.Device().synchronize()
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        elapsed = time.perf_counter() - start
        cp.cuda.Device().synchronize()
        return elapsed / reps

    ours = per_launch(lambda: kernel((1, 1), (256, 1, 1), x.data.ptr, np.int64(256)))
    theirs = per_launch(lambda: add_one(x))
    print(f"host time per launch: soacc {ours * 1e6:.1f} us, CuPy elementwise {theirs * 1e6:.1f} us (CuPy/soacc {theirs / ours:.2f})")


if __name__ == "__main__":
    sys.exit(main())
