// Port of Futhark's tests/migration/reuse6_rearrange.fut: an op that reuses memory (a
// transpose, a view of A) may move as part of its parent if the parent returns only
// single elements of that memory. The if moves whole into a gpu_body with the read of
// its condition: no read. Matching.
//   structure gpu { /GPUBody/If/True/Rearrange 1 }
// (structure.py counts no transposes: the second RUN line finds it in the gpu_body's
// if. Futhark's `opaque`s keep its simplifier from seeing through the transpose; soacc's
// canonicalization has no rule for a slice of a transpose.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies | filecheck %s --check-prefix=IR

func.func @case_if(%A: tensor<3x2xi64>, %x: i64) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k42 = arith.constant 42 : i64
  %a00 = soac.index %A[%c0, %c0] : tensor<3x2xi64>
  %is42 = arith.cmpi eq, %a00, %k42 : i64
  %r = scf.if %is42 -> (tensor<1xi64>) {
    %B = soac.transpose %A [1, 0] : tensor<3x2xi64> -> tensor<2x3xi64>
    %s = soac.slice %B[%c0, %c0:%c1] : tensor<2x3xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c0, %c0:%c1] : tensor<3x2xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @case_if /soac.gpu_body [1]
// CHECK-DAG: @case_if /soac.gpu_body/soac.index [1]
// CHECK-DAG: @case_if /soac.gpu_body/scf.if [1]
// CHECK-DAG: @case_if /scf.if [0]
// The one index at the function's level is the gpu_body's result row (no read):
// CHECK-DAG: @case_if /soac.index [1]
// IR:      soac.gpu_body
// IR:      %r = scf.if %is42 -> (tensor<1xi64>) {
// IR-NEXT:   %B = soac.transpose %A [1, 0] : tensor<3x2xi64> -> tensor<2x3xi64>
// IR:      soac.yield %r : tensor<1xi64>
