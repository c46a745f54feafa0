// Port of Futhark's tests/migration/reduction7_3-2-4-2.fut: three reads to two values (the cut), then four values
// and two results on the host. (d % e becomes max(d, e): xDSL has no f32 remainder.)
//   structure gpu { /GPUBody 1  /GPUBody/Index 3  /GPUBody/BinOp 4  /Index 2  /BinOp 6 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> (f32, f32) {
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
  %p = arith.maximumf %d, %e : f32
  %q = arith.addf %f, %g : f32
  func.return %p, %q : f32, f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [3]
// CHECK-DAG: @main /soac.gpu_body/binop [4]
// CHECK-DAG: @main /soac.index [2]
// CHECK-DAG: @main /binop [6]
