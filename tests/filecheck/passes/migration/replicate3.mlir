// Port of Futhark's tests/migration/replicate3.fut: n copies of a one-row replicate
// of a read value: the read value is made on the device and the replicate of n rows
// stays a parallel kernel.
//   structure gpu { /GPUBody 1  /Replicate 1  /Index 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi32>, %n: index) -> tensor<?x1xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.index %A[%c0] : tensor<1xi32>
  %row = soac.replicate %c1, %x : i32 -> tensor<1xi32>
  %r = soac.replicate %n, %row : tensor<1xi32> -> tensor<?x1xi32>
  func.return %r : tensor<?x1xi32>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.replicate [1]
// CHECK-DAG: @main /soac.index [0]
