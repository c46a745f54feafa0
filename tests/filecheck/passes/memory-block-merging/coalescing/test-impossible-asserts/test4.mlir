// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/test-impossible-asserts/test4.fut to the soac dialect:
// ys = replicate n y; xs = replicate n x; zss[i] = xs; zss[j] = ys: ys, made first, cannot
// be made in zss[j] (the update of zss[i] between could be the same row).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 1 }. Here: 2 device blocks and 1
// device-to-device copy left (the same with memory-reuse too), counting the device copies
// of the arguments (Futhark's parameters are not allocations).
// Status: ported and matching. Futhark's gpu-mem count plus one block per array parameter:
// 1 + 1; here 2 (ALL). Xs is made in zss[i]; ys keeps its block and is copied into zss[j].
// CHECK-LABEL: @main(
// CHECK-NEXT: %zss_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %zss_mem = mem.alloc
// ALL-NEXT: %ys_mem = mem.alloc
// ALL-NEXT: mem.copy %ys, {{%[0-9]+}} :
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%zss: tensor<?x?xf64>, %x: f64, %y: f64, %i: index, %j: index) -> tensor<?x?xf64> {
  %n = soac.size %zss[0] : tensor<?x?xf64>
  %ys = soac.replicate %n, %y : f64 -> tensor<?xf64>
  %xs = soac.replicate %n, %x : f64 -> tensor<?xf64>
  %zss1 = soac.update %zss[%i] = %xs : tensor<?x?xf64>, tensor<?xf64>
  %zss2 = soac.update %zss1[%j] = %ys : tensor<?x?xf64>, tensor<?xf64>
  func.return %zss2 : tensor<?x?xf64>
}
