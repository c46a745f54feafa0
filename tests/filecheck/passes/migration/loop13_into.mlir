// Port of Futhark's tests/migration/loop13_into.fut: as loop11 with the value carried
// by the loop (and kept as it is each iteration).
//   structure gpu { /Index 0  /DoLoop/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %x = soac.index %A[%c0] : tensor<10xi64>
  %r:2 = scf.for %k = %c0 to %c10 step %c1 iter_args(%xx = %x, %B = %A) -> (i64, tensor<10xi64>) {
    %y = soac.index %A[%k] : tensor<10xi64>
    %z = arith.addi %xx, %y : i64
    %B2 = soac.map(%B) : (tensor<10xi64>) -> tensor<10xi64> {
    ^bb0(%e: i64):
      %s = arith.addi %e, %z : i64
      soac.yield %s : i64
    }
    scf.yield %xx, %B2 : i64, tensor<10xi64>
  }
  func.return %r#1 : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body/binop [1]
