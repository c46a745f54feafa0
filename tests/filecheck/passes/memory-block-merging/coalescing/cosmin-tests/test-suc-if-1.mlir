// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s --check-prefix=ALL
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/cosmin-tests/test-suc-if-1.fut to the soac dialect:
// yss = map (map (+1)) ass; bs = if q > 0 then map (+2) as else map (+3) as; yss[ind] =
// bs.
// Memory block merging: coalescing (hoist-allocations, short-circuit), and memory-reuse too in the ALL lines.
// Futhark: structure gpu-mem { Alloc 1 } seq-mem { Alloc 1 }. Here: 3 device blocks and 0
// device-to-device copies left with coalescing, 2 device blocks and 0 device-to-device
// copies with memory-reuse too (ALL), counting the device copies of the arguments
// (Futhark's parameters are not allocations).
// Status: ported and better. Futhark's gpu-mem count plus one block per array parameter: 1
// + 2; here 2 (ALL). Each branch's map writes yss[ind], and memory-reuse gives yss the
// block of ass (the index-access exception).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ass_mem = mem.alloc
// CHECK-NEXT: %as_mem = mem.alloc
// CHECK-NEXT: %yss_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
// ALL-LABEL: @main(
// ALL-NEXT: %ass_mem = mem.alloc
// ALL-NEXT: %as_mem = mem.alloc
// ALL-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%ind: index, %q: f32, %ass: tensor<?x?xf32>, %as: tensor<?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %yss = soac.map(%ass) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%r: tensor<?xf32>):
    %s = soac.map(%r) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %one : f32
      soac.yield %y : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  %pos = arith.cmpf ogt, %q, %zero : f32
  %bs = scf.if %pos -> (tensor<?xf32>) {
    %b1s = soac.map(%as) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %y = arith.addf %x, %two : f32
      soac.yield %y : f32
    }
    scf.yield %b1s : tensor<?xf32>
  } else {
    %b2s = soac.map(%as) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %y = arith.addf %x, %three : f32
      soac.yield %y : f32
    }
    scf.yield %b2s : tensor<?xf32>
  }
  %yss2 = soac.update %yss[%ind] = %bs : tensor<?x?xf32>, tensor<?xf32>
  func.return %yss2 : tensor<?x?xf32>
}
