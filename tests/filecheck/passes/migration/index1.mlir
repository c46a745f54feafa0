// Port of Futhark's tests/migration/index1.fut: a read that cannot be reduced stays.
//   structure gpu { GPUBody 0  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3x3xi32>) -> i32 {
  %c1 = arith.constant 1 : index
  %r = soac.index %arr[%c1, %c1] : tensor<3x3xi32>
  func.return %r : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
