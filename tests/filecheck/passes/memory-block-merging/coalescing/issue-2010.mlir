// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/issue-2010.fut to the soac dialect:
// partition2 (cond x = x & 1 == 0) arr: flags, two scans of 0/1 flags, the indices and a
// scatter into replicate n 0 (Futhark's scalar ifs in the lambdas are selects here).
// Futhark's issue 2010 was a wrong result from short-circuiting.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: no structure; input [1..7] gives 3 and [2,4,6,1,3,5,7]. Here: 9 device blocks
// and 0 device-to-device copies left with coalescing, 5 device blocks and 0
// device-to-device copies with memory-reuse too (ALL), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching: soacc gives Futhark's result (3 and [2, 4, 6, 1, 3, 5, 7])
// with the passes on; nothing here is coalesced, and memory-reuse shares four blocks among
// the temporaries.
// CHECK-LABEL: @main(
// CHECK-NEXT: %arr_mem = mem.alloc
// CHECK-NEXT: %cs_mem = mem.alloc
// CHECK-NEXT: %tfs_mem = mem.alloc
// CHECK-NEXT: %isT_mem = mem.alloc
// CHECK-NEXT: %ffs_mem = mem.alloc
// CHECK-NEXT: %sF_mem = mem.alloc
// CHECK-NEXT: %isF_mem = mem.alloc
// CHECK-NEXT: %inds_mem = mem.alloc
// CHECK-NEXT: %tmp_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %arr_mem = mem.alloc
// ALL-NEXT: %cs_mem = mem.alloc
// ALL-NEXT: %tfs_mem = mem.alloc
// ALL-NEXT: %isT_mem = mem.alloc
// ALL-NEXT: %sF_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%arr: tensor<?xi32>) -> (i64, tensor<?xi32>) {
  %c1 = arith.constant 1 : index
  %zero32 = arith.constant 0 : i32
  %one32 = arith.constant 1 : i32
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = soac.size %arr[0] : tensor<?xi32>
  %cs = soac.map(%arr) : (tensor<?xi32>) -> tensor<?xi1> {
  ^bb0(%x: i32):
    %b = arith.andi %x, %one32 : i32
    %c = arith.cmpi eq, %b, %zero32 : i32
    soac.yield %c : i1
  }
  %tfs = soac.map(%cs) : (tensor<?xi1>) -> tensor<?xi64> {
  ^bb0(%f: i1):
    %v = arith.select %f, %one, %zero : i64
    soac.yield %v : i64
  }
  %isT = soac.scan(%tfs) neutral(%zero : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    soac.yield %s : i64
  }
  %last = arith.subi %n, %c1 : index
  %i = soac.index %isT[%last] : tensor<?xi64>
  %ffs = soac.map(%cs) : (tensor<?xi1>) -> tensor<?xi64> {
  ^bb0(%f: i1):
    %v = arith.select %f, %zero, %one : i64
    soac.yield %v : i64
  }
  %sF = soac.scan(%ffs) neutral(%zero : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    soac.yield %s : i64
  }
  %isF = soac.map(%sF) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %i : i64
    soac.yield %y : i64
  }
  %inds = soac.map(%cs, %isT, %isF) : (tensor<?xi1>, tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%c: i1, %iT: i64, %iF: i64):
    %t = arith.subi %iT, %one : i64
    %f = arith.subi %iF, %one : i64
    %v = arith.select %c, %t, %f : i64
    soac.yield %v : i64
  }
  %tmp = soac.replicate %n, %zero32 : i32 -> tensor<?xi32>
  %r = soac.scatter %tmp[%inds] = %arr : tensor<?xi32>, tensor<?xi64>, tensor<?xi32>
  func.return %i, %r : i64, tensor<?xi32>
}
