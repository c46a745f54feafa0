// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/inplace-updates/fail.fut to the soac dialect:
// The entry point fail: b = replicate 4 0; b[1:3] = xs[2:4]; xs with [:4] = b. b cannot be
// made in xs[:4]: its update reads xs[2:4], which that overlaps.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 1 }. Here: 2 device blocks and 2
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). B keeps its block and is copied into xs[:4] (safety condition 3:
// xs[2:4] is read between b's making and the update); the argument's block is the
// result's.
// CHECK-LABEL: @main(
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %b_mem = mem.alloc
// CHECK-NEXT: mem.copy %part, {{%[0-9]+}} :
// CHECK-NEXT: mem.copy %b, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: %b_mem = mem.alloc
// ALL-NEXT: mem.copy %part, {{%[0-9]+}} :
// ALL-NEXT: mem.copy %b, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i64
  %b = soac.replicate %c4, %zero : i64 -> tensor<4xi64>
  %part = soac.slice %xs[%c2:%c2] : tensor<?xi64> -> tensor<?xi64>
  %b1 = soac.update %b[%c1:%c2] = %part : tensor<4xi64>, tensor<?xi64>
  %r = soac.update %xs[%c0:%c4] = %b1 : tensor<?xi64>, tensor<4xi64>
  func.return %r : tensor<?xi64>
}
