// Port of Futhark's tests/migration/reduction1_2-1.fut: two reads summed: the reads and the sum move, the sum
// is read.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/BinOp 1  /Index 1  /BinOp 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /binop [0]
