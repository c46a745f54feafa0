// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/copy/neg1.fut to the soac dialect:
// t0 reads t1[i] rotated (other lanes' elements): it cannot be made in t1[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 4 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %t2_mem = mem.alloc
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %is_mem = mem.alloc
// CHECK-NEXT: %t0_mem = mem.alloc
// CHECK-NEXT: mem.copy %t0, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%t1: tensor<?x?xi32>, %i: index, %ns: tensor<?xi32>) -> tensor<?x?xi32> {
  %c1 = arith.constant 1 : index
  %n = soac.size %ns[0] : tensor<?xi32>
  %row = soac.index %t1[%i] : tensor<?x?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %t0 = soac.map(%row, %ns, %is) : (tensor<?xi32>, tensor<?xi32>, tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32, %j: index):
    %j1 = arith.addi %j, %c1 : index
    %jn = arith.remui %j1, %n : index
    %z = soac.index %row[%jn] : tensor<?xi32>
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %z : i32
    soac.yield %t : i32
  }
  %t2 = soac.update %t1[%i] = %t0 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t2 : tensor<?x?xi32>
}
