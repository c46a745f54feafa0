// Port of Futhark's tests/migration/if5.fut: reads are delayed out of both branches of
// an if that stays on the host; one read of the sum remains.
//   structure gpu { /If 1  /If/True/Index 0  /If/False/Index 0  /GPUBody/BinOp 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>, %c: i1) -> i64 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %x = scf.if %c -> (i64) {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  } else {
    %a2 = soac.index %A[%c2] : tensor<5xi64>
    scf.yield %a2 : i64
  }
  %a3 = soac.index %A[%c3] : tensor<5xi64>
  %r = arith.addi %x, %a3 : i64
  func.return %r : i64
}
// CHECK-DAG: @main /scf.if [1]
// CHECK-DAG: @main /scf.if/then/soac.index [0]
// CHECK-DAG: @main /scf.if/else/soac.index [0]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
