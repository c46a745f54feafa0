// Port of Futhark's tests/migration/array1.fut: an array literal of constants only
// stays on the host (it is one copy of static data, not a write per element).
//   structure gpu { GPUBody 0  ArrayLit 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%i: index) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %five = arith.constant 5 : index
  %xs = soac.array [%c0, %c1, %c2, %c3, %c4] : tensor<5xi32>
  %j = arith.remui %i, %five : index
  %x = soac.index %xs[%j] : tensor<5xi32>
  func.return %x : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main soac.array [1]
