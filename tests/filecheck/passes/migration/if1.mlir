// Port of Futhark's tests/migration/if1.fut: as if0 with one branch that reads nothing;
// the worst case (two reads) becomes one.
//   structure gpu { /GPUBody 1  /GPUBody/CmpOp 1  /GPUBody/If 1  /Index 1 }
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
    %a2 = soac.index %A[%c2] : tensor<5xi64>
    scf.yield %a2 : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/cmpop [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if [1]
// CHECK-DAG: @main /soac.index [1]
