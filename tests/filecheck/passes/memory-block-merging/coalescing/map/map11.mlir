// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -c 'mem.map ' | filecheck %s --check-prefix=KERNELS
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/map/map11.fut to the soac dialect:
// loop xs for 10 iterations: map (+2) (map (+1) (reverse xs)); reverse is a slice of
// stride -1 here; Futhark's opaque only stops fusion, which these passes do not do, so it
// is left out.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu { SegMap 2 } (two kernels: the reverse is not made). Here: 3
// device blocks and 0 device-to-device copies left with coalescing, 2 device blocks and 0
// device-to-device copies with memory-reuse too (ALL), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching: two kernels (KERNELS), both in the loop, and no
// device-to-device copy (the reverse stays a view); memory-reuse puts zs in the carried
// block.
// CHECK-LABEL: @main(
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %xs0_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// KERNELS: {{^2$}}
func.func @main(%xs0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %m1 = arith.constant -1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %it = %c0 to %c10 step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %rev = soac.slice %xs[%last:%n:%m1] : tensor<?xi32> -> tensor<?xi32>
    %ys = soac.map(%rev) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%y: i32):
      %z = arith.addi %y, %two : i32
      soac.yield %z : i32
    }
    scf.yield %zs : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
