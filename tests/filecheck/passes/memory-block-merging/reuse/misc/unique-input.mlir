// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/reuse/misc/unique-input.fut to the soac dialect:
// z reads x shifted (interferes with x); v takes x's block.
// Memory block merging: reuse only (allocation-size hoisting, memory-reuse).
// Futhark: structure { Alloc 1 }. Here: 3 device block(s) and 0 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: %is_mem = mem.alloc
// CHECK-NEXT: %z_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = soac.size %x[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %z = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %x[%p] : tensor<?xi32>
      %s = arith.addi %t, %one : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  %k = soac.index %z[%c1] : tensor<?xi32>
  %w = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %z[%p] : tensor<?xi32>
      %s = arith.addi %t, %k : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  func.return %w : tensor<?xi32>
}
