// permute: a fused scatter with much work per element (the split scatter of
// soac-to-husk, past the thesis): element i of a hash chain is written to position
// (7919 i) mod n of the result, a permutation where n is not a multiple of 7919. Each
// device computes its rows' pairs; device 0 scatters its own rows in one fused
// kernel and then the pairs the others send back.
//
//   entry main (n: i64) (rounds: i64): [n]i64 =
//     let h i = iterate rounds (\h -> h * 6364136223846793005 + 1442695040888963407) i
//     in scatter (replicate n 0) (map (\i -> (7919 * i) % n) (iota n)) (map (\i -> let x = h i in x ^ (x >>> 33)) (iota n))
func.func @main(%n: index, %rounds: index) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %prime = arith.constant 7919 : index
  %mul = arith.constant 6364136223846793005 : i64
  %add = arith.constant 1442695040888963407 : i64
  %shift = arith.constant 33 : i64
  %dest = soac.replicate %n, %zero : i64 -> tensor<?xi64>
  %ids = soac.iota %n : tensor<?xindex>
  %out = soac.scatteromap %dest(%ids) : tensor<?xi64>, (tensor<?xindex>) -> tensor<?xi64> map {
  ^bb0(%i: index):
    %p = arith.muli %i, %prime : index
    %at = arith.remui %p, %n : index
    %i64 = arith.index_cast %i : index to i64
    %h = scf.for %r = %c0 to %rounds step %c1 iter_args(%x = %i64) -> (i64) {
      %m = arith.muli %x, %mul : i64
      %s = arith.addi %m, %add : i64
      scf.yield %s : i64
    }
    %high = arith.shrui %h, %shift : i64
    %v = arith.xori %h, %high : i64
    soac.yield %at, %v : index, i64
  }
  func.return %out : tensor<?xi64>
}
