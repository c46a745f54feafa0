// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/misc/two-dim-ker.fut to the soac dialect:
// map over the rows of drop 1 xsss, and over their rows as: r = sum of as by a loop; a
// loop over bs = iota n sets bs[j] = bs[j] * r in place.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure seq-mem { Alloc 1 } gpu-mem { Alloc 2 }. Here: 3 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 2 + 1; here 3 (ALL). The result, and each lane's iota, which its loop updates in place
// and which is copied into its output row when the lane ends (a yielded loop is not
// coalesced into the output row).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xsss_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %bs0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xsss_mem = mem.alloc
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: %bs0_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xsss: tensor<?x?x?xi64>) -> tensor<?x?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %xsss[0] : tensor<?x?x?xi64>
  %rest = arith.subi %n, %c1 : index
  %asss = soac.slice %xsss[%c1:%rest] : tensor<?x?x?xi64> -> tensor<?x?x?xi64>
  %r = soac.map(%asss) : (tensor<?x?x?xi64>) -> tensor<?x?x?xi64> {
  ^bb0(%ass: tensor<?x?xi64>):
    %rows = soac.map(%ass) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
    ^bb1(%as: tensor<?xi64>):
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
        %e = soac.index %as[%i] : tensor<?xi64>
        %acc2 = arith.addi %acc, %e : i64
        scf.yield %acc2 : i64
      }
      %bs0 = soac.iota %n : tensor<?xi64>
      %bs = scf.for %j = %c0 to %n step %c1 iter_args(%b = %bs0) -> (tensor<?xi64>) {
        %e = soac.index %b[%j] : tensor<?xi64>
        %p = arith.muli %e, %sum : i64
        %b2 = soac.update %b[%j] = %p : tensor<?xi64>, i64
        scf.yield %b2 : tensor<?xi64>
      }
      soac.yield %bs : tensor<?xi64>
    }
    soac.yield %rows : tensor<?x?xi64>
  }
  func.return %r : tensor<?x?x?xi64>
}
