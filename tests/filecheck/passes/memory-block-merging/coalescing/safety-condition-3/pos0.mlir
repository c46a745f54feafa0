// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-3/pos0.fut to the soac dialect:
// zs reads ys instead: ys in xs[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys0_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi32>, %ys0: tensor<?xi32>, %i: index) -> (tensor<?x?xi32>, i32) {
  %one = arith.constant 1 : i32
  %ys = soac.map(%ys0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi32>, tensor<?xi32>
  %z = soac.index %zs[%i] : tensor<?xi32>
  func.return %xs2, %z : tensor<?x?xi32>, i32
}
