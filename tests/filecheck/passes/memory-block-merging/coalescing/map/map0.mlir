// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map0.fut to the soac dialect:
// xss[i] = map (+1) xss[i]: the map reads row i and writes it.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } seq-mem { Alloc 0 }. Here: 1 device block and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 1; here 1 (ALL). Xs is made in row i of xss (the index-access exception: each lane
// reads its element before writing it).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss2_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xss2_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>, %i: index) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %row = soac.index %xss[%i] : tensor<?x?xi32>
  %xs = soac.map(%row) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %xss2 = soac.update %xss[%i] = %xs : tensor<?x?xi32>, tensor<?xi32>
  func.return %xss2 : tensor<?x?xi32>
}
