// Port of Futhark's tests/migration/fun0_hostonly.fut: calls of functions that use
// arrays (and of functions calling those) are host-only: their arguments are read.
//   structure gpu { GPUBody 0  /Index 3 }
// (Futhark counts every function's top level: two reads in main, one in fun''.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @fun2(%a: i32, %b: i32) -> i32 {
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i32
  %r = soac.replicate %c10, %a : i32 -> tensor<10xi32>
  %xs = soac.scan(%r) neutral(%zero : i32) : (tensor<10xi32>) -> tensor<10xi32> {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    soac.yield %s : i32
  }
  %k10 = arith.constant 10 : i32
  %m = arith.remui %b, %k10 : i32
  %i = arith.index_cast %m : i32 to index
  %e = soac.index %xs[%i] : tensor<10xi32>
  func.return %e : i32
}

func.func private @fun1(%a: i32, %b: i32) -> i32 {
  %r = func.call @fun2(%a, %b) : (i32, i32) -> i32
  func.return %r : i32
}

func.func private @fun(%a: i32, %b: i32) -> i32 {
  %r = func.call @fun1(%a, %b) : (i32, i32) -> i32
  func.return %r : i32
}

func.func @main(%arr: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %arr[%c0] : tensor<2xi32>
  %b = soac.index %arr[%c1] : tensor<2xi32>
  %r = func.call @fun(%a, %b) : (i32, i32) -> i32
  func.return %r : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @fun soac.gpu_body [0]
// CHECK-DAG: @fun1 soac.gpu_body [0]
// CHECK-DAG: @fun2 soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [2]
// CHECK-DAG: @fun2 /soac.index [1]
