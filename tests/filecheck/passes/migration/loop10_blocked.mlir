// Port of Futhark's tests/migration/loop10_blocked.fut: a loop carrying an array from
// outside cannot move (a gpu_body would copy it): it stays, its bound is read.
//   structure gpu { /DoLoop 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> tensor<5xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %n = arith.index_cast %a0 : i64 to index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%B = %A) -> (tensor<5xi64>) {
    %m = arith.remui %i, %c4 : index
    %nz = arith.cmpi ne, %m, %c0 : index
    %C = scf.if %nz -> (tensor<5xi64>) {
      scf.yield %B : tensor<5xi64>
    } else {
      %k1 = arith.constant 1 : i64
      %k2 = arith.constant 2 : i64
      %k4 = arith.constant 4 : i64
      %k5 = arith.constant 5 : i64
      %ii = arith.index_cast %i : index to i64
      %lit = soac.array [%k1, %k2, %ii, %k4, %k5] : tensor<5xi64>
      scf.yield %lit : tensor<5xi64>
    }
    scf.yield %C : tensor<5xi64>
  }
  func.return %r : tensor<5xi64>
}
// CHECK-DAG: @main /scf.for [1]
