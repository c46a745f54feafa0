// Port of Futhark's tests/migration/reduce0.fut: a reduction's neutral element is read;
// its result goes into a one-element array on the device, never to the host.
//   structure gpu { /Index 1  /SegRed 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xf32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %B = soac.update %A[%c0] = %zero : tensor<10xf32>, f32
  %ne = soac.index %B[%c0] : tensor<10xf32>
  %s = soac.reduce(%B) neutral(%ne : f32) commutative : (tensor<10xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %r = soac.array [%s] : tensor<1xf32>
  func.return %r : tensor<1xf32>
}
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /soac.reduce [1]
