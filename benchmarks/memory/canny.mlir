// canny: the data-parallel stages of Canny edge detection (futhark-benchmarks
// accelerate/canny/canny.fut, ported from Accelerate): greyscale, a Gaussian blur in x
// then in y, the gradient's magnitude and direction, non-maximum suppression, and the
// flat indices of the strong edges (a scan and a scatter, in i32 as Futhark's `int`).
// Each stage is a map over the image whose result the next stage reads at
// neighbouring pixels.
//
// The direction is quantised by comparing |dy| with |dx| tan(22.5) and |dx| tan(67.5)
// instead of taking atan2 (which soac does not have): the same four classes.
func.func @main(%low: f32, %high: f32, %img: tensor<?x?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = soac.size %img[0] : tensor<?x?xi32>
  %w = soac.size %img[1] : tensor<?x?xi32>
  %hm1 = arith.subi %h, %c1 : index
  %wm1 = arith.subi %w, %c1 : index
  %rows = soac.iota %h : tensor<?xindex>
  %cols = soac.iota %w : tensor<?xindex>
  %s24 = arith.constant 24 : i32
  %s16 = arith.constant 16 : i32
  %s8 = arith.constant 8 : i32
  %m255 = arith.constant 255 : i32
  %i128 = arith.constant 128 : i32
  %i256 = arith.constant 256 : i32
  %kr = arith.constant 0.3 : f32
  %kg = arith.constant 0.59 : f32
  %kb = arith.constant 0.11 : f32
  %f255 = arith.constant 255.0 : f32
  %w1 = arith.constant 0.0625 : f32
  %w4 = arith.constant 0.25 : f32
  %w6 = arith.constant 0.375 : f32
  %ftwo = arith.constant 2.0 : f32
  %fzero = arith.constant 0.0 : f32
  %fhalf = arith.constant 0.5 : f32
  %fone = arith.constant 1.0 : f32
  %t22 = arith.constant 0.41421356 : f32
  %t67 = arith.constant 2.41421356 : f32
  %undef = arith.constant 0 : i32
  %posd = arith.constant 64 : i32
  %vert = arith.constant 128 : i32
  %negd = arith.constant 192 : i32
  %horiz = arith.constant 255 : i32
  %ione = arith.constant 1 : i32
  %izero = arith.constant 0 : i32

  // greyscale: 255 * the luminance of the signed bytes r, g, b of each pixel
  %grey = soac.map(%img) : (tensor<?x?xi32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xi32>):
    %g = soac.map(%row) : (tensor<?xi32>) -> tensor<?xf32> {
    ^bb1(%p: i32):
      %r0 = arith.shrsi %p, %s24 : i32
      %g0 = arith.shrsi %p, %s16 : i32
      %b0 = arith.shrsi %p, %s8 : i32
      %r1 = arith.andi %r0, %m255 : i32
      %g1 = arith.andi %g0, %m255 : i32
      %b1 = arith.andi %b0, %m255 : i32
      %rneg = arith.cmpi sge, %r1, %i128 : i32
      %gneg = arith.cmpi sge, %g1, %i128 : i32
      %bneg = arith.cmpi sge, %b1, %i128 : i32
      %r2 = arith.subi %r1, %i256 : i32
      %g2 = arith.subi %g1, %i256 : i32
      %b2 = arith.subi %b1, %i256 : i32
      %r = arith.select %rneg, %r2, %r1 : i32
      %gg = arith.select %gneg, %g2, %g1 : i32
      %b = arith.select %bneg, %b2, %b1 : i32
      %rf = arith.sitofp %r : i32 to f32
      %gf = arith.sitofp %gg : i32 to f32
      %bf = arith.sitofp %b : i32 to f32
      %rr = arith.mulf %kr, %rf : f32
      %rg = arith.mulf %kg, %gf : f32
      %rb = arith.mulf %kb, %bf : f32
      %s1 = arith.addf %rr, %rg : f32
      %s2 = arith.addf %s1, %rb : f32
      %l = arith.divf %s2, %f255 : f32
      %v = arith.mulf %f255, %l : f32
      soac.yield %v : f32
    }
    soac.yield %g : tensor<?xf32>
  }

  // blur in x, then in y: weights 1 4 6 4 1 (/ 16), clamped at the borders
  %bx = soac.map(%rows) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%y: index):
    %r = soac.map(%cols) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%x: index):
      %km2a = arith.subi %x, %c2 : index
      %km2b = arith.maxsi %km2a, %c0 : index
      %km2i = arith.minsi %km2b, %wm1 : index
      %km2v = soac.index %grey[%y, %km2i] : tensor<?x?xf32>
      %km2w = arith.mulf %km2v, %w1 : f32
      %km1a = arith.subi %x, %c1 : index
      %km1b = arith.maxsi %km1a, %c0 : index
      %km1i = arith.minsi %km1b, %wm1 : index
      %km1v = soac.index %grey[%y, %km1i] : tensor<?x?xf32>
      %km1w = arith.mulf %km1v, %w4 : f32
      %km1s = arith.addf %km2w, %km1w : f32
      %kp0a = arith.addi %x, %c0 : index
      %kp0b = arith.maxsi %kp0a, %c0 : index
      %kp0i = arith.minsi %kp0b, %wm1 : index
      %kp0v = soac.index %grey[%y, %kp0i] : tensor<?x?xf32>
      %kp0w = arith.mulf %kp0v, %w6 : f32
      %kp0s = arith.addf %km1s, %kp0w : f32
      %kp1a = arith.addi %x, %c1 : index
      %kp1b = arith.maxsi %kp1a, %c0 : index
      %kp1i = arith.minsi %kp1b, %wm1 : index
      %kp1v = soac.index %grey[%y, %kp1i] : tensor<?x?xf32>
      %kp1w = arith.mulf %kp1v, %w4 : f32
      %kp1s = arith.addf %kp0s, %kp1w : f32
      %kp2a = arith.addi %x, %c2 : index
      %kp2b = arith.maxsi %kp2a, %c0 : index
      %kp2i = arith.minsi %kp2b, %wm1 : index
      %kp2v = soac.index %grey[%y, %kp2i] : tensor<?x?xf32>
      %kp2w = arith.mulf %kp2v, %w1 : f32
      %kp2s = arith.addf %kp1s, %kp2w : f32
      soac.yield %kp2s : f32
    }
    soac.yield %r : tensor<?xf32>
  }
  %by = soac.map(%rows) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%y: index):
    %r = soac.map(%cols) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%x: index):
      %km2a = arith.subi %y, %c2 : index
      %km2b = arith.maxsi %km2a, %c0 : index
      %km2i = arith.minsi %km2b, %hm1 : index
      %km2v = soac.index %bx[%km2i, %x] : tensor<?x?xf32>
      %km2w = arith.mulf %km2v, %w1 : f32
      %km1a = arith.subi %y, %c1 : index
      %km1b = arith.maxsi %km1a, %c0 : index
      %km1i = arith.minsi %km1b, %hm1 : index
      %km1v = soac.index %bx[%km1i, %x] : tensor<?x?xf32>
      %km1w = arith.mulf %km1v, %w4 : f32
      %km1s = arith.addf %km2w, %km1w : f32
      %kp0a = arith.addi %y, %c0 : index
      %kp0b = arith.maxsi %kp0a, %c0 : index
      %kp0i = arith.minsi %kp0b, %hm1 : index
      %kp0v = soac.index %bx[%kp0i, %x] : tensor<?x?xf32>
      %kp0w = arith.mulf %kp0v, %w6 : f32
      %kp0s = arith.addf %km1s, %kp0w : f32
      %kp1a = arith.addi %y, %c1 : index
      %kp1b = arith.maxsi %kp1a, %c0 : index
      %kp1i = arith.minsi %kp1b, %hm1 : index
      %kp1v = soac.index %bx[%kp1i, %x] : tensor<?x?xf32>
      %kp1w = arith.mulf %kp1v, %w4 : f32
      %kp1s = arith.addf %kp0s, %kp1w : f32
      %kp2a = arith.addi %y, %c2 : index
      %kp2b = arith.maxsi %kp2a, %c0 : index
      %kp2i = arith.minsi %kp2b, %hm1 : index
      %kp2v = soac.index %bx[%kp2i, %x] : tensor<?x?xf32>
      %kp2w = arith.mulf %kp2v, %w1 : f32
      %kp2s = arith.addf %kp1s, %kp2w : f32
      soac.yield %kp2s : f32
    }
    soac.yield %r : tensor<?xf32>
  }

  // the gradient (Sobel): magnitude, and direction quantised to four classes
  %mag, %dir = soac.map(%rows) : (tensor<?xindex>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  ^bb0(%y: index):
    %rm, %rd = soac.map(%cols) : (tensor<?xindex>) -> (tensor<?xf32>, tensor<?xi32>) {
    ^bb1(%x: index):
      %v0cxa = arith.subi %x, %c1 : index
      %v0cxb = arith.maxsi %v0cxa, %c0 : index
      %v0x = arith.minsi %v0cxb, %wm1 : index
      %v0cya = arith.subi %y, %c1 : index
      %v0cyb = arith.maxsi %v0cya, %c0 : index
      %v0y = arith.minsi %v0cyb, %hm1 : index
      %v0 = soac.index %by[%v0y, %v0x] : tensor<?x?xf32>
      %v1cxa = arith.addi %x, %c0 : index
      %v1cxb = arith.maxsi %v1cxa, %c0 : index
      %v1x = arith.minsi %v1cxb, %wm1 : index
      %v1cya = arith.subi %y, %c1 : index
      %v1cyb = arith.maxsi %v1cya, %c0 : index
      %v1y = arith.minsi %v1cyb, %hm1 : index
      %v1 = soac.index %by[%v1y, %v1x] : tensor<?x?xf32>
      %v2cxa = arith.addi %x, %c1 : index
      %v2cxb = arith.maxsi %v2cxa, %c0 : index
      %v2x = arith.minsi %v2cxb, %wm1 : index
      %v2cya = arith.subi %y, %c1 : index
      %v2cyb = arith.maxsi %v2cya, %c0 : index
      %v2y = arith.minsi %v2cyb, %hm1 : index
      %v2 = soac.index %by[%v2y, %v2x] : tensor<?x?xf32>
      %v3cxa = arith.subi %x, %c1 : index
      %v3cxb = arith.maxsi %v3cxa, %c0 : index
      %v3x = arith.minsi %v3cxb, %wm1 : index
      %v3cya = arith.addi %y, %c0 : index
      %v3cyb = arith.maxsi %v3cya, %c0 : index
      %v3y = arith.minsi %v3cyb, %hm1 : index
      %v3 = soac.index %by[%v3y, %v3x] : tensor<?x?xf32>
      %v4cxa = arith.addi %x, %c1 : index
      %v4cxb = arith.maxsi %v4cxa, %c0 : index
      %v4x = arith.minsi %v4cxb, %wm1 : index
      %v4cya = arith.addi %y, %c0 : index
      %v4cyb = arith.maxsi %v4cya, %c0 : index
      %v4y = arith.minsi %v4cyb, %hm1 : index
      %v4 = soac.index %by[%v4y, %v4x] : tensor<?x?xf32>
      %v5cxa = arith.subi %x, %c1 : index
      %v5cxb = arith.maxsi %v5cxa, %c0 : index
      %v5x = arith.minsi %v5cxb, %wm1 : index
      %v5cya = arith.addi %y, %c1 : index
      %v5cyb = arith.maxsi %v5cya, %c0 : index
      %v5y = arith.minsi %v5cyb, %hm1 : index
      %v5 = soac.index %by[%v5y, %v5x] : tensor<?x?xf32>
      %v6cxa = arith.addi %x, %c0 : index
      %v6cxb = arith.maxsi %v6cxa, %c0 : index
      %v6x = arith.minsi %v6cxb, %wm1 : index
      %v6cya = arith.addi %y, %c1 : index
      %v6cyb = arith.maxsi %v6cya, %c0 : index
      %v6y = arith.minsi %v6cyb, %hm1 : index
      %v6 = soac.index %by[%v6y, %v6x] : tensor<?x?xf32>
      %v7cxa = arith.addi %x, %c1 : index
      %v7cxb = arith.maxsi %v7cxa, %c0 : index
      %v7x = arith.minsi %v7cxb, %wm1 : index
      %v7cya = arith.addi %y, %c1 : index
      %v7cyb = arith.maxsi %v7cya, %c0 : index
      %v7y = arith.minsi %v7cyb, %hm1 : index
      %v7 = soac.index %by[%v7y, %v7x] : tensor<?x?xf32>
      %t4 = arith.mulf %ftwo, %v4 : f32
      %t3 = arith.mulf %ftwo, %v3 : f32
      %d1 = arith.addf %v2, %t4 : f32
      %d2 = arith.addf %d1, %v7 : f32
      %d3 = arith.subf %d2, %v0 : f32
      %d4 = arith.subf %d3, %t3 : f32
      %dx = arith.subf %d4, %v5 : f32
      %t1 = arith.mulf %ftwo, %v1 : f32
      %t6 = arith.mulf %ftwo, %v6 : f32
      %e1 = arith.addf %v0, %t1 : f32
      %e2 = arith.addf %e1, %v2 : f32
      %e3 = arith.subf %e2, %v5 : f32
      %e4 = arith.subf %e3, %t6 : f32
      %dy = arith.subf %e4, %v7 : f32
      %dx2 = arith.mulf %dx, %dx : f32
      %dy2 = arith.mulf %dy, %dy : f32
      %sq = arith.addf %dx2, %dy2 : f32
      %mag = math.sqrt %sq : f32
      %ax = math.absf %dx : f32
      %ay = math.absf %dy : f32
      %lx = arith.cmpf ole, %ax, %low : f32
      %ly = arith.cmpf ole, %ay, %low : f32
      %flat = arith.andi %lx, %ly : i1
      %a22 = arith.mulf %ax, %t22 : f32
      %a67 = arith.mulf %ax, %t67 : f32
      %ish = arith.cmpf ole, %ay, %a22 : f32
      %isv = arith.cmpf oge, %ay, %a67 : f32
      %dxy = arith.mulf %dx, %dy : f32
      %pos = arith.cmpf ogt, %dxy, %fzero : f32
      %diag = arith.select %pos, %posd, %negd : i32
      %nh = arith.select %isv, %vert, %diag : i32
      %dir0 = arith.select %ish, %horiz, %nh : i32
      %dir = arith.select %flat, %undef, %dir0 : i32
      soac.yield %mag, %dir : f32, i32
    }
    soac.yield %rm, %rd : tensor<?xf32>, tensor<?xi32>
  }

  // non-maximum suppression: 0, 0.5 (weak) or 1 (strong)
  %nms = soac.map(%rows) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%y: index):
    %r = soac.map(%cols) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%x: index):
      %m = soac.index %mag[%y, %x] : tensor<?x?xf32>
      %d = soac.index %dir[%y, %x] : tensor<?x?xi32>
      %gtv = arith.cmpi sgt, %d, %vert : i32
      %ltv = arith.cmpi slt, %d, %vert : i32
      %cm1 = arith.constant -1 : index
      %ox0 = arith.select %ltv, %c1, %c0 : index
      %ox = arith.select %gtv, %cm1, %ox0 : index
      %lth = arith.cmpi slt, %d, %horiz : i32
      %oy = arith.select %lth, %cm1, %c0 : index
      %fxa = arith.addi %y, %ox : index
      %fxb = arith.maxsi %fxa, %c0 : index
      %fx = arith.minsi %fxb, %hm1 : index
      %fya = arith.addi %x, %oy : index
      %fyb = arith.maxsi %fya, %c0 : index
      %fy = arith.minsi %fyb, %wm1 : index
      %rxa = arith.subi %y, %ox : index
      %rxb = arith.maxsi %rxa, %c0 : index
      %rx = arith.minsi %rxb, %hm1 : index
      %rya = arith.subi %x, %oy : index
      %ryb = arith.maxsi %rya, %c0 : index
      %ry = arith.minsi %ryb, %wm1 : index
      %fwd = soac.index %mag[%fx, %fy] : tensor<?x?xf32>
      %rev = soac.index %mag[%rx, %ry] : tensor<?x?xf32>
      %isu = arith.cmpi eq, %d, %undef : i32
      %lo = arith.cmpf olt, %m, %low : f32
      %lf = arith.cmpf olt, %m, %fwd : f32
      %lr = arith.cmpf olt, %m, %rev : f32
      %z1 = arith.ori %isu, %lo : i1
      %z2 = arith.ori %z1, %lf : i1
      %z3 = arith.ori %z2, %lr : i1
      %hi = arith.cmpf oge, %m, %high : f32
      %e = arith.select %hi, %fone, %fhalf : f32
      %v = arith.select %z3, %fzero, %e : f32
      soac.yield %v : f32
    }
    soac.yield %r : tensor<?xf32>
  }

  // the flat indices of the strong edges: a scan for their positions, a scatter
  %hw = arith.muli %h, %w : index
  %flatis = soac.iota %hw : tensor<?xi32>
  %strong = soac.map(%flatis) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%k: i32):
    %i = arith.index_cast %k : i32 to index
    %y = arith.divui %i, %w : index
    %x = arith.remui %i, %w : index
    %e = soac.index %nms[%y, %x] : tensor<?x?xf32>
    %isstrong = arith.cmpf oeq, %e, %fone : f32
    %s = arith.select %isstrong, %ione, %izero : i32
    soac.yield %s : i32
  }
  %target = soac.scan(%strong) neutral(%izero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    soac.yield %s : i32
  }
  %empty = arith.cmpi eq, %hw, %c0 : index
  %count = scf.if %empty -> (i32) {
    scf.yield %izero : i32
  } else {
    %last = arith.subi %hw, %c1 : index
    %t = soac.index %target[%last] : tensor<?xi32>
    scf.yield %t : i32
  }
  %len = arith.index_cast %count : i32 to index
  %zeros = soac.replicate %len, %izero : i32 -> tensor<?xi32>
  %pos, %val = soac.map(%flatis) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%ii: i32):
    %i = arith.index_cast %ii : i32 to index
    %s = soac.index %strong[%i] : tensor<?xi32>
    %t = soac.index %target[%i] : tensor<?xi32>
    %is = arith.cmpi eq, %s, %ione : i32
    %p1 = arith.subi %t, %ione : i32
    %minus1 = arith.constant -1 : i32
    %p = arith.select %is, %p1, %minus1 : i32
    soac.yield %p, %ii : i32, i32
  }
  %edges = soac.scatter %zeros[%pos] = %val : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
  func.return %edges : tensor<?xi32>
}
