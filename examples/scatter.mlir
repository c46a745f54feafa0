// scatter: inverse of a (partial) permutation, and data moved by it.
//
//   entry main [n] (perm: [n]i64) (data: [n]f32): ([n]i64, [n]f32) =
//     let inv   = scatter (replicate n (-1)) perm (iota n)
//     let moved = scatter (replicate n 0) perm (map (\x -> 2*x + 1) data)
//     in (inv, moved)
//
// inv[perm[i]] = i and moved[perm[i]] = 2*data[i] + 1 for every i whose
// perm[i] is in [0, n); entries of perm that are out of bounds (n or -1 here)
// are ignored, as in Futhark's scatter, so their targets keep the initial value.
func.func @main(%perm: tensor<?xi64>, %data: tensor<?xf32>) -> (tensor<?xi64>, tensor<?xf32>) {
  %n = soac.size %perm[0] : tensor<?xi64>
  %minus1 = arith.constant -1 : i64
  %fzero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %fone = arith.constant 1.0 : f32

  // inv = scatter (replicate n (-1)) perm (iota n)
  %unset = soac.replicate %n, %minus1 : i64 -> tensor<?xi64>
  %pos = soac.iota %n : tensor<?xi64>
  %inv = soac.scatter %unset[%perm] = %pos : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>

  // moved = scatter (replicate n 0) perm (map (\x -> 2*x + 1) data)
  %vals = soac.map(%data) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %d = arith.mulf %x, %two : f32
    %v = arith.addf %d, %fone : f32
    soac.yield %v : f32
  }
  %zeros = soac.replicate %n, %fzero : f32 -> tensor<?xf32>
  %moved = soac.scatter %zeros[%perm] = %vals : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>

  func.return %inv, %moved : tensor<?xi64>, tensor<?xf32>
}
