// Port of Futhark's tests/migration/array3.fut: [A] of an array A stays on the host.
//   structure gpu { GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi32>) -> tensor<1x?xi32> {
  %xs = soac.array [%A] : tensor<1x?xi32>
  func.return %xs : tensor<1x?xi32>
}
// CHECK-DAG: @main soac.gpu_body [0]
