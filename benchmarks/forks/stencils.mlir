// stencils: four independent stencils, each a loop of `steps` smoothing steps over its
// own array (the study's salt-marsh program is mainly stencils). No loop reads another's
// array, so with forks the four chains of stencil kernels may run side by side:
//   a: 1-D three-point [1 2 1]/4, neighbours by slices and concatenation;
//   b: 1-D five-point [1 4 6 4 1]/16, neighbours by index arithmetic in a map;
//   c: 2-D five-point (centre 1/2, each neighbour 1/8), index arithmetic in nested maps;
//   d: 2-D 3x3 [1 2 1]/4 x [1 2 1]/4 in two passes, rows then columns, by slices and
//      concatenation (of rows for the first pass, of elements within a row for the second).
// Every boundary is clamped (the edge element is its own missing neighbour). The 1-D
// arrays need 2 elements at least, the 2-D ones 2 x 2.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?x?xf32>, %d: tensor<?x?xf32>, %steps: index)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %eighth = arith.constant 0.125 : f32
  %w1 = arith.constant 0.0625 : f32
  %w4 = arith.constant 0.25 : f32
  %w6 = arith.constant 0.375 : f32

  // a: x'[i] = (x[i-1] + 2 x[i] + x[i+1]) / 4, x[i-1] and x[i+1] as shifted copies.
  %n = soac.size %a[0] : tensor<?xf32>
  %nm1 = arith.subi %n, %c1 : index
  %ra = scf.for %t = %c0 to %steps step %c1 iter_args(%x = %a) -> (tensor<?xf32>) {
    %first = soac.slice %x[%c0:%c1] : tensor<?xf32> -> tensor<?xf32>
    %init = soac.slice %x[%c0:%nm1] : tensor<?xf32> -> tensor<?xf32>
    %tail = soac.slice %x[%c1:%nm1] : tensor<?xf32> -> tensor<?xf32>
    %last = soac.slice %x[%nm1:%c1] : tensor<?xf32> -> tensor<?xf32>
    %left = soac.concat %first, %init : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %right = soac.concat %tail, %last : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %y = soac.map(%left, %x, %right) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%l: f32, %m: f32, %r: f32):
      %lr = arith.addf %l, %r : f32
      %s1 = arith.mulf %lr, %quarter : f32
      %s2 = arith.mulf %m, %half : f32
      %s = arith.addf %s1, %s2 : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }

  // b: x'[i] = (x[i-2] + 4 x[i-1] + 6 x[i] + 4 x[i+1] + x[i+2]) / 16, indices clamped.
  %nb = soac.size %b[0] : tensor<?xf32>
  %nblast = arith.subi %nb, %c1 : index
  %ib = soac.iota %nb : tensor<?xindex>
  %rb = scf.for %t = %c0 to %steps step %c1 iter_args(%x = %b) -> (tensor<?xf32>) {
    %y = soac.map(%ib) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb0(%i: index):
      %lo1 = arith.maxsi %i, %c1 : index
      %im1 = arith.subi %lo1, %c1 : index
      %lo2 = arith.maxsi %i, %c2 : index
      %im2 = arith.subi %lo2, %c2 : index
      %ip1r = arith.addi %i, %c1 : index
      %ip1 = arith.minsi %ip1r, %nblast : index
      %ip2r = arith.addi %i, %c2 : index
      %ip2 = arith.minsi %ip2r, %nblast : index
      %xm2 = soac.index %x[%im2] : tensor<?xf32>
      %xm1 = soac.index %x[%im1] : tensor<?xf32>
      %x0 = soac.index %x[%i] : tensor<?xf32>
      %xp1 = soac.index %x[%ip1] : tensor<?xf32>
      %xp2 = soac.index %x[%ip2] : tensor<?xf32>
      %o = arith.addf %xm2, %xp2 : f32
      %o1 = arith.mulf %o, %w1 : f32
      %p = arith.addf %xm1, %xp1 : f32
      %p4 = arith.mulf %p, %w4 : f32
      %c6 = arith.mulf %x0, %w6 : f32
      %s1 = arith.addf %o1, %p4 : f32
      %s = arith.addf %s1, %c6 : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }

  // c: x'[i][j] = x[i][j] / 2 + (x[i-1][j] + x[i+1][j] + x[i][j-1] + x[i][j+1]) / 8.
  %rows = soac.size %c[0] : tensor<?x?xf32>
  %cols = soac.size %c[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %ir = soac.iota %rows : tensor<?xindex>
  %ic = soac.iota %cols : tensor<?xindex>
  %rc = scf.for %t = %c0 to %steps step %c1 iter_args(%x = %c) -> (tensor<?x?xf32>) {
    %y = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb0(%i: index):
      %ilo = arith.maxsi %i, %c1 : index
      %iN = arith.subi %ilo, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %iS = arith.minsi %ip1, %rlast : index
      %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%j: index):
        %jlo = arith.maxsi %j, %c1 : index
        %jW = arith.subi %jlo, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %jE = arith.minsi %jp1, %clast : index
        %vC = soac.index %x[%i, %j] : tensor<?x?xf32>
        %vN = soac.index %x[%iN, %j] : tensor<?x?xf32>
        %vS = soac.index %x[%iS, %j] : tensor<?x?xf32>
        %vW = soac.index %x[%i, %jW] : tensor<?x?xf32>
        %vE = soac.index %x[%i, %jE] : tensor<?x?xf32>
        %ns = arith.addf %vN, %vS : f32
        %we = arith.addf %vW, %vE : f32
        %nb4 = arith.addf %ns, %we : f32
        %s1 = arith.mulf %nb4, %eighth : f32
        %s2 = arith.mulf %vC, %half : f32
        %s = arith.addf %s1, %s2 : f32
        soac.yield %s : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    scf.yield %y : tensor<?x?xf32>
  }

  // d: the columns pass with the rows above and below as shifted copies of the array,
  // then the rows pass with each row's left and right neighbours as shifted copies.
  %m = soac.size %d[0] : tensor<?x?xf32>
  %mm1 = arith.subi %m, %c1 : index
  %k = soac.size %d[1] : tensor<?x?xf32>
  %km1 = arith.subi %k, %c1 : index
  %rd = scf.for %t = %c0 to %steps step %c1 iter_args(%x = %d) -> (tensor<?x?xf32>) {
    %top = soac.slice %x[%c0:%c1] : tensor<?x?xf32> -> tensor<?x?xf32>
    %above = soac.slice %x[%c0:%mm1] : tensor<?x?xf32> -> tensor<?x?xf32>
    %below = soac.slice %x[%c1:%mm1] : tensor<?x?xf32> -> tensor<?x?xf32>
    %bottom = soac.slice %x[%mm1:%c1] : tensor<?x?xf32> -> tensor<?x?xf32>
    %up = soac.concat %top, %above : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %down = soac.concat %below, %bottom : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %v = soac.map(%up, %x, %down) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%ru: tensor<?xf32>, %rm: tensor<?xf32>, %rdn: tensor<?xf32>):
      %vr = soac.map(%ru, %rm, %rdn) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32, %q: f32, %r: f32):
        %pr = arith.addf %p, %r : f32
        %s1 = arith.mulf %pr, %quarter : f32
        %s2 = arith.mulf %q, %half : f32
        %s = arith.addf %s1, %s2 : f32
        soac.yield %s : f32
      }
      soac.yield %vr : tensor<?xf32>
    }
    %y = soac.map(%v) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %first = soac.slice %row[%c0:%c1] : tensor<?xf32> -> tensor<?xf32>
      %init = soac.slice %row[%c0:%km1] : tensor<?xf32> -> tensor<?xf32>
      %tail = soac.slice %row[%c1:%km1] : tensor<?xf32> -> tensor<?xf32>
      %last = soac.slice %row[%km1:%c1] : tensor<?xf32> -> tensor<?xf32>
      %left = soac.concat %first, %init : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %right = soac.concat %tail, %last : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %hr = soac.map(%left, %row, %right) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%l: f32, %q: f32, %r: f32):
        %lr = arith.addf %l, %r : f32
        %s1 = arith.mulf %lr, %quarter : f32
        %s2 = arith.mulf %q, %half : f32
        %s = arith.addf %s1, %s2 : f32
        soac.yield %s : f32
      }
      soac.yield %hr : tensor<?xf32>
    }
    scf.yield %y : tensor<?x?xf32>
  }
  func.return %ra, %rb, %rc, %rd : tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
