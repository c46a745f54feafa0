// Port of Futhark's tests/migration/array2.fut: a literal whose rows are arrays never
// moves (a kernel would copy what the host copies in parallel).
//   structure gpu { GPUBody 0  ArrayLit 3 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%i: index, %v: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %two = arith.constant 2 : index
  %three = arith.constant 3 : index
  %r0 = soac.array [%c0, %c1] : tensor<2xi32>
  %r1 = soac.array [%c2, %c3] : tensor<2xi32>
  %xs = soac.array [%r0, %r1, %v] : tensor<3x2xi32>
  %a = arith.remui %i, %three : index
  %b = arith.remui %i, %two : index
  %x = soac.index %xs[%a, %b] : tensor<3x2xi32>
  func.return %x : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main soac.array [3]
