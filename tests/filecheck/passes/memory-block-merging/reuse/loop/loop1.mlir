// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/loop/loop1.fut to the soac dialect:
// in the loop body, xs2 takes xs1's block.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 2 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: %xs1_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %r = scf.for %it = %c0 to %n step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %xs1 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %xs1[%c0] : tensor<?xi32>
    %xs2 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    scf.yield %xs2 : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
