// Port of Futhark's tests/migration/loop18_through.fut: two reads are delayed through a
// loop that combines them on the device; only the final sum is read.
//   structure gpu { /GPUBody 2  /DoLoop/GPUBody/BinOp 3  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %k22 = arith.constant 22 : i64
  %a0 = soac.index %A[%c0] : tensor<10xi64>
  %a1 = soac.index %A[%c1] : tensor<10xi64>
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %a0, %y = %a1) -> (i64, i64) {
    %z = arith.addi %x, %y : i64
    %m = arith.remsi %z, %k22 : i64
    %p = arith.muli %z, %z : i64
    scf.yield %m, %p : i64, i64
  }
  %t = arith.addi %r#0, %r#1 : i64
  func.return %t : i64
}
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /scf.for/soac.gpu_body/binop [3]
// CHECK-DAG: @main /soac.index [1]
