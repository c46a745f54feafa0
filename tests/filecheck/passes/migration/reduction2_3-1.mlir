// Port of Futhark's tests/migration/reduction2_3-1.fut: three reads to one.
//   structure gpu { /GPUBody 1  /GPUBody/BinOp 2  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %c = soac.index %arr[%c2] : tensor<3xf32>
  %s = arith.addf %a, %b : f32
  %t = arith.addf %s, %c : f32
  func.return %t : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/binop [2]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
