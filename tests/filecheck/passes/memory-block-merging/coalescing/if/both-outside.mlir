// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/if/both-outside.fut to the soac dialect:
// both branch arrays exist before the if: no coalescing of ys.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 4 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys0_mem = mem.alloc
// CHECK-NEXT: %io_mem = mem.alloc
// CHECK-NEXT: %ys1_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi64>, %cond: i1, %i: index) -> tensor<?x?xi64> {
  %one = arith.constant 1 : i64
  %n = soac.size %xs[0] : tensor<?x?xi64>
  %ys0 = soac.iota %n : tensor<?xi64>
  %io = soac.iota %n : tensor<?xi64>
  %ys1 = soac.map(%io) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    %f = arith.addi %e, %one : i64
    soac.yield %f : i64
  }
  %ys = scf.if %cond -> (tensor<?xi64>) {
    scf.yield %ys0 : tensor<?xi64>
  } else {
    scf.yield %ys1 : tensor<?xi64>
  }
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi64>, tensor<?xi64>
  func.return %xs2 : tensor<?x?xi64>
}
