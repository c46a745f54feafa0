// histogram: a 256-bin histogram of f32 data, and the last position that fell
// into each bin.
//
//   entry main [n] (x: [n]f32): ([256]i32, [256]i32) =
//     let bins   = map (\v -> i32.f32 (v * 256)) x       -- truncates toward zero
//     let counts = hist (+) 0 (replicate 256 0) bins (replicate n 1)
//     let last   = hist i32.max i32.lowest (replicate 256 (-1)) bins (iota n)
//     in (counts, last)
//
// Bins outside [0, 256) (data < -1/256 or >= 1) are ignored by hist, as in
// Futhark's reduce_by_index.
func.func @main(%x: tensor<?xf32>) -> (tensor<256xi32>, tensor<256xi32>) {
  %n = soac.size %x[0] : tensor<?xf32>
  %c256 = arith.constant 256 : index
  %scale = arith.constant 256.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %minus1 = arith.constant -1 : i32
  %lowest = arith.constant -2147483648 : i32

  // bins = map (\v -> i32.f32 (v * 256)) x
  %bins = soac.map(%x) : (tensor<?xf32>) -> tensor<?xi32> {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %scale : f32
    %b = arith.fptosi %s : f32 to i32
    soac.yield %b : i32
  }

  // counts: reduce-by-index with (+) of ones into 256 zeroed bins
  %empty = soac.replicate %c256, %zero : i32 -> tensor<256xi32>
  %ones = soac.replicate %n, %one : i32 -> tensor<?xi32>
  %counts = soac.hist %empty[%bins], %ones neutral(%zero : i32)
      : tensor<256xi32>, tensor<?xi32>, tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }

  // last: reduce-by-index with max of the element positions; -1 marks an empty bin
  %none = soac.replicate %c256, %minus1 : i32 -> tensor<256xi32>
  %pos = soac.iota %n : tensor<?xi32>
  %last = soac.hist %none[%bins], %pos neutral(%lowest : i32)
      : tensor<256xi32>, tensor<?xi32>, tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %m = arith.maxsi %l, %r : i32
    soac.yield %m : i32
  }

  func.return %counts, %last : tensor<256xi32>, tensor<256xi32>
}
