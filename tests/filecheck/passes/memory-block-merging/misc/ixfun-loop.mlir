// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/misc/ixfun-loop.fut to the soac dialect:
// b = loop (iota 10) for i < n: iota a[i], an array whose size changes every iteration;
// the result is reduce (+) 0 b.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: no structure; [0, 1000, 42, 1001, 50000] gives 1249975000. Here: 4 device
// blocks and 0 device-to-device copies left with coalescing, 3 device blocks and 0
// device-to-device copies with memory-reuse too (ALL), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching: soacc gives Futhark's result with the passes on; each
// iteration makes its iota in a block of its own (its size changes), and the reduction's
// one-element result takes the argument's block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %b0_mem = mem.alloc
// CHECK-NEXT: %next_mem = mem.alloc
// CHECK-NEXT: %s_dev_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %a_mem = mem.alloc
// ALL-NEXT: %b0_mem = mem.alloc
// ALL-NEXT: %next_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%a: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %a[0] : tensor<?xi64>
  %b0 = soac.iota %c10 : tensor<?xi64>
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %b0) -> (tensor<?xi64>) {
    %m = soac.index %a[%i] : tensor<?xi64>
    %mi = arith.index_cast %m : i64 to index
    %next = soac.iota %mi : tensor<?xi64>
    scf.yield %next : tensor<?xi64>
  }
  %s = soac.reduce(%b) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  func.return %s : i64
}
