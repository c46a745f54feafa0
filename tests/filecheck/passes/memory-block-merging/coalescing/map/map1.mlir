// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map1.fut to the soac dialect:
// xss[i] = map2 (+) xss[i] xss[i+1].
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 0 }. Here: 2 device blocks and 1
// device-to-device copy left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). Xs keeps a block of its own and is copied into row i, as on
// Futhark's GPU: the map has two inputs in xss's block (rows i and i+1), and the
// index-access exception (interference.map_exception) takes only one.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss2_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: mem.copy %xs, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xss2_mem = mem.alloc
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: mem.copy %xs, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>, %i: index) -> tensor<?x?xi32> {
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i, %c1 : index
  %row0 = soac.index %xss[%i] : tensor<?x?xi32>
  %row1 = soac.index %xss[%i1] : tensor<?x?xi32>
  %xs = soac.map(%row0, %row1) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %y = arith.addi %a, %b : i32
    soac.yield %y : i32
  }
  %xss2 = soac.update %xss[%i] = %xs : tensor<?x?xi32>, tensor<?xi32>
  func.return %xss2 : tensor<?x?xi32>
}
