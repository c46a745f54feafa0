// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/issue-1789.fut to the soac dialect:
// xs with [:2*i] = copy xs[i:], i = n/3: the copy's source overlaps its destination, so
// the copy must stay (Futhark's issue 1789 was a wrong result from coalescing it).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 }. Here: 2 device blocks and 2 device-to-device
// copies left (the same with memory-reuse too), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). The copy of xs[i:] keeps its block and is copied into xs[:2*i].
// CHECK-LABEL: @main(
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %t_mem = mem.alloc
// CHECK-NEXT: mem.copy %tail, %t :
// CHECK-NEXT: mem.copy %t, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: %t_mem = mem.alloc
// ALL-NEXT: mem.copy %tail, %t :
// ALL-NEXT: mem.copy %t, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = soac.size %xs[0] : tensor<?xi32>
  %i = arith.divsi %n, %c3 : index
  %rest = arith.subi %n, %i : index
  %tail = soac.slice %xs[%i:%rest] : tensor<?xi32> -> tensor<?xi32>
  %t = soac.copy %tail : tensor<?xi32>
  %i2 = arith.muli %c2, %i : index
  %r = soac.update %xs[%c0:%i2] = %t : tensor<?xi32>, tensor<?xi32>
  func.return %r : tensor<?xi32>
}
