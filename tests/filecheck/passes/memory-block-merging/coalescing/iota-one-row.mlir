// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/iota-one-row.fut to the soac dialect:
// The entry point iota_one_row: xs with [i] = iota m.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } seq-mem { Alloc 0 }. Here: 1 device block and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 1; here 1 (ALL). The iota is made in row i of the argument's block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i: index, %xs: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %m = soac.size %xs[1] : tensor<?x?xi64>
  %row = soac.iota %m : tensor<?xi64>
  %r = soac.update %xs[%i] = %row : tensor<?x?xi64>, tensor<?xi64>
  func.return %r : tensor<?x?xi64>
}
