// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map3.fut to the soac dialect:
// xsss[i] = map (map (+1)) xsss[i].
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 0 }. Here: 1 device block and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 1
// + 1; here 1 (ALL). Xss is made in xsss[i], which it reads row by row (the index-access
// exception, as Futhark's sequential backend does).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xsss2_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xsss2_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xsss: tensor<?x?x?xi32>, %i: index) -> tensor<?x?x?xi32> {
  %one = arith.constant 1 : i32
  %slab = soac.index %xsss[%i] : tensor<?x?x?xi32>
  %xss = soac.map(%slab) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%row: tensor<?xi32>):
    %r = soac.map(%row) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %r : tensor<?xi32>
  }
  %xsss2 = soac.update %xsss[%i] = %xss : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %xsss2 : tensor<?x?x?xi32>
}
