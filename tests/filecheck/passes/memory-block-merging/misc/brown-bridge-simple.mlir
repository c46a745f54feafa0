// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/misc/brown-bridge-simple.fut to the soac dialect:
// map brownian_bridge gausses: per row, bbrow = replicate num_dates 0.0,
// bbrow[num_dates-1] = 0.5 * gauss[0], then two loops of in-place updates, one reading
// bbrow[i+1] and one bbrow[i-1] (Futhark's #[unsafe] has no meaning here and is left out).
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: no structure; the test's input gives its output. Here: 3 device blocks and 0
// device-to-device copies left with coalescing, 2 device blocks and 0 device-to-device
// copies with memory-reuse too (ALL), counting the device copies of the arguments
// (Futhark's parameters are not allocations).
// Status: ported and matching: soacc gives Futhark's output with the passes on. Here the
// result takes the argument's block and each lane's bbrow is a per-lane block, copied into
// the output row when the lane ends (a yielded loop is not coalesced).
// CHECK-LABEL: @main(
// CHECK-NEXT: %gausses_mem = mem.alloc
// CHECK-NEXT: %r_mem = mem.alloc
// CHECK-NEXT: %bbrow0_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %gausses_mem = mem.alloc
// ALL-NEXT: %bbrow0_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%gausses: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %onehalf = arith.constant 1.5 : f64
  %num_dates = soac.size %gausses[1] : tensor<?x?xf64>
  %last = arith.subi %num_dates, %c1 : index
  %r = soac.map(%gausses) : (tensor<?x?xf64>) -> tensor<?x?xf64> {
  ^bb0(%gauss: tensor<?xf64>):
    %bbrow0 = soac.replicate %num_dates, %zero : f64 -> tensor<?xf64>
    %g0 = soac.index %gauss[%c0] : tensor<?xf64>
    %v0 = arith.mulf %half, %g0 : f64
    %bbrow1 = soac.update %bbrow0[%last] = %v0 : tensor<?xf64>, f64
    %bbrow2 = scf.for %i = %c0 to %last step %c1 iter_args(%b = %bbrow1) -> (tensor<?xf64>) {
      %i1 = arith.addi %i, %c1 : index
      %next = soac.index %b[%i1] : tensor<?xf64>
      %g = soac.index %gauss[%i1] : tensor<?xf64>
      %p = arith.mulf %next, %onehalf : f64
      %v = arith.addf %p, %g : f64
      %b2 = soac.update %b[%i] = %v : tensor<?xf64>, f64
      scf.yield %b2 : tensor<?xf64>
    }
    %bbrow3 = scf.for %ii = %c0 to %last step %c1 iter_args(%b = %bbrow2) -> (tensor<?xf64>) {
      %ii1 = arith.addi %ii, %c1 : index
      %i = arith.subi %num_dates, %ii1 : index
      %im1 = arith.subi %i, %c1 : index
      %here = soac.index %b[%i] : tensor<?xf64>
      %prev = soac.index %b[%im1] : tensor<?xf64>
      %v = arith.subf %here, %prev : f64
      %b2 = soac.update %b[%i] = %v : tensor<?xf64>, f64
      scf.yield %b2 : tensor<?xf64>
    }
    soac.yield %bbrow3 : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}
