// Port of Futhark's tests/migration/array0.fut: an array literal that contains a free
// scalar variable moves to the device (its writes happen in one kernel).
//   structure gpu { /GPUBody 1  /GPUBody/ArrayLit 1  /ArrayLit 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%i: index, %v: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %five = arith.constant 5 : index
  %xs = soac.array [%c0, %c1, %c2, %c3, %v] : tensor<5xi32>
  %j = arith.remui %i, %five : index
  %x = soac.index %xs[%j] : tensor<5xi32>
  func.return %x : i32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.array [1]
// CHECK-DAG: @main /soac.array [0]
