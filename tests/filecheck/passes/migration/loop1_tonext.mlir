// Port of Futhark's tests/migration/loop1_tonext.fut: a read whose value is only the
// next iteration's captured value is not read at all.
//   structure gpu { /Loop/Index 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %k42 = arith.constant 42.0 : f32
  %n = soac.size %A0[0] : tensor<?xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%A = %A0, %x = %zero) -> (tensor<?xf32>, f32) {
    %B = soac.map(%A) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %s = arith.addf %e, %x : f32
      soac.yield %s : f32
    }
    %y = soac.index %B[%i] : tensor<?xf32>
    %ii = arith.muli %i, %i : index
    %j = arith.remui %ii, %n : index
    %B2 = soac.update %B[%j] = %k42 : tensor<?xf32>, f32
    scf.yield %B2, %y : tensor<?xf32>, f32
  }
  func.return %r#0 : tensor<?xf32>
}
// CHECK-DAG: @main /scf.for/soac.index [0]
