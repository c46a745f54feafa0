// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/different-dimensions.fut to the soac dialect:
// [m][n] then [n][m]: the same bytes.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 1 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss_mem = mem.alloc
// CHECK-NEXT: %row_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %m = soac.size %xss[0] : tensor<?x?xi32>
  %n = soac.size %xss[1] : tensor<?x?xi32>
  %yss = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %ys : tensor<?xi32>
  }
  %k = soac.index %yss[%c0, %c0] : tensor<?x?xi32>
  %row = soac.replicate %m, %k : i32 -> tensor<?xi32>
  %zss = soac.replicate %n, %row : tensor<?xi32> -> tensor<?x?xi32>
  func.return %zss : tensor<?x?xi32>
}
