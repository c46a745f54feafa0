// Port of Futhark's tests/migration/merge5.fut: a gpu_body that reads A (through a
// slice) may not merge past an update that consumes A (through another slice).
//   structure gpu { GPUBody 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi32>, %x: index) -> tensor<3xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %k42 = arith.constant 42 : i32
  %A1 = soac.slice %A[%c0:%c3] : tensor<5xi32> -> tensor<3xi32>
  %A2 = soac.slice %A[%c2:%c3] : tensor<5xi32> -> tensor<3xi32>
  %i = arith.remui %x, %c3 : index
  %a = soac.index %A1[%i] : tensor<3xi32>
  %y = arith.addi %a, %one : i32
  %B = soac.update %A2[%c0] = %k42 : tensor<3xi32>, i32
  %b2 = soac.index %B[%c2] : tensor<3xi32>
  %z = arith.addi %b2, %y : i32
  %C = soac.update %B[%c1] = %z : tensor<3xi32>, i32
  func.return %C : tensor<3xi32>
}
// CHECK-DAG: @main soac.gpu_body [2]
