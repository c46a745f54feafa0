// Port of Futhark's tests/migration/loop4_wholefor.fut: a for loop moves whole so that
// neither its bound nor the reads in it are read; its result is.
//   structure gpu { /GPUBody/DoLoop 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %ten = arith.constant 10 : i64
  %a0 = soac.index %A[%c0] : tensor<10xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %one) -> (i64) {
    %m = arith.remsi %x, %ten : i64
    %j = arith.index_cast %m : i64 to index
    %e = soac.index %A[%j] : tensor<10xi64>
    %y = arith.muli %x, %e : i64
    scf.yield %y : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main /soac.gpu_body/scf.for [1]
// CHECK-DAG: @main /soac.index [1]
