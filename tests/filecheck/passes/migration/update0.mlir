// Port of Futhark's tests/migration/update0.fut: a value an update writes need not be
// on the host: the read, the division and the write are device work.
//   structure gpu { /GPUBody 1  /GPUBody/Index 1  /GPUBody/BinOp 1  /Index 0  /Update 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<9xf32>) -> tensor<9xf32> {
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7.0 : f32
  %x = soac.index %A[%c4] : tensor<9xf32>
  %y = arith.divf %x, %seven : f32
  %B = soac.update %A[%c4] = %y : tensor<9xf32>, f32
  func.return %B : tensor<9xf32>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [1]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.update [1]
