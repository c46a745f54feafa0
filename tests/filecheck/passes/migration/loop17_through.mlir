// Port of Futhark's tests/migration/loop17_through.fut: a read is delayed through a
// loop that updates the value in an if on the device; the final scalar write becomes a
// one-element copy: no read at all.
//   structure gpu { /Index 0  /DoLoop/If/True/GPUBody/BinOp 1  /DoLoop/If/False/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A0: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i64
  %k42 = arith.constant 42 : i64
  %a0 = soac.index %A0[%c0] : tensor<10xi64>
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %a0, %A = %A0) -> (i64, tensor<10xi64>) {
    %m = arith.remui %i, %c4 : index
    %is0 = arith.cmpi eq, %m, %c0 : index
    %nx, %nA = scf.if %is0 -> (i64, tensor<10xi64>) {
      %d = arith.subi %x, %one : i64
      scf.yield %d, %A : i64, tensor<10xi64>
    } else {
      %u = arith.addi %x, %one : i64
      %B = soac.update %A[%i] = %k42 : tensor<10xi64>, i64
      scf.yield %u, %B : i64, tensor<10xi64>
    }
    scf.yield %nx, %nA : i64, tensor<10xi64>
  }
  %res = soac.update %r#1[%c6] = %r#0 : tensor<10xi64>, i64
  func.return %res : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.for/scf.if/then/soac.gpu_body/binop [1]
// CHECK-DAG: @main /scf.for/scf.if/else/soac.gpu_body/binop [1]
