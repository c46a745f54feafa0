// Port of Futhark's tests/migration/hist1.fut: values only a histogram's operator and a
// kernel use are read there, on the device.
//   structure gpu { /Index 0  /SegHist 1  /SegMap 0 }
// soacc does not fuse here, so the map stays a kernel of its own (/soac.map 1). The
// elements are copied into a gpu_body first: the histogram updates B in place, so the
// kernels may not read B itself (digest §5.5, reason 1).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %i4 = arith.constant 4 : index
  %i2 = arith.constant 2 : index
  %A1 = soac.update %A[%c0] = %zero : tensor<10xi64>, i64
  %B = soac.update %A1[%c1] = %one : tensor<10xi64>, i64
  %x = soac.index %B[%c0] : tensor<10xi64>
  %y = soac.index %B[%c1] : tensor<10xi64>
  %is = soac.array [%i4, %i2] : tensor<2xindex>
  %as = soac.map(%is) : (tensor<2xindex>) -> tensor<2xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %s = arith.addi %ii, %y : i64
    soac.yield %s : i64
  }
  %h = soac.hist %B[%is], %as neutral(%zero : i64) : tensor<10xi64>, tensor<2xindex>, tensor<2xi64> {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    %t = arith.addi %s, %x : i64
    soac.yield %t : i64
  }
  func.return %h : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.hist [1]
// CHECK-DAG: @main /soac.map [1]
