// Port of Futhark's tests/migration/reuse0_index.fut: an op that reuses memory (a
// slice, a view of A) may move as part of its parent if the parent returns only single
// elements of that memory. In each case the whole if or loop moves into a gpu_body
// with the read of its condition or bound: no read. Matching.
//   structure gpu { /GPUBody/If/True/Index 2  /GPUBody/Loop/Index 5 }
// (Futhark's slices are Index; its 5 is the three of case_while's loop, the two slices
// and A'[0] of the condition the pass computes at the end of each iteration, and the
// two of case_for's. Futhark's `x % 3` of the i64 x is `remui` of an index argument in
// case_if, as the other ports write it.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @case_if(%A: tensor<5xi64>, %x: index) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %k42 = arith.constant 42 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %is42 = arith.cmpi eq, %a0, %k42 : i64
  %r = scf.if %is42 -> (tensor<1xi64>) {
    %i = arith.remui %x, %c3 : index
    %B = soac.slice %A[%i:%c2] : tensor<5xi64> -> tensor<2xi64>
    %s = soac.slice %B[%c0:%c1] : tensor<2xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}

func.func @case_while(%A: tensor<5xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i64
  %k1 = arith.constant 1 : i64
  %k3 = arith.constant 3 : i64
  %init = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
  %r:2 = scf.while (%x = %k0, %Ap = %init) : (i64, tensor<1xi64>) -> (i64, tensor<1xi64>) {
    %e = soac.index %Ap[%c0] : tensor<1xi64>
    %go = arith.cmpi ne, %e, %x : i64
    scf.condition(%go) %x, %Ap : i64, tensor<1xi64>
  } do {
  ^bb0(%y: i64, %Bp: tensor<1xi64>):
    %m = arith.remsi %y, %k3 : i64
    %i = arith.index_cast %m : i64 to index
    %B = soac.slice %A[%i:%c2] : tensor<5xi64> -> tensor<2xi64>
    %s = soac.slice %B[%c0:%c1] : tensor<2xi64> -> tensor<1xi64>
    %y1 = arith.addi %y, %k1 : i64
    scf.yield %y1, %s : i64, tensor<1xi64>
  }
  func.return %r#1 : tensor<1xi64>
}

func.func @case_for(%A: tensor<5xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i64
  %k1 = arith.constant 1 : i64
  %k3 = arith.constant 3 : i64
  %init = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %k0, %Ap = %init) -> (i64, tensor<1xi64>) {
    %m = arith.remsi %x, %k3 : i64
    %i = arith.index_cast %m : i64 to index
    %B = soac.slice %A[%i:%c2] : tensor<5xi64> -> tensor<2xi64>
    %s = soac.slice %B[%c0:%c1] : tensor<2xi64> -> tensor<1xi64>
    %x1 = arith.addi %x, %k1 : i64
    scf.yield %x1, %s : i64, tensor<1xi64>
  }
  func.return %r#1 : tensor<1xi64>
}
// CHECK-DAG: @case_if /soac.gpu_body [1]
// CHECK-DAG: @case_if /soac.gpu_body/scf.if [1]
// CHECK-DAG: @case_if /soac.gpu_body/scf.if/then/soac.slice [2]
// CHECK-DAG: @case_if /scf.if [0]
// CHECK-DAG: @case_while /soac.gpu_body [1]
// CHECK-DAG: @case_while /soac.gpu_body/scf.while [1]
// CHECK-DAG: @case_while /soac.gpu_body/scf.while/after/soac.index [1]
// CHECK-DAG: @case_while /soac.gpu_body/scf.while/after/soac.slice [2]
// CHECK-DAG: @case_while /scf.while [0]
// CHECK-DAG: @case_for /soac.gpu_body [1]
// CHECK-DAG: @case_for /soac.gpu_body/scf.for [1]
// CHECK-DAG: @case_for /soac.gpu_body/scf.for/soac.slice [2]
// CHECK-DAG: @case_for /scf.for [0]
// Each function's one index at its level is its gpu_body's result row (no read):
// CHECK-DAG: @case_if /soac.index [1]
// CHECK-DAG: @case_while /soac.index [1]
// CHECK-DAG: @case_for /soac.index [1]
