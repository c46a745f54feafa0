// Port of Futhark's tests/migration/fun2_2-1_unused.fut: a call with an unused result
// moves with its reads; the one result used on the host is read.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/Apply 1  /Index 1 }
// Here the unused read is removed (dead code), and what is left of the gpu_body only
// copies arr[1] for the host to read: merge-gpu-bodies has the host read arr[1] itself
// (one read, as in Futhark, and no kernel).
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
  func.return %y : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
