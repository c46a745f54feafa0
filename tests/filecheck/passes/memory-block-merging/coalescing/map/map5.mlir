// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map5.fut to the soac dialect:
// map over the rows of transpose xss: each lane copies its row and updates it in a loop,
// xs'[i] = xs'[i] * i.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 2 } seq-mem { Alloc 1 }. Here: 3 device blocks and 1
// device-to-device copy left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 2 + 1; here 3 (ALL). The result, and a per-lane copy of the row, copied into the output
// row when the lane ends (a yielded loop is not coalesced).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %init_mem = mem.alloc
// CHECK-NEXT: mem.copy %xs, %init :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xss_mem = mem.alloc
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: %init_mem = mem.alloc
// ALL-NEXT: mem.copy %xs, %init :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = soac.size %xss[0] : tensor<?x?xi64>
  %t = soac.transpose %xss [1, 0] : tensor<?x?xi64> -> tensor<?x?xi64>
  %r = soac.map(%t) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%xs: tensor<?xi64>):
    %init = soac.copy %xs : tensor<?xi64>
    %res = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %init) -> (tensor<?xi64>) {
      %e = soac.index %acc[%i] : tensor<?xi64>
      %ii = arith.index_cast %i : index to i64
      %p = arith.muli %e, %ii : i64
      %acc2 = soac.update %acc[%i] = %p : tensor<?xi64>, i64
      scf.yield %acc2 : tensor<?xi64>
    }
    soac.yield %res : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
