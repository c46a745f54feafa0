// Port of Futhark's tests/migration/merge6.fut: moved statements become gpu_bodies that
// are merged, and reordering them respects what they consume. y (A1[0] + A1[1]) moves
// to a first gpu_body; z, an if whose branch reduces A2 (a view of A), stays on the
// host; the last if consumes A (an update of A1) and moves whole into a second
// gpu_body, which may not move before the reduction that reads A. Nothing is read.
// Matching.
//   structure gpu { /GPUBody 2  /GPUBody/If/True/Update 1 }
// Futhark's `one` (an opaque top-level constant, a host value the compiler cannot see)
// is the argument %one, and `[one:two]` is the one-element slice at it. The reduction's
// result is stored for the second gpu_body by a one-row gpu_body after it
// (/scf.if/then/soac.gpu_body), which convert-mem-to-gpu runs on the reduction's final
// kernel (no launch).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>, %x: i64, %one: index) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %k0 = arith.constant 0 : i64
  %A1 = soac.slice %A[%c0:%c3] : tensor<5xi64> -> tensor<3xi64>
  %A2 = soac.slice %A[%c2:%c3] : tensor<5xi64> -> tensor<3xi64>
  %a10 = soac.index %A1[%c0] : tensor<3xi64>
  %a11 = soac.index %A1[%c1] : tensor<3xi64>
  %y = arith.addi %a10, %a11 : i64
  %isx0 = arith.cmpi eq, %x, %k0 : i64
  %z = scf.if %isx0 -> (i64) {
    %sum = soac.reduce(%A2) neutral(%k0 : i64) commutative : (tensor<3xi64>) -> i64 {
    ^bb0(%p: i64, %q: i64):
      %t = arith.addi %p, %q : i64
      soac.yield %t : i64
    }
    scf.yield %sum : i64
  } else {
    scf.yield %y : i64
  }
  %b = soac.index %A1[%c0] : tensor<3xi64>
  %is0 = arith.cmpi eq, %b, %k0 : i64
  %C = scf.if %is0 -> (tensor<1xi64>) {
    %A1u = soac.update %A1[%c1] = %z : tensor<3xi64>, i64
    %s = soac.slice %A1u[%one:%c1] : tensor<3xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  } else {
    %s = soac.slice %A1[%one:%c1] : tensor<3xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %C : tensor<1xi64>
}
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if/then/soac.update [1]
// CHECK-DAG: @main /scf.if [1]
// CHECK-DAG: @main /scf.if/then/soac.reduce [1]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body [1]
// The one index at the function's level is the second gpu_body's result row (no read):
// CHECK-DAG: @main /soac.index [1]
