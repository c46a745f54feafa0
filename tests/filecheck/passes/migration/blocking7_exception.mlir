// Port of Futhark's tests/migration/blocking7_exception.fut, which Futhark has commented
// out ("This fails due to a memory allocation error"): an op that is normally parallel
// does not block the migration of its parent if it makes an array of one element. The
// copy of a one-element array is a scalar op here, so the whole if moves into one
// gpu_body with the read of its condition: no read. Matching Futhark's (unvalidated)
// expectation; Futhark's `copy` is a Replicate in its IR, `soac.copy` here.
//   structure gpu { GPUBody/If/True/Replicate 1 }
// (Futhark's condition reads A[4] of a [1]i64, out of bounds: this port reads A[0], so
// that the program runs.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %k42 = arith.constant 42 : i64
  %a = soac.index %A[%c0] : tensor<1xi64>
  %is42 = arith.cmpi eq, %a, %k42 : i64
  %r = scf.if %is42 -> (tensor<1xi64>) {
    %B = soac.copy %A : tensor<1xi64>
    scf.yield %B : tensor<1xi64>
  } else {
    scf.yield %A : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @main soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if/then/soac.copy [1]
// The one index at the function's level is the gpu_body's result row (a view, no read):
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /scf.if [0]
