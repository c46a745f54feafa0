// Port of Futhark's tests/migration/loop16_into.fut: values needed on the host in every
// iteration are read before the loop, not in it: nothing moves.
//   structure gpu { /Index 2  GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` makes an array, so its calls run on the host (their argument is needed there).
func.func private @hostonly(%x: i64) -> i64 {
  %k42 = arith.constant 42 : i64
  %is42 = arith.cmpi eq, %x, %k42 : i64
  %r = scf.if %is42 -> (i64) {
    %arr = soac.array [%x] : tensor<1xi64>
    %c0 = arith.constant 0 : index
    %e = soac.index %arr[%c0] : tensor<1xi64>
    scf.yield %e : i64
  } else {
    scf.yield %k42 : i64
  }
  func.return %r : i64
}

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %k22 = arith.constant 22 : i64
  %a0 = soac.index %A[%c0] : tensor<10xi64>
  %a1 = soac.index %A[%c1] : tensor<10xi64>
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %a0, %y = %a1) -> (i64, i64) {
    %s = arith.addi %x, %y : i64
    %z = func.call @hostonly(%s) : (i64) -> i64
    %m = arith.remsi %z, %k22 : i64
    %p = arith.muli %z, %z : i64
    scf.yield %m, %p : i64, i64
  }
  %t = arith.addi %r#0, %r#1 : i64
  func.return %t : i64
}
// CHECK-DAG: @main /soac.index [2]
// CHECK-DAG: @main soac.gpu_body [0]
