// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/test-impossible-asserts/iota-inlined-perfbug.fut to the soac dialect:
// a = iota n; b = if i > 5 then a[i:n] else a[0:n-i]; s = reduce (+) 0 b; xs[i] = a; the
// result is (s, xs).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 3 } seq-mem { Alloc 2 }. Here: 2 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 3
// + 1; here 2 (ALL): xs and the reduction's one-element result; a is made in xs[i]:
// convert-soac-to-mem gives the if no result for a's block, which both branches yield
// unchanged (before, that result made short-circuit's fresh_array, safety condition 4,
// refuse a's block and a was copied into xs[i]).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %s_dev_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %s_dev_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi64>, %i: index) -> (i64, tensor<?x?xi64>) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %xs[0] : tensor<?x?xi64>
  %a = soac.iota %n : tensor<?xi64>
  %big = arith.cmpi sgt, %i, %c5 : index
  %cnt = arith.subi %n, %i : index
  %b = scf.if %big -> (tensor<?xi64>) {
    %hi = soac.slice %a[%i:%cnt] : tensor<?xi64> -> tensor<?xi64>
    scf.yield %hi : tensor<?xi64>
  } else {
    %lo = soac.slice %a[%c0:%cnt] : tensor<?xi64> -> tensor<?xi64>
    scf.yield %lo : tensor<?xi64>
  }
  %s = soac.reduce(%b) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %xs2 = soac.update %xs[%i] = %a : tensor<?x?xi64>, tensor<?xi64>
  func.return %s, %xs2 : i64, tensor<?x?xi64>
}
