// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/last-use-in-result.fut to the soac dialect:
// dst0's last use is the result: dst1 does not take its block.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: (Fig 6.1) 2 allocations. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %src_mem = mem.alloc
// CHECK-NEXT: %dst0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%src: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %dst0 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %dst0[%c0] : tensor<?xi32>
  %dst1 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %k : i32
    soac.yield %y : i32
  }
  func.return %dst0, %dst1 : tensor<?xi32>, tensor<?xi32>
}
