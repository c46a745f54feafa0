// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/hoisting/copy-in-if.fut to the soac dialect:
// in a branch, the copy's block moves above temp (its size is read from lengths' first).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure { Alloc 2 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %lengths_mem = mem.alloc
// CHECK-NEXT: %l2_mem = mem.alloc
// CHECK-NEXT: %h_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%cond: i1, %lengths: tensor<?xindex>, %index: index) -> tensor<?xindex> {
  %one = arith.constant 1 : index
  %r = scf.if %cond -> (tensor<?xindex>) {
    %l2 = soac.map(%lengths) : (tensor<?xindex>) -> tensor<?xindex> {
    ^bb0(%x: index):
      %y = arith.addi %x, %one : index
      soac.yield %y : index
    }
    %k = soac.index %l2[%index] : tensor<?xindex>
    %temp = soac.replicate %k, %one : index -> tensor<?xindex>
    %h = soac.copy %temp : tensor<?xindex>
    scf.yield %h : tensor<?xindex>
  } else {
    scf.yield %lengths : tensor<?xindex>
  }
  func.return %r : tensor<?xindex>
}
