// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map6.fut to the soac dialect:
// concat (map (+1) xs) (map (*2) xs).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 2 }. Here: 2 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). Both maps write their halves of the concat.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %c_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %c_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %ys = soac.map(%xs) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %zs = soac.map(%xs) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %z = arith.muli %x, %two : i64
    soac.yield %z : i64
  }
  %c = soac.concat %ys, %zs : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  func.return %c : tensor<?xi64>
}
