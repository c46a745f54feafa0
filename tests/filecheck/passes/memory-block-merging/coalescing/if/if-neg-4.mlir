// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/if/if-neg-4.fut to the soac dialect:
// if-neg-3 with a nested if: no coalescing.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 3 }. Here: 7 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %y0_mem = mem.alloc
// CHECK-NEXT: %z0_mem = mem.alloc
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: %y_mem = mem.alloc
// CHECK-NEXT: %z_mem = mem.alloc
// CHECK-NEXT: %io_mem = mem.alloc
// CHECK-NEXT: %y1_mem = mem.alloc
// CHECK-NEXT: mem.copy %a, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%cond0: i1, %cond1: i1, %y0: tensor<?xi32>, %z0: tensor<?xi32>, %x: tensor<?x?xi32>) -> (tensor<?x?xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %y0[0] : tensor<?xi32>
  %y = soac.map(%y0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %one : i32
    soac.yield %f : i32
  }
  %z = soac.map(%z0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %one : i32
    soac.yield %f : i32
  }
  %a, %b, %c = scf.if %cond0 -> (tensor<?xi32>, i32, i32) {
    %r:3 = scf.if %cond1 -> (tensor<?xi32>, i32, i32) {
      %io = soac.iota %n : tensor<?xi32>
      %y1 = soac.map(%io) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb0(%e: i32):
        %f = arith.addi %e, %one : i32
        soac.yield %f : i32
      }
      %yk = soac.index %y[%c0] : tensor<?xi32>
      %zk = soac.index %z[%c0] : tensor<?xi32>
      scf.yield %y1, %yk, %zk : tensor<?xi32>, i32, i32
    } else {
      scf.yield %y, %zero, %zero : tensor<?xi32>, i32, i32
    }
    scf.yield %r#0, %r#1, %r#2 : tensor<?xi32>, i32, i32
  } else {
    scf.yield %z, %zero, %zero : tensor<?xi32>, i32, i32
  }
  %x2 = soac.update %x[%c0] = %a : tensor<?x?xi32>, tensor<?xi32>
  func.return %x2, %b, %c : tensor<?x?xi32>, i32, i32
}
