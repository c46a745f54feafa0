// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/wip/input-reuse/nested-reuse1.fut to the soac dialect:
// each lane reads its row to make ys, then writes its output row from ys: the output takes xss's block.
// Memory block merging: both (hoist-allocations, short-circuit, memory-reuse).
// Futhark: structure gpu { Alloc 0 } (wip). Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zss = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %ys[%c0] : tensor<?xi32>
    %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%y: i32):
      %z = arith.addi %y, %k : i32
      soac.yield %z : i32
    }
    soac.yield %zs : tensor<?xi32>
  }
  func.return %zss : tensor<?x?xi32>
}
