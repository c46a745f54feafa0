// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/wip/misc/reshape0.fut to the soac dialect:
// a view of t0 (a transpose here; soac has no reshape) is copied: not coalesced (the study's limitation L1).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: (wip) target Alloc 1. Here: 3 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %t0_mem = mem.alloc
// CHECK-NEXT: %t1_mem = mem.alloc
// CHECK-NEXT: mem.copy %t0a, %t1 :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %t0 = soac.map(%ns) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%r: tensor<?xi32>):
    %s = soac.map(%r) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %s : tensor<?xi32>
  }
  %t0a = soac.transpose %t0 [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
  %t1 = soac.copy %t0a : tensor<?x?xi32>
  func.return %t1 : tensor<?x?xi32>
}
