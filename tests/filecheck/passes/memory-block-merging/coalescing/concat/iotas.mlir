// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/concat/iotas.fut to the soac dialect:
// concat (iota i) (iota j): both iotas written in place.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 1 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %c_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i: index, %j: index) -> tensor<?xi64> {
  %a = soac.iota %i : tensor<?xi64>
  %b = soac.iota %j : tensor<?xi64>
  %c = soac.concat %a, %b : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  func.return %c : tensor<?xi64>
}
