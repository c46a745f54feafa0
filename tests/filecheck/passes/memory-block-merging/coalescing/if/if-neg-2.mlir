// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/if/if-neg-2.fut to the soac dialect:
// x is read in the then-branch while r is live: no coalescing of z.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 5 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %b_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %m_mem = mem.alloc
// CHECK-NEXT: mem.copy %z, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%x: tensor<?x?xi32>, %a: tensor<?xi32>, %b: tensor<?xi32>) -> (tensor<?x?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a[0] : tensor<?xi32>
  %x00 = soac.index %x[%c0, %c0] : tensor<?x?xi32>
  %pos = arith.cmpi sgt, %x00, %zero : i32
  %z, %s = scf.if %pos -> (tensor<?xi32>, i32) {
    %r = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%e: i32):
      %f = arith.addi %e, %one : i32
      soac.yield %f : i32
    }
    %idx = arith.index_cast %x00 : i32 to index
    %q = soac.index %x[%idx, %c0] : tensor<?x?xi32>
    scf.yield %r, %q : tensor<?xi32>, i32
  } else {
    %m = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%e: i32):
      %f = arith.muli %e, %two : i32
      soac.yield %f : i32
    }
    scf.yield %m, %two : tensor<?xi32>, i32
  }
  %half = arith.divui %n, %c2 : index
  %x2 = soac.update %x[%half] = %z : tensor<?x?xi32>, tensor<?xi32>
  func.return %x2, %s : tensor<?x?xi32>, i32
}
