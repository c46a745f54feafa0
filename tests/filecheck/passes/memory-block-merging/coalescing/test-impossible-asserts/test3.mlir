// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/test-impossible-asserts/test3.fut to the soac dialect:
// ass = map (map (*5)) ass0 (opaque left out: only fusion sees it); as = map (+3) as0;
// ass[i] = as; xsss[i] = ass.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } seq-mem { Alloc 0 }. Here: 3 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 3; here 3 (ALL). As is made in ass[i] and ass in xsss[i]: only the arguments' blocks
// are left.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xsss_mem = mem.alloc
// CHECK-NEXT: %ass0_mem = mem.alloc
// CHECK-NEXT: %as0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xsss_mem = mem.alloc
// ALL-NEXT: %ass0_mem = mem.alloc
// ALL-NEXT: %as0_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xsss: tensor<?x?x?xi64>, %ass0: tensor<?x?xi64>, %as0: tensor<?xi64>, %i: index) -> tensor<?x?x?xi64> {
  %three = arith.constant 3 : i64
  %five = arith.constant 5 : i64
  %ass = soac.map(%ass0) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %s = soac.map(%r) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64):
      %y = arith.muli %x, %five : i64
      soac.yield %y : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  %as = soac.map(%as0) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %three : i64
    soac.yield %y : i64
  }
  %ass2 = soac.update %ass[%i] = %as : tensor<?x?xi64>, tensor<?xi64>
  %xsss2 = soac.update %xsss[%i] = %ass2 : tensor<?x?x?xi64>, tensor<?x?xi64>
  func.return %xsss2 : tensor<?x?x?xi64>
}
