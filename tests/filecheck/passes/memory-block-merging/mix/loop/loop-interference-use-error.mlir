// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/mix/loop/loop-interference-use-error.fut to the soac dialect:
// k0 reads xs0[i]: ts0 must not take xs0's block.
// Memory block merging: both (hoist-allocations, short-circuit, memory-reuse).
// Futhark: structure { Alloc 4 }. Here: 4 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ns_mem = mem.alloc
// CHECK-NEXT: %xs0_mem = mem.alloc
// CHECK-NEXT: mem.copy %ns, %xs0 :
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: %ts0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %xs0 = soac.copy %ns : tensor<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %ys[%i] : tensor<?xi32>
    %ts0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %a = soac.index %ys[%j] : tensor<?xi32>
    %b = soac.index %ts0[%i] : tensor<?xi32>
    %c = soac.index %xs0[%i] : tensor<?xi32>
    %ab = arith.addi %a, %b : i32
    %k0 = arith.addi %ab, %c : i32
    %ts1 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k0 : i32
      soac.yield %y : i32
    }
    scf.yield %ts1 : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}
