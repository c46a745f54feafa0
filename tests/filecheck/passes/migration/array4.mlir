// Port of Futhark's tests/migration/array4.fut: [x[0]] is gpu { x[0] }: one kernel
// makes the one-element array, with no host read and no literal left.
//   structure gpu { /GPUBody 1  ArrayLit 0  Replicate 0  /Index 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%x: tensor<1xi32>) -> tensor<1xi32> {
  %c0 = arith.constant 0 : index
  %v = soac.index %x[%c0] : tensor<1xi32>
  %r = soac.array [%v] : tensor<1xi32>
  func.return %r : tensor<1xi32>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main soac.array [0]
// CHECK-DAG: @main soac.replicate [0]
// CHECK-DAG: @main /soac.index [0]
