// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/copy/pos3.fut to the soac dialect:
// t1 is read (k = t1[0,1]) before t0 is made, so t0 can be made in t1[i].
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 1 } gpu-mem { Alloc 2 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %mss_mem = mem.alloc
// CHECK-NEXT: %t1_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i: index, %ns: tensor<?xi32>, %mss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %t1 = soac.map(%mss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%ms: tensor<?xi32>):
    %r = soac.map(%ms) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %r : tensor<?xi32>
  }
  %k = soac.index %t1[%c0, %c1] : tensor<?x?xi32>
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k : i32
    soac.yield %y : i32
  }
  %t2 = soac.update %t1[%i] = %t0 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t2 : tensor<?x?xi32>
}
