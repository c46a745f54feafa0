// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/many-different-sizes.fut to the soac dialect:
// four arrays of four sizes; here the four arguments' device copies are all live on entry.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 1 }. Here: 4 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %b_mem = mem.alloc
// CHECK-NEXT: %c_mem = mem.alloc
// CHECK-NEXT: %d_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %c: tensor<?xi32>, %d: tensor<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %a1 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %ka = soac.index %a1[%c0] : tensor<?xi32>
  %b1 = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %ka : i32
    soac.yield %y : i32
  }
  %kb = soac.index %b1[%c0] : tensor<?xi32>
  %c1 = soac.map(%c) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %kb : i32
    soac.yield %y : i32
  }
  %kc = soac.index %c1[%c0] : tensor<?xi32>
  %d1 = soac.map(%d) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %kc : i32
    soac.yield %y : i32
  }
  %kd = soac.index %d1[%c0] : tensor<?xi32>
  func.return %kd : i32
}
