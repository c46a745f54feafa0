// Port of Futhark's tests/migration/if4.fut: the if moves whole because its second
// result is only used by a kernel; it merges with the final sum, which is read.
//   structure gpu { /GPUBody/CmpOp 1  /GPUBody/If/False/Index 1  /GPUBody/BinOp 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %c4 = arith.constant 4 : index
  %x, %y = scf.if %cond -> (i64, i64) {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    %k = arith.constant 42 : i64
    scf.yield %a1, %k : i64, i64
  } else {
    %a2 = soac.index %A[%c2] : tensor<5xi64>
    %k = arith.constant 1337 : i64
    scf.yield %a2, %k : i64, i64
  }
  %B = soac.map(%A) : (tensor<5xi64>) -> tensor<5xi64> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %y : i64
    soac.yield %s : i64
  }
  %b4 = soac.index %B[%c4] : tensor<5xi64>
  %r = arith.addi %x, %b4 : i64
  func.return %r : i64
}
// CHECK-DAG: @main /soac.gpu_body/cmpop [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if/else/soac.index [1]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
