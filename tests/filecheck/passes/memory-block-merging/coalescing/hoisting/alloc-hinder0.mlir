// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/hoisting/alloc-hinder0.fut to the soac dialect:
// t2's size depends on t0's contents: only annoying is made in t2.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %t0_mem = mem.alloc
// CHECK-NEXT: %t2_mem = mem.alloc
// CHECK-NEXT: mem.copy %t0, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %t0 = soac.map(%ns) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %k0 = soac.index %t0[%c0] : tensor<?xi64>
  %k = arith.index_cast %k0 : i64 to index
  %annoying = soac.iota %k : tensor<?xi64>
  %t2 = soac.concat %t0, %annoying : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  func.return %t2 : tensor<?xi64>
}
