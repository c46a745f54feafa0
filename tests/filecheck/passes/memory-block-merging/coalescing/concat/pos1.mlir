// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/concat/pos1.fut to the soac dialect:
// t3[i] = concat (concat t0 t1) t2 with t3 made first: all in row i of t3.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 3 } gpu-mem { Alloc 1 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %zr_mem = mem.alloc
// CHECK-NEXT: %t3_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>, %i: index) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %c3 = arith.constant 3 : index
  %n = soac.size %ns[0] : tensor<?xi32>
  %n3 = arith.muli %n, %c3 : index
  %zr = soac.replicate %n3, %zero : i32 -> tensor<?xi32>
  %t3 = soac.replicate %n, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %t1 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %two : i32
    soac.yield %y : i32
  }
  %t2 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.divsi %x, %three : i32
    soac.yield %y : i32
  }
  %c01 = soac.concat %t0, %t1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %c012 = soac.concat %c01, %t2 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %t4 = soac.update %t3[%i] = %c012 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t4 : tensor<?x?xi32>
}
