// Port of Futhark's tests/migration/merge1.fut: the statements that move become one
// gpu_body (a host op between them moves out of the way).
//   structure gpu { /BinOp 1  /GPUBody 1  /GPUBody/CmpOp 1  /GPUBody/If 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<1xi32>, %a: i32) -> tensor<1xi32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %x = soac.index %A[%c0] : tensor<1xi32>
  %b = arith.muli %a, %two : i32
  %eq = arith.cmpi eq, %x, %b : i32
  %y = scf.if %eq -> (i32) {
    %b3 = arith.addi %b, %three : i32
    scf.yield %b3 : i32
  } else {
    scf.yield %b : i32
  }
  %r = soac.update %A[%c0] = %y : tensor<1xi32>, i32
  func.return %r : tensor<1xi32>
}
// CHECK-DAG: @main /binop [1]
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/cmpop [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if [1]
