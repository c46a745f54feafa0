// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/if/if-nonexist.fut to the soac dialect:
// the branches update z in place (a run takes one); z, and so z2, made in y[1], x2 not merged.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 4 device block(s) and 2 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching: z is made in y[1] (the if's result is z itself, which both
// branches update in place), x2 is copied into its row in each branch; zr is the
// replicate's row (as chain1). Before, each branch copied z whole (the update in a
// branch of a value from outside the if was never in place).
// CHECK-LABEL: @main(
// CHECK-NEXT: %y_mem = mem.alloc
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %zr_mem = mem.alloc
// CHECK-NEXT: %x2_mem = mem.alloc
// CHECK-NEXT: mem.copy %x2, {{%[0-9]+}} :
// CHECK-NEXT: mem.copy %x2, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%y: tensor<?x?x?xi32>, %a: tensor<?xi32>) -> tensor<?x?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %a[0] : tensor<?xi32>
  %zr = soac.replicate %n, %zero : i32 -> tensor<?xi32>
  %z = soac.replicate %n, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %x2 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %v = arith.muli %x, %two : i32
    soac.yield %v : i32
  }
  %big = arith.cmpi ugt, %n, %c3 : index
  %z2 = scf.if %big -> (tensor<?x?xi32>) {
    %u = soac.update %z[%c0] = %x2 : tensor<?x?xi32>, tensor<?xi32>
    scf.yield %u : tensor<?x?xi32>
  } else {
    %u = soac.update %z[%c1] = %x2 : tensor<?x?xi32>, tensor<?xi32>
    scf.yield %u : tensor<?x?xi32>
  }
  %y2 = soac.update %y[%c1] = %z2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %y2 : tensor<?x?x?xi32>
}
