// Port of Futhark's tests/migration/fun7_3-2.fut: two reads passed to a call of three
// arguments with two results: no reduction of reads to gain, so nothing moves and the
// two elements are read.
//   structure gpu { /GPUBody 0  /Index 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @pick2(%x: i32, %y: i32, %z: i32) -> (i32, i32) {
  func.return %x, %y : i32, i32
}

func.func @main(%arr: tensor<3xi32>) -> (i32, i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c1] : tensor<3xi32>
  %b = soac.index %arr[%c2] : tensor<3xi32>
  %x, %y = func.call @pick2(%a, %b, %a) : (i32, i32, i32) -> (i32, i32)
  func.return %x, %y : i32, i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [2]
