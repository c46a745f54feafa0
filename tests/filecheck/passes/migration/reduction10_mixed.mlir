// Port of Futhark's tests/migration/reduction10_mixed.fut: reads combined in several ways into one result:
// everything moves.
//   structure gpu { /GPUBody 1  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %ten = arith.constant 10.0 : f32
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %ab = arith.mulf %a, %b : f32
  %c = arith.addf %ab, %a : f32
  %nb = arith.negf %b : f32
  %d = arith.divf %nb, %two : f32
  %a2 = soac.index %arr[%c2] : tensor<3xf32>
  %e = arith.divf %c, %a2 : f32
  %f = arith.mulf %ten, %e : f32
  %r = arith.mulf %f, %d : f32
  func.return %r : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
