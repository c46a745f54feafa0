// Port of Futhark's tests/migration/reduction3_2-1-2.fut: two reads to one product, used by two results: the product
// is read once and the rest stays on the host.
//   structure gpu { /GPUBody 1  /GPUBody/BinOp 1  /Index 1  /BinOp 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %x = arith.mulf %a, %b : f32
  %p = arith.addf %x, %one : f32
  %m = arith.subf %x, %one : f32
  func.return %p, %m : f32, f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [2]
