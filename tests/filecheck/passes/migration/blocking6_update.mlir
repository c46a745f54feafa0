// Port of Futhark's tests/migration/blocking6_update.fut: an update of a slice of more
// than one element is host-only (a parallel copy), so the if around it stays on the host.
//   structure gpu { /If/True/Update 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @case_if(%A: tensor<5xi64>, %x: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (i64) {
    %four = arith.constant 4 : i64
    %two = arith.constant 2 : i64
    %v = soac.array [%four, %two] : tensor<2xi64>
    %B = soac.update %A[%c0:%c2] = %v : tensor<5xi64>, tensor<2xi64>
    %five = arith.constant 5 : index
    %i = arith.remui %x, %five : index
    %e = soac.index %B[%i] : tensor<5xi64>
    scf.yield %e : i64
  } else {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @case_if /scf.if/then/soac.update [1]
