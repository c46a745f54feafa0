// Port of Futhark's tests/migration/loop11_into.fut: a read outside a loop is delayed
// into it, where a value computed from it on the device each iteration is used only by
// a kernel: no read remains (the loop already reads its element every iteration).
//   structure gpu { /Index 0  /DoLoop/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %x = soac.index %A[%c0] : tensor<10xi64>
  %r = scf.for %k = %c0 to %c10 step %c1 iter_args(%B = %A) -> (tensor<10xi64>) {
    %y = soac.index %A[%k] : tensor<10xi64>
    %z = arith.addi %x, %y : i64
    %B2 = soac.map(%B) : (tensor<10xi64>) -> tensor<10xi64> {
    ^bb0(%e: i64):
      %s = arith.addi %e, %z : i64
      soac.yield %s : i64
    }
    scf.yield %B2 : tensor<10xi64>
  }
  func.return %r : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body/binop [1]
