// RUN: soacc-opt %s -p convert-mem-to-gpu --split-input-file --verify-diagnostics | filecheck %s

// A hist whose values are rows (a destination of rank > 1) combined other than element
// by element (here: the later row wins whole) would have to combine a whole row as one
// atomic update, and a hist of i1 values a byte, which no CUDA atomic or
// compare-and-swap does: both need a lock per bin, which the pass does not build yet,
// and it says so at the hist. (Rows combined element by element are a hist of
// elements: convert-mem-to-gpu-hist.mlir.)

func.func @last_row_wins(%sums: memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %zeros: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.hist %sums[%bins], %rows neutral(%zeros : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) : memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
    mem.yield %r : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// CHECK: convert-mem-to-gpu: mem.hist combines rows (its destination has rank > 1) by an operator that does not combine them element by element (or of values narrower than 32 bits): no atomic covers a whole row, so this needs a lock per bin, which is not supported yet
// CHECK:      "mem.hist"
// CHECK-NEXT: ^^^^^^^^^^
// CHECK-NEXT: | convert-mem-to-gpu: mem.hist combines rows (its destination has rank > 1)

// -----

func.func @seen(%seen: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %flags: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  %false = arith.constant false
  mem.hist %seen[%bins], %flags neutral(%false : i1) : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: i1, %r: i1):
    %s = arith.ori %l, %r : i1
    mem.yield %s : i1
  }
  func.return
}

// CHECK: convert-mem-to-gpu: mem.hist combines i1 values: CUDA's atomics and compare-and-swap take 32- and 64-bit words, so this needs a lock per bin, which is not supported yet
// CHECK:      "mem.hist"
// CHECK-NEXT: ^^^^^^^^^^
// CHECK-NEXT: | convert-mem-to-gpu: mem.hist combines i1 values
