// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/chain/chain5.fut to the soac dialect:
// all three kinds in a chain: t0 -> t1 (copy) -> t2 (concat) -> t3[1] (in-place update).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %row_mem = mem.alloc
// CHECK-NEXT: %t3_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = soac.size %ns[0] : tensor<?xi32>
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %t1 = soac.copy %t0 : tensor<?xi32>
  %t2 = soac.concat %ns, %t1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %n2 = arith.muli %n, %c2 : index
  %row = soac.replicate %n2, %zero : i32 -> tensor<?xi32>
  %t3 = soac.replicate %c2, %row : tensor<?xi32> -> tensor<?x?xi32>
  %t4 = soac.update %t3[%c1] = %t2 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t4 : tensor<?x?xi32>
}
