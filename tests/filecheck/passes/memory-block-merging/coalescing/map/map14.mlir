// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map14.fut to the soac dialect:
// two entry points, foo and bar, each map2 (+) xs ys with xs consumed (blocks of the same
// names in two functions).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } mc-mem { Alloc 0 } seq-mem { Alloc 2 }. Here:
// @foo: 3 device blocks and 0 device-to-device copies; @bar: 3 device blocks and 0
// device-to-device copies left with coalescing, @foo: 2 device blocks and 0
// device-to-device copies; @bar: 2 device blocks and 0 device-to-device copies with
// memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 2 in each; here 2 and 2 (ALL). The output takes an argument's block in each
// function.
// CHECK-LABEL: @foo(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// CHECK-LABEL: @bar(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @foo(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @bar(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @foo(%xs: tensor<?xi32>, %ys: tensor<?xi32>) -> tensor<?xi32> {
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    soac.yield %z : i32
  }
  func.return %zs : tensor<?xi32>
}
func.func @bar(%xs: tensor<?xi32>, %ys: tensor<?xi32>) -> tensor<?xi32> {
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.addi %x, %y : i32
    soac.yield %z : i32
  }
  func.return %zs : tensor<?xi32>
}
