// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/chain/chain3.fut to the soac dialect:
// xs cannot go into vss[j] (vss is used after xs is made); vss goes into wsss[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 3 } gpu-mem { Alloc 4 }. Here: 7 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %vss0_mem = mem.alloc
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %w1_mem = mem.alloc
// CHECK-NEXT: %w2_mem = mem.alloc
// CHECK-NEXT: %wsss_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %use_vss_mem = mem.alloc
// CHECK-NEXT: mem.copy %xs, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%vss0: tensor<?x?xi32>, %ns: tensor<?xi32>, %i: index, %j: index) -> (tensor<?x?x?xi32>, tensor<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %w1 = soac.replicate %n, %one : i32 -> tensor<?xi32>
  %w2 = soac.replicate %n, %w1 : tensor<?xi32> -> tensor<?x?xi32>
  %wsss = soac.replicate %n, %w2 : tensor<?x?xi32> -> tensor<?x?x?xi32>
  %vss = soac.map(%vss0) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%vs: tensor<?xi32>):
    %r = soac.map(%vs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%v: i32):
      %u = arith.addi %v, %two : i32
      soac.yield %u : i32
    }
    soac.yield %r : tensor<?xi32>
  }
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%c0] : tensor<?xi32>
  %use_vss = soac.map(%vss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%vs: tensor<?xi32>):
    %r = soac.map(%vs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%v: i32):
      %u = arith.addi %v, %k : i32
      soac.yield %u : i32
    }
    soac.yield %r : tensor<?xi32>
  }
  %vss2 = soac.update %vss[%j] = %xs : tensor<?x?xi32>, tensor<?xi32>
  %wsss2 = soac.update %wsss[%i] = %vss2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %wsss2, %use_vss : tensor<?x?x?xi32>, tensor<?x?xi32>
}
