// RUN: soacc-opt %s --verify-diagnostics --split-input-file | filecheck %s

// The verifier errors of soacc_gpu's vector ops: views of rank 1 with 32- or 64-bit
// elements only, and as many values as 16 bytes hold; stride's dimension within the
// view's rank.

func.func @vectorizable_rank_2(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  %ok = soacc_gpu.vectorizable %m : memref<?x?xf32, strided<[?, ?], offset: ?>>
  func.return
}

// CHECK: soacc_gpu.vectorizable takes a rank-1 view of 32- or 64-bit elements, not memref<?x?xf32, strided<[?, ?], offset: ?>>

// -----

func.func @vector_load_of_i1(%m: memref<?xi1, strided<[?], offset: ?>>, %i: index) {
  %a, %b = soacc_gpu.vector_load %m[%i] : memref<?xi1, strided<[?], offset: ?>> -> i1, i1
  func.return
}

// CHECK: soacc_gpu.vector_load takes a rank-1 view of 32- or 64-bit elements, not memref<?xi1, strided<[?], offset: ?>>

// -----

func.func @vector_load_width(%m: memref<?xf64, strided<[?], offset: ?>>, %i: index) {
  %a, %b, %c, %d = soacc_gpu.vector_load %m[%i] : memref<?xf64, strided<[?], offset: ?>> -> f64, f64, f64, f64
  func.return
}

// CHECK: soacc_gpu.vector_load of f64 gives 2 values of that type

// -----

func.func @vector_store_width(%m: memref<?xf32, strided<[?], offset: ?>>, %i: index, %x: f32) {
  soacc_gpu.vector_store (%x, %x), %m[%i] : (f32, f32), memref<?xf32, strided<[?], offset: ?>>
  func.return
}

// CHECK: soacc_gpu.vector_store of f32 takes 4 values of that type

// -----

func.func @stride_past_the_rank(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  %s = soacc_gpu.stride %m[2] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  func.return
}

// CHECK: soacc_gpu.stride of dimension 2 of a rank-2 view
