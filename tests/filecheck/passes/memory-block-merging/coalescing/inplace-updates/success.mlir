// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/inplace-updates/success.fut to the soac dialect:
// The entry point success: b = replicate 4 0; b[1:3] = xs[6:8]; xs with [:4] = b. xs[6:8]
// is apart from xs[:4], so b can be made there.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 0 } seq-mem { Alloc 0 }. Here: 1 device block and 1
// device-to-device copy left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 0 + 1; here 1 (ALL). B is made in xs[:4], and xs[6:8] is copied into it there (the
// update's own copy).
// CHECK-LABEL: @main(
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: mem.copy %part, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %r_mem = mem.alloc
// ALL-NEXT: mem.copy %part, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i64
  %b = soac.replicate %c4, %zero : i64 -> tensor<4xi64>
  %part = soac.slice %xs[%c6:%c2] : tensor<?xi64> -> tensor<?xi64>
  %b1 = soac.update %b[%c1:%c2] = %part : tensor<4xi64>, tensor<?xi64>
  %r = soac.update %xs[%c0:%c4] = %b1 : tensor<?xi64>, tensor<4xi64>
  func.return %r : tensor<?xi64>
}
