// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-2/neg0.fut to the soac dialect:
// ys, a caller's array, exists before xs can be allocated: no coalescing in @helper (an entry point's ys would be our own device copy: see pos0).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 1 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func private @helper(%i: index, %ys: tensor<?xi32>) -> tensor<?x?xi32> {
  %n = soac.size %ys[0] : tensor<?xi32>
  %row = soac.iota %n : tensor<?xi32>
  %xs = soac.replicate %n, %row : tensor<?xi32> -> tensor<?x?xi32>
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi32>, tensor<?xi32>
  func.return %xs2 : tensor<?x?xi32>
}
func.func @main(%i: index, %ys: tensor<?xi32>) -> tensor<?x?xi32> {
  %r = func.call @helper(%i, %ys) : (index, tensor<?xi32>) -> tensor<?x?xi32>
  func.return %r : tensor<?x?xi32>
}
