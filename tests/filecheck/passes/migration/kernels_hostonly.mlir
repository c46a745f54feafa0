// Port of Futhark's tests/migration/kernels_hostonly.fut: a kernel (here a reduce) in a
// branch keeps the if (and the loops around it) on the host.
//   structure gpu { /DoLoop/DoLoop/If 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10x5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %k42 = arith.constant 42 : i64
  %a00 = soac.index %A[%c0, %c0] : tensor<10x5xi64>
  %n = arith.index_cast %a00 : i64 to index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %one) -> (i64) {
    %r2 = scf.for %j = %c0 to %c10 step %c1 iter_args(%x2 = %x) -> (i64) {
      %B = soac.index %A[%j] : tensor<10x5xi64>
      %b0 = soac.index %B[%c0] : tensor<5xi64>
      %ne = arith.cmpi ne, %b0, %k42 : i64
      %v = scf.if %ne -> (i64) {
        %sum = soac.reduce(%B) neutral(%zero : i64) commutative : (tensor<5xi64>) -> i64 {
        ^bb0(%p: i64, %q: i64):
          %s = arith.addi %p, %q : i64
          soac.yield %s : i64
        }
        %m = arith.remsi %sum, %x2 : i64
        %m1 = arith.addi %m, %one : i64
        scf.yield %m1 : i64
      } else {
        scf.yield %k42 : i64
      }
      scf.yield %v : i64
    }
    scf.yield %r2 : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main /scf.for/scf.for/scf.if [1]
