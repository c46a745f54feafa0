// A 3-D 7-point stencil, f32: each point's new value is 0.4 of itself plus 0.1 of the
// sum of its six neighbours (indices clamped at the faces), as a map of a map of a map
// over the index ranges, each point reading its neighbours by soac.index.
//
//   let c i = i64.max 0 (i64.min (n-1) i)
//   map (\i -> map (\j -> map (\k ->
//          0.4*m[i,j,k] + 0.1*(m[c(i-1),j,k] + m[c(i+1),j,k] + m[i,c(j-1),k]
//                              + m[i,c(j+1),k] + m[i,j,c(k-1)] + m[i,j,c(k+1)]))
//        (iota n2)) (iota n1)) (iota n0)
func.func @main(%m: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wc = arith.constant 0.4 : f32
  %wn = arith.constant 0.1 : f32
  %n0 = soac.size %m[0] : tensor<?x?x?xf32>
  %n1 = soac.size %m[1] : tensor<?x?x?xf32>
  %n2 = soac.size %m[2] : tensor<?x?x?xf32>
  %l0 = arith.subi %n0, %c1 : index
  %l1 = arith.subi %n1, %c1 : index
  %l2 = arith.subi %n2, %c1 : index
  %is = soac.iota %n0 : tensor<?xindex>
  %js = soac.iota %n1 : tensor<?xindex>
  %ks = soac.iota %n2 : tensor<?xindex>
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?x?x?xf32> {
  ^bb0(%i: index):
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %iN = arith.maxsi %im1, %c0 : index
    %iS = arith.minsi %ip1, %l0 : index
    %plane = soac.map(%js) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb1(%j: index):
      %jm1 = arith.subi %j, %c1 : index
      %jp1 = arith.addi %j, %c1 : index
      %jW = arith.maxsi %jm1, %c0 : index
      %jE = arith.minsi %jp1, %l1 : index
      %row = soac.map(%ks) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb2(%k: index):
        %km1 = arith.subi %k, %c1 : index
        %kp1 = arith.addi %k, %c1 : index
        %kD = arith.maxsi %km1, %c0 : index
        %kU = arith.minsi %kp1, %l2 : index
        %x = soac.index %m[%i, %j, %k] : tensor<?x?x?xf32>
        %a = soac.index %m[%iN, %j, %k] : tensor<?x?x?xf32>
        %b = soac.index %m[%iS, %j, %k] : tensor<?x?x?xf32>
        %c = soac.index %m[%i, %jW, %k] : tensor<?x?x?xf32>
        %d = soac.index %m[%i, %jE, %k] : tensor<?x?x?xf32>
        %e = soac.index %m[%i, %j, %kD] : tensor<?x?x?xf32>
        %f = soac.index %m[%i, %j, %kU] : tensor<?x?x?xf32>
        %s1 = arith.addf %a, %b : f32
        %s2 = arith.addf %s1, %c : f32
        %s3 = arith.addf %s2, %d : f32
        %s4 = arith.addf %s3, %e : f32
        %s5 = arith.addf %s4, %f : f32
        %cx = arith.mulf %wc, %x : f32
        %cs = arith.mulf %wn, %s5 : f32
        %y = arith.addf %cx, %cs : f32
        soac.yield %y : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    soac.yield %plane : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?x?xf32>
}
