// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-2/pos0.fut to the soac dialect:
// xs is a parameter, allocated before ys is made: ys in xs[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 0 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i: index, %xs: tensor<?x?xi32>, %ys0: tensor<?xi32>) -> tensor<?x?xi32> {
  %two = arith.constant 2 : i32
  %ys = soac.map(%ys0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %two : i32
    soac.yield %y : i32
  }
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi32>, tensor<?xi32>
  func.return %xs2 : tensor<?x?xi32>
}
