// Port of Futhark's tests/migration/iota.fut: an iota stays a parallel kernel on the
// host, so its size is read.
//   structure gpu { GPUBody 0  Iota 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = soac.iota %n : tensor<?xi64>
  func.return %r : tensor<?xi64>
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main soac.iota [1]
