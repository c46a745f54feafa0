// Port of Futhark's tests/migration/blocking2_concat.fut: concatenation is host-only (a parallel copy on the host
// beats one thread), so the if and loops around it stay on the host.
//   structure gpu { /If/True/Concat 1  /DoLoop/Concat 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @case_if(%A: tensor<5xi64>, %x: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (i64) {
    %size = soac.index %A[%c1] : tensor<5xi64>
    %B = soac.concat %A, %A : (tensor<5xi64>, tensor<5xi64>) -> tensor<?xi64>
    %len = soac.size %B[0] : tensor<?xi64>
    %i = arith.remui %x, %len : index
    %e = soac.index %B[%i] : tensor<?xi64>
    scf.yield %e : i64
  } else {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  }
  func.return %r : i64
}

func.func @case_while(%A: tensor<5xi64>, %x: index) -> i64 {
  %c0 = arith.constant 0 : index
  %limit = arith.constant 1000 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %r = scf.while (%y = %a0) : (i64) -> i64 {
    %go = arith.cmpi slt, %y, %limit : i64
    scf.condition(%go) %y : i64
  } do {
  ^bb0(%size: i64):
    %B = soac.concat %A, %A : (tensor<5xi64>, tensor<5xi64>) -> tensor<?xi64>
    %len = soac.size %B[0] : tensor<?xi64>
    %i = arith.remui %x, %len : index
    %e = soac.index %B[%i] : tensor<?xi64>
    scf.yield %e : i64
  }
  func.return %r : i64
}

func.func @case_for(%A: tensor<5xi64>, %x: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%size = %zero) -> (i64) {
    %B = soac.concat %A, %A : (tensor<5xi64>, tensor<5xi64>) -> tensor<?xi64>
    %len = soac.size %B[0] : tensor<?xi64>
    %i = arith.remui %x, %len : index
    %e = soac.index %B[%i] : tensor<?xi64>
    scf.yield %e : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @case_if /scf.if/then/soac.concat [1]
// CHECK-DAG: @case_while /scf.while/after/soac.concat [1]
// CHECK-DAG: @case_for /scf.for/soac.concat [1]
