// Port of Futhark's tests/migration/loop3_forin.fut: the read of a for-in loop's element
// is delayed out of the loop (soacc loops are for loops with an explicit element read,
// the form Futhark rewrites for-in loops to); the sum is used to index A after the loop,
// and that read moves too.
//   structure gpu { /DoLoop/Index 0  /DoLoop/GPUBody 1  /GPUBody 1  /Index 1 }
// (The loop's initial 0 is a device constant made at the entry: a second top-level
// gpu_body here, a top-level literal in Futhark.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %A[0] : tensor<?xi64>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%x = %zero) -> (i64) {
    %y = soac.index %A[%k] : tensor<?xi64>
    %s = arith.addi %x, %y : i64
    scf.yield %s : i64
  }
  %n64 = arith.index_cast %n : index to i64
  %m = arith.remsi %sum, %n64 : i64
  %i = arith.index_cast %m : i64 to index
  %e = soac.index %A[%i] : tensor<?xi64>
  %r = arith.addi %sum, %e : i64
  func.return %r : i64
}
// CHECK-DAG: @main /scf.for/soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /soac.index [1]
