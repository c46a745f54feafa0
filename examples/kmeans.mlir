// kmeans: Lloyd's k-means clustering, a fixed number of iterations.
//
//   def assign points cents =                   -- index of the nearest centroid
//     map (\p -> let ds = map (\c -> reduce (+) 0 (map2 (\x y -> (x-y)*(x-y)) p c)) cents
//                in (reduce argmin (inf, i32.highest) (zip ds (iota k))).1) points
//
//   entry main [n][k][d] (points: [n][d]f32) (init: [k][d]f32) (iters: i64) =
//     let cents = loop cents = init for _ < iters do
//       let a      = assign points cents
//       let sums   = hist (map2 (+)) (replicate d 0) (replicate k (replicate d 0)) a points
//       let counts = hist (+) 0 (replicate k 0) a (replicate n 1)
//       in map3 (\s c old -> if c == 0 then old else map (/ f32.i32 c) s) sums counts cents
//     in (cents, assign points cents)
//
// Nested parallelism (a map over points of a map over centroids of a reduce),
// a two-array (tuple) reduce for the argmin, a hist whose operator works on whole
// rows (vector addition, itself a soac.map), and a map whose lambda holds an
// scf.if yielding a row. An empty cluster keeps its old centroid. Ties between
// equal distances go to the lower centroid index.

// The index (i32) of the nearest centroid of every point.
func.func private @assign(%points: tensor<?x?xf32>, %cents: tensor<?x?xf32>) -> tensor<?xi32> {
  %k = soac.size %cents[0] : tensor<?x?xf32>
  %ids = soac.iota %k : tensor<?xi32>
  %fzero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %highest = arith.constant 2147483647 : i32
  %asg = soac.map(%points) : (tensor<?x?xf32>) -> tensor<?xi32> {
  ^bb0(%p: tensor<?xf32>):
    // squared Euclidean distance from p to every centroid
    %dists = soac.map(%cents) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%c: tensor<?xf32>):
      %sq = soac.map(%p, %c) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32, %y: f32):
        %diff = arith.subf %x, %y : f32
        %d2 = arith.mulf %diff, %diff : f32
        soac.yield %d2 : f32
      }
      %dist = soac.reduce(%sq) neutral(%fzero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb2(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %dist : f32
    }
    // argmin over (distance, index): the smaller distance, then the smaller index
    %best:2 = soac.reduce(%dists, %ids) neutral(%inf, %highest : f32, i32) commutative
        : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
    ^bb1(%d1: f32, %i1: i32, %d2: f32, %i2: i32):
      %lt = arith.cmpf olt, %d1, %d2 : f32
      %eq = arith.cmpf oeq, %d1, %d2 : f32
      %ilt = arith.cmpi slt, %i1, %i2 : i32
      %tie = arith.andi %eq, %ilt : i1
      %first = arith.ori %lt, %tie : i1
      %d = arith.select %first, %d1, %d2 : f32
      %i = arith.select %first, %i1, %i2 : i32
      soac.yield %d, %i : f32, i32
    }
    soac.yield %best#1 : i32
  }
  func.return %asg : tensor<?xi32>
}

func.func @main(%points: tensor<?x?xf32>, %init: tensor<?x?xf32>, %iters: index)
    -> (tensor<?x?xf32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fzero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %ione = arith.constant 1 : i32
  %n = soac.size %points[0] : tensor<?x?xf32>
  %k = soac.size %init[0] : tensor<?x?xf32>
  %d = soac.size %init[1] : tensor<?x?xf32>

  %final = scf.for %it = %c0 to %iters step %c1 iter_args(%cents = %init) -> (tensor<?x?xf32>) {
    %asg = func.call @assign(%points, %cents) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?xi32>

    // Per-cluster coordinate sums: reduce-by-index of whole rows with vector (+).
    %zrow = soac.replicate %d, %fzero : f32 -> tensor<?xf32>
    %zsums = soac.replicate %k, %zrow : tensor<?xf32> -> tensor<?x?xf32>
    %sums = soac.hist %zsums[%asg], %points neutral(%zrow : tensor<?xf32>)
        : tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32> {
    ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
      %ab = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        soac.yield %s : f32
      }
      soac.yield %ab : tensor<?xf32>
    }

    // Per-cluster point counts.
    %zcounts = soac.replicate %k, %izero : i32 -> tensor<?xi32>
    %ones = soac.replicate %n, %ione : i32 -> tensor<?xi32>
    %counts = soac.hist %zcounts[%asg], %ones neutral(%izero : i32)
        : tensor<?xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }

    // New centroid: the mean of its points; an empty cluster keeps the old one.
    %new = soac.map(%sums, %counts, %cents)
        : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%sum: tensor<?xf32>, %cnt: i32, %old: tensor<?xf32>):
      %empty = arith.cmpi eq, %cnt, %izero : i32
      %row = scf.if %empty -> (tensor<?xf32>) {
        scf.yield %old : tensor<?xf32>
      } else {
        %cf = arith.sitofp %cnt : i32 to f32
        %mean = soac.map(%sum) : (tensor<?xf32>) -> tensor<?xf32> {
        ^bb1(%x: f32):
          %q = arith.divf %x, %cf : f32
          soac.yield %q : f32
        }
        scf.yield %mean : tensor<?xf32>
      }
      soac.yield %row : tensor<?xf32>
    }
    scf.yield %new : tensor<?x?xf32>
  }

  %asg = func.call @assign(%points, %final) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?xi32>
  func.return %final, %asg : tensor<?x?xf32>, tensor<?xi32>
}
