// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/loop/loop-ip.fut to the soac dialect:
// acc is updated in place, as in Futhark (the update consumes it, and its other use, the
// read of acc[i], comes first), so the loop carries nothing and its array is a0
// throughout; a0 is then copied into y's row: it is not made there (short-circuit does
// not coalesce an array a loop writes after it is made).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 0 }. Here: 2 device block(s) and 1 device-to-device copy left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %y_mem = mem.alloc
// CHECK-NEXT: %a0_mem = mem.alloc
// CHECK-NEXT: mem.copy %a0, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// memory-reuse (ALL) has nothing more to do.
// ALL-LABEL: @main(
// ALL-NEXT: %y_mem = mem.alloc
// ALL-NEXT: %a0_mem = mem.alloc
// ALL-NEXT: mem.copy %a0, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%y: tensor<?x?xi32>, %a: tensor<?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nine = arith.constant 9 : i32
  %n = soac.size %y[0] : tensor<?x?xi32>
  %m = soac.size %a[0] : tensor<?xi32>
  %y1 = soac.update %y[%c0, %c1] = %nine : tensor<?x?xi32>, i32
  %a0 = soac.copy %a : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %a0) -> (tensor<?xi32>) {
    %e = soac.index %acc[%i] : tensor<?xi32>
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %ii, %e : i32
    %acc2 = soac.update %acc[%i] = %s : tensor<?xi32>, i32
    scf.yield %acc2 : tensor<?xi32>
  }
  %half = arith.divui %n, %c2 : index
  %y2 = soac.update %y1[%half] = %a1 : tensor<?x?xi32>, tensor<?xi32>
  func.return %y2 : tensor<?x?xi32>
}
