// Port of Futhark's tests/migration/scan1.fut: reads delayed into the kernel: one
// into the combining operator (x), one into the map's body (y); the map and the scan
// are one kernel (soac-fusion's scanomap, Futhark's SegScan with no SegMap), which
// reads both elements on the device.
//   structure gpu { /Index 0  /SegScan 1  /SegMap 0 }
// RUN: soacc-opt %s -p canonicalize,cse,soac-fusion,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %A1 = soac.update %A[%c0] = %zero : tensor<10xi64>, i64
  %B = soac.update %A1[%c1] = %zero : tensor<10xi64>, i64
  %x = soac.index %B[%c0] : tensor<10xi64>
  %y = soac.index %B[%c1] : tensor<10xi64>
  %m = soac.map(%B) : (tensor<10xi64>) -> tensor<10xi64> {
  ^bb0(%b: i64):
    %v = arith.addi %b, %y : i64
    soac.yield %v : i64
  }
  %s = soac.scan(%m) neutral(%zero : i64) : (tensor<10xi64>) -> tensor<10xi64> {
  ^bb0(%p: i64, %q: i64):
    %t = arith.addi %p, %q : i64
    %u = arith.addi %t, %x : i64
    soac.yield %u : i64
  }
  func.return %s : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.scan [0]
// CHECK-DAG: @main /soac.map [0]
// CHECK-DAG: @main /soac.scanomap/soac.index [2]
