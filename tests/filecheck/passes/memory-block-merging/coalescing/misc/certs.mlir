// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/misc/certs.fut to the soac dialect:
// The entry point test: a random-number generator's state {x: [4]u32, k: i32} (two values
// here; u32 is i32, whose arithmetic wraps alike) stepped by base_rand, which copies x and
// updates it at the dynamic index k (Futhark's bounds certificate), in loops (eng_rand,
// dist_rand, functions called at host level and in a map's lambda, as in Futhark); the map
// over tabulate n's states gives xs; the result is i32.sum xs / n (floor division,
// Futhark's /). Futhark's reproducer was of a short-circuiting bug, a kernel made to
// depend on its own certificate; soac has no certificates (its checks are implicit in the
// ops).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: no structure and no expected output: the program must compile. Here: 7 device
// blocks and 0 device-to-device copies left with coalescing, 5 device blocks and 0
// device-to-device copies with memory-reuse too (ALL), counting the device copies of the
// arguments (Futhark's parameters are not allocations).
// Status: ported and matching: it compiles through these passes and runs, giving the
// results of an independent model (seed 1, n 5: 2; seed 12345, n 100: 12298), with and
// without the passes. Each call of base_rand copies x into a per-call block (the CHECK
// lines pin @main's blocks only).
// CHECK-LABEL: @main(
// CHECK-NEXT: %js_mem = mem.alloc
// CHECK-NEXT: %x0_mem = mem.alloc
// CHECK-NEXT: %is_mem = mem.alloc
// CHECK-NEXT: %rngs_x_mem = mem.alloc
// CHECK-NEXT: %rngs_k_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %sum_dev_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %js_mem = mem.alloc
// ALL-NEXT: %x0_mem = mem.alloc
// ALL-NEXT: %is_mem = mem.alloc
// ALL-NEXT: %rngs_x_mem = mem.alloc
// ALL-NEXT: %rngs_k_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func private @base_rand(%x: tensor<4xi32>, %k: i32) -> (tensor<4xi32>, i32, i32) {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %four = arith.constant 4 : i32
  %k2 = arith.addi %k, %two : i32
  %k2m = arith.remsi %k2, %four : i32
  %k2i = arith.index_cast %k2m : i32 to index
  %ki = arith.index_cast %k : i32 to index
  %a = soac.index %x[%k2i] : tensor<4xi32>
  %b = soac.index %x[%ki] : tensor<4xi32>
  %xi = arith.subi %a, %b : i32
  %c = soac.copy %x : tensor<4xi32>
  %x2 = soac.update %c[%ki] = %xi : tensor<4xi32>, i32
  %k1 = arith.addi %k, %one : i32
  %k1m = arith.remsi %k1, %four : i32
  func.return %x2, %k1m, %xi : tensor<4xi32>, i32, i32
}
func.func private @eng_rand(%x: tensor<4xi32>, %k: i32) -> (tensor<4xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rx, %rk = scf.for %j = %c0 to %c2 step %c1 iter_args(%ax = %x, %ak = %k) -> (tensor<4xi32>, i32) {
    %nx, %nk, %nxi = func.call @base_rand(%ax, %ak) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
    scf.yield %nx, %nk : tensor<4xi32>, i32
  }
  %ox, %ok, %oxi = func.call @base_rand(%rx, %rk) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
  func.return %ox, %ok, %oxi : tensor<4xi32>, i32, i32
}
func.func private @dist_rand(%x: tensor<4xi32>, %k: i32) -> (tensor<4xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ix, %ik, %ixi = func.call @eng_rand(%x, %k) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
  %rx, %rk, %rxi = scf.for %i = %c0 to %c1 step %c1 iter_args(%ax = %ix, %ak = %ik, %axi = %ixi) -> (tensor<4xi32>, i32, i32) {
    %nx, %nk, %nxi = func.call @eng_rand(%ax, %ak) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
    scf.yield %nx, %nk, %nxi : tensor<4xi32>, i32, i32
  }
  func.return %rx, %rk, %rxi : tensor<4xi32>, i32, i32
}
func.func @main(%seed: i32, %n: index) -> i32 {
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %js = soac.iota %c4 : tensor<4xi64>
  %x0 = soac.map(%js) : (tensor<4xi64>) -> tensor<4xi32> {
  ^bb0(%j: i64):
    %jt = arith.trunci %j : i64 to i32
    %v = arith.addi %seed, %jt : i32
    soac.yield %v : i32
  }
  %r0x, %r0k, %r0xi = func.call @dist_rand(%x0, %zero) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
  %is = soac.iota %n : tensor<?xi64>
  %rngs_x, %rngs_k = soac.map(%is) : (tensor<?xi64>) -> (tensor<?x4xi32>, tensor<?xi32>) {
  ^bb0(%i: i64):
    %it = arith.trunci %i : i64 to i32
    %row = soac.map(%r0x) : (tensor<4xi32>) -> tensor<4xi32> {
    ^bb1(%e: i32):
      %s = arith.addi %e, %it : i32
      soac.yield %s : i32
    }
    soac.yield %row, %r0k : tensor<4xi32>, i32
  }
  %xs = soac.map(%rngs_x, %rngs_k) : (tensor<?x4xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: tensor<4xi32>, %k: i32):
    %dx, %dk, %dxi = func.call @dist_rand(%x, %k) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32, i32)
    soac.yield %dxi : i32
  }
  %sum = soac.reduce(%xs) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  %nt = arith.index_cast %n : index to i32
  %res = arith.floordivsi %sum, %nt : i32
  func.return %res : i32
}
