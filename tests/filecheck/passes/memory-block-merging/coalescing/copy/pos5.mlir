// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/copy/pos5.fut to the soac dialect:
// each lane makes its row with a loop (per-lane blocks); the map's output is made in t1[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure cpu { Alloc 0 } gpu { Alloc 2 }. Here: 4 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %t1_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %init_mem = mem.alloc
// CHECK-NEXT: %next_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%t1: tensor<?x?x?xi32>, %i: index, %xs: tensor<?xi32>) -> tensor<?x?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %n = soac.size %xs[0] : tensor<?xi32>
  %t0 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?x?xi32> {
  ^bb0(%x: i32):
    %init = soac.replicate %n, %x : i32 -> tensor<?xi32>
    %res = scf.for %j = %c0 to %c10 step %c1 iter_args(%acc = %init) -> (tensor<?xi32>) {
      %next = soac.map(%acc) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb1(%e: i32):
        %f = arith.addi %e, %x : i32
        soac.yield %f : i32
      }
      scf.yield %next : tensor<?xi32>
    }
    soac.yield %res : tensor<?xi32>
  }
  %t2 = soac.update %t1[%i] = %t0 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %t2 : tensor<?x?x?xi32>
}
