"""The CPU reference executor against hand-written NumPy, on large inputs.

    python benchmarks/reference_executor.py [--size N] [--repeat R]

Each case is a soac program (an MLIR string compiled with soacc.compile) and the
NumPy a programmer would write by hand for the same computation. Both run on the same
inputs; the table gives the best of R timed runs of each (after one untimed run whose
results are compared), their ratio, and whether the results agree. The target is an
executor within 3x of the equivalent hand-written NumPy. Rows marked `info` are not
held to the target: they compare a general operator with NumPy's specialised routine.

Not a test: timings are never asserted. Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import soacc

TARGET = 3.0

# --------------------------------------------------------------------------------------
# The programs
# --------------------------------------------------------------------------------------

MAP = """
// c = a * b + a, elementwise (f32)
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %x : f32
    soac.yield %s : f32
  }
  func.return %c : tensor<?xf32>
}
"""

MATMUL_REDUCE = """
// The product M0 M1 ... Mn-1 of 2x2 matrices Mi = [p q; r s], stored as four arrays:
// a reduce of 4-tuples with the (associative, non-commutative) 2x2 matrix product,
// which composes the steps of a second-order linear recurrence. No ufunc does this.
func.func @main(%p: tensor<?xf64>, %q: tensor<?xf64>, %r: tensor<?xf64>, %s: tensor<?xf64>)
    -> (f64, f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %mp, %mq, %mr, %ms = soac.reduce(%p, %q, %r, %s)
      neutral(%one, %zero, %zero, %one : f64, f64, f64, f64)
      : (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) -> (f64, f64, f64, f64) {
  ^bb0(%p1: f64, %q1: f64, %r1: f64, %s1: f64, %p2: f64, %q2: f64, %r2: f64, %s2: f64):
    %a0 = arith.mulf %p1, %p2 : f64
    %a1 = arith.mulf %q1, %r2 : f64
    %np = arith.addf %a0, %a1 : f64
    %b0 = arith.mulf %p1, %q2 : f64
    %b1 = arith.mulf %q1, %s2 : f64
    %nq = arith.addf %b0, %b1 : f64
    %c0 = arith.mulf %r1, %p2 : f64
    %c1 = arith.mulf %s1, %r2 : f64
    %nr = arith.addf %c0, %c1 : f64
    %d0 = arith.mulf %r1, %q2 : f64
    %d1 = arith.mulf %s1, %s2 : f64
    %ns = arith.addf %d0, %d1 : f64
    soac.yield %np, %nq, %nr, %ns : f64, f64, f64, f64
  }
  func.return %mp, %mq, %mr, %ms : f64, f64, f64, f64
}
"""

ARGMAX_REDUCE = """
// argmax as a reduce of (value, index) pairs: the larger value wins, the left one on
// a tie (the first maximum, as np.argmax).
func.func @main(%v: tensor<?xf32>) -> (f32, i64) {
  %n = soac.size %v[0] : tensor<?xf32>
  %is = soac.iota %n : tensor<?xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i64
  %best, %at = soac.reduce(%v, %is) neutral(%ninf, %none : f32, i64)
      : (tensor<?xf32>, tensor<?xi64>) -> (f32, i64) {
  ^bb0(%v1: f32, %i1: i64, %v2: f32, %i2: i64):
    %right = arith.cmpf ogt, %v2, %v1 : f32
    %bv = arith.select %right, %v2, %v1 : f32
    %bi = arith.select %right, %i2, %i1 : i64
    soac.yield %bv, %bi : f32, i64
  }
  func.return %best, %at : f32, i64
}
"""

SCAN_ADD = """
// inclusive prefix sums (f32)
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %s = soac.scan(%a) neutral(%zero : f32) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : tensor<?xf32>
}
"""

AFFINE_SCAN = """
// x[i] = a[i] * x[i-1] + b[i], x[-1] = 0: a scan of the composition of affine maps
// (a 2-tuple, non-commutative operator), as in examples/linear_recurrence.mlir.
func.func @main(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %pa, %pb = soac.scan(%a, %b) neutral(%one, %zero : f64, f64)
      : (tensor<?xf64>, tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  ^bb0(%a1: f64, %b1: f64, %a2: f64, %b2: f64):
    %ca = arith.mulf %a1, %a2 : f64
    %t = arith.mulf %b1, %a2 : f64
    %cb = arith.addf %t, %b2 : f64
    soac.yield %ca, %cb : f64, f64
  }
  func.return %pb : tensor<?xf64>
}
"""

# --------------------------------------------------------------------------------------
# The hand-written NumPy
# --------------------------------------------------------------------------------------


def numpy_map(a, b):
    return a * b + a


def numpy_matmul_reduce(p, q, r, s):
    """The pairwise tree a NumPy programmer writes for an operator with no ufunc: each
    round multiplies matrices 0 and 1, 2 and 3, ... with slices; an odd last one waits."""
    while p.size > 1:
        n = p.size
        h = n // 2
        p1, q1, r1, s1 = p[0 : 2 * h : 2], q[0 : 2 * h : 2], r[0 : 2 * h : 2], s[0 : 2 * h : 2]
        p2, q2, r2, s2 = p[1 : 2 * h : 2], q[1 : 2 * h : 2], r[1 : 2 * h : 2], s[1 : 2 * h : 2]
        np_, nq = p1 * p2 + q1 * r2, p1 * q2 + q1 * s2
        nr, ns = r1 * p2 + s1 * r2, r1 * q2 + s1 * s2
        if n % 2:
            np_, nq = np.concatenate([np_, p[-1:]]), np.concatenate([nq, q[-1:]])
            nr, ns = np.concatenate([nr, r[-1:]]), np.concatenate([ns, s[-1:]])
        p, q, r, s = np_, nq, nr, ns
    if p.size == 0:
        return np.float64(1), np.float64(0), np.float64(0), np.float64(1)
    return p[0], q[0], r[0], s[0]


def numpy_argmax(v):
    i = np.argmax(v)
    return v[i], np.int64(i)


def numpy_argmax_tree(v):
    """The same (value, index) operator by hand: a pairwise tree of slices."""
    i = np.arange(v.size, dtype=np.int64)
    while v.size > 1:
        n = v.size
        h = n // 2
        v1, i1, v2, i2 = v[0 : 2 * h : 2], i[0 : 2 * h : 2], v[1 : 2 * h : 2], i[1 : 2 * h : 2]
        right = v2 > v1
        nv, ni = np.where(right, v2, v1), np.where(right, i2, i1)
        if n % 2:
            nv, ni = np.concatenate([nv, v[-1:]]), np.concatenate([ni, i[-1:]])
        v, i = nv, ni
    if v.size == 0:
        return np.float32(-np.inf), np.int64(-1)
    return v[0], i[0]


def numpy_scan_add(a):
    return np.cumsum(a, dtype=np.float32)


def numpy_affine_scan(a, b):
    """The usual NumPy idiom for a scan with no ufunc: Hillis-Steele doubling, log2(n)
    passes of slices (each composes the prefix k places back with the current one)."""
    a, b = a.copy(), b.copy()
    k = 1
    while k < a.size:
        b[k:] = b[:-k] * a[k:] + b[k:]
        a[k:] = a[:-k] * a[k:]
        k *= 2
    return b


# --------------------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    program: str
    inputs: Callable[[np.random.Generator, int], tuple]
    numpy: Callable
    numpy_name: str
    rtol: float  # the results agree within this relative tolerance (0: exactly)
    target: bool = True  # held to the 3x target; else an informative row


def rotations(rng: np.random.Generator, n: int) -> tuple:
    """Random rotation matrices: their product stays a rotation (no overflow)."""
    theta = rng.uniform(0, 2 * np.pi, n)
    c, s = np.cos(theta), np.sin(theta)
    return c, -s, s, c


CASES = [
    Case(
        "map a*b+a (f32)",
        MAP,
        lambda rng, n: (rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)),
        numpy_map,
        "a * b + a",
        0.0,
    ),
    Case(
        "reduce 2x2 matmul (4 x f64)",
        MATMUL_REDUCE,
        rotations,
        numpy_matmul_reduce,
        "pairwise tree of slices",
        1e-9,
    ),
    Case(
        "scan + (f32)",
        SCAN_ADD,
        lambda rng, n: (rng.random(n, dtype=np.float32),),
        numpy_scan_add,
        "np.cumsum",
        0.0,
    ),
    Case(
        "reduce argmax (f32, i64)",
        ARGMAX_REDUCE,
        lambda rng, n: (rng.random(n, dtype=np.float32),),
        numpy_argmax_tree,
        "pairwise tree of slices",
        0.0,
    ),
    Case(
        "reduce argmax (f32, i64)",
        ARGMAX_REDUCE,
        lambda rng, n: (rng.random(n, dtype=np.float32),),
        numpy_argmax,
        "np.argmax",
        0.0,
        target=False,
    ),
    Case(
        "scan affine (2 x f64)",
        AFFINE_SCAN,
        lambda rng, n: (rng.uniform(-0.99, 0.99, n), rng.uniform(-1.0, 1.0, n)),
        numpy_affine_scan,
        "Hillis-Steele doubling",
        1e-9,
        target=False,
    ),
]

# --------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def best_of(repeat: int, fn: Callable, args: tuple) -> tuple[float, object]:
    """One untimed run (its result is returned), then the best of `repeat` timed runs."""
    result = fn(*args)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def agreement(got, want, rtol: float) -> str:
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    if len(got) != len(want):
        return "NO (result count)"
    exact = True
    worst = 0.0
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"NO ({g.dtype}{list(g.shape)} vs {w.dtype}{list(w.shape)})"
        if np.array_equal(g, w):
            continue
        exact = False
        if w.dtype.kind != "f":
            return "NO"
        # normwise: the largest difference relative to the largest magnitude
        g, w = g.astype(np.float64), w.astype(np.float64)
        scale = max(float(np.max(np.abs(w), initial=0.0)), np.finfo(np.float64).tiny)
        worst = max(worst, float(np.max(np.abs(g - w), initial=0.0)) / scale)
    if exact:
        return "exact"
    return f"yes (rel {worst:.1e})" if worst <= rtol else f"NO (rel {worst:.1e})"


def core_count() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{usable} usable of {os.cpu_count()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000_000, help="elements per array")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--level",
        type=int,
        choices=(1, 2),
        default=1,
        help="run the programs as written (1) or bufferised to explicit memory (2: adds "
        "the entry copies, allocations and memory writes a compiled program makes)",
    )
    options = parser.parse_args(argv)
    n, repeat = options.size, max(options.repeat, 1)

    rows = []
    for case in CASES:
        say(f"[{case.name}] inputs of {n} elements ...")
        args = case.inputs(np.random.default_rng(options.seed), n)
        program = soacc.compile(case.program, pipeline="" if options.level == 1 else "convert-soac-to-mem")
        say(f"[{case.name}] executor ({program.executor.description}) ...")
        t_exec, got = best_of(repeat, program.main, args)
        say(f"[{case.name}] executor {t_exec:.3f} s; NumPy ({case.numpy_name}) ...")
        t_numpy, want = best_of(repeat, case.numpy, args)
        say(f"[{case.name}] NumPy {t_numpy:.3f} s")
        rows.append((case, t_exec, t_numpy, agreement(got, want, case.rtol)))
        del args, got, want

    print(
        f"soacc CPU reference executor (level {options.level}) vs hand-written NumPy: "
        f"n = {n:,}, best of {repeat}"
    )
    print(
        f"NumPy {np.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, cores: {core_count()}"
    )
    print()
    header = ("case", "NumPy equivalent", "executor ms", "NumPy ms", "ratio", "target", "results")
    table = [header]
    for case, t_exec, t_numpy, match in rows:
        ratio = t_exec / t_numpy
        verdict = ("ok" if ratio <= TARGET else "MISSED") if case.target else "info"
        table.append(
            (
                case.name,
                case.numpy_name,
                f"{t_exec * 1e3:.4g}",
                f"{t_numpy * 1e3:.4g}",
                f"{ratio:.2f}x",
                verdict,
                match,
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    numeric = {2, 3, 4}
    for i, r in enumerate(table):
        cells = [
            c.rjust(w) if j in numeric else c.ljust(w) for j, (c, w) in enumerate(zip(r, widths))
        ]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print()
    print(
        f"target: executor within {TARGET:g}x of the hand-written NumPy "
        "(rows marked info are not held to it)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
