// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/concat/pos0.fut to the soac dialect:
// t3 = concat t0 t1 and t4 = concat t3 t2: t0, t1 and t2 all end up in t4.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 3 } gpu-mem { Alloc 1 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %t4_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %t1 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %two : i32
    soac.yield %y : i32
  }
  %t2 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.divsi %x, %three : i32
    soac.yield %y : i32
  }
  %t3 = soac.concat %t0, %t1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %t4 = soac.concat %t3, %t2 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %t4 : tensor<?xi32>
}
