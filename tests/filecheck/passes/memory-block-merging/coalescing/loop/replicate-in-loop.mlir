// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/loop/replicate-in-loop.fut to the soac dialect:
// a2, a loop result, must not be coalesced into a3 (its iterations' blocks must stay apart).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %a0_mem = mem.alloc
// CHECK-NEXT: %b0_mem = mem.alloc
// CHECK-NEXT: %a3_mem = mem.alloc
// CHECK-NEXT: mem.copy %a2, %a3 :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%a0: tensor<?xi32>, %n_iter: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a2 = scf.for %it = %c0 to %n_iter step %c1 iter_args(%a = %a0) -> (tensor<?xi32>) {
    %b0 = soac.replicate %n, %zero : i32 -> tensor<?xi32>
    %a1 = scf.for %j = %c0 to %n step %c1 iter_args(%b = %b0) -> (tensor<?xi32>) {
      %e = soac.index %a[%j] : tensor<?xi32>
      %f = arith.addi %e, %one : i32
      %b2 = soac.update %b[%j] = %f : tensor<?xi32>, i32
      scf.yield %b2 : tensor<?xi32>
    }
    scf.yield %a1 : tensor<?xi32>
  }
  %a3 = soac.copy %a2 : tensor<?xi32>
  func.return %a3 : tensor<?xi32>
}
