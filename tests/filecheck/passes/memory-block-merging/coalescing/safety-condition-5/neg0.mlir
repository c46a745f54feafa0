// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-5/neg0.fut to the soac dialect:
// the row t0 goes to depends on t0's contents: no coalescing.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %t1_mem = mem.alloc
// CHECK-NEXT: %t0_mem = mem.alloc
// CHECK-NEXT: mem.copy %t0, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>, %t1: tensor<?x?xi32>, %i0: index) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %v = soac.index %t0[%i0] : tensor<?xi32>
  %i1 = arith.index_cast %v : i32 to index
  %t2 = soac.update %t1[%i1] = %t0 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t2 : tensor<?x?xi32>
}
