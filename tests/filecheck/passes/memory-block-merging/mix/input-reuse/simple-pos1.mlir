// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/mix/input-reuse/simple-pos1.fut to the soac dialect:
// map (map (+1)) xss in xss's block.
// Memory block merging: both (hoist-allocations, short-circuit, memory-reuse).
// Futhark: structure { Alloc 0 }. Here: 1 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %xss_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %yss = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %ys : tensor<?xi32>
  }
  func.return %yss : tensor<?x?xi32>
}
