// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-4/neg0.fut to the soac dialect:
// ys is a row of zs, not an array of its own: no coalescing.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 1 }. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %zs0_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi32>, %zs0: tensor<?x?xi32>, %i: index, %j: index) -> tensor<?x?xi32> {
  %three = arith.constant 3 : i32
  %zs = soac.map(%zs0) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%z: tensor<?xi32>):
    %r = soac.map(%z) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.muli %x, %three : i32
      soac.yield %y : i32
    }
    soac.yield %r : tensor<?xi32>
  }
  %ys = soac.index %zs[%i] : tensor<?x?xi32>
  %xs2 = soac.update %xs[%j] = %ys : tensor<?x?xi32>, tensor<?xi32>
  func.return %xs2 : tensor<?x?xi32>
}
