// Port of Futhark's tests/migration/loop19_through.fut: a read delayed through a loop
// whose branches update the carried value: each branch's arithmetic moves into a
// gpu_body of its own, and the value is written into A on the device: no read.
//   structure gpu { /Index 0  /Loop/If/True/GPUBody/BinOp 1  /Loop/If/False/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1 : i64
  %v42 = arith.constant 42 : i64
  %x0 = soac.index %A[%c0] : tensor<10xi64>
  %x, %B = scf.for %i = %c0 to %c10 step %c1 iter_args(%x1 = %x0, %A1 = %A) -> (i64, tensor<10xi64>) {
    %r = arith.remui %i, %c4 : index
    %first = arith.cmpi eq, %r, %c0 : index
    %x2, %A2 = scf.if %first -> (i64, tensor<10xi64>) {
      %d = arith.subi %x1, %one : i64
      scf.yield %d, %A1 : i64, tensor<10xi64>
    } else {
      %u = arith.addi %x1, %one : i64
      %A3 = soac.update %A1[%i] = %v42 : tensor<10xi64>, i64
      scf.yield %u, %A3 : i64, tensor<10xi64>
    }
    scf.yield %x2, %A2 : i64, tensor<10xi64>
  }
  %C = soac.update %B[%c6] = %x : tensor<10xi64>, i64
  func.return %C : tensor<10xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.for/scf.if/then/soac.gpu_body/binop [1]
// CHECK-DAG: @main /scf.for/scf.if/else/soac.gpu_body/binop [1]
