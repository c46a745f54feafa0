// Port of Futhark's tests/migration/reduce1.fut: values only a reduction's operator and
// a kernel use are read on the device.
//   structure gpu { /Index 0  /SegRed 1  /SegMap 0 }
// (soacc does not fuse here: the map stays a kernel of its own, /soac.map 1.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %A1 = soac.update %A[%c0] = %zero : tensor<10xi64>, i64
  %B = soac.update %A1[%c1] = %zero : tensor<10xi64>, i64
  %x = soac.index %B[%c0] : tensor<10xi64>
  %y = soac.index %B[%c1] : tensor<10xi64>
  %m = soac.map(%B) : (tensor<10xi64>) -> tensor<10xi64> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %y : i64
    soac.yield %s : i64
  }
  %s = soac.reduce(%m) neutral(%zero : i64) commutative : (tensor<10xi64>) -> i64 {
  ^bb0(%p: i64, %q: i64):
    %t = arith.addi %p, %q : i64
    %u = arith.addi %t, %x : i64
    soac.yield %u : i64
  }
  %r = soac.array [%s] : tensor<1xi64>
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.reduce [1]
// CHECK-DAG: @main /soac.map [1]
