// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/limitation0.fut to the soac dialect:
// linear scan's limitation (Fig 9.6): 3 blocks for xs0..xs3.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 3 }. Here: 4 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %is_mem = mem.alloc
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: %xs2_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 1 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %xs0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  %k1 = soac.index %xs0[%c0] : tensor<?xi32>
  %xs1 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k1 : i32
    soac.yield %y : i32
  }
  %k2 = soac.index %xs1[%c0] : tensor<?xi32>
  %xs2 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %xs1[%j] : tensor<?xi32>
    %s = arith.addi %e, %k2 : i32
    soac.yield %s : i32
  }
  %k3 = soac.index %xs2[%c0] : tensor<?xi32>
  %xs3 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %xs0[%j] : tensor<?xi32>
    %f = soac.index %xs2[%j] : tensor<?xi32>
    %s = arith.addi %e, %f : i32
    %t = arith.addi %s, %k3 : i32
    soac.yield %t : i32
  }
  func.return %xs3 : tensor<?xi32>
}
