// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/map-reduce-map.fut to the soac dialect:
// per row, as = map (+1) xs, a = reduce as, bs = map (+a) xs: bs is built in its row of the argument's block, as is a per-lane block.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure gpu-mem { Alloc 2 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss_mem = mem.alloc
// CHECK-NEXT: %as_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %as = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %a = soac.reduce(%as) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb1(%l: i32, %q: i32):
      %s = arith.addi %l, %q : i32
      soac.yield %s : i32
    }
    %bs = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %a : i32
      soac.yield %y : i32
    }
    soac.yield %bs : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
