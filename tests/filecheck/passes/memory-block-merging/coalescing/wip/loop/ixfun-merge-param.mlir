// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>|scf.for' | filecheck %s --check-prefix=PAST
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/wip/loop/ixfun-merge-param.fut to the soac dialect:
// a loop result as the second part of a concat: disabled (the study's limitation L2).
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: (wip) disabled. Here: 3 device block(s) and 2 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %a0_mem = mem.alloc
// CHECK-NEXT: %b1_mem = mem.alloc
// CHECK-NEXT: %x_mem = mem.alloc
// CHECK-NEXT: mem.copy %a0, {{%[0-9]+}} :
// CHECK-NEXT: mem.copy %a1, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// With memory-reuse, soacc goes past L2: the loop starts from a copy of a0 in x's second
// half and iterates there in place; b1's block and the copy of a1 go (2 device blocks).
// PAST-LABEL: @main(
// PAST-NEXT: %a0_mem = mem.alloc
// PAST-NEXT: %x_mem = mem.alloc
// PAST-NEXT: mem.copy %a0, %a1 :
// PAST-NEXT: scf.for
// PAST-NEXT: mem.copy %a0, {{%[0-9]+}} :
// PAST-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %it = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %x = soac.concat %a0, %a1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}
