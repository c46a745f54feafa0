// Port of Futhark's tests/migration/blocking1_array.fut: a literal with array rows is
// host-only, so the if and loops around it stay on the host (and keep their literals).
//   structure gpu { /If/True/ArrayLit 1  /DoLoop/ArrayLit 2 }
// (Futhark's two /DoLoop literals are one in each of case_while and case_for.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @case_if(%A: tensor<5xi64>, %x: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (i64) {
    %B = soac.array [%A, %A] : tensor<2x5xi64>
    %i = arith.remui %x, %c2 : index
    %e = soac.index %B[%i, %c2] : tensor<2x5xi64>
    scf.yield %e : i64
  } else {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  }
  func.return %r : i64
}

func.func @case_while(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %limit = arith.constant 1000 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %r = scf.while (%x = %a0) : (i64) -> i64 {
    %go = arith.cmpi slt, %x, %limit : i64
    scf.condition(%go) %x : i64
  } do {
  ^bb0(%y: i64):
    %B = soac.array [%A, %A] : tensor<2x5xi64>
    %yi = arith.index_cast %y : i64 to index
    %i = arith.remui %yi, %c2 : index
    %e = soac.index %B[%i, %c2] : tensor<2x5xi64>
    scf.yield %e : i64
  }
  func.return %r : i64
}

func.func @case_for(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %zero) -> (i64) {
    %B = soac.array [%A, %A] : tensor<2x5xi64>
    %xi = arith.index_cast %x : i64 to index
    %i = arith.remui %xi, %c2 : index
    %e = soac.index %B[%i, %c2] : tensor<2x5xi64>
    scf.yield %e : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @case_if /scf.if/then/soac.array [1]
// CHECK-DAG: @case_while /scf.while/after/soac.array [1]
// CHECK-DAG: @case_for /scf.for/soac.array [1]
