// nn: the k nearest neighbours of a target among n records (futhark-benchmarks
// rodinia/nn, from Rodinia): the thesis's NN pattern, where a reduction's result is
// used on the device by the next operation.
//
//   entry main [n] (lat: [n]f32) (lng: [n]f32) (tlat: f32) (tlng: f32) (k: i64)
//                  : ([k]f32, [k]i64) =
//     let dist = map2 (\la lo -> f32.sqrt ((la - tlat)**2 + (lo - tlng)**2)) lat lng
//     let (ds, is, _) =
//       loop (ds, is, dist) = (replicate k inf, replicate k 0, dist) for j < k do
//         let (d, i) = reduce_comm argmin (inf, n) (zip dist (iota n))
//         in (ds with [j] = d, is with [j] = i, dist with [i] = inf)
//     in (ds, is)
//
// The distances are one top-level map; each of the k steps is one top-level argmin
// reduce over (distance, index) pairs, whose index then addresses an in-place update
// of the distances (the record found is never found again). Ties go to the smaller
// index, so the operator is associative and commutative and (inf, n) is its neutral
// element. k must be at most n (the harness passes min(10, n)).
func.func @main(%lat: tensor<?xf32>, %lng: tensor<?xf32>, %tlat: f32, %tlng: f32, %k: index)
    -> (tensor<?xf32>, tensor<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %inf = arith.constant 0x7F800000 : f32
  %n = soac.size %lat[0] : tensor<?xf32>

  // Euclidean distance of every record to the target.
  %dist = soac.map(%lat, %lng) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%la: f32, %lo: f32):
    %dy = arith.subf %la, %tlat : f32
    %dx = arith.subf %lo, %tlng : f32
    %dy2 = arith.mulf %dy, %dy : f32
    %dx2 = arith.mulf %dx, %dx : f32
    %s = arith.addf %dy2, %dx2 : f32
    %d = math.sqrt %s : f32
    soac.yield %d : f32
  }
  %ids = soac.iota %n : tensor<?xindex>

  %ds0 = soac.replicate %k, %inf : f32 -> tensor<?xf32>
  %is0 = soac.replicate %k, %c0 : index -> tensor<?xindex>
  %ds, %is, %rest = scf.for %j = %c0 to %k step %c1 iter_args(%bd = %ds0, %bi = %is0, %d = %dist)
      -> (tensor<?xf32>, tensor<?xindex>, tensor<?xf32>) {
    // argmin over (distance, index): the nearest record not yet taken.
    %best:2 = soac.reduce(%d, %ids) neutral(%inf, %n : f32, index) commutative
        : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
    ^bb1(%d1: f32, %i1: index, %d2: f32, %i2: index):
      %lt = arith.cmpf olt, %d1, %d2 : f32
      %eq = arith.cmpf oeq, %d1, %d2 : f32
      %ilt = arith.cmpi ult, %i1, %i2 : index
      %tie = arith.andi %eq, %ilt : i1
      %first = arith.ori %lt, %tie : i1
      %v = arith.select %first, %d1, %d2 : f32
      %i = arith.select %first, %i1, %i2 : index
      soac.yield %v, %i : f32, index
    }
    // Record it, and take it out of the next steps' running.
    %bd2 = soac.update %bd[%j] = %best#0 : tensor<?xf32>, f32
    %bi2 = soac.update %bi[%j] = %best#1 : tensor<?xindex>, index
    %d2 = soac.update %d[%best#1] = %inf : tensor<?xf32>, f32
    scf.yield %bd2, %bi2, %d2 : tensor<?xf32>, tensor<?xindex>, tensor<?xf32>
  }
  func.return %ds, %is : tensor<?xf32>, tensor<?xindex>
}
