// Port of Futhark's tests/migration/blocking0_hostonly.fut: a host-only op (a call of
// a function that uses arrays) keeps the if or loop around it on the host.
//   structure gpu { GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` uses an array, so calls of it run on the host (and need their argument there).
func.func private @hostonly(%x: i64) -> i64 {
  %arr = soac.array [%x] : tensor<1xi64>
  %c0 = arith.constant 0 : index
  %r = soac.index %arr[%c0] : tensor<1xi64>
  func.return %r : i64
}

func.func @case_if(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (i64) {
    %k = arith.constant 42 : i64
    %h = func.call @hostonly(%k) : (i64) -> i64
    scf.yield %h : i64
  } else {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  }
  func.return %r : i64
}

func.func @case_while(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %five = arith.constant 5 : i64
  %limit = arith.constant 1000 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %r = scf.while (%x = %a0) : (i64) -> i64 {
    %go = arith.cmpi slt, %x, %limit : i64
    scf.condition(%go) %x : i64
  } do {
  ^bb0(%y: i64):
    %h = func.call @hostonly(%y) : (i64) -> i64
    %m = arith.remsi %h, %five : i64
    %i = arith.index_cast %m : i64 to index
    %e = soac.index %A[%i] : tensor<5xi64>
    %e1 = arith.addi %e, %one : i64
    %n = arith.muli %y, %e1 : i64
    scf.yield %n : i64
  }
  func.return %r : i64
}

func.func @case_for(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %five = arith.constant 5 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %zero) -> (i64) {
    %h = func.call @hostonly(%x) : (i64) -> i64
    %m = arith.remsi %h, %five : i64
    %i = arith.index_cast %m : i64 to index
    %e = soac.index %A[%i] : tensor<5xi64>
    %e1 = arith.addi %e, %one : i64
    %y = arith.muli %x, %e1 : i64
    scf.yield %y : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @hostonly soac.gpu_body [0]
// CHECK-DAG: @case_if soac.gpu_body [0]
// CHECK-DAG: @case_while soac.gpu_body [0]
// CHECK-DAG: @case_for soac.gpu_body [0]
