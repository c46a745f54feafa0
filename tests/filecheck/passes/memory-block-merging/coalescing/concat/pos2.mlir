// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/concat/pos2.fut to the soac dialect:
// y[0] = concat (map (+1) a) (map (+1) b) with y a parameter.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 0 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %b_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ys: tensor<?x?xi32>, %a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %a1 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %b1 = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %z = soac.concat %a1, %b1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %ys2 = soac.update %ys[%c0] = %z : tensor<?x?xi32>, tensor<?xi32>
  func.return %ys2 : tensor<?x?xi32>
}
