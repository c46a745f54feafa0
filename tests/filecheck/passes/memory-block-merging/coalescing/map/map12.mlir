// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map12.fut to the soac dialect:
// per row: ys = scan (+) 0 row, zs = map (+1) ys, the row's result reverse zs.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 2 }. Here: 4 device blocks and 0 device-to-device
// copies left with coalescing, 2 device blocks and 0 device-to-device copies with
// memory-reuse too (ALL), counting the device copies of the arguments (Futhark's
// parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 2
// + 1; here 2 (ALL). The result takes the argument's block (soacc's device copy of an
// argument is its own; Futhark's xs is not consumed), and zs takes ys's per-lane block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %m = soac.size %xs[1] : tensor<?x?xi32>
  %last = arith.subi %m, %c1 : index
  %r = soac.map(%xs) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%row: tensor<?xi32>):
    %ys = soac.scan(%row) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%y: i32):
      %z = arith.addi %y, %one : i32
      soac.yield %z : i32
    }
    %rev = soac.slice %zs[%last:%m:%m1] : tensor<?xi32> -> tensor<?xi32>
    soac.yield %rev : tensor<?xi32>
  }
  func.return %r : tensor<?x?xi32>
}
