// transpose_concat: build a matrix from a vector, symmetrise it with its transpose,
// and take it apart again with strided slices, concatenation, literals and updates.
//
//   entry main [n] (v: [n]f32) =
//     let M    = map2 (\row i -> map2 (\x j -> x * f32.i64 (i+1) + f32.i32 j) row (iota n))
//                     (replicate n v) (iota n)            -- M[i][j] = v[j]*(i+1) + j
//     let S    = map2 (map2 (+)) M (transpose M)          -- S = M + M^T, symmetric
//     let R    = S[0::2] ++ S[1::2]                       -- even rows first, then odd rows
//     let diag = map (\i -> S[i, i]) (iota n)
//     let L    = [v, diag]                                -- literal of two rows
//     let C    = copy S with [0::2] = map (map f32.neg) S[0::2]   -- even rows negated
//     let D    = S[:, 1::2]                               -- odd columns
//     in (S, R, diag, L, C, D)
//
// Exercises soac.replicate of a row, soac.iota of i64, i32 and index, nested maps,
// soac.transpose, soac.slice with strides (on rows and on columns), soac.concat,
// soac.index inside a lambda, a soac.array literal of rows, soac.copy, a strided
// soac.update and soac.size. Every part is empty-safe (n = 0 gives empty results).
func.func @main(%v: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<2x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one64 = arith.constant 1 : i64
  %n = soac.size %v[0] : tensor<?xf32>

  // M[i][j] = v[j] * (i+1) + j, from n copies of v.
  %rows = soac.replicate %n, %v : tensor<?xf32> -> tensor<?x?xf32>
  %ii = soac.iota %n : tensor<?xi64>
  %jj = soac.iota %n : tensor<?xi32>
  %m = soac.map(%rows, %ii) : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>, %i: i64):
    %i1 = arith.addi %i, %one64 : i64
    %fi = arith.sitofp %i1 : i64 to f32
    %r = soac.map(%row, %jj) : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %j: i32):
      %fj = arith.sitofp %j : i32 to f32
      %xi = arith.mulf %x, %fi : f32
      %e = arith.addf %xi, %fj : f32
      soac.yield %e : f32
    }
    soac.yield %r : tensor<?xf32>
  }

  // S = M + M^T
  %mt = soac.transpose %m [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %s = soac.map(%m, %mt) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%r1: tensor<?xf32>, %r2: tensor<?xf32>):
    %sum = soac.map(%r1, %r2) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %e = arith.addf %x, %y : f32
      soac.yield %e : f32
    }
    soac.yield %sum : tensor<?xf32>
  }

  // Even rows S[0::2] (ceil(n/2) of them) and odd rows S[1::2] (floor(n/2)); the odd
  // slice starts at min(1, n) so that it stays in bounds when n = 0.
  %np1 = arith.addi %n, %c1 : index
  %neven = arith.divui %np1, %c2 : index
  %nodd = arith.divui %n, %c2 : index
  %off1 = arith.minui %c1, %n : index
  %even = soac.slice %s[%c0:%neven:%c2] : tensor<?x?xf32> -> tensor<?x?xf32>
  %odd = soac.slice %s[%off1:%nodd:%c2] : tensor<?x?xf32> -> tensor<?x?xf32>
  %r = soac.concat %even, %odd : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>

  // The diagonal, read element by element inside a map.
  %is = soac.iota %n : tensor<?xindex>
  %diag = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %d = soac.index %s[%i, %i] : tensor<?x?xf32>
    soac.yield %d : f32
  }

  // A literal of two rows.
  %l = soac.array [%v, %diag] : tensor<2x?xf32>

  // A copy of S with its even rows negated (a strided in-place update of the copy).
  %neg = soac.map(%even) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %nr = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %nx = arith.negf %x : f32
      soac.yield %nx : f32
    }
    soac.yield %nr : tensor<?xf32>
  }
  %sc = soac.copy %s : tensor<?x?xf32>
  %c = soac.update %sc[%c0:%neven:%c2] = %neg : tensor<?x?xf32>, tensor<?x?xf32>

  // The odd columns S[:, 1::2].
  %d = soac.slice %s[%c0:%n, %off1:%nodd:%c2] : tensor<?x?xf32> -> tensor<?x?xf32>

  func.return %s, %r, %diag, %l, %c, %d
      : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<2x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
