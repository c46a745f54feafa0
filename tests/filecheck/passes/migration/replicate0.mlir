// Port of Futhark's tests/migration/replicate0.fut: replicating a read value once is
// the value on the device (`replicate 1 n` is `gpu { n }`): no read.
//   structure gpu { /GPUBody 1  Replicate 0  /Index 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi32>) -> tensor<1xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.index %A[%c0] : tensor<1xi32>
  %r = soac.replicate %c1, %x : i32 -> tensor<1xi32>
  func.return %r : tensor<1xi32>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main soac.replicate [0]
// CHECK-DAG: @main /soac.index [0]
