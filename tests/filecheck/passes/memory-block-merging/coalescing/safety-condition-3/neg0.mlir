// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-3/neg0.fut to the soac dialect:
// zs reads xs[i] while ys is live: no coalescing of ys.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 4 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs2_mem = mem.alloc
// CHECK-NEXT: %ys0_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi32>, %ys0: tensor<?xi32>, %i: index) -> (tensor<?x?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = soac.map(%ys0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %ys[%c0] : tensor<?xi32>
  %row = soac.index %xs[%i] : tensor<?x?xi32>
  %zs = soac.map(%row) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k : i32
    soac.yield %y : i32
  }
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi32>, tensor<?xi32>
  %z = soac.index %zs[%i] : tensor<?xi32>
  func.return %xs2, %z : tensor<?x?xi32>, i32
}
