// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/chain/chain1.fut to the soac dialect:
// vss[j] = xs; wsss[i] = vss: xs ends in wsss[i][j].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 5 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %w1_mem = mem.alloc
// CHECK-NEXT: %w2_mem = mem.alloc
// CHECK-NEXT: %wsss_mem = mem.alloc
// CHECK-NEXT: %v1_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>, %i: index, %j: index) -> tensor<?x?x?xi32> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %w1 = soac.replicate %n, %one : i32 -> tensor<?xi32>
  %w2 = soac.replicate %n, %w1 : tensor<?xi32> -> tensor<?x?xi32>
  %wsss = soac.replicate %n, %w2 : tensor<?x?xi32> -> tensor<?x?x?xi32>
  %v1 = soac.replicate %n, %two : i32 -> tensor<?xi32>
  %vss = soac.replicate %n, %v1 : tensor<?xi32> -> tensor<?x?xi32>
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %vss2 = soac.update %vss[%j] = %xs : tensor<?x?xi32>, tensor<?xi32>
  %wsss2 = soac.update %wsss[%i] = %vss2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %wsss2 : tensor<?x?x?xi32>
}
