// Port of Futhark's tests/migration/map-reduce.fut (Listing 1 of the study, vector
// norm): the reduction's result is never read, the square root moves to the device
// and the last map reads it there.
//   structure gpu { /GPUBody 1  /GPUBody/Apply 1  /Index 0  /SegRed 1  /SegMap 1 }
// (Futhark's Apply is f32.sqrt, math.sqrt here; soacc does not fuse the first map into
// the reduce, so there are two maps.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xf32>) -> tensor<?xf32> {
  %pow2 = soac.map(%A) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %sq = arith.mulf %x, %x : f32
    soac.yield %sq : f32
  }
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%pow2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %len = math.sqrt %sum : f32
  %res = soac.map(%A) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.divf %x, %len : f32
    soac.yield %q : f32
  }
  func.return %res : tensor<?xf32>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/math [1]
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.reduce [1]
// CHECK-DAG: @main /soac.map [2]
