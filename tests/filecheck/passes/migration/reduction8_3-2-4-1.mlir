// Port of Futhark's tests/migration/reduction8_3-2-4-1.fut: three reads to one result: everything moves.
//   structure gpu { /GPUBody 1  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %c = soac.index %arr[%c2] : tensor<3xf32>
  %ab = arith.addf %a, %b : f32
  %x = arith.addf %ab, %c : f32
  %amb = arith.subf %a, %b : f32
  %y = arith.subf %amb, %c : f32
  %d = arith.addf %x, %y : f32
  %e = arith.subf %x, %y : f32
  %f = arith.mulf %x, %y : f32
  %g = arith.divf %x, %y : f32
  %de = arith.mulf %d, %e : f32
  %def = arith.mulf %de, %f : f32
  %r = arith.mulf %def, %g : f32
  func.return %r : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
