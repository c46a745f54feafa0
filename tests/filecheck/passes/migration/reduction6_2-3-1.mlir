// Port of Futhark's tests/migration/reduction6_2-3-1.fut: two reads, three intermediate values, one result:
// everything moves, the result is read.
//   structure gpu { /GPUBody 1  /GPUBody/BinOp 5  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %x = arith.mulf %a, %b : f32
  %y = arith.addf %a, %b : f32
  %z = arith.subf %a, %b : f32
  %p = arith.mulf %x, %y : f32
  %q = arith.mulf %p, %z : f32
  func.return %q : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/binop [5]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
