// Port of Futhark's tests/migration/hist0.fut: a histogram's neutral element is needed
// on the host: its read stays.
//   structure gpu { /Index 1  /SegHist 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi32>) -> tensor<10xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %i4 = arith.constant 4 : index
  %i2 = arith.constant 2 : index
  %B = soac.update %A[%c0] = %zero : tensor<10xi32>, i32
  %ne = soac.index %B[%c0] : tensor<10xi32>
  %is = soac.array [%i4, %i2] : tensor<2xindex>
  %vs = soac.array [%one, %zero] : tensor<2xi32>
  %h = soac.hist %B[%is], %vs neutral(%ne : i32) : tensor<10xi32>, tensor<2xindex>, tensor<2xi32> {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    soac.yield %s : i32
  }
  func.return %h : tensor<10xi32>
}
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /soac.hist [1]
