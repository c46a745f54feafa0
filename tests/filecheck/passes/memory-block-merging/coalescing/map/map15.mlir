// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map15.fut to the soac dialect:
// xs = map (+1) xs (opaque left out: only fusion sees it); ys = map f32.i32 xs.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 }. Here: 3 device blocks and 0 device-to-device
// copies left with coalescing, 1 device block and 0 device-to-device copies with
// memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 1; here 1 (ALL). Both maps write the argument's block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs0_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs0: tensor<?xi32>) -> tensor<?xf32> {
  %one = arith.constant 1 : i32
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xf32> {
  ^bb0(%x: i32):
    %y = arith.sitofp %x : i32 to f32
    soac.yield %y : f32
  }
  func.return %ys : tensor<?xf32>
}
