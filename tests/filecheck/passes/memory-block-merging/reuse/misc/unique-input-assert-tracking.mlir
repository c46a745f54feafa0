// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/unique-input-assert-tracking.fut to the soac dialect:
// x: *[n], y: [n]; k = x[0]; map (+k) y (here y's block, freed by the map, is taken).
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 0 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: %y_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %k = soac.index %x[%c0] : tensor<?xi32>
  %z = soac.map(%y) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %k : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}
