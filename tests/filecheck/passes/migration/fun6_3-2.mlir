// Port of Futhark's tests/migration/fun6_3-2.fut: three reads to two returned values:
// the reads and the call move, the two results are read.
//   structure gpu { /GPUBody 1  /GPUBody/Index 3  /GPUBody/Apply 1  /Index 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @pick2(%x: i32, %y: i32, %z: i32) -> (i32, i32) {
  func.return %x, %z : i32, i32
}

func.func @main(%arr: tensor<3xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c0] : tensor<3xi32>
  %b = soac.index %arr[%c1] : tensor<3xi32>
  %c = soac.index %arr[%c2] : tensor<3xi32>
  %x, %y = func.call @pick2(%a, %b, %c) : (i32, i32, i32) -> (i32, i32)
  func.return %x, %y : i32, i32
}
// The read of arr[1] nobody uses is removed (dead code), and the gpu_body left only
// copies arr[0] and arr[2] for the host: the host reads them itself (the same two reads,
// no kernel).
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [2]
