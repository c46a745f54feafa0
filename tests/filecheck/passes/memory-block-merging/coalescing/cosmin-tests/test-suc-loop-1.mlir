// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/cosmin-tests/test-suc-loop-1.fut to the soac dialect:
// yss = replicate n (replicate n 33); bs = loop (iota n) for i < n: map (* i) bs; yss[ind]
// = bs (the parameters as and inds are not used, and soacc does not copy them to the
// device).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 3 } seq-mem { Alloc 3 }. Here: 5 device blocks and 1
// device-to-device copy left with coalescing, 2 device blocks and 1 device-to-device copy
// with memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 3
// + 1 (ass, of which only the size is read); here 2 (ALL). Short-circuit does not coalesce
// a loop's result (the study's limitation), but memory-reuse does: the loop starts from a
// copy of iota n in yss[ind] and iterates there in place; yss takes the block of ass and
// iota n the replicate's row's block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %ass_mem = mem.alloc
// CHECK-NEXT: %row_mem = mem.alloc
// CHECK-NEXT: %yss_mem = mem.alloc
// CHECK-NEXT: %bs0_mem = mem.alloc
// CHECK-NEXT: %b2_mem = mem.alloc
// CHECK-NEXT: mem.copy %bs, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %ass_mem = mem.alloc
// ALL-NEXT: %row_mem = mem.alloc
// ALL-NEXT: mem.copy %bs0, %bs :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ind: index, %ass: tensor<?x?xi64>, %as: tensor<?xi64>, %inds: tensor<?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v33 = arith.constant 33 : i64
  %n = soac.size %ass[0] : tensor<?x?xi64>
  %row = soac.replicate %n, %v33 : i64 -> tensor<?xi64>
  %yss = soac.replicate %n, %row : tensor<?xi64> -> tensor<?x?xi64>
  %bs0 = soac.iota %n : tensor<?xi64>
  %bs = scf.for %i = %c0 to %n step %c1 iter_args(%b = %bs0) -> (tensor<?xi64>) {
    %ii = arith.index_cast %i : index to i64
    %b2 = soac.map(%b) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb0(%x: i64):
      %y = arith.muli %x, %ii : i64
      soac.yield %y : i64
    }
    scf.yield %b2 : tensor<?xi64>
  }
  %yss2 = soac.update %yss[%ind] = %bs : tensor<?x?xi64>, tensor<?xi64>
  func.return %yss2 : tensor<?x?xi64>
}
