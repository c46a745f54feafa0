// A 2-D 5-point stencil, f32: each point's new value is 0.6 of itself plus 0.1 of the
// sum of its four neighbours (indices clamped at the edges), as a map of a map over
// the index ranges, each point reading its neighbours by soac.index.
//
//   let c i = i64.max 0 (i64.min (n-1) i)
//   map (\i -> map (\j -> 0.6*m[i,j] + 0.1*(m[c(i-1),j] + m[c(i+1),j] + m[i,c(j-1)] + m[i,c(j+1)]))
//        (iota cols)) (iota rows)
func.func @main(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wc = arith.constant 0.6 : f32
  %wn = arith.constant 0.1 : f32
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %cols = soac.size %m[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %is = soac.iota %rows : tensor<?xindex>
  %js = soac.iota %cols : tensor<?xindex>
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %iN = arith.maxsi %im1, %c0 : index
    %iS = arith.minsi %ip1, %rlast : index
    %row = soac.map(%js) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%j: index):
      %jm1 = arith.subi %j, %c1 : index
      %jp1 = arith.addi %j, %c1 : index
      %jW = arith.maxsi %jm1, %c0 : index
      %jE = arith.minsi %jp1, %clast : index
      %x = soac.index %m[%i, %j] : tensor<?x?xf32>
      %a = soac.index %m[%iN, %j] : tensor<?x?xf32>
      %b = soac.index %m[%iS, %j] : tensor<?x?xf32>
      %c = soac.index %m[%i, %jW] : tensor<?x?xf32>
      %d = soac.index %m[%i, %jE] : tensor<?x?xf32>
      %s1 = arith.addf %a, %b : f32
      %s2 = arith.addf %s1, %c : f32
      %s3 = arith.addf %s2, %d : f32
      %cx = arith.mulf %wc, %x : f32
      %cs = arith.mulf %wn, %s3 : f32
      %y = arith.addf %cx, %cs : f32
      soac.yield %y : f32
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
