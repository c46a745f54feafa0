// Port of Futhark's tests/migration/reduction9_deep2-1.fut: two reads combined
// through a chain of arithmetic: everything moves into one gpu_body and only the
// quotient is read.
//   structure gpu { /GPUBody 1  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = arith.addf %a, %two : f32
  %c = arith.mulf %four, %b : f32
  %x = soac.index %arr[%c1] : tensor<3xf32>
  %y = arith.addf %x, %two : f32
  %z = arith.mulf %three, %y : f32
  %q = arith.divf %c, %z : f32
  func.return %q : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
