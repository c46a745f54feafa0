// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map1.fut to the soac dialect:
// xss[i] = map2 (+) xss[i] xss[i+1].
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 0 }. Here: 1 device block and 0
// device-to-device copies left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 1 (ALL). Xs is made in row i, where Futhark's GPU pipeline copies it there:
// the index-access exception (interference.map_exception) takes row i, read and written
// lane by lane, beside row i+1, whose bytes are all apart from row i.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss2_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xss2_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>, %i: index) -> tensor<?x?xi32> {
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i, %c1 : index
  %row0 = soac.index %xss[%i] : tensor<?x?xi32>
  %row1 = soac.index %xss[%i1] : tensor<?x?xi32>
  %xs = soac.map(%row0, %row1) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %y = arith.addi %a, %b : i32
    soac.yield %y : i32
  }
  %xss2 = soac.update %xss[%i] = %xs : tensor<?x?xi32>, tensor<?xi32>
  func.return %xss2 : tensor<?x?xi32>
}
