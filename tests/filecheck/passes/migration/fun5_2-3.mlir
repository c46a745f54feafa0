// Port of Futhark's tests/migration/fun5_2-3.fut: two reads to three returned values:
// nothing moves.
//   structure gpu { GPUBody 0  /Index 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @id3(%x: i32, %y: i32, %z: i32) -> (i32, i32, i32) {
  func.return %x, %y, %z : i32, i32, i32
}

func.func @main(%arr: tensor<3xi32>) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %arr[%c0] : tensor<3xi32>
  %b = soac.index %arr[%c1] : tensor<3xi32>
  %x, %y, %z = func.call @id3(%a, %b, %a) : (i32, i32, i32) -> (i32, i32, i32)
  func.return %x, %y, %z : i32, i32, i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [2]
