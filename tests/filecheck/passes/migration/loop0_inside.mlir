// Port of Futhark's tests/migration/loop0_inside.fut: inside a loop, a reduction's
// result is used by a square root and a map: no read in any iteration.
//   structure gpu { /Loop/GPUBody 1  /Loop/GPUBody/Apply 1  /Loop/GPUBody/Index 1 }
// (Futhark's Index reads the reduction's one-element array in the gpu_body; here the
// reduction's result stays in device memory and the gpu_body uses it directly.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = soac.size %A0[0] : tensor<?x?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%A = %A0) -> (tensor<?x?xf32>) {
    %B = soac.index %A[%i] : tensor<?x?xf32>
    %sq = soac.map(%B) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %x : f32
      soac.yield %y : f32
    }
    %sum = soac.reduce(%sq) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %m: f32):
      %s = arith.addf %l, %m : f32
      soac.yield %s : f32
    }
    %len = math.sqrt %sum : f32
    %nb = soac.map(%sq) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %q = arith.divf %x, %len : f32
      soac.yield %q : f32
    }
    %A2 = soac.update %A[%i] = %nb : tensor<?x?xf32>, tensor<?xf32>
    scf.yield %A2 : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
// CHECK-DAG: @main /scf.for/soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/soac.gpu_body/math [1]
// CHECK-DAG: @main soac.gpu_body [1]
