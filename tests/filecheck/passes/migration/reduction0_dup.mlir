// Port of Futhark's tests/migration/reduction0_dup.fut: CSE (run before the pass) leaves one read of arr[0]; the sum is
// returned, so that read stays and nothing moves.
//   structure gpu { GPUBody 0  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c0] : tensor<3xf32>
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
