// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/hoisting/dependent.fut to the soac dialect:
// a small chain: temp -> with_hoistable_mem0 -> the second half of with_hoistable_mem1, and the first half is copied from it.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 1 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %m1_mem = mem.alloc
// CHECK-NEXT: mem.copy %temp, %m0 :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%length: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %temp = soac.replicate %length, %one : i32 -> tensor<?xi32>
  %m0 = soac.copy %temp : tensor<?xi32>
  %m1 = soac.concat %temp, %m0 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %m1 : tensor<?xi32>
}
