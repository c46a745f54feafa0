// filter: stream compaction of the elements selected by a threshold test, the
// classic scan-then-scatter implementation of Futhark's filter.
//
//   entry main [n] (x: [n]f32) (t: f32) (above: bool) =
//     let keep   = map (\v -> if above then v > t else v <= t) x
//     let offs   = scan (+) 0 (map i32.bool keep)           -- inclusive
//     let count  = if n == 0 then 0 else offs[n-1]           -- host read
//     let pos    = map2 (\k o -> if k then i64.i32 (o-1) else -1) keep offs
//     let vals   = scatter (replicate count 0) pos x
//     let idxs   = scatter (replicate count 0) pos (iota n)
//     let all    = reduce (&&) true keep
//     in (vals, idxs, keep, i64.i32 count, all)
//
// The size of the result is a value read from device memory (offs[n-1]) in a
// host-level scf.if; unselected elements get the out-of-bounds position -1, which
// scatter ignores.
func.func @main(%x: tensor<?xf32>, %t: f32, %above: i1)
    -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi1>, i64, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %izero = arith.constant 0 : i32
  %ione = arith.constant 1 : i32
  %lzero = arith.constant 0 : i64
  %minus1 = arith.constant -1 : i64
  %fzero = arith.constant 0.0 : f32
  %true = arith.constant true
  %n = soac.size %x[0] : tensor<?xf32>

  // keep[i] = x[i] > t when `above`, else x[i] <= t
  %keep = soac.map(%x) : (tensor<?xf32>) -> tensor<?xi1> {
  ^bb0(%v: f32):
    %gt = arith.cmpf ogt, %v, %t : f32
    %le = arith.cmpf ole, %v, %t : f32
    %k = arith.select %above, %gt, %le : i1
    soac.yield %k : i1
  }

  // offs = inclusive scan (+) of the flags: offs[i] - 1 is the output position of a kept x[i]
  %flags = soac.map(%keep) : (tensor<?xi1>) -> tensor<?xi32> {
  ^bb0(%k: i1):
    %f = arith.extui %k : i1 to i32
    soac.yield %f : i32
  }
  %offs = soac.scan(%flags) neutral(%izero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }

  // count = the last offset (0 for an empty input): a host-level read in a branch
  %empty = arith.cmpi eq, %n, %c0 : index
  %count = scf.if %empty -> (i32) {
    scf.yield %izero : i32
  } else {
    %last = arith.subi %n, %c1 : index
    %o = soac.index %offs[%last] : tensor<?xi32>
    scf.yield %o : i32
  }
  %count_idx = arith.index_cast %count : i32 to index
  %count64 = arith.extsi %count : i32 to i64

  // output positions; -1 (out of bounds, ignored by scatter) for dropped elements
  %pos = soac.map(%keep, %offs) : (tensor<?xi1>, tensor<?xi32>) -> tensor<?xi64> {
  ^bb0(%k: i1, %o: i32):
    %o1 = arith.subi %o, %ione : i32
    %o64 = arith.extsi %o1 : i32 to i64
    %p = arith.select %k, %o64, %minus1 : i64
    soac.yield %p : i64
  }
  %vdest = soac.replicate %count_idx, %fzero : f32 -> tensor<?xf32>
  %vals = soac.scatter %vdest[%pos] = %x : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  %ids = soac.iota %n : tensor<?xi64>
  %idest = soac.replicate %count_idx, %lzero : i64 -> tensor<?xi64>
  %idxs = soac.scatter %idest[%pos] = %ids : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>

  // whether every element was kept: a reduce over booleans
  %all = soac.reduce(%keep) neutral(%true : i1) commutative : (tensor<?xi1>) -> i1 {
  ^bb0(%l: i1, %r: i1):
    %a = arith.andi %l, %r : i1
    soac.yield %a : i1
  }

  func.return %vals, %idxs, %keep, %count64, %all : tensor<?xf32>, tensor<?xi64>, tensor<?xi1>, i64, i1
}
