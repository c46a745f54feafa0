// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/if/if-neg-3-pos.fut to the soac dialect:
// b is read before y0 is made: y0 and b both in x[0].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 0 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%cond: i1, %x: tensor<?x?xi32>, %a: tensor<?xi32>) -> (tensor<?x?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %b = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %one : i32
    soac.yield %f : i32
  }
  %y, %r = scf.if %cond -> (tensor<?xi32>, i32) {
    %k = soac.index %b[%c0] : tensor<?xi32>
    %y0 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%e: i32):
      %f = arith.addi %e, %one : i32
      soac.yield %f : i32
    }
    scf.yield %y0, %k : tensor<?xi32>, i32
  } else {
    scf.yield %b, %zero : tensor<?xi32>, i32
  }
  %x2 = soac.update %x[%c0] = %y : tensor<?x?xi32>, tensor<?xi32>
  func.return %x2, %r : tensor<?x?xi32>, i32
}
