// Port of Futhark's tests/migration/loop2_out.fut: reads in a loop are delayed out of
// it: one read after the loop instead of one per iteration.
//   structure gpu { /DoLoop/Index 0  /DoLoop/GPUBody 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = soac.size %A[0] : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %zero) -> (f32) {
    %a = soac.index %A[%i] : tensor<?xf32>
    %s = arith.addf %x, %a : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-DAG: @main /scf.for/soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [1]
