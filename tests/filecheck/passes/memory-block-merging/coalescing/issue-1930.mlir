// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | filecheck %s --check-prefix=ASSERT
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/issue-1930.fut to the soac dialect:
// dst with [1:4] = iota k, dst a consumed argument: Futhark's test expects an error for k
// = 5000 (its issue 1930 was an iota made in dst[1:4] without the size check).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: error for k = 5000 and dst = [1] (no structure). Here: 1 device block and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching: iota k is made in dst[1:4] and the update's size check
// stays before it (ASSERT); soacc-run fails for k = 5000 with dst = [1] (index out of
// bounds) and with a dst of 10 elements (the size check), with and without the passes.
// CHECK-LABEL: @main(
// CHECK-NEXT: %dst_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %dst_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ASSERT: cf.assert {{%[0-9]+}}, "%src does not fit a part of %dst, where it is written (their sizes differ in dimension 0)"
// ASSERT-NEXT: mem.iota outs(%src :
func.func @main(%k: index, %dst: tensor<?xi64>) -> tensor<?xi64> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %src = soac.iota %k : tensor<?xi64>
  %r = soac.update %dst[%c1:%c3] = %src : tensor<?xi64>, tensor<?xi64>
  func.return %r : tensor<?xi64>
}
