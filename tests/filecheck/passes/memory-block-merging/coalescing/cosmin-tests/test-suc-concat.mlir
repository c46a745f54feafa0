// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/cosmin-tests/test-suc-concat.fut to the soac dialect:
// res = concat tmp1 (concat tmp2 tmp3), three maps of as (opaque left out: only fusion
// sees it).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 3 }. Here: 2 device blocks and 0
// device-to-device copies left (the same with memory-reuse too), counting the device
// copies of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). All three maps write their parts of res.
// CHECK-LABEL: @main(
// CHECK-NEXT: %as_mem = mem.alloc
// CHECK-NEXT: %res_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %as_mem = mem.alloc
// ALL-NEXT: %res_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ind: index, %as: tensor<?xi64>) -> tensor<?xi64> {
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %four = arith.constant 4 : i64
  %tmp1 = soac.map(%as) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %two : i64
    soac.yield %y : i64
  }
  %tmp2 = soac.map(%as) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %three : i64
    soac.yield %y : i64
  }
  %tmp3 = soac.map(%as) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %four : i64
    soac.yield %y : i64
  }
  %tmp = soac.concat %tmp2, %tmp3 : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  %res = soac.concat %tmp1, %tmp : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  func.return %res : tensor<?xi64>
}
