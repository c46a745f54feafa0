// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/loop/copy-from-outside.fut to the soac dialect:
// t, made before the loop, is read every iteration: its block is not reused inside.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure cpu { Alloc 4 } gpu { Alloc 3 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %t_mem = mem.alloc
// CHECK-NEXT: %init_mem = mem.alloc
// CHECK-NEXT: %u_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%k: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = soac.iota %k : tensor<?xi32>
  %init = soac.iota %k : tensor<?xi32>
  %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init) -> (tensor<?xi32>) {
    %u = soac.map(%acc, %t) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    %v = soac.map(%u) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32):
      %s = arith.muli %a, %a : i32
      soac.yield %s : i32
    }
    scf.yield %v : tensor<?xi32>
  }
  func.return %res : tensor<?xi32>
}
