// Port of Futhark's tests/migration/index0.fut: a read whose index is read moves, so
// that the index need not be read: two reads become one.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3x3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i32 = soac.index %arr[%c1, %c0] : tensor<3x3xi32>
  %i = arith.index_cast %i32 : i32 to index
  %r = soac.index %arr[%c0, %i] : tensor<3x3xi32>
  func.return %r : i32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /soac.index [1]
