// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/misc/choice0.fut to the soac dialect:
// t0 -> t1 or t1 -> t2, not both: top-down takes t0 -> t1; annoying -> t2.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %t1_mem = mem.alloc
// CHECK-NEXT: %t2_mem = mem.alloc
// CHECK-NEXT: mem.copy %t1, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %t0[%c0] : tensor<?xi32>
  %k = arith.index_cast %k0 : i32 to index
  %annoying = soac.iota %k : tensor<?xi32>
  %t1 = soac.copy %t0 : tensor<?xi32>
  %t2 = soac.concat %t1, %annoying : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %t2 : tensor<?xi32>
}
