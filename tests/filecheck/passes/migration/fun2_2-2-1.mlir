// Port of Futhark's tests/migration/fun2_2-2-1.fut: two reads through a call to one
// sum: everything moves and the sum is read.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/Apply 1  /GPUBody/BinOp 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @id2(%x: i32, %y: i32) -> (i32, i32) {
  func.return %x, %y : i32, i32
}

func.func @main(%arr: tensor<3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %arr[%c0] : tensor<3xi32>
  %b = soac.index %arr[%c1] : tensor<3xi32>
  %x, %y = func.call @id2(%a, %b) : (i32, i32) -> (i32, i32)
  %s = arith.addi %x, %y : i32
  func.return %s : i32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /soac.gpu_body/func.call [0]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
