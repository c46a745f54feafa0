// Port of Futhark's tests/migration/replicate2.fut: a replicate of n copies stays a
// parallel operation; the value it replicates is computed on the device (a gpu_body
// with the addition) and the replicate copies it there: no read.
//   structure gpu { /GPUBody/BinOp 1  /Replicate 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi32>, %n: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %x = soac.index %A[%c0] : tensor<1xi32>
  %y = arith.addi %x, %one : i32
  %r = soac.replicate %n, %y : i32 -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.replicate [1]
// CHECK-DAG: @main /soac.index [0]
