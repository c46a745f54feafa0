// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/chain/chain2.fut to the soac dialect:
// xs -> vss[j] only: wsss is used (use_wsss) after vss is made.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 3 } gpu-mem { Alloc 5 }. Here: 6 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %wsss0_mem = mem.alloc
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %wsss2_mem = mem.alloc
// CHECK-NEXT: %v1_mem = mem.alloc
// CHECK-NEXT: %vss_mem = mem.alloc
// CHECK-NEXT: %use_wsss_mem = mem.alloc
// CHECK-NEXT: mem.copy %vss, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%wsss0: tensor<?x?x?xi32>, %ns: tensor<?xi32>, %i: index, %j: index) -> (tensor<?x?x?xi32>, tensor<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %wsss = soac.map(%wsss0) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%wss: tensor<?x?xi32>):
    %a = soac.map(%wss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb1(%ws: tensor<?xi32>):
      %b = soac.map(%ws) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb2(%w: i32):
        %v = arith.addi %w, %one : i32
        soac.yield %v : i32
      }
      soac.yield %b : tensor<?xi32>
    }
    soac.yield %a : tensor<?x?xi32>
  }
  %v1 = soac.replicate %n, %two : i32 -> tensor<?xi32>
  %vss = soac.replicate %n, %v1 : tensor<?xi32> -> tensor<?x?xi32>
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%c0] : tensor<?xi32>
  %use_wsss = soac.map(%wsss) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%wss: tensor<?x?xi32>):
    %a = soac.map(%wss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb1(%ws: tensor<?xi32>):
      %b = soac.map(%ws) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb2(%w: i32):
        %v = arith.addi %w, %k : i32
        soac.yield %v : i32
      }
      soac.yield %b : tensor<?xi32>
    }
    soac.yield %a : tensor<?x?xi32>
  }
  %vss2 = soac.update %vss[%j] = %xs : tensor<?x?xi32>, tensor<?xi32>
  %wsss2 = soac.update %wsss[%i] = %vss2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %wsss2, %use_wsss : tensor<?x?x?xi32>, tensor<?x?x?xi32>
}
