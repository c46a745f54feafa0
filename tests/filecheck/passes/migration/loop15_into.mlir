// Port of Futhark's tests/migration/loop15_into.fut: reads can be delayed into loops
// where the number of reads the loop does stays the same. x = A[0] stays on the
// device before the loop (no read there), and each iteration reads the carried value
// once for the host-only call. Futhark reads x + 1 (computed in its loop's GPUBody);
// soacc reads x and adds on the host: the same reads, and the same gpu_bodies (A[i]
// in the loop's).
//   structure gpu { /GPUBody 1  /Loop/GPUBody 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @hostonly(%x: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %ft = arith.constant 42 : i64
  %is = arith.cmpi eq, %x, %ft : i64
  %r = scf.if %is -> (i64) {
    %arr = soac.array [%x] : tensor<1xi64>
    %e = soac.index %arr[%c0] : tensor<1xi64>
    scf.yield %e : i64
  } else {
    scf.yield %x : i64
  }
  func.return %r : i64
}

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i64
  %x = soac.index %A[%c0] : tensor<10xi64>
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%xc = %x, %a = %A) -> (i64, tensor<10xi64>) {
    %y = arith.addi %xc, %one : i64
    %z = func.call @hostonly(%y) : (i64) -> i64
    %ai = soac.index %a[%i] : tensor<10xi64>
    %m = soac.map(%a) : (tensor<10xi64>) -> tensor<10xi64> {
    ^bb0(%e: i64):
      %s = arith.addi %e, %z : i64
      soac.yield %s : i64
    }
    scf.yield %ai, %m : i64, tensor<10xi64>
  }
  func.return %r#1 : tensor<10xi64>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/soac.index [1]
