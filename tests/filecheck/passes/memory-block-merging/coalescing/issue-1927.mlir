// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | filecheck %s --check-prefix=ASSERT
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/issue-1927.fut to the soac dialect:
// dst = iota 5; dst with [1:4] = iota k: the sizes agree only when k = 3 (Futhark's issue
// 1927 was an iota k made in dst[1:4] without that check).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 2 }. Here: 1 device block and 0 device-to-device
// copies left (the same with memory-reuse too), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 2
// + 0; here 1 (ALL). Iota k is made in dst[1:4] (one block), and the update's size check
// stays before it (ASSERT), so the program fails as Futhark's does when k is not 3.
// CHECK-LABEL: @main(
// CHECK-NEXT: %dst_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %dst_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ASSERT: cf.assert {{%[0-9]+}}, "%src does not fit a part of %dst, where it is written (their sizes differ in dimension 0)"
// ASSERT-NEXT: mem.iota outs(%src :
func.func @main(%k: index) -> tensor<5xi64> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %src = soac.iota %k : tensor<?xi64>
  %dst = soac.iota %c5 : tensor<5xi64>
  %r = soac.update %dst[%c1:%c3] = %src : tensor<5xi64>, tensor<?xi64>
  func.return %r : tensor<5xi64>
}
