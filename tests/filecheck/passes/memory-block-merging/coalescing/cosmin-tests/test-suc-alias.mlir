// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/cosmin-tests/test-suc-alias.fut to the soac dialect:
// yss = replicate (n+1) (replicate (n+1) 2); as = row sums of ass; cs = as[2:] and ds =
// as[:n-2] (views of as; Futhark's bs = opaque as is as itself here, opaque only stopping
// fusion) are summed; then yss[ind, 1:] = as.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 4 } seq-mem { Alloc 1 }. Here: 5 device blocks and 0
// device-to-device copies left with coalescing, 3 device blocks and 0 device-to-device
// copies with memory-reuse too (ALL), counting the device copies of the arguments
// (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 4
// + 1; here 3 (ALL). As is made in yss[ind, 1:] although its slices are read after it is
// made (they are read before the update); the reductions' one-element device results take
// the argument's block once it is dead. The row of the replicate keeps a block of its own.
// CHECK-LABEL: @main(
// CHECK-NEXT: %ass_mem = mem.alloc
// CHECK-NEXT: %row_mem = mem.alloc
// CHECK-NEXT: %yss_mem = mem.alloc
// CHECK-NEXT: %r1_dev_mem = mem.alloc
// CHECK-NEXT: %r2_dev_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %ass_mem = mem.alloc
// ALL-NEXT: %row_mem = mem.alloc
// ALL-NEXT: %yss_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ind: index, %ass: tensor<?x?xi64>) -> (i64, i64, tensor<?x?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %two = arith.constant 2 : i64
  %n = soac.size %ass[0] : tensor<?x?xi64>
  %np1 = arith.addi %n, %c1 : index
  %row = soac.replicate %np1, %two : i64 -> tensor<?xi64>
  %yss = soac.replicate %np1, %row : tensor<?xi64> -> tensor<?x?xi64>
  %as = soac.map(%ass) : (tensor<?x?xi64>) -> tensor<?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %s = soac.reduce(%r) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
    ^bb1(%a: i64, %b: i64):
      %t = arith.addi %a, %b : i64
      soac.yield %t : i64
    }
    soac.yield %s : i64
  }
  %nm2 = arith.subi %n, %c2 : index
  %cs = soac.slice %as[%c2:%nm2] : tensor<?xi64> -> tensor<?xi64>
  %ds = soac.slice %as[%c0:%nm2] : tensor<?xi64> -> tensor<?xi64>
  %r1 = soac.reduce(%cs) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%a: i64, %b: i64):
    %t = arith.addi %a, %b : i64
    soac.yield %t : i64
  }
  %r2 = soac.reduce(%ds) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%a: i64, %b: i64):
    %t = arith.addi %a, %b : i64
    soac.yield %t : i64
  }
  %yss2 = soac.update %yss[%ind, %c1:%n] = %as : tensor<?x?xi64>, tensor<?xi64>
  func.return %r1, %r2, %yss2 : i64, i64, tensor<?x?xi64>
}
