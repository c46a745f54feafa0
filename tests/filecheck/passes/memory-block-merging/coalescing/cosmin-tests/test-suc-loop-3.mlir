// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/cosmin-tests/test-suc-loop-3.fut to the soac dialect:
// yss = map (map (+1)) ass; cs = row sums of yss; xs = replicate n 0 with xs[0] = cs[0]; a
// loop updates xs[i+1] = 3 * xs[i] + cs[i] * i in place; yss[ind] = xs.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 4 } seq-mem { Alloc 2 }. Here: 3 device blocks and 0
// device-to-device copies left with coalescing, 2 device blocks and 0 device-to-device
// copies with memory-reuse too (ALL), counting the device copies of the arguments
// (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 4
// + 1; here 2 (ALL). The loop carries nothing (its updates are in place, as in Futhark),
// so xs is the replicate's array throughout, and that is made in yss[ind] (after cs has
// read yss); yss takes the block of ass.
// CHECK-LABEL: @main(
// CHECK-NEXT: %ass_mem = mem.alloc
// CHECK-NEXT: %yss2_mem = mem.alloc
// CHECK-NEXT: %cs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %ass_mem = mem.alloc
// ALL-NEXT: %cs_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ind: index, %ass: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %three = arith.constant 3 : i64
  %n = soac.size %ass[0] : tensor<?x?xi64>
  %yss = soac.map(%ass) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %s = soac.map(%r) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%x: i64):
      %y = arith.addi %x, %one : i64
      soac.yield %y : i64
    }
    soac.yield %s : tensor<?xi64>
  }
  %cs = soac.map(%yss) : (tensor<?x?xi64>) -> tensor<?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %s = soac.reduce(%r) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
    ^bb1(%a: i64, %b: i64):
      %t = arith.addi %a, %b : i64
      soac.yield %t : i64
    }
    soac.yield %s : i64
  }
  %xs0 = soac.replicate %n, %zero : i64 -> tensor<?xi64>
  %c00 = soac.index %cs[%c0] : tensor<?xi64>
  %xs1 = soac.update %xs0[%c0] = %c00 : tensor<?xi64>, i64
  %nm1 = arith.subi %n, %c1 : index
  %xs = scf.for %i = %c0 to %nm1 step %c1 iter_args(%x = %xs1) -> (tensor<?xi64>) {
    %xi = soac.index %x[%i] : tensor<?xi64>
    %ci = soac.index %cs[%i] : tensor<?xi64>
    %ii = arith.index_cast %i : index to i64
    %a = arith.muli %three, %xi : i64
    %b = arith.muli %ci, %ii : i64
    %v = arith.addi %a, %b : i64
    %i1 = arith.addi %i, %c1 : index
    %x2 = soac.update %x[%i1] = %v : tensor<?xi64>, i64
    scf.yield %x2 : tensor<?xi64>
  }
  %yss2 = soac.update %yss[%ind] = %xs : tensor<?x?xi64>, tensor<?xi64>
  func.return %yss2 : tensor<?x?xi64>
}
