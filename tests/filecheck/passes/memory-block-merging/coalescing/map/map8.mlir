// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map8.fut to the soac dialect:
// map2 (+) xs ys, xs consumed.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } mc-mem { Alloc 0 } seq-mem { Alloc 1 }. Here: 3
// device blocks and 0 device-to-device copies left with coalescing, 2 device blocks and 0
// device-to-device copies with memory-reuse too (ALL), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 2; here 2 (ALL). The output takes an argument's block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi32>, %ys: tensor<?xi32>) -> tensor<?xi32> {
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    soac.yield %z : i32
  }
  func.return %zs : tensor<?xi32>
}
