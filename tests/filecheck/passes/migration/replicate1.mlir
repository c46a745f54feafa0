// Port of Futhark's tests/migration/replicate1.fut: a replicate of one row of a
// replicate of one read value: the gpu_body that reads the value makes the whole
// [1][1] array (merge-gpu-bodies absorbs the outer replicate: issue 22, class 4), no
// replicate kernel after it, and no read.
//   structure gpu { /GPUBody/Replicate 1  /Replicate 0  /Index 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi32>) -> tensor<1x1xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.index %A[%c0] : tensor<1xi32>
  %row = soac.replicate %c1, %x : i32 -> tensor<1xi32>
  %r = soac.replicate %c1, %row : tensor<1xi32> -> tensor<1x1xi32>
  func.return %r : tensor<1x1xi32>
}
// CHECK-DAG: @main /soac.gpu_body/soac.replicate [1]
// CHECK-DAG: @main /soac.replicate [0]
// CHECK-DAG: @main /soac.index [0]
