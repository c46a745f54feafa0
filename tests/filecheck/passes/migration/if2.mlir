// Port of Futhark's tests/migration/if2.fut: moving the if would only trade the read of
// the condition for a read of its result: nothing moves.
//   structure gpu { GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (i64) {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  } else {
    %k = arith.constant 1337 : i64
    scf.yield %k : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main soac.gpu_body [0]
