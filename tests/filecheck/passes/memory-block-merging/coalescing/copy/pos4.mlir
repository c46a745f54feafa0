// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/copy/pos4.fut to the soac dialect:
// t0 = map2 (+) t1[i] ns is made in t1[i] although it reads t1[i]: each lane reads its element before writing it (an index-access exception).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 0 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %t2_mem = mem.alloc
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%t1: tensor<?x?xi32>, %i: index, %ns: tensor<?xi32>) -> tensor<?x?xi32> {
  %row = soac.index %t1[%i] : tensor<?x?xi32>
  %t0 = soac.map(%row, %ns) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    soac.yield %s : i32
  }
  %t2 = soac.update %t1[%i] = %t0 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t2 : tensor<?x?xi32>
}
