// Port of Futhark's tests/migration/if8.fut: reads are delayed through an if.
//   structure gpu { /If/True/GPUBody/BinOp 1  /GPUBody/BinOp 2  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>, %c: i1) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i64
  %x = soac.index %A[%c0] : tensor<5xi64>
  %y = scf.if %c -> (i64) {
    %x3 = arith.addi %x, %three : i64
    scf.yield %x3 : i64
  } else {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  }
  %s = arith.addi %x, %y : i64
  %a1 = soac.index %A[%c1] : tensor<5xi64>
  %r = arith.addi %s, %a1 : i64
  func.return %r : i64
}
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.gpu_body/binop [2]
// CHECK-DAG: @main /soac.index [1]
