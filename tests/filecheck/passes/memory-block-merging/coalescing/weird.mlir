// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/weird.fut to the soac dialect:
// xss = map (map (+1)) xss; xs = replicate n i; a loop for j < i sets xss[j] = xs; the
// result is copy xss (which Futhark's comment says should be short-circuited, the loop
// with it).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 2 } seq-mem { Alloc 2 }. Here: 3 device blocks and 1
// device-to-device copy left with coalescing, 2 device blocks and 1 device-to-device copy
// with memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 2
// + 1; here 2 (ALL). The loop updates xss in place (it carries nothing), xss is made in
// the copy's destination, and that takes the argument's block (the map reads it row by
// row); xs keeps its block, copied into row j in every iteration, as in Futhark.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss0_mem = mem.alloc
// CHECK-NEXT: %xss3_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: mem.copy %xs, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xss0_mem = mem.alloc
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: mem.copy %xs, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss0: tensor<?x?xi64>, %i: i64) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %n = soac.size %xss0[0] : tensor<?x?xi64>
  %xss = soac.map(%xss0) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %s = soac.map(%r) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64):
      %y = arith.addi %x, %one : i64
      soac.yield %y : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  %xs = soac.replicate %n, %i : i64 -> tensor<?xi64>
  %ii = arith.index_cast %i : i64 to index
  %xss2 = scf.for %j = %c0 to %ii step %c1 iter_args(%acc = %xss) -> (tensor<?x?xi64>) {
    %acc2 = soac.update %acc[%j] = %xs : tensor<?x?xi64>, tensor<?xi64>
    scf.yield %acc2 : tensor<?x?xi64>
  }
  %xss3 = soac.copy %xss2 : tensor<?x?xi64>
  func.return %xss3 : tensor<?x?xi64>
}
