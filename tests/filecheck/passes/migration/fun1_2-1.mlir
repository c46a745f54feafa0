// Port of Futhark's tests/migration/fun1_2-1.fut: a call of a function without arrays
// moves with the reads it uses: two reads become one.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/Apply 1  /Index 1 }
// A moved call is inlined into its gpu_body (the CUDA lowering has no device calls):
// /GPUBody/Apply 1 is here the callee's addition in the gpu_body.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @plus(%x: i32, %y: i32) -> i32 {
  %s = arith.addi %x, %y : i32
  func.return %s : i32
}

func.func @main(%arr: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %arr[%c0] : tensor<2xi32>
  %b = soac.index %arr[%c1] : tensor<2xi32>
  %r = func.call @plus(%a, %b) : (i32, i32) -> i32
  func.return %r : i32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /soac.gpu_body/func.call [0]
// CHECK-DAG: @main /soac.gpu_body/binop [1]
// CHECK-DAG: @main /soac.index [1]
