// Port of Futhark's tests/migration/top-level0.fut: the migration analysis covers the
// top-level constants too, and only the constants that functions use are read. a and b
// are read into c = a + b, which main compares with x: the reads and the addition move
// into a gpu_body and c alone is read. Matching.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/BinOp 1  /Index 1  /CmpOp 1 }
// soacc has no top-level constants: they are the function @constants, which returns
// those that main uses (the sinks a function's use of a constant makes), and main calls
// it (once per call, where Futhark computes them once). Futhark's `opaque [4, 2]` is a
// literal of constants, which soacc neither moves nor folds into its indexes. Futhark
// counts every function's top level together: @constants has its GPUBody and Index,
// @main its CmpOp.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @constants() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k4 = arith.constant 4 : i32
  %k2 = arith.constant 2 : i32
  %arr = soac.array [%k4, %k2] : tensor<2xi32>
  %a = soac.index %arr[%c0] : tensor<2xi32>
  %b = soac.index %arr[%c1] : tensor<2xi32>
  %c = arith.addi %a, %b : i32
  func.return %c : i32
}

func.func @main(%x: i32) -> i1 {
  %c = func.call @constants() : () -> i32
  %r = arith.cmpi eq, %c, %x : i32
  func.return %r : i1
}
// CHECK-DAG: @constants /soac.gpu_body [1]
// CHECK-DAG: @constants /soac.gpu_body/soac.index [2]
// CHECK-DAG: @constants /soac.gpu_body/binop [1]
// CHECK-DAG: @constants /soac.index [1]
// CHECK-DAG: @main /cmpop [1]
// CHECK-DAG: @main soac.gpu_body [0]
