// Port of Futhark's tests/migration/index2.fut: a slice's index must be on the host (a
// gpu_body would copy the slice): the read stays and nothing moves.
//   structure gpu { GPUBody 0  Index 2 }
// (Futhark's two Index are the read and the slice: soac.index and soac.slice here.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3x3xi32>) -> tensor<3xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %i32 = soac.index %arr[%c1, %c0] : tensor<3x3xi32>
  %i = arith.index_cast %i32 : i32 to index
  %col = soac.slice %arr[%c0:%c3, %i] : tensor<3x3xi32> -> tensor<3xi32>
  func.return %col : tensor<3xi32>
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main soac.index [1]
// CHECK-DAG: @main soac.slice [1]
