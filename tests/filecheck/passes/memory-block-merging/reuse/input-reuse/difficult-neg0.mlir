// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/input-reuse/difficult-neg0.fut to the soac dialect:
// xs is read again by zs after ys is made.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 1 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %ys[%c0] : tensor<?xi32>
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %k : i32
    soac.yield %t : i32
  }
  func.return %zs : tensor<?xi32>
}
