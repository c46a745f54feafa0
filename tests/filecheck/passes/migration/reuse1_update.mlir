// Port of Futhark's tests/migration/reuse1_update.fut: an op that reuses memory (an
// in-place update of A) may move as part of its parent if the parent returns only
// single elements of that memory. The if moves whole into a gpu_body: no read.
//   structure gpu { /GPUBody/If/True/Update 1  /GPUBody/Loop/Update 0 }
// Only case_if is ported: Futhark has case_while and case_for commented out (its
// compiler's limitations), so its /GPUBody/Loop/Update 0 holds trivially.
// Matching: one gpu_body, no read. (It was two, the read of A[0] and its comparison
// one gpu_body and the if a second: merge-gpu-bodies refused a gpu_body that consumes
// an array a kernel of the group only reads. Like Futhark's `moveGPUBody`, it now
// starts a new group only for one that consumes what the group binds, Assumption 2 of
// the study: the merged kernel runs its ops in order.)
// (Futhark's `x % 5` of the i64 x is `remui` of an index argument, as in the other
// ports.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @case_if(%A: tensor<5xi64>, %x: index) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %k0 = arith.constant 0 : i64
  %k42 = arith.constant 42 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %is42 = arith.cmpi eq, %a0, %k42 : i64
  %r = scf.if %is42 -> (tensor<1xi64>) {
    %i = arith.remui %x, %c5 : index
    %B = soac.update %A[%i] = %k0 : tensor<5xi64>, i64
    %s = soac.slice %B[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @case_if /soac.gpu_body [1]
// CHECK-DAG: @case_if /soac.gpu_body/cmpop [1]
// CHECK-DAG: @case_if /soac.gpu_body/scf.if [1]
// CHECK-DAG: @case_if /soac.gpu_body/scf.if/then/soac.update [1]
// CHECK-DAG: @case_if /scf.if [0]
// The one index at the function's level is the gpu_body's result row (no read):
// CHECK-DAG: @case_if /soac.index [1]
