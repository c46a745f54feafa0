// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/test-impossible-asserts/test2.fut to the soac dialect:
// a = map (\e -> e * e / 3) a0; a[i] = 33; xs[i] = a; the result is (a, xs): a is
// returned, so it cannot be made in xs[i].
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 1 }. Here: 3 device blocks and 1
// device-to-device copy left with coalescing, 2 device blocks and 1 device-to-device copy
// with memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 1
// + 2; here 2 (ALL). A takes a0's block and is copied into xs[i] (safety condition 1: a is
// used after the update, as in Futhark).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %a0_mem = mem.alloc
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: mem.copy %a, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %a0_mem = mem.alloc
// ALL-NEXT: mem.copy %a, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi64>, %a0: tensor<?xi64>, %i: index) -> (tensor<?xi64>, tensor<?x?xi64>) {
  %three = arith.constant 3 : i64
  %v33 = arith.constant 33 : i64
  %a = soac.map(%a0) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    %sq = arith.muli %e, %e : i64
    %q = arith.divsi %sq, %three : i64
    soac.yield %q : i64
  }
  %a1 = soac.update %a[%i] = %v33 : tensor<?xi64>, i64
  %xs2 = soac.update %xs[%i] = %a1 : tensor<?x?xi64>, tensor<?xi64>
  func.return %a1, %xs2 : tensor<?xi64>, tensor<?x?xi64>
}
