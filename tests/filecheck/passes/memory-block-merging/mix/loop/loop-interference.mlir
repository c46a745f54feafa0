// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/mix/loop/loop-interference.fut to the soac dialect:
// zs is coalesced into the copy yielded; it takes ys's block within the iteration.
// Memory block merging: both (hoist-allocations, short-circuit, memory-reuse).
// Futhark: structure { Alloc 2 }. Here: 2 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %ns[0] : tensor<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%xs = %ns) -> (tensor<?xi32>) {
    %ii = arith.index_cast %i : index to i32
    %ys = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %ii : i32
      soac.yield %y : i32
    }
    %a = soac.index %xs[%i] : tensor<?xi32>
    %b = soac.index %ys[%i] : tensor<?xi32>
    %k = arith.addi %a, %b : i32
    %zs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    %cz = soac.copy %zs : tensor<?xi32>
    scf.yield %cz : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
