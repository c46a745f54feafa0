// RUN: not soacc-opt %s -p convert-soac-to-mem 2>&1 | filecheck %s
// RUN: not soacc-opt %s -p soacc-pipeline -t cuda 2>&1 | filecheck %s

// A byte count convert-soac-to-mem computes from constants, past 64 bits, is a located
// error at the op that needs it, before canonicalisation would fold it to a wrapped
// constant (2^61 f64 elements are 2^64 bytes: 0 once wrapped).

func.func @main() -> tensor<?xf64> {
  %v = arith.constant 1.0 : f64
  %n = arith.constant 2305843009213693952 : index
  %r = soac.replicate %n, %v : f64 -> tensor<?xf64>
  func.return %r : tensor<?xf64>
}

// CHECK: convert-soac-to-mem-size-errors.mlir:11:3: error: convert-soac-to-mem: the size 2305843009213693952 × 8 = 18446744073709551616 is past 64 bits (sizes are at most 2^63 - 1)
// CHECK-NOT: builtin.module
