// Port of Futhark's tests/migration/scan0.fut: a scan's neutral element is read (the
// host passes it to the kernel).
//   structure gpu { /Index 1  /SegScan 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %B = soac.update %A[%c0] = %zero : tensor<10xf32>, f32
  %ne = soac.index %B[%c0] : tensor<10xf32>
  %s = soac.scan(%B) neutral(%ne : f32) : (tensor<10xf32>) -> tensor<10xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  func.return %s : tensor<10xf32>
}
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /soac.scan [1]
