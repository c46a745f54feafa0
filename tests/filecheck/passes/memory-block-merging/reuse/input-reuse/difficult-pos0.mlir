// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/input-reuse/difficult-pos0.fut to the soac dialect:
// each lane's scalar loop reads its element; the output takes xs's block.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 0 }. Here: 1 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %xi = arith.index_cast %x : i32 to index
    %y = scf.for %i = %c0 to %xi step %c1 iter_args(%acc = %zero) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %s = arith.addi %acc, %x : i32
      %t = arith.addi %s, %ii : i32
      scf.yield %t : i32
    }
    soac.yield %y : i32
  }
  func.return %ys : tensor<?xi32>
}
