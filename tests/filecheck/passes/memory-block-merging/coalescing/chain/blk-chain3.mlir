// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/chain/blk-chain3.fut to the soac dialect:
// blk-chain2 with ind1 = i1 + 1: u = map (map (+1)) v; u[i1+1] = map (+i1) a; u[i1+2] =
// map (+i2) a; z[i1+i2+k] = u (indices converted to index first).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure seq-mem { Alloc 2 } gpu-mem { Alloc 1 }. Here: 3 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 1
// + 3; here 3 (ALL). B and c are made in their rows of u and u in z[i1+i2+k], so all three
// live in z: only the arguments' blocks are left.
// CHECK-LABEL: @main(
// CHECK-NEXT: %a_mem = mem.alloc
// CHECK-NEXT: %v_mem = mem.alloc
// CHECK-NEXT: %z_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %a_mem = mem.alloc
// ALL-NEXT: %v_mem = mem.alloc
// ALL-NEXT: %z_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i1: i32, %i2: i32, %k: i32, %a: tensor<?xi32>, %v: tensor<?x?xi32>, %z: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %one = arith.constant 1 : i32
  %u = soac.map(%v) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%r: tensor<?xi32>):
    %s = soac.map(%r) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %s : tensor<?xi32>
  }
  %b = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %i1 : i32
    soac.yield %y : i32
  }
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i1i = arith.index_cast %i1 : i32 to index
  %i2i = arith.index_cast %i2 : i32 to index
  %ki = arith.index_cast %k : i32 to index
  %ind1i = arith.addi %i1i, %c1 : index
  %u1 = soac.update %u[%ind1i] = %b : tensor<?x?xi32>, tensor<?xi32>
  %c = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %i2 : i32
    soac.yield %y : i32
  }
  %ind2i = arith.addi %i1i, %c2 : index
  %u2 = soac.update %u1[%ind2i] = %c : tensor<?x?xi32>, tensor<?xi32>
  %i12 = arith.addi %i1i, %i2i : index
  %zi = arith.addi %i12, %ki : index
  %z2 = soac.update %z[%zi] = %u2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %z2 : tensor<?x?x?xi32>
}
