// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/concat/same.fut to the soac dialect:
// concat ys ys: ys is made in the second half, the first half is copied from it.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 2 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %ten = arith.constant 10 : i32
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %ten : i32
    soac.yield %y : i32
  }
  %zs = soac.concat %ys, %ys : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %zs : tensor<?xi32>
}
