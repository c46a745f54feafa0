// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map4.fut to the soac dialect:
// map over j in iota n: each lane copies xs and updates it in a loop, xs'[i] = xs'[i] * i
// + j.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 1 }. Here: 4 device blocks and 1
// device-to-device copy left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and worse. Futhark's gpu-mem count plus one block per array parameter: 1
// + 1; here 4 (ALL). Iota n is a block of its own (Futhark reads its elements as the
// lane's index; soacc's fuse-iota does so in the default pipeline, not in these passes),
// and each lane's copy of xs, which its loop updates in place, stays a per-lane block
// copied into the output row when the lane ends: short-circuit coalesces a lambda's
// yielded if into the output row, not a yielded loop (arrays from loops are not coalesced,
// the study's limitation).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %js_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %init_mem = mem.alloc
// CHECK-NEXT: mem.copy %xs, %init :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %js_mem = mem.alloc
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: %init_mem = mem.alloc
// ALL-NEXT: mem.copy %xs, %init :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %xs[0] : tensor<?xi64>
  %js = soac.iota %n : tensor<?xi64>
  %r = soac.map(%js) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%j: i64):
    %init = soac.copy %xs : tensor<?xi64>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<?xi64>) {
      %e = soac.index %acc[%i] : tensor<?xi64>
      %ii = arith.index_cast %i : index to i64
      %p = arith.muli %e, %ii : i64
      %s = arith.addi %p, %j : i64
      %acc2 = soac.update %acc[%i] = %s : tensor<?xi64>, i64
      scf.yield %acc2 : tensor<?xi64>
    }
    soac.yield %res : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
