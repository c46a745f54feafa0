// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/mix/misc/mix0.fut to the soac dialect:
// xs -> contents[i] (coalescing), final -> contents's block (reuse).
// Memory block merging: both (hoist-allocations, short-circuit, memory-reuse).
// Futhark: structure cpu { Alloc 1 } gpu { Alloc 5 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: %zr_mem = mem.alloc
// CHECK-NEXT: %contents_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs0: tensor<?xi32>, %i: index) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %zr = soac.replicate %n, %zero : i32 -> tensor<?xi32>
  %contents = soac.replicate %n, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %c2 = soac.update %contents[%i] = %xs : tensor<?x?xi32>, tensor<?xi32>
  %sums = soac.map(%c2) : (tensor<?x?xi32>) -> tensor<?xi32> {
  ^bb0(%row: tensor<?xi32>):
    %s = soac.reduce(%row) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb1(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    soac.yield %s : i32
  }
  %s = soac.reduce(%sums) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  %fr = soac.replicate %n, %s : i32 -> tensor<?xi32>
  %final = soac.replicate %n, %fr : tensor<?xi32> -> tensor<?x?xi32>
  func.return %final : tensor<?x?xi32>
}
